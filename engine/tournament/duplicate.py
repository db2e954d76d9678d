"""Duplicate deals (``duplicate = true``): the tables of a team match play the same boards two by two, with
the hands turned, and the match is decided by comparing each board across its two tables.

* **Comparisons.** Tables 1 and 2 form comparison 1, tables 3 and 4 comparison 2, and so on (a team of
  an even number of pairs; ``TournamentSettings.check`` refuses an odd one).  The odd table of a
  comparison deals with turn 0, the even one with turn 1 (option ``board_turn``): seat *s* of the even table
  holds the hand seat *s* − 1 held at the odd one, so side a (seats 0 and 2) holds at table 2 the hands
  side b held at table 1 (``docs/engine.md``, "Duplicate boards").
* **Board score.** At one table, deal *d* gives side a ``+steps`` when side a won it and ``-steps`` when
  side b did (Shengji: the summary's ``steps`` of its ``winner``; Guandan: ``gain`` of ``winner_side``;
  a forfeited deal counts as the engine scored it).  The board score of *d* in a comparison is the sum
  of its two tables' scores: the same cards were held once by each side, so the luck of the deal cancels
  and what remains is how much better side a played them.
* **Boards compared.** Only deal numbers finished at both tables of the comparison (a table whose match
  ended earlier, e.g. a Guandan side passing A, leaves the other table's later deals uncompared; a
  table not played leaves its comparison empty).  A Shengji deal dealt again (no level card in the
  kitty) is compared under its number with the cards each table really played.
* **The match.** The duplicate total is the sum of every compared board score.  Positive: side a wins,
  negative: side b wins (``decided_by = "duplicate"``).  Zero (or nothing compared): the ordinary team
  rule decides (``team_result``: tables won, level difference, table 1; else a draw, which a knockout
  hands to the referee).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.tournament.results import PairingResult, TableResult, team_result


def table_turn(table_no: int) -> int:
    """The ``board_turn`` of table ``table_no`` (1-based): 0 for tables 1, 3, ...; 1 for tables 2, 4, ..."""
    return 0 if table_no % 2 else 1


def partner_table(table_no: int) -> int:
    """The other table of ``table_no``'s comparison (1 <-> 2, 3 <-> 4, ...)."""
    return table_no + 1 if table_no % 2 else table_no - 1


def deal_score(game: str, summary: Mapping[str, Any]) -> int:
    """Side a's level steps from one finished deal's summary (negative: side b's)."""
    if game == "shengji":
        steps = int(summary.get("steps") or 0)
        return steps if int(summary.get("winner", 0)) == 0 else -steps
    gain = int(summary.get("gain") or 0)
    return gain if int(summary.get("winner_side", 0)) == 0 else -gain


@dataclass(frozen=True)
class Board:
    comparison: int  # 1-based
    deal_no: int
    scores: tuple[int, int]  # side a's score at the odd table, at the even table

    @property
    def score(self) -> int:
        return self.scores[0] + self.scores[1]

    def to_dict(self) -> dict[str, Any]:
        return {"comparison": self.comparison, "deal": self.deal_no, "scores": list(self.scores)}


def compare(
    game: str, histories: Mapping[int, Sequence[Mapping[str, Any]]], tables: int
) -> tuple[Board, ...]:
    """Every compared board of a match of ``tables`` tables; ``histories``: table no -> finished deals'
    summaries (a table without a played match is missing)."""
    out: list[Board] = []
    for c in range(1, tables // 2 + 1):
        odd, even = histories.get(2 * c - 1), histories.get(2 * c)
        if odd is None or even is None:
            continue
        by_deal = {int(s["deal_no"]): s for s in even}
        for summary in odd:
            d = int(summary["deal_no"])
            if d in by_deal:
                out.append(Board(c, d, (deal_score(game, summary), deal_score(game, by_deal[d]))))
    return tuple(sorted(out, key=lambda b: (b.comparison, b.deal_no)))


def duplicate_result(tables: Sequence[TableResult], boards: Sequence[Board], note: str = "") -> PairingResult:
    """The match result from its tables and its compared boards (the module docstring's rule)."""
    base = team_result(tables, note)
    total = sum(b.score for b in boards)
    extra = {
        **dict(base.extra),
        "duplicate": {"total": total, "boards": [b.to_dict() for b in boards]},
    }
    if total == 0 or base.outcome not in ("played", "draw"):
        return PairingResult(base.winner, base.outcome, base.tables, base.decided_by, base.note, extra)
    winner = "a" if total > 0 else "b"
    return PairingResult(winner, "played", base.tables, "duplicate", note, extra)
