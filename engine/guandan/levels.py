"""Guandan level change, the A rule and match end (docs/rules.md 2.5 and 2.7).

A *finishing order* is the list of seats in the order they emptied their hands (2 or 3
seats: the deal ends when a side has both players out or three players are out).  Seats
0/2 are side 0, seats 1/3 side 1.

Decisions where docs/rules.md is silent (documented in the module and the report):

* A side *plays at A* in a deal when its level is A and the deal is played at A.  It wins
  the match by taking 上游 with its partner not 末游 in such a deal.  A side at A that takes
  上游 in a deal played at the other side's (lower) level stays at A; its next deal is at A.
* ``a_failures_reset``: every deal played at A that a side playing at A does not win the
  match with counts as one failure for that side (a lost deal too); the third failure puts
  the side back to 2 and clears its count.  Failures are cumulative over the match.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

ACE_LEVEL = 14
A_FAILURE_LIMIT = 3


def side_of(seat: int) -> int:
    return seat % 2


def partner_of(seat: int) -> int:
    return (seat + 2) % 4


def level_text(level: int) -> str:
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(level, str(level))


def places(order: Sequence[int]) -> list[int]:
    """Place of each seat (0 = 上游 … 3 = 末游); unranked losers of a double down get 2 and 3
    in seat order after 二游 (their order is not meaningful)."""
    full = list(order)
    rest = [s for s in range(4) if s not in full]
    full.extend(rest)
    out = [0] * 4
    for place, seat in enumerate(full):
        out[seat] = place
    return out


def full_order(order: Sequence[int]) -> list[int]:
    """The finishing order completed with the seats still holding cards."""
    full = list(order)
    last = full[-1] if full else 0
    full.extend(s for s in ((last + k) % 4 for k in range(1, 4)) if s not in full)
    return full


def deal_outcome(order: Sequence[int]) -> tuple[int, int, str]:
    """(winning side, levels gained, result name) of a finished deal (docs/rules.md 2.5).

    Result names: ``"1-2"`` (上游+二游, the other side 双下, +3), ``"1-3"`` (上游+三游, +2),
    ``"1-4"`` (上游+末游, +1).
    """
    if not order:
        raise ValueError("no finisher")
    up = order[0]
    mate = partner_of(up)
    if len(order) >= 2 and order[1] == mate:
        return side_of(up), 3, "1-2"
    if len(order) >= 3 and order[2] == mate:
        return side_of(up), 2, "1-3"
    return side_of(up), 1, "1-4"


@dataclass(frozen=True)
class LevelChange:
    """What a finished deal does to the levels."""

    winner_side: int
    gain: int
    result: str
    levels_before: tuple[int, int]
    levels_after: tuple[int, int]
    a_failures: tuple[int, int]
    match_winner: int | None  # the side that won the match by the A rule, else None
    reset_sides: tuple[int, ...]  # sides sent back to 2 by a_failures_reset


def level_change(
    levels: Sequence[int],
    deal_level: int,
    order: Sequence[int],
    a_failures: Sequence[int] = (0, 0),
    a_failures_reset: bool = False,
) -> LevelChange:
    """Apply docs/rules.md 2.5 to ``levels`` (per side) after a deal played at ``deal_level``."""
    side, gain, result = deal_outcome(order)
    new = list(levels)
    fails = list(a_failures)
    match_winner: int | None = None
    reset: list[int] = []
    for s in (0, 1):
        if levels[s] == ACE_LEVEL and deal_level == ACE_LEVEL:
            if s == side and result in ("1-2", "1-3"):
                match_winner = s
            else:
                fails[s] += 1
    new[side] = min(ACE_LEVEL, new[side] + gain)
    if match_winner is None and a_failures_reset:
        for s in (0, 1):
            if fails[s] >= A_FAILURE_LIMIT:
                new[s] = 2
                fails[s] = 0
                reset.append(s)
    return LevelChange(
        side,
        gain,
        result,
        (levels[0], levels[1]),
        (new[0], new[1]),
        (fails[0], fails[1]),
        match_winner,
        tuple(reset),
    )


def time_winner(levels: Sequence[int], last_upstream_seat: int) -> int:
    """The winner when the match ends on the deal limit or the time limit (docs/rules.md 2.7):
    the higher level, on equal levels the side that took 上游 in the last deal."""
    if levels[0] != levels[1]:
        return 0 if levels[0] > levels[1] else 1
    return side_of(last_upstream_seat)
