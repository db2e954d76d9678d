"""Single elimination with byes, placement matches, forfeits and referee corrections.

A bracket of size S (a power of two) has rounds 1..k (S = 2**k).  Every match has two
slots, each filled from a *source*: an entry, a bye, the winner of a match, or the
loser of a match (placement matches such as the 3rd-place match take losers).  Slots
resolve as results arrive:

* a slot is *known* (an entry), *empty* (a bye, or nobody came out of the source) or
  *pending* (its source match is not decided yet);
* a match with both slots known is *ready* (it can be scheduled: the next match is
  known as soon as both entries are); one known and one empty is a *walkover* (the
  known entry advances without playing: a bye, or the opponent of a double forfeit);
  both empty is *void*;
* a double forfeit (both absent) sends nobody on: the next-round opponent gets a
  walkover, and a placement match has an empty slot.

Places.  The losers of round r share the nominal places S/2**r + 1 .. S/2**(r-1)
(final: 1 and 2; semi-final losers 3-4; quarter-final losers 5-8 ...).  A *boundary*
p asks that places p and p+1 be separated (a 3rd-place match is boundary 3; a prize
table of 1 first, 2 second, 3 third needs boundaries 1, 3 and 6).  When a boundary
falls inside a tier, the tier's entries play placement matches in bracket order
(1st v 2nd, 3rd v 4th, ...): winners take the upper half of the tier, losers the
lower, recursively until no boundary is inside a tier.  An entry's place is the first
place of its final tier; entries in one tier share it.  Entries of a double forfeit
take the last place of their tier.  Places left vacant by double forfeits stay vacant
(a final with both finalists absent has no champion; they share place 2).

Rounds with byes: an entry with a bye is in round 2 without playing; an entry is
*eliminated in round r* when it loses (or forfeits) its round-r match of the main
bracket.

Corrections (referee): a corrected result that changes who advances (or who drops to
a placement match) is applied when no match fed by it has started or has a result;
otherwise :meth:`Bracket.correct` reports the conflicting matches and changes nothing,
unless ``force=True``, which voids those matches' results (they must be replayed) and
applies the correction.  A correction that keeps the same winner just replaces the
score details.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleError
from engine.tournament.draw import bracket_size
from engine.tournament.results import PairingResult


@dataclass(frozen=True)
class Source:
    """Where a slot's entry comes from: ``entry`` (ref = entry id), ``bye``, ``winner`` / ``loser`` of ref."""

    kind: str
    ref: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "ref": self.ref}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Source:
        return Source(str(data["kind"]), data.get("ref"))

    def text(self) -> str:
        return {
            "entry": f"{self.ref}",
            "bye": "bye",
            "winner": f"winner of {self.ref}",
            "loser": f"loser of {self.ref}",
        }.get(self.kind, self.kind)


BYE = Source("bye")

KNOWN, EMPTY, PENDING = "known", "empty", "pending"


@dataclass
class KnockoutMatch:
    """One match node.  ``winner_places`` is None when the winner plays on."""

    id: str
    round: int
    stage: str  # "main" or "placement"
    a: Source
    b: Source
    loser_places: tuple[int, int]
    winner_places: tuple[int, int] | None = None
    loser_next: bool = False
    result: PairingResult | None = None
    started: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "round": self.round,
            "stage": self.stage,
            "a": self.a.to_dict(),
            "b": self.b.to_dict(),
            "loser_places": list(self.loser_places),
            "winner_places": None if self.winner_places is None else list(self.winner_places),
            "loser_next": self.loser_next,
            "result": None if self.result is None else self.result.to_dict(),
            "started": self.started,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> KnockoutMatch:
        wp = data.get("winner_places")
        lp = data["loser_places"]
        res = data.get("result")
        return KnockoutMatch(
            str(data["id"]),
            int(data["round"]),
            str(data["stage"]),
            Source.from_dict(data["a"]),
            Source.from_dict(data["b"]),
            (int(lp[0]), int(lp[1])),
            None if wp is None else (int(wp[0]), int(wp[1])),
            bool(data.get("loser_next")),
            None if res is None else PairingResult.from_dict(res),
            bool(data.get("started")),
        )


@dataclass(frozen=True)
class Correction:
    """What :meth:`Bracket.correct` did: ``applied``; ``conflicts`` (matches already started or
    decided that the change would affect); ``voided`` (their results cleared with force);
    ``newly_ready`` matches."""

    applied: bool
    advancers_changed: bool
    conflicts: tuple[str, ...] = ()
    voided: tuple[str, ...] = ()
    newly_ready: tuple[str, ...] = ()


def main_id(rnd: int, index: int) -> str:
    """Id of main-bracket match ``index`` (1-based) of round ``rnd``: ``R2-M3``."""
    return f"R{rnd}-M{index}"


def round_name(rnd: int, rounds: int) -> str:
    """A stable key for a main round: final, semifinal, quarterfinal, round_of_16, ... (the bot translates)."""
    left = rounds - rnd
    return {0: "final", 1: "semifinal", 2: "quarterfinal"}.get(left, f"round_of_{2 ** (left + 1)}")


@dataclass
class Bracket:
    """A single-elimination bracket; see the module docstring.  Serialise with to_dict/from_dict."""

    size: int
    matches: list[KnockoutMatch] = field(default_factory=list)

    # --- construction ----------------------------------------------------------------

    @staticmethod
    def build(
        slots: Sequence[str | None], boundaries: Iterable[int] = (), third_place: bool = False
    ) -> Bracket:
        """A bracket from bracket positions (``None`` = bye; length a power of two, from the draw).

        ``boundaries``: places p that must be separated from p+1 by placement matches;
        ``third_place`` adds boundary 3 (the 3rd-place match).
        """
        size = len(slots)
        if size < 2 or bracket_size(size) != size:
            raise RuleError(
                "bad_bracket_size", "A bracket needs a power-of-two number of slots; got {count}", count=size
            )
        real = [s for s in slots if s is not None]
        if len(set(real)) != len(real):
            raise RuleError("duplicate_entry", "An entry appears twice in the bracket")
        wanted = set(boundaries) | ({3} if third_place else set())
        rounds = size.bit_length() - 1
        br = Bracket(size)
        for r in range(1, rounds + 1):
            count = size >> r
            lo, hi = count + 1, 2 * count
            for m in range(1, count + 1):
                if r == 1:
                    a = BYE if slots[2 * m - 2] is None else Source("entry", slots[2 * m - 2])
                    b = BYE if slots[2 * m - 1] is None else Source("entry", slots[2 * m - 1])
                else:
                    a, b = (
                        Source("winner", main_id(r - 1, 2 * m - 1)),
                        Source("winner", main_id(r - 1, 2 * m)),
                    )
                br.matches.append(
                    KnockoutMatch(main_id(r, m), r, "main", a, b, (lo, hi), (1, 1) if r == rounds else None)
                )
        for r in range(1, rounds + 1):
            count = size >> r
            tier = [main_id(r, m) for m in range(1, count + 1)]
            br._placements(
                [Source("loser", t) for t in tier], count + 1, 2 * count, r + 1 if r < rounds else r, wanted
            )
        return br

    def _placements(self, sources: list[Source], lo: int, hi: int, rnd: int, wanted: set[int]) -> None:
        if len(sources) < 2 or not any(lo <= p < hi for p in wanted):
            return
        for s in sources:  # the feeding matches' losers/winners play on
            node = self.match(str(s.ref))
            if s.kind == "loser":
                node.loser_next = True
            else:
                node.winner_places = None
        mid = lo + len(sources) // 2 - 1
        ids = []
        for i in range(0, len(sources), 2):
            mid_id = f"P{lo}-{hi}-M{i // 2 + 1}"
            ids.append(mid_id)
            self.matches.append(
                KnockoutMatch(mid_id, rnd, "placement", sources[i], sources[i + 1], (mid + 1, hi), (lo, mid))
            )
        self._placements([Source("winner", i) for i in ids], lo, mid, rnd + 1, wanted)
        self._placements([Source("loser", i) for i in ids], mid + 1, hi, rnd + 1, wanted)

    # --- access ----------------------------------------------------------------------

    @property
    def rounds(self) -> int:
        return self.size.bit_length() - 1

    def match(self, match_id: str) -> KnockoutMatch:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise RuleError("unknown_match", "There is no match {match}", match=match_id)

    @property
    def final_id(self) -> str:
        return main_id(self.rounds, 1)

    @property
    def third_place_id(self) -> str | None:
        """The 3rd-place match id (``P3-4-M1``) when the bracket has one."""
        return next((m.id for m in self.matches if m.id == "P3-4-M1"), None)

    def entries(self) -> list[str]:
        return [str(s.ref) for m in self.matches for s in (m.a, m.b) if s.kind == "entry"]

    # --- resolution ------------------------------------------------------------------

    def resolve(self, source: Source) -> tuple[str, str | None]:
        """(state, entry) of a slot source: (known, id), (empty, None) or (pending, None)."""
        if source.kind == "entry":
            return KNOWN, source.ref
        if source.kind == "bye":
            return EMPTY, None
        node = self.match(str(source.ref))
        outcome = self.outcome(node)
        if outcome is None:
            return PENDING, None
        winner, loser = outcome
        got = winner if source.kind == "winner" else loser
        return (KNOWN, got) if got is not None else (EMPTY, None)

    def slots(self, match_id: str) -> tuple[tuple[str, str | None], tuple[str, str | None]]:
        node = self.match(match_id)
        return self.resolve(node.a), self.resolve(node.b)

    def entries_of(self, match_id: str) -> tuple[str | None, str | None]:
        """The entries in a match's slots (None where empty or still pending)."""
        (_, a), (_, b) = self.slots(match_id)
        return a, b

    def outcome(self, node: KnockoutMatch) -> tuple[str | None, str | None] | None:
        """(winner, loser) entry ids once decided (None parts: nobody), or None while undecided."""
        (sa, a), (sb, b) = self.resolve(node.a), self.resolve(node.b)
        if node.result is not None and sa == KNOWN and sb == KNOWN:
            if node.result.winner is None:
                return None, None
            return (a, b) if node.result.winner == "a" else (b, a)
        if PENDING in (sa, sb):
            return None
        if sa == KNOWN and sb == EMPTY:
            return a, None
        if sb == KNOWN and sa == EMPTY:
            return b, None
        if sa == EMPTY and sb == EMPTY:
            return None, None
        return None  # both known, not played yet

    def status(self, match_id: str) -> str:
        """done | ready | walkover | void | waiting."""
        node = self.match(match_id)
        (sa, _), (sb, _) = self.slots(match_id)
        if sa == KNOWN and sb == KNOWN:
            return "done" if node.result is not None else "ready"
        if PENDING in (sa, sb):
            return "waiting"
        return "void" if sa == sb == EMPTY else "walkover"

    def ready_matches(self) -> list[str]:
        """Matches whose two entries are known and that have no result yet (in schedule order)."""
        return [m.id for m in self._ordered() if self.status(m.id) == "ready"]

    def _ordered(self) -> list[KnockoutMatch]:
        return sorted(self.matches, key=lambda m: (m.round, m.stage != "main", self.matches.index(m)))

    @property
    def finished(self) -> bool:
        return all(self.status(m.id) in ("done", "walkover", "void") for m in self.matches)

    def champion(self) -> str | None:
        """The winner of the final (None while undecided, or after a double forfeit in the final)."""
        out = self.outcome(self.match(self.final_id))
        return None if out is None else out[0]

    def candidates(self, source: Source) -> set[str]:
        """Every entry that can still come out of ``source``."""
        state, got = self.resolve(source)
        if state == KNOWN:
            return {str(got)}
        if state == EMPTY:
            return set()
        node = self.match(str(source.ref))
        return self.candidates(node.a) | self.candidates(node.b)

    def pairings(self, rnd: int, stage: str = "main") -> list[tuple[str, set[str], set[str]]]:
        """Who can meet whom in round ``rnd``: (match id, candidates of slot a, of slot b)."""
        return [
            (m.id, self.candidates(m.a), self.candidates(m.b))
            for m in self.matches
            if m.round == rnd and m.stage == stage
        ]

    def current_match(self, entry_id: str) -> str | None:
        """The entry's next match without a result in which it is already known to play."""
        for m in self._ordered():
            if self.status(m.id) in ("ready",) and entry_id in self.entries_of(m.id):
                return m.id
        return None

    def next_match_if_won(self, match_id: str) -> str | None:
        """The match the winner of ``match_id`` goes on to (None after the final or a last placement match)."""
        for m in self.matches:
            for s in (m.a, m.b):
                if s.kind == "winner" and s.ref == match_id:
                    return m.id
        return None

    # --- results ---------------------------------------------------------------------

    def _check_result(self, result: PairingResult) -> None:
        if result.winner is None and not result.double_forfeit:
            raise RuleError(
                "knockout_needs_winner",
                "A knockout match needs a winner (or a double forfeit); the referee decides a draw",
            )

    def mark_started(self, match_id: str) -> None:
        """Record that a ready match has begun (a later correction upstream then conflicts with it)."""
        if self.status(match_id) != "ready":
            raise RuleError("match_not_ready", "Match {match} is not ready to start", match=match_id)
        self.match(match_id).started = True

    def record(self, match_id: str, result: PairingResult) -> list[str]:
        """Record the result of a ready match; returns the matches that became ready because of it."""
        if self.status(match_id) != "ready":
            state = self.status(match_id)
            code = "result_already_recorded" if state == "done" else "match_not_ready"
            raise RuleError(
                code, "Match {match} cannot take a result now ({state})", match=match_id, state=state
            )
        self._check_result(result)
        before = set(self.ready_matches())
        node = self.match(match_id)
        node.result = result
        node.started = True
        return [m for m in self.ready_matches() if m not in before]

    def _dependents(self, match_id: str) -> list[str]:
        out: list[str] = []
        todo = [match_id]
        while todo:
            cur = todo.pop()
            for m in self.matches:
                if m.id not in out and any(
                    s.kind in ("winner", "loser") and s.ref == cur for s in (m.a, m.b)
                ):
                    out.append(m.id)
                    todo.append(m.id)
        return out

    def correct(self, match_id: str, result: PairingResult, force: bool = False) -> Correction:
        """A referee correction of a recorded result (see the module docstring for conflicts)."""
        node = self.match(match_id)
        if node.result is None:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=match_id)
        self._check_result(result)
        return self._change(node, result, force)

    def reopen(self, match_id: str, force: bool = False) -> Correction:
        """Clear a recorded result so the match is played after all (e.g. a lateness forfeit undone).

        Same conflict rule as :meth:`correct`: matches fed by it that started or have a
        result are reported, or voided with ``force``.
        """
        node = self.match(match_id)
        if node.result is None:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=match_id)
        fix = self._change(node, None, force)
        if fix.applied:
            node.started = False
        return fix

    def _change(self, node: KnockoutMatch, result: PairingResult | None, force: bool) -> Correction:
        old = self.outcome(node)
        before = set(self.ready_matches())
        previous = node.result
        node.result = result
        changed = self.outcome(node) != old
        node.result = previous
        if not changed:
            node.result = result
            return Correction(True, False)
        affected = [
            d for d in self._dependents(node.id) if self.match(d).started or self.match(d).result is not None
        ]
        if affected and not force:
            return Correction(False, True, tuple(affected))
        for d in affected:
            self.match(d).result = None
            self.match(d).started = False
        node.result = result
        return Correction(
            True, True, (), tuple(affected), tuple(m for m in self.ready_matches() if m not in before)
        )

    def view(self) -> list[dict[str, Any]]:
        """Every match for display (bracket image, /results): id, round, round name, stage, status,
        the two entries (None: empty or pending), the candidates of pending slots, the winner entry."""
        out = []
        for m in self._ordered():
            a, b = self.entries_of(m.id)
            outcome = self.outcome(m)
            out.append(
                {
                    "id": m.id,
                    "round": m.round,
                    "stage": m.stage,
                    "round_name": round_name(m.round, self.rounds)
                    if m.stage == "main"
                    else m.id.split("-M")[0],
                    "status": self.status(m.id),
                    "a": a,
                    "b": b,
                    "a_from": m.a.text(),
                    "b_from": m.b.text(),
                    "winner": None if outcome is None else outcome[0],
                    "result": None if m.result is None else m.result.to_dict(),
                    "started": m.started,
                }
            )
        return out

    # --- outcome ---------------------------------------------------------------------

    def eliminations(self) -> dict[str, tuple[int, str]]:
        """Entry -> (round, match id) of the main-bracket match it lost or double-forfeited."""
        out: dict[str, tuple[int, str]] = {}
        for m in self.matches:
            if m.stage != "main" or m.result is None:
                continue
            a, b = self.entries_of(m.id)
            if m.result.winner is None:
                for e in (a, b):
                    if e is not None:
                        out[e] = (m.round, m.id)
            else:
                loser = b if m.result.winner == "a" else a
                if loser is not None:
                    out[loser] = (m.round, m.id)
        return out

    def tiers(self) -> dict[str, tuple[int, int]]:
        """Entry -> its final tier of places (lo, hi), for entries whose run has ended."""
        out: dict[str, tuple[int, int]] = {}
        for m in self._ordered():
            outcome = self.outcome(m)
            if outcome is None:
                continue
            winner, loser = outcome
            if winner is None and loser is None:
                if m.result is not None:  # double forfeit: last place of the loser tier
                    for e in self.entries_of(m.id):
                        if e is not None:
                            out[e] = (m.loser_places[1], m.loser_places[1])
                continue
            if winner is not None and m.winner_places is not None:
                out[winner] = m.winner_places
            if loser is not None and not m.loser_next:
                out[loser] = m.loser_places
        return out

    def places(self) -> dict[str, int]:
        """Entry -> final place (first place of its tier; entries of one tier share it)."""
        return {e: t[0] for e, t in self.tiers().items()}

    # --- serialisation ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"size": self.size, "matches": [m.to_dict() for m in self.matches]}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Bracket:
        return Bracket(int(data["size"]), [KnockoutMatch.from_dict(m) for m in data["matches"]])


def prize_boundaries(prize_counts: Sequence[int]) -> set[int]:
    """Places to separate for a places prize table: the cumulative counts (1, 2, 3 -> {1, 3, 6})."""
    out: set[int] = set()
    total = 0
    for c in prize_counts:
        total += c
        if c:
            out.add(total)
    return out
