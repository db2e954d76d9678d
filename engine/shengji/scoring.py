"""Points, kitty capture, level changes and the next dealer: docs/rules.md 1.6 and 1.7.

``kitty_multiplier`` is the table of 1.6 per option ``kitty_multiplier`` (decision D5 past
the last row); ``level_change`` is the table of 1.7 per option ``level_table``;
``settle_deal`` applies a deal's result to the levels and names the next dealer.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.cards import ACE

# The winning play's format (from formats.play_multiplier_format): ("single", 0), ("pair", 1),
# ("tractor", n) with n the number of pairs.


def kitty_multiplier(table: str, fmt: str, pairs: int) -> int:
    """Multiplier of the kitty's points for a last trick won with ``fmt`` (docs/rules.md 1.6).

    doubling (17-deals): 2, 4, 8, 16, ×2 per further pair;
    plus_two (timed-2h): 2, 4, 6, 8, +2 per further pair;
    fifty_min: 2, 4, 6, 16, then ×2 per further pair (D5)."""
    if fmt == "single" or pairs <= 0:
        return 2
    if fmt == "pair" or pairs == 1:
        return 4
    if table == "doubling":
        return int(2 ** (pairs + 1))
    if table == "plus_two":
        return 2 + 2 * pairs
    if table == "fifty_min":
        if pairs == 2:
            return 6
        return int(16 * 2 ** (pairs - 3))
    raise ValueError(f"unknown kitty multiplier table {table!r}")


def kitty_capture(
    table: str, kitty_points: int, fmt: str, pairs: int, won_with_trump: bool, offsuit_half: bool
) -> tuple[int, int]:
    """``(points, multiplier)`` the defenders capture from the kitty (副牌抠底 halves when set)."""
    mult = kitty_multiplier(table, fmt, pairs)
    pts = kitty_points * mult
    if offsuit_half and not won_with_trump:
        pts //= 2
    return pts, mult


def takeover_threshold(table: str) -> int:
    """Defenders' points from which they take over (上台): 80, or 60 in 50min."""
    return 60 if table == "fifty_min" else 80


def level_change(table: str, points: int) -> tuple[str, int]:
    """``("dealer" | "defenders", steps)`` for defenders' total ``points`` (docs/rules.md 1.7).

    Below zero scores as 0.  ``("defenders", 0)`` is a plain takeover."""
    p = max(points, 0)
    take = takeover_threshold(table)
    if p == 0:
        return "dealer", 3
    if p < 40:
        return "dealer", 2
    if p < take:
        return "dealer", 1
    if p < 120:
        return "defenders", 0
    if p < 160:
        return "defenders", 1
    if p < 200:
        return "defenders", 2
    if table == "seventeen":
        return "defenders", 3
    return "defenders", 3 + (p - 200) // 40


def raise_level(level: int, steps: int) -> int:
    """Levels stop at A."""
    return min(ACE, level + steps)


@dataclass(frozen=True)
class Settlement:
    """What a finished deal changes."""

    points: int  # defenders' total (may be below zero)
    winner: str  # "dealer" | "defenders"
    steps: int
    levels: tuple[int, int]
    next_dealer: int
    passed_a: bool  # the dealer side held at A: it wins the match at once (D3)


def settle_deal(table: str, levels: tuple[int, int], dealer: int, points: int) -> Settlement:
    """Apply a deal's result: new levels, next dealer (held → partner, takeover → 下家), passing A."""
    who, steps = level_change(table, points)
    new = list(levels)
    dside = dealer % 2
    if who == "dealer":
        passed = levels[dside] >= ACE
        new[dside] = raise_level(levels[dside], steps)
        nxt = (dealer + 2) % 4
    else:
        passed = False
        new[1 - dside] = raise_level(levels[1 - dside], steps)
        nxt = (dealer + 1) % 4
    return Settlement(points, who, steps, (new[0], new[1]), nxt, passed)
