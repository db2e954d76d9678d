"""Swiss rounds (积分编排): pairing by score, byes, withdrawals, late entries and standings.

Every active entry plays every round.  Round 1 comes from the verifiable draw
(``draw.swiss_slots``: the drawn order's top half meets its bottom half, order[i]
v order[i + n/2], with the draw's union-group separation pass; an odd field gives the
last entry of the order the bye).  Later rounds are paired from the current standings
by a maximum-weight matching (rustworkx's ``max_weight_matching``, Edmonds' blossom
algorithm, with maximum cardinality) on the graph of allowed pairings:

* an edge joins two active entries that have not met before (**no repeat pairing**);
* with an odd number of active entries a "bye" vertex joins every entry that has not
  had a bye (**one bye at most per entry**);
* each edge's weight is a large constant minus its cost, so the matching first pairs
  everybody, then minimises the total cost, whose terms are lexicographic (each unit
  of one term outweighs every possible total of the terms after it):

  0. the bye: it goes to the lowest-ranked entry without one for which the others can
     still be paired (the bye edge of the entry k places from the bottom costs k);
  1. score difference: (points a - points b)**2, in match points (win 2, draw 1), so
     pairing inside a score group costs nothing and a one-win float costs 4;
  2. the same union group (``separate_union_groups``): a same-group pairing costs 6,
     the price of one and a half one-win floats: colleagues are kept apart when one
     entry floating a group does it, never at the price of two floats;
  3. ranks (the Dutch idea of S1 v S2): inside a score group of g entries the entry at
     standings position i prefers the one at i + g/2; across groups, the nearest
     position.  Cost: the squared distance from the preferred position.

  The weights are integers; the matching is exact, so the same standings give the
  same pairs.  If no complete pairing exists (too many rounds for the entries left),
  :func:`pair_round` raises ``swiss_cannot_pair``; the stage then stays ``stalled``
  after the round (the result that completed it is kept) until the organiser ends the
  Swiss there (:meth:`SwissStage.end_rounds`; the top-K knockout, if any, follows).
  With rounds <= entries / 2 and no withdrawals a complete pairing always exists
  (Dirac: the graph of allowed pairings stays at least n/2-regular).

Sides: ``a`` goes to the entry that has been side a fewer times (then the higher rank).

Scores: win 2, draw 1, loss 0 (a double forfeit is a loss for both), a bye scores
``bye_points`` (settings ``swiss_bye``: win 2, draw 1, loss 0).  Withdrawals (as on
lichess): a withdrawn entry is not paired again; its played matches stand; a match of
the current round it has not finished is forfeited by it (the bot refuses a withdrawal
while that match has no result: storage/tournaments/swiss.py).  Late entries join with
0 points for the rounds they missed (those rounds are not byes; unlike lichess, which
gives a late joiner one bye's points) and are paired from the next round on; the round a
late entry joins it gets no bye while another entry can take it (it came to play).  Both are
refused once the Swiss rounds are over (``swiss_over``; a late entry already once the
last round is paired, ``swiss_last_round``) and a late entry while the next round cannot
be paired (``swiss_stalled``: the organiser ends the Swiss there).

Standings order, each step only among entries still level:

1. points;
2. Buchholz: the sum of the points of the entries met (every pairing counts, forfeits
   included; a bye counts as an opponent with the entry's own points);
3. level difference (as in the groups: own final level minus the opponent's over every
   table, a forfeit 12 levels, a bye 0);
4. head-to-head: match points among the entries still level;
5. the recorded lot (draw.lot_values of the lot seed), lower first.

The next round is paired as soon as every match of the round has a result (a referee's
included); a later correction changes the standings, never the rounds already paired.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import rustworkx as rx

from engine.errors import RuleError
from engine.tournament.groups import add_result, order_by_tiebreaks
from engine.tournament.results import PairingResult, disqualification_result, forfeit_result

BYE_POINTS = {"win": 2, "draw": 1, "loss": 0}
SAME_UNION_COST = 6  # in units of score-difference cost (a one-win float costs 4)


def match_id(rnd: int, index: int) -> str:
    """Id of Swiss match ``index`` (1-based) of round ``rnd``: ``S3-M12``."""
    return f"S{rnd}-M{index}"


def pair_round(
    ranked: Sequence[str],
    points: Mapping[str, int],
    met: Mapping[str, set[str]],
    had_bye: set[str],
    union: Mapping[str, str] | None = None,
) -> tuple[list[tuple[str, str]], str | None]:
    """Pair ``ranked`` (the active entries in standings order): (pairs best-ranked first, bye or None).

    See the module docstring for the graph and its weights.  Raises ``swiss_cannot_pair``
    when no complete pairing without a repeat (and without a second bye) exists.
    """
    n = len(ranked)
    if n == 0:
        return [], None
    index = {e: i for i, e in enumerate(ranked)}
    score = np.array([points.get(e, 0) for e in ranked], dtype=np.int64)
    values, sizes = np.unique(-score, return_counts=True)
    half = np.maximum(1, sizes // 2)[np.searchsorted(values, -score)]  # per entry: half its score group
    iu, ju = np.triu_indices(n, 1)
    allowed = np.ones((n, n), dtype=bool)
    for e, i in index.items():
        for o in met.get(e, ()):
            j = index.get(o)
            if j is not None:
                allowed[i, j] = allowed[j, i] = False
    keep = allowed[iu, ju]
    iu, ju = iu[keep], ju[keep]
    d = score[iu] - score[ju]
    gap = ju - iu
    dev = np.where(d == 0, gap - half[iu], gap)
    tier_score = d * d
    if union is not None:
        codes = {u: k for k, u in enumerate(sorted({union.get(e, "") for e in ranked}))}
        if len(codes) > 1:
            uc = np.array([codes[union.get(e, "")] for e in ranked], dtype=np.int64)
            tier_score = tier_score + SAME_UNION_COST * (uc[iu] == uc[ju])
    tier_rank = dev * dev
    odd = n % 2 == 1
    bye_at = np.array([i for i in range(n) if odd and ranked[i] not in had_bye], dtype=np.int64)
    if len(iu) == 0 and len(bye_at) == 0:
        raise _cannot_pair(ranked)
    # one unit of a tier outweighs every possible matching total of the tiers after it
    pairs_max = n // 2 + 1
    score_unit = pairs_max * n * n + 1
    bye_unit = pairs_max * (int(tier_score.max()) if len(iu) else 0) * score_unit + score_unit
    big = max(n * bye_unit, (int(tier_score.max()) * score_unit if len(iu) else 0) + n * n) + 1
    if big >= 2**62:
        raise RuleError("swiss_too_big", "{count} entries and these scores are too many to pair", count=n)
    weights = big - (tier_score * score_unit + tier_rank)
    edge_list = list(zip(iu.tolist(), ju.tolist(), weights.tolist(), strict=True))
    edge_list += [(int(i), n, big - (n - 1 - int(i)) * bye_unit) for i in bye_at]
    graph = rx.PyGraph()
    graph.add_nodes_from(range(n + (1 if odd else 0)))
    graph.extend_from_weighted_edge_list(edge_list)
    matching = rx.max_weight_matching(graph, max_cardinality=True, weight_fn=int)
    needed = (n + 1) // 2
    if len(matching) < needed:
        paired = {v for pair in matching for v in pair}
        raise _cannot_pair([ranked[i] for i in range(n) if i not in paired])
    pairs: list[tuple[int, int]] = []
    bye: str | None = None
    for x, y in matching:
        i, j = min(x, y), max(x, y)
        if j == n:
            bye = ranked[i]
        else:
            pairs.append((i, j))
    pairs.sort()
    return [(ranked[i], ranked[j]) for i, j in pairs], bye


def _cannot_pair(entries: Sequence[str]) -> RuleError:
    return RuleError(
        "swiss_cannot_pair",
        "The next round cannot be paired without a repeat or a second bye (entries: {entries}); "
        "end the Swiss rounds here",
        entries=", ".join(entries),
    )


@dataclass
class SwissMatch:
    """A match of round ``round``; ``b`` None is a bye (no result needed)."""

    id: str
    round: int
    a: str
    b: str | None
    result: PairingResult | None = None

    @property
    def bye(self) -> bool:
        return self.b is None

    @property
    def done(self) -> bool:
        return self.bye or self.result is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "round": self.round,
            "a": self.a,
            "b": self.b,
            "result": None if self.result is None else self.result.to_dict(),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> SwissMatch:
        res = data.get("result")
        b = data.get("b")
        return SwissMatch(
            str(data["id"]),
            int(data["round"]),
            str(data["a"]),
            None if b is None else str(b),
            None if res is None else PairingResult.from_dict(res),
        )


@dataclass(frozen=True)
class SwissRow:
    """One line of the Swiss standings; ``tiebreak``: the step that placed it among level entries."""

    rank: int
    entry_id: str
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    points: int
    buchholz: int
    level_diff: int
    head_to_head: int | None = None
    lot: int | None = None
    tiebreak: str = ""
    withdrawn: bool = False

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class SwissStandings:
    rows: tuple[SwissRow, ...]
    lot_seed: str  # hex, recorded with the table
    after_round: int

    def order(self) -> list[str]:
        return [r.entry_id for r in self.rows]

    def row(self, entry_id: str) -> SwissRow:
        return next(r for r in self.rows if r.entry_id == entry_id)

    def to_dict(self) -> dict[str, Any]:
        return {
            "lot_seed": self.lot_seed,
            "after_round": self.after_round,
            "rows": [r.to_dict() for r in self.rows],
        }


@dataclass
class SwissStage:
    """The Swiss rounds of a tournament: entries, their union groups, matches, withdrawals."""

    rounds: int
    bye_points: int
    entries: list[str]
    union: dict[str, str]
    separate: bool = False
    matches: list[SwissMatch] = field(default_factory=list)
    withdrawn: list[str] = field(default_factory=list)
    joined: dict[str, int] = field(default_factory=dict)  # late entries: the first round they are paired in
    ended_after: int = 0  # rounds ended early by the organiser (0: not)
    stalled: bool = False  # the next round could not be paired
    _by_id: dict[str, SwissMatch] = field(default_factory=dict, repr=False, compare=False)

    @staticmethod
    def build(
        slots: Sequence[str | None], union: Mapping[str, str], rounds: int, bye_points: int, separate: bool
    ) -> SwissStage:
        """The stage with round 1 from the draw's positions (``draw.swiss_slots``)."""
        if rounds < 1:
            raise RuleError("bad_swiss_rounds", "A Swiss needs at least one round")
        entries = [s for s in slots if s is not None]
        stage = SwissStage(rounds, bye_points, entries, dict(union), separate)
        for m in range(len(slots) // 2):
            a, b = slots[2 * m], slots[2 * m + 1]
            if a is None:
                a, b = b, None
            assert a is not None
            stage.matches.append(SwissMatch(match_id(1, m + 1), 1, a, b))
        return stage

    # --- access ----------------------------------------------------------------------

    @property
    def current_round(self) -> int:
        return self.matches[-1].round if self.matches else 0  # matches are kept in round order

    @property
    def last_round(self) -> int:
        return self.ended_after or self.rounds

    def _index(self) -> dict[str, SwissMatch]:
        if len(self._by_id) != len(self.matches):
            self._by_id = {m.id: m for m in self.matches}
        return self._by_id

    def match(self, mid: str) -> SwissMatch:
        m = self._index().get(mid)
        if m is None:
            raise RuleError("unknown_match", "There is no match {match}", match=mid)
        return m

    def has(self, mid: str) -> bool:
        return mid in self._index()

    def round_matches(self, rnd: int) -> list[SwissMatch]:
        if rnd == self.current_round:
            i = len(self.matches)
            while i and self.matches[i - 1].round == rnd:
                i -= 1
            return self.matches[i:]
        return [m for m in self.matches if m.round == rnd]

    def round_complete(self, rnd: int) -> bool:
        return all(m.done for m in self.round_matches(rnd))

    @property
    def finished(self) -> bool:
        r = self.current_round
        return r >= self.last_round and self.round_complete(r)

    def ready_matches(self) -> list[str]:
        return [m.id for m in self.round_matches(self.current_round) if not m.done]

    def active(self) -> list[str]:
        gone = set(self.withdrawn)
        return [e for e in self.entries if e not in gone]

    def pending_match(self, entry_id: str) -> SwissMatch | None:
        for m in self.round_matches(self.current_round):
            if not m.done and entry_id in (m.a, m.b):
                return m
        return None

    # --- scores ----------------------------------------------------------------------

    def _points_of(self, m: SwissMatch, side: str) -> int:
        if m.bye:
            return self.bye_points if side == "a" else 0
        assert m.result is not None
        return m.result.match_points(side)

    def standings(self, lot_seed: bytes) -> SwissStandings:
        """The standings after the rounds played so far (see the module docstring)."""
        stats = {
            e: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "byes": 0, "points": 0, "ld": 0}
            for e in self.entries
        }
        opponents: dict[str, list[str]] = {e: [] for e in self.entries}
        rnd = self.current_round  # every earlier round is complete (a round is paired after the last)
        after = rnd if self.round_complete(rnd) else rnd - 1
        # a bye of the round being played counts once that round is complete, like its results
        done = [m for m in self.matches if m.done and (not m.bye or m.round <= after)]
        played: list[tuple[str, str, PairingResult]] = []
        for m in done:
            if m.bye:
                stats[m.a]["byes"] += 1
                stats[m.a]["points"] += self.bye_points
                continue
            assert m.result is not None and m.b is not None
            played.append((m.a, m.b, m.result))
            add_result(stats[m.a], m.result, "a")
            add_result(stats[m.b], m.result, "b")
            opponents[m.a].append(m.b)
            opponents[m.b].append(m.a)
        buchholz = {
            e: sum(stats[o]["points"] for o in opponents[e]) + stats[e]["byes"] * stats[e]["points"]
            for e in self.entries
        }

        def key(e: str) -> tuple[int, int, int]:
            return stats[e]["points"], buchholz[e], stats[e]["ld"]

        ordered = order_by_tiebreaks(self.entries, key, played, lot_seed, "buchholz")
        gone = set(self.withdrawn)
        rows = []
        for i, (e, h, lot, step) in enumerate(ordered):
            s = stats[e]
            rows.append(
                SwissRow(
                    i + 1,
                    e,
                    s["played"],
                    s["won"],
                    s["drawn"],
                    s["lost"],
                    s["byes"],
                    s["points"],
                    buchholz[e],
                    s["ld"],
                    h,
                    lot,
                    step,
                    e in gone,
                )
            )
        return SwissStandings(tuple(rows), lot_seed.hex(), after)

    # --- changes ---------------------------------------------------------------------

    def record(self, mid: str, result: PairingResult, lot_seed: bytes) -> list[str]:
        """Record a result of the current round; pairs the next round once the round is complete.

        Returns the ids of the matches newly paired (none until the round is complete).
        """
        m = self.match(mid)
        if m.bye or m.result is not None:
            raise RuleError(
                "result_already_recorded",
                "Match {match} already has a result ({state}); correct it",
                match=mid,
                state="done",
            )
        if m.round != self.current_round:
            raise RuleError(
                "match_not_ready",
                "Match {match} cannot take a result now ({state})",
                match=mid,
                state="round over",
            )
        m.result = result
        return self._advance(lot_seed)

    def _advance(self, lot_seed: bytes) -> list[str]:
        """Pair the next round if it is due; a round that cannot be paired leaves the stage ``stalled``
        (the organiser ends the Swiss there) instead of refusing the result that completed the round."""
        try:
            return self.pair_next(lot_seed)
        except RuleError as exc:
            if exc.code != "swiss_cannot_pair":
                raise
            self.stalled = True
            return []

    def correct(self, mid: str, result: PairingResult) -> None:
        """Replace a recorded result (rounds already paired stay as they are)."""
        m = self.match(mid)
        if m.bye:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=mid)
        if m.result is None:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=mid)
        m.result = result

    def reopen(self, mid: str) -> None:
        """Clear a result of the current round (it is played after all)."""
        m = self.match(mid)
        if m.bye or m.result is None:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=mid)
        if m.round != self.current_round:
            raise RuleError(
                "correction_conflict",
                "Later matches have begun: {matches}",
                matches=", ".join(x.id for x in self.round_matches(self.current_round)),
            )
        m.result = None

    def pair_next(self, lot_seed: bytes) -> list[str]:
        """Pair the next round when the current one is complete and rounds remain; the new match ids."""
        rnd = self.current_round
        if not self.round_complete(rnd) or rnd >= self.last_round:
            return []
        table = self.standings(lot_seed)
        gone = set(self.withdrawn)
        ranked = [e for e in table.order() if e not in gone]
        points = {r.entry_id: r.points for r in table.rows}
        met: dict[str, set[str]] = {e: set() for e in self.entries}
        had_bye: set[str] = set()
        side_a: dict[str, int] = dict.fromkeys(self.entries, 0)
        for m in self.matches:
            if m.b is None:
                had_bye.add(m.a)
            else:
                met[m.a].add(m.b)
                met[m.b].add(m.a)
                side_a[m.a] += 1
        # a late entry came to play: no bye in the round it joins while another entry can take it
        union = self.union if self.separate else None
        newcomers = {e for e in ranked if self.joined.get(e) == rnd + 1}
        try:
            if not newcomers or len(ranked) % 2 == 0:
                raise _cannot_pair([])
            pairs, bye = pair_round(ranked, points, met, had_bye | newcomers, union)
        except RuleError as exc:
            if exc.code != "swiss_cannot_pair":
                raise
            pairs, bye = pair_round(ranked, points, met, had_bye, union)
        new = []
        for i, (x, y) in enumerate(pairs, start=1):
            a, b = (y, x) if side_a[y] < side_a[x] else (x, y)
            new.append(SwissMatch(match_id(rnd + 1, i), rnd + 1, a, b))
        if bye is not None:
            new.append(SwissMatch(match_id(rnd + 1, len(pairs) + 1), rnd + 1, bye, None))
        self.matches += new
        return [m.id for m in new if not m.bye]

    def withdraw(self, entry_id: str, tables: int, lot_seed: bytes, disqualified: bool = False) -> list[str]:
        """Withdraw an entry: not paired again; its unfinished match of this round is forfeited by it.

        Returns the matches newly paired (when that forfeit completed the round).
        """
        if entry_id not in self.entries:
            raise RuleError("unknown_entry", "There is no entry {entry}", entry=entry_id)
        if entry_id in self.withdrawn:
            raise RuleError("already_withdrawn", "Entry {entry} has already withdrawn", entry=entry_id)
        if self.finished:
            raise RuleError("swiss_over", "The Swiss rounds are over")
        self.withdrawn.append(entry_id)
        m = self.pending_match(entry_id)
        if m is not None:
            side = "a" if m.a == entry_id else "b"
            m.result = (
                disqualification_result(side, tables, "conduct")
                if disqualified
                else forfeit_result(side, tables, "withdrawn")
            )
            return self._advance(lot_seed)
        return []

    def add_entry(self, entry_id: str, union_group: str) -> int:
        """A late entry: 0 points for the rounds missed, paired from the next round on; that round's number."""
        if entry_id in self.entries:
            raise RuleError("duplicate_entry", "Entry {entry} is listed twice", entry=entry_id)
        self.check_may_join()
        self.entries.append(entry_id)
        self.union[entry_id] = union_group
        first = self.current_round + 1
        self.joined[entry_id] = first
        return first

    def check_may_join(self) -> None:
        """A late entry may join now (a round still to be paired, and it can be paired), else a RuleError."""
        if self.finished or self.current_round >= self.last_round:
            raise RuleError("swiss_last_round", "The last Swiss round has been paired; no more entries")
        if self.stalled:
            raise RuleError(
                "swiss_stalled", "The next round cannot be paired; the organiser ends the Swiss (/end_swiss)"
            )

    def end_rounds(self) -> None:
        """The organiser ends the Swiss after the current round (e.g. when it cannot be paired)."""
        self.ended_after = max(1, self.current_round)
        self.stalled = False

    # --- serialisation ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "rounds": self.rounds,
            "bye_points": self.bye_points,
            "entries": list(self.entries),
            "union": dict(self.union),
            "separate": self.separate,
            "matches": [m.to_dict() for m in self.matches],
            "withdrawn": list(self.withdrawn),
            "joined": dict(self.joined),
            "ended_after": self.ended_after,
            "stalled": self.stalled,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> SwissStage:
        return SwissStage(
            int(data["rounds"]),
            int(data["bye_points"]),
            [str(e) for e in data["entries"]],
            {str(k): str(v) for k, v in data.get("union", {}).items()},
            bool(data.get("separate")),
            [SwissMatch.from_dict(m) for m in data.get("matches", ())],
            [str(e) for e in data.get("withdrawn", ())],
            {str(k): int(v) for k, v in data.get("joined", {}).items()},
            int(data.get("ended_after", 0)),
            bool(data.get("stalled", False)),
        )
