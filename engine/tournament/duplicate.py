"""Duplicate deals (``duplicate = true``): two tables play the same boards, with the hands turned, and each
board is compared across them.  A team match compares its own tables two by two; a Swiss of pairs compares
two matches of a round (both rules below).

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

A **Swiss of pairs** (``entrant = "pair"``, ``format = "swiss"``; a pairs knockout or groups refuse
``duplicate``: ``TournamentSettings.check``):

* **Comparisons.** Matches ``S<r>-M<2k-1>`` and ``S<r>-M<2k>`` of round *r* (both with two sides) form a
  comparison: their one table each plays the same boards, the odd match's table with turn 0, the even
  match's with turn 1 (``swiss_partner``, ``swiss_turn``).  An odd match left over and the bye play
  ordinary deals; so do the matches of a top-K knockout after the rounds.
* **Coupled score.** Per compared deal *d*: ``x1`` = side a's steps at the odd match's table, ``x2`` =
  side a's steps at the even match's table, where side a holds the cards side b held at the odd table.
  The pair at the odd table's side a held the same cards as the even table's side b, so its deal score is
  ``x1 - (-x2) = x1 + x2``; the even table's side a held the odd table's side b's cards: ``x2 - (-x1)``,
  the same ``x1 + x2``.  Each match's side b scores the opposite.  Example: deal 1, ``x1 = +2`` (side a
  of M1 went up 2), ``x2 = -3`` (side b of M2 went up 3 with M1 side a's cards): both side a's score
  ``-1``; deal 2, ``x1 = -1``, ``x2 = +3``: ``+2``; the total ``+1`` wins both matches for side a.
* **Decided together.** Both results are made once both tables are over (boards compared: deals finished
  at both, as for teams; ``pair_comparison_result``): a positive total wins for side a of *each* match,
  a negative one for side b; a total of 0 (or nothing compared) leaves each match its own table's result.
  A match decided otherwise (a forfeit, a referee's result, a disqualification, its table aborted) is no
  comparison: the other match keeps its own table's result.
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.tournament.results import PairingResult, TableResult, team_result


def table_turn(table_no: int) -> int:
    """The ``board_turn`` of table ``table_no`` (1-based): 0 for tables 1, 3, ...; 1 for tables 2, 4, ..."""
    return 0 if table_no % 2 else 1


def partner_table(table_no: int) -> int:
    """The other table of ``table_no``'s comparison (1 <-> 2, 3 <-> 4, ...)."""
    return table_no + 1 if table_no % 2 else table_no - 1


def swiss_index(match_key: str) -> tuple[int, int] | None:
    """(round, match number) of a Swiss round match key ``S<r>-M<i>``; None for any other key."""
    head, sep, tail = match_key.partition("-M")
    if not sep or not head.startswith("S") or not head[1:].isdigit() or not tail.isdigit():
        return None
    return int(head[1:]), int(tail)


def swiss_other(match_key: str) -> str | None:
    """The key of the match ``match_key`` would be compared with (M1 <-> M2, M3 <-> M4, ... of its round),
    whether or not that match exists; None for a key that is not a Swiss round's."""
    got = swiss_index(match_key)
    if got is None:
        return None
    rnd, i = got
    return f"S{rnd}-M{i + 1 if i % 2 else i - 1}"


def swiss_partner(match_key: str, paired: Container[str]) -> str | None:
    """The other match of ``match_key``'s comparison in a Swiss of pairs (``swiss_other``), when both are
    among ``paired`` (the round's matches with two sides); None: it plays ordinary deals."""
    other = swiss_other(match_key)
    return other if other is not None and match_key in paired and other in paired else None


def swiss_turn(match_key: str) -> int:
    """The ``board_turn`` of a Swiss match's table in its comparison: 0 for M1, M3, ...; 1 for M2, M4, ..."""
    got = swiss_index(match_key)
    return 0 if got is None or got[1] % 2 else 1


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


def pair_comparison_result(
    own: PairingResult, boards: Sequence[Board], partner: str, note: str = ""
) -> PairingResult:
    """The result of one match of a Swiss pairs comparison from its own table's result and the compared
    boards (odd match's table first; the module docstring's coupled rule: both matches get the same
    total for their side a)."""
    total = sum(b.score for b in boards)
    extra = {
        **dict(own.extra),
        "duplicate": {"total": total, "boards": [b.to_dict() for b in boards], "partner": partner},
    }
    if total == 0 or own.outcome != "played":
        return PairingResult(own.winner, own.outcome, own.tables, own.decided_by, own.note or note, extra)
    winner = "a" if total > 0 else "b"
    return PairingResult(winner, "played", own.tables, "duplicate", own.note or note, extra)
