"""Round-robin groups, standings with stated tiebreaks, and the knockout that follows.

Group plan (:func:`plan_groups`) for ``n`` entries and a knockout of ``K`` qualifiers:

* ``n <= K``: no group stage; everybody goes straight into the knockout (byes fill it);
* otherwise ``a`` = ``advance_per_group`` (default 2) qualifiers per group and ``K / a``
  groups, if every group then has at least ``a + 1`` entries; if not, ``a`` doubles
  (fewer, larger groups) until it fits (one group of all entries at worst).  An
  organiser may fix the group count instead (``K`` must divide by it).
* The draw deals entries to groups in a snake (docs/draw.md); every group plays a
  single round robin (circle method: the first entry stays, the others rotate; an odd
  group gets a rest each round).

Standings order (docs/rules.md section 3, issue 5), each step only among entries still level:

1. match points: win 2, draw 1, loss 0 (a double forfeit is a loss for both; a pair
   match never ends level because the preset's tie-break decides it, and a 3-table
   team match always has a winner unless tables were double-forfeited);
2. tables won;
3. level difference (sum over tables of own final level minus the opponent's;
   a forfeit counts FORFEIT_LEVEL_MARGIN = 12 levels);
4. head-to-head: match points in the matches among the entries still level;
5. a recorded lot: each entry's lot number from the lot seed (draw.lot_values),
   lower first.  The seed and the numbers used are part of the standings output.

Knockout seeding from the groups: with 2 qualifiers per group and an even number of
groups, group winners take seeds 1..g (A1, B1, ...) and each runner-up faces the
winner of the paired group (A1 v B2, B1 v A2, C1 v D2, D1 v C2 ...), so entries of one
group are in different halves.  Otherwise qualifiers are seeded by rank then group
(A1, B1, ..., A2, B2, ...) on the standard seeding positions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleError
from engine.tournament.draw import group_name, lot_values, seeding_order
from engine.tournament.results import PairingResult


def plan_groups(
    count: int, knockout_size: int, advance_per_group: int = 2, groups: int = 0
) -> tuple[int, int]:
    """(groups, qualifiers per group) for ``count`` entries; (0, 0) = no group stage."""
    if count <= knockout_size:
        return 0, 0
    if groups:
        if knockout_size % groups or count < groups * (knockout_size // groups + 1):
            raise RuleError(
                "bad_group_count",
                "{groups} groups do not fit {count} entries and a knockout of {size}",
                groups=groups,
                count=count,
                size=knockout_size,
            )
        return groups, knockout_size // groups
    advance = max(1, advance_per_group)
    while advance < knockout_size:
        g = knockout_size // advance
        if knockout_size % advance == 0 and count // g >= advance + 1:
            return g, advance
        advance *= 2
    return 1, knockout_size


def round_robin(entries: Sequence[str]) -> list[list[tuple[str, str]]]:
    """Rounds of a single round robin (circle method); pairs (a, b); byes (rests) left out."""
    slots: list[str | None] = list(entries)
    if len(slots) % 2:
        slots.append(None)
    n = len(slots)
    rounds: list[list[tuple[str, str]]] = []
    for r in range(n - 1):
        pairs = []
        for i in range(n // 2):
            x, y = slots[i], slots[n - 1 - i]
            if x is not None and y is not None:
                pairs.append((x, y) if (r + i) % 2 == 0 else (y, x))
        rounds.append(pairs)
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return rounds


@dataclass
class GroupMatch:
    id: str
    group: str
    round: int
    a: str
    b: str
    result: PairingResult | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "group": self.group,
            "round": self.round,
            "a": self.a,
            "b": self.b,
            "result": None if self.result is None else self.result.to_dict(),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GroupMatch:
        res = data.get("result")
        return GroupMatch(
            str(data["id"]),
            str(data["group"]),
            int(data["round"]),
            str(data["a"]),
            str(data["b"]),
            None if res is None else PairingResult.from_dict(res),
        )


@dataclass(frozen=True)
class StandingRow:
    """One line of a group table.  ``tiebreak``: the step that placed it among level entries."""

    rank: int
    entry_id: str
    played: int
    won: int
    drawn: int
    lost: int
    points: int
    tables_won: int
    tables_lost: int
    level_diff: int
    head_to_head: int | None = None
    lot: int | None = None
    tiebreak: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Standings:
    group: str
    rows: tuple[StandingRow, ...]
    lot_seed: str  # hex, recorded with the table

    def order(self) -> list[str]:
        return [r.entry_id for r in self.rows]

    def to_dict(self) -> dict[str, Any]:
        return {"group": self.group, "lot_seed": self.lot_seed, "rows": [r.to_dict() for r in self.rows]}


def add_result(s: dict[str, int], res: PairingResult, side: str) -> None:
    """Add one played match to an entry's tallies: played, points, won, drawn, lost, level difference."""
    opp = "b" if side == "a" else "a"
    s["played"] += 1
    s["points"] += res.match_points(side)
    s["won"] += res.winner == side
    s["lost"] += res.winner == opp or res.double_forfeit
    s["drawn"] += res.outcome == "draw"
    s["ld"] += res.level_diff(side)


def order_by_tiebreaks(
    entries: Sequence[str],
    key: Callable[[str], tuple[int, int, int]],
    played: Sequence[tuple[str, str, PairingResult]],
    lot_seed: bytes,
    second: str,
) -> list[tuple[str, int | None, int | None, str]]:
    """Entries best first by ``key`` (points, ``second``, level difference), then head-to-head points among
    the entries still level, then the recorded lot: (entry, head-to-head, lot, the step that placed it).
    Shared by the group tables (``second`` = tables won) and the Swiss standings (Buchholz)."""
    lots = lot_values(lot_seed, list(entries))
    ordered: list[tuple[str, int | None, int | None, str]] = []
    by_key: dict[tuple[int, int, int], list[str]] = {}
    for e in entries:
        by_key.setdefault(key(e), []).append(e)
    for k in sorted(by_key, reverse=True):
        cluster = by_key[k]
        if len(cluster) == 1:
            ordered.append((cluster[0], None, None, _separating_step(k, by_key, second)))
            continue
        members = set(cluster)
        h2h = dict.fromkeys(cluster, 0)
        for a, b, res in played:
            if a in members and b in members:
                h2h[a] += res.match_points("a")
                h2h[b] += res.match_points("b")
        for e in sorted(cluster, key=lambda x: (-h2h[x], lots[x])):
            same = [x for x in cluster if h2h[x] == h2h[e]]
            ordered.append(
                (e, h2h[e], None, "head_to_head") if len(same) == 1 else (e, h2h[e], lots[e], "lot")
            )
    return ordered


def standings(
    group: str, entries: Sequence[str], matches: Sequence[GroupMatch], lot_seed: bytes
) -> Standings:
    """The group table (see the module docstring for the tiebreak order)."""
    stats = {
        e: {"played": 0, "won": 0, "drawn": 0, "lost": 0, "points": 0, "tw": 0, "tl": 0, "ld": 0}
        for e in entries
    }
    played = [(m.a, m.b, m.result) for m in matches if m.result is not None]
    for a, b, res in played:
        for entry, side, opp in ((a, "a", "b"), (b, "b", "a")):
            add_result(stats[entry], res, side)
            stats[entry]["tw"] += res.tables_won(side)
            stats[entry]["tl"] += res.tables_won(opp)

    def key(e: str) -> tuple[int, int, int]:
        return stats[e]["points"], stats[e]["tw"], stats[e]["ld"]

    rows = []
    for i, (e, h, lot, step) in enumerate(order_by_tiebreaks(entries, key, played, lot_seed, "tables")):
        s = stats[e]
        rows.append(
            StandingRow(
                i + 1,
                e,
                s["played"],
                s["won"],
                s["drawn"],
                s["lost"],
                s["points"],
                s["tw"],
                s["tl"],
                s["ld"],
                h,
                lot,
                step,
            )
        )
    return Standings(group, tuple(rows), lot_seed.hex())


def _separating_step(
    k: tuple[int, int, int], by_key: Mapping[tuple[int, int, int], list[str]], second: str = "tables"
) -> str:
    """Which of points / ``second`` / levels set this entry apart from its nearest neighbours."""
    others = [o for o in by_key if o != k]
    if all(o[0] != k[0] for o in others):
        return "points"
    if all(o[:2] != k[:2] for o in others):
        return second
    return "level_difference"


@dataclass
class GroupStage:
    """Groups (names A, B, ...), their matches, and the qualifiers per group."""

    groups: dict[str, list[str]]
    advance: int
    matches: list[GroupMatch] = field(default_factory=list)

    @staticmethod
    def build(drawn_groups: Sequence[Sequence[str]], advance: int) -> GroupStage:
        """Groups from the draw (draw.snake_groups) and their round-robin matches."""
        stage = GroupStage({group_name(i): list(g) for i, g in enumerate(drawn_groups)}, advance)
        for name, members in stage.groups.items():
            for r, pairs in enumerate(round_robin(members), start=1):
                for m, (a, b) in enumerate(pairs, start=1):
                    stage.matches.append(GroupMatch(f"{name}-R{r}-M{m}", name, r, a, b))
        return stage

    def match(self, match_id: str) -> GroupMatch:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise RuleError("unknown_match", "There is no match {match}", match=match_id)

    def record(self, match_id: str, result: PairingResult) -> None:
        """Record (or, with a result already there, replace) a group match result."""
        self.match(match_id).result = result

    def correct(self, match_id: str, result: PairingResult, lot_seed: bytes) -> bool:
        """Replace a result; True when the qualifiers (as of now) changed because of it."""
        before = self.qualifier_order(lot_seed)
        self.record(match_id, result)
        return self.qualifier_order(lot_seed) != before

    @property
    def finished(self) -> bool:
        return all(m.result is not None for m in self.matches)

    def standings(self, group: str, lot_seed: bytes) -> Standings:
        return standings(group, self.groups[group], [m for m in self.matches if m.group == group], lot_seed)

    def all_standings(self, lot_seed: bytes) -> list[Standings]:
        return [self.standings(g, lot_seed) for g in self.groups]

    def qualifier_order(self, lot_seed: bytes) -> list[list[str]]:
        """Per group, the first ``advance`` entries of its standings."""
        return [self.standings(g, lot_seed).order()[: self.advance] for g in self.groups]

    def knockout_slots(self, lot_seed: bytes, knockout_size: int) -> list[str | None]:
        """Bracket positions for the knockout (see the module docstring), None = bye."""
        if not self.finished:
            raise RuleError("groups_not_finished", "The group stage has unfinished matches")
        quals = self.qualifier_order(lot_seed)
        g = len(quals)
        slots: list[str | None] = [None] * knockout_size
        order = seeding_order(knockout_size)
        pos_of_rank = {rank: pos for pos, rank in enumerate(order)}
        if self.advance == 2 and g % 2 == 0:
            for i, q in enumerate(quals):
                pos = pos_of_rank[i + 1]
                slots[pos] = q[0]
                partner = quals[i ^ 1]
                if len(partner) > 1:
                    slots[pos ^ 1] = partner[1]
        else:
            seeds = [q[r] for r in range(self.advance) for q in quals if r < len(q)]
            for rank, entry in enumerate(seeds, start=1):
                slots[pos_of_rank[rank]] = entry
        return slots

    def places_outside(self, lot_seed: bytes, knockout_size: int) -> dict[str, int]:
        """Places of the entries that did not qualify: K+1 onward, shared by group rank."""
        by_rank: dict[int, list[str]] = {}
        for g in self.groups:
            for row in self.standings(g, lot_seed).rows:
                if row.rank > self.advance:
                    by_rank.setdefault(row.rank, []).append(row.entry_id)
        out: dict[str, int] = {}
        place = knockout_size + 1
        for rank in sorted(by_rank):
            for e in by_rank[rank]:
                out[e] = place
            place += len(by_rank[rank])
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "groups": self.groups,
            "advance": self.advance,
            "matches": [m.to_dict() for m in self.matches],
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> GroupStage:
        return GroupStage(
            {str(k): [str(e) for e in v] for k, v in data["groups"].items()},
            int(data["advance"]),
            [GroupMatch.from_dict(m) for m in data["matches"]],
        )
