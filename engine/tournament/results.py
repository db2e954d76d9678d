"""Match results: one table (a pair match) or N simultaneous tables (a team match).

A match has two sides, ``"a"`` (the first slot) and ``"b"``.  A :class:`TableResult` is
one table: its winner and the final levels, or a forfeit (``absent`` = ``"a"``, ``"b"``
or ``"both"``).  A :class:`PairingResult` aggregates the tables:

* a pair match is one table; its winner comes from the game engine (whose preset
  tie-break never leaves a played match level), so only a double forfeit has no winner;
* a team match (team of N pairs, pair k v pair k at table k) is won by the side with
  more tables.  When the tables are level (only possible with an even number of
  tables, or with double-forfeited tables) the tie rule decides, in this order
  (docs/draw.md, "Team matches"): total level difference over the tables, then the
  result of table 1; still level: a draw (a round-robin group scores it 1 point each;
  a knockout refuses it and the referee records the decision, e.g. after a cut).

Forfeits count as a table won by ``FORFEIT_LEVEL_MARGIN`` levels (the absent side is
charged that margin; with both absent both are charged), so forfeiting never helps a
side's level difference.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleError

SIDES = ("a", "b")
FORFEIT_LEVEL_MARGIN = 12  # 2 to A: as if the present side went all the way and the absent one stayed at 2

OUTCOMES = ("played", "forfeit", "double_forfeit", "disqualified", "draw", "referee")


def other(side: str) -> str:
    """The other side: ``"a"`` <-> ``"b"``."""
    return "b" if side == "a" else "a"


def _check_side(side: str | None, allow_none: bool = True) -> None:
    if side is None and allow_none:
        return
    if side not in SIDES:
        raise RuleError("bad_side", "Side {side} is not allowed; allowed: a | b", side=side)


@dataclass(frozen=True)
class TableResult:
    """One table: ``winner`` a/b (None: both absent), final levels, who was ``absent``."""

    table: int = 1
    winner: str | None = None
    level_a: int | None = None
    level_b: int | None = None
    absent: str | None = None  # None | "a" | "b" | "both"

    def level_diff(self, side: str) -> int:
        """Levels of ``side`` minus the opponent's (forfeits: +/- FORFEIT_LEVEL_MARGIN)."""
        if self.absent == "both":
            return -FORFEIT_LEVEL_MARGIN
        if self.absent is not None:
            return -FORFEIT_LEVEL_MARGIN if self.absent == side else FORFEIT_LEVEL_MARGIN
        if self.level_a is None or self.level_b is None:
            return 0
        diff = self.level_a - self.level_b
        return diff if side == "a" else -diff

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "winner": self.winner,
            "level_a": self.level_a,
            "level_b": self.level_b,
            "absent": self.absent,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> TableResult:
        return TableResult(
            int(data.get("table", 1)),
            data.get("winner"),
            data.get("level_a"),
            data.get("level_b"),
            data.get("absent"),
        )


def played_table(
    winner: str, level_a: int | None = None, level_b: int | None = None, table: int = 1
) -> TableResult:
    """A table played to its end: ``winner`` and the final levels (2..14, A = 14)."""
    _check_side(winner, allow_none=False)
    return TableResult(table, winner, level_a, level_b, None)


def forfeit_table(absent: str, table: int = 1) -> TableResult:
    """A table not played: ``absent`` = "a", "b" (the other side wins) or "both" (nobody wins)."""
    if absent == "both":
        return TableResult(table, None, None, None, "both")
    _check_side(absent, allow_none=False)
    return TableResult(table, other(absent), None, None, absent)


@dataclass(frozen=True)
class PairingResult:
    """The result of a tournament match between sides a and b, over its tables (see the module docstring;
    one table's card match ends with ``engine.events.MatchResult``)."""

    winner: str | None
    outcome: str
    tables: tuple[TableResult, ...] = ()
    decided_by: str = "tables"
    note: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def loser(self) -> str | None:
        return None if self.winner is None else other(self.winner)

    @property
    def double_forfeit(self) -> bool:
        return self.outcome == "double_forfeit"

    def tables_won(self, side: str) -> int:
        return sum(1 for t in self.tables if t.winner == side)

    def level_diff(self, side: str) -> int:
        return sum(t.level_diff(side) for t in self.tables)

    def match_points(self, side: str) -> int:
        """Round-robin points: win 2, draw 1, loss (or double forfeit) 0."""
        if self.winner == side:
            return 2
        if self.winner is None and self.outcome == "draw":
            return 1
        return 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "outcome": self.outcome,
            "tables": [t.to_dict() for t in self.tables],
            "decided_by": self.decided_by,
            "note": self.note,
            "extra": dict(self.extra),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> PairingResult:
        return PairingResult(
            data.get("winner"),
            str(data["outcome"]),
            tuple(TableResult.from_dict(t) for t in data.get("tables", ())),
            str(data.get("decided_by", "tables")),
            str(data.get("note", "")),
            dict(data.get("extra", {})),
        )


def pair_result(
    winner: str, level_a: int | None = None, level_b: int | None = None, note: str = ""
) -> PairingResult:
    """A pair match played to its end (the game engine decided ``winner``)."""
    return PairingResult(winner, "played", (played_table(winner, level_a, level_b),), "tables", note)


def forfeit_result(absent: str, tables: int = 1, note: str = "") -> PairingResult:
    """A whole match forfeited: ``absent`` = "a"/"b" (walkover for the other) or "both" (double forfeit)."""
    rows = tuple(forfeit_table(absent, t) for t in range(1, tables + 1))
    if absent == "both":
        return PairingResult(None, "double_forfeit", rows, "forfeit", note)
    return PairingResult(other(absent), "forfeit", rows, "forfeit", note)


def disqualification_result(disqualified: str, tables: int = 1, note: str = "") -> PairingResult:
    """``disqualified`` side loses the match (conduct: e.g. the second violation in 17-deals)."""
    _check_side(disqualified, allow_none=False)
    rows = tuple(TableResult(t, other(disqualified), None, None, disqualified) for t in range(1, tables + 1))
    return PairingResult(other(disqualified), "disqualified", rows, "disqualification", note)


def referee_result(winner: str | None, tables: Sequence[TableResult] = (), note: str = "") -> PairingResult:
    """A result set by a referee (e.g. after a cut for a level team match); ``winner`` None = draw."""
    _check_side(winner)
    return PairingResult(winner, "referee" if winner else "draw", tuple(tables), "referee", note)


def team_result(tables: Sequence[TableResult], note: str = "") -> PairingResult:
    """Aggregate simultaneous tables of a team match (docs/rules.md section 3: the team winning more tables wins).

    Tie rule when the tables are level: total level difference, then table 1, else a draw.
    Every table absent on both sides makes a double forfeit; every table won by forfeit
    for the same side makes a forfeit.
    """
    if not tables:
        raise RuleError("no_tables", "A team match needs at least one table result")
    rows = tuple(sorted(tables, key=lambda t: t.table))
    if all(t.absent == "both" for t in rows):
        return PairingResult(None, "double_forfeit", rows, "forfeit", note)
    a, b = sum(t.winner == "a" for t in rows), sum(t.winner == "b" for t in rows)
    all_forfeit = all(t.absent is not None for t in rows)
    outcome = "forfeit" if all_forfeit else "played"
    if a != b:
        return PairingResult("a" if a > b else "b", outcome, rows, "tables", note)
    diff = sum(t.level_diff("a") - t.level_diff("b") for t in rows)
    if diff != 0:
        return PairingResult("a" if diff > 0 else "b", outcome, rows, "level_difference", note)
    first = rows[0]
    if first.winner is not None:
        return PairingResult(first.winner, outcome, rows, "table_1", note)
    return PairingResult(None, "draw", rows, "draw", note)
