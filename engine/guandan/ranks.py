"""Guandan card order at a level, the wild cards, and sequence positions (docs/rules.md 2.1, 2.2).

Two orders exist at level ``L``:

* the **group order** for singles, pairs, triples, full houses (their triple) and bombs:
  BJ > SJ > L > A > K > ... > 2 (skipping L).  ``order_value`` gives 2..14 for the natural
  ranks, 15 for the level rank, 16 for SJ and 17 for BJ;
* the **sequence order** for straights, tubes (连对), plates (钢板) and straight flushes: the level
  card sits at its natural place, and A is either low (position 1: A-2-3-4-5) or high
  (position 14: 10-J-Q-K-A), never both in one sequence; no wrap, no jokers.  A sequence is
  named by the position of its top rank (A-2-3-4-5 → 5, 10-J-Q-K-A → 14).

The two ♥ cards of the level rank are wild (逢人配): ``is_wild``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from engine.cards import ACE, BIG_JOKER, HEARTS, RANK_TEXT, SMALL_JOKER, Card, card

LEVEL_VALUE: Final = 15  # group-order value of the level rank
SJ_VALUE: Final = 16
BJ_VALUE: Final = 17
LOW_ACE_POSITION: Final = 1  # sequence position of a low ace


def order_value(rank: int, level: int) -> int:
    """Group-order value of ``rank`` (2..14, SJ 15, BJ 16) at ``level``: 2..14, level 15, SJ 16, BJ 17."""
    if rank == level:
        return LEVEL_VALUE
    if rank >= 15:
        return rank + 1
    return rank


def card_order(c: Card, level: int) -> int:
    """Group-order value of one card at ``level`` (a wild card counts as the level card it is)."""
    if c >= 52:
        return SJ_VALUE if c == SMALL_JOKER else BJ_VALUE
    r = c % 13 + 2
    return LEVEL_VALUE if r == level else r


def rank_of_value(value: int, level: int) -> int:
    """Inverse of ``order_value``: the rank (2..14, 15 SJ, 16 BJ) whose group value is ``value``."""
    if value == LEVEL_VALUE:
        return level
    if value >= SJ_VALUE:
        return value - 1
    return value


def wild_card(level: int) -> Card:
    """The wild card kind at ``level``: the ♥ of the level rank (both copies are wild)."""
    return card(HEARTS, level)


def is_wild(c: Card, level: int) -> bool:
    """True for the two ♥ cards of the level rank (docs/rules.md 2.2)."""
    return c == HEARTS * 13 + (level - 2)


def position_rank(position: int) -> int:
    """The rank at a sequence position: position 1 is the low ace, 2..14 are the ranks themselves."""
    return ACE if position == LOW_ACE_POSITION else position


def value_text(value: int, level: int) -> str:
    """Short text of a group-order value: ``"5"``, ``"A"``, ``"SJ"``, ``"BJ"``."""
    r = rank_of_value(value, level)
    if r == 15:
        return "SJ"
    if r == 16:
        return "BJ"
    return RANK_TEXT[r]


def position_text(position: int) -> str:
    """Short text of a sequence position (the low ace is ``"A"``)."""
    return RANK_TEXT[position_rank(position)]


def sort_for_display(cards: Iterable[Card], level: int) -> list[Card]:
    """High to low in group order (BJ SJ level A K ... 2), then suit ♠ ♥ ♣ ♦; wild cards with the level cards."""
    return sorted(cards, key=lambda c: (-card_order(c, level), c))


JOKERS: Final = (SMALL_JOKER, BIG_JOKER)
