"""Dealing (docs/rules.md 1.1), the kitty (1.4) and the kitty-turn / blackout turns (1.3).

A deal's shuffle comes from ``rng_for(match_seed, "deal", deal_no, redeal_no)``: the
first 100 cards of the shuffled deck are drawn one at a time, counter-clockwise from the
player who draws first; the last 8 are the kitty, turned from the top (index 0) when a
kitty turn or a double blackout asks for it.

Duplicate boards (option ``board_turn`` 0..3): the hands belong to compass seats, not to the drawing
order: seat *s* gets the deck cards *j* < 100 with ``(j + board_turn) % 4 == s``, drawn in the order
of *j* starting where the first drawer's cards begin (``board_index``), so two tables of one board hold
the same four hands, turned, whoever deals at each.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card, full_deck, points, rank_of, suit_of
from engine.rng import rng_for
from engine.shengji.order import TrumpContext

DRAWS = 100
KITTY = 8
HAND = 25


def shuffled_deck(match_seed: int, deal_no: int, redeal_no: int) -> list[Card]:
    """The 108 cards of one deal in drawing order (the last 8 are the kitty)."""
    deck = full_deck(2)
    rng_for(match_seed, "deal", deal_no, redeal_no).shuffle(deck)
    return deck


def grab_first_drawer(match_seed: int, deal_no: int, redeal_no: int) -> int:
    """The seat that draws first when the dealer is grabbed (first deal; a 17-deals redeal)."""
    return rng_for(match_seed, "first_drawer", deal_no, redeal_no).randrange(4)


def board_index(first: int, draw_index: int, turn: int) -> int:
    """The deck index of draw number ``draw_index``: itself, or on a duplicate board (``turn`` 0..3) the
    card that keeps every hand with its compass seat (see the module docstring)."""
    if turn < 0:
        return draw_index
    return (draw_index + first - turn) % DRAWS


def drawer(first: int, draw_index: int) -> int:
    """Who takes draw number ``draw_index`` (0-based): counter-clockwise from ``first``."""
    return (first + draw_index) % 4


def kitty_turn_trump(c: Card) -> int | None:
    """定主 (2h): the first kitty card's suit is trump; a joker means no trump."""
    return None if c >= 52 else suit_of(c)


def double_blackout_turn(
    kitty: Sequence[Card], levels: tuple[int, int], prefer_side: int
) -> tuple[int, int, int] | None:
    """D4: turn kitty cards from the top until one's rank is a side's level.

    Returns ``(cards turned, side that deals, trump suit)`` or None when no card of the 8
    qualifies (redeal).  When the card matches both sides' level, ``prefer_side`` deals."""
    for i, c in enumerate(kitty):
        if c >= 52:
            continue
        r = rank_of(c)
        sides = [s for s in (prefer_side, 1 - prefer_side) if levels[s] == r]
        if sides:
            return i + 1, sides[0], suit_of(c)
    return None


def bury_keep_value(ctx: TrumpContext, hand: Sequence[Card], c: Card) -> tuple[int, int, int, int]:
    """How much a card is worth keeping (lower buries first), D6 and the computer player:
    non-trump before trump, non-point before point, short suits before long, low before high."""
    g = ctx.group_of[c]
    trump = 1 if g == 4 else 0
    pts = 1 if points(c) else 0
    suit_len = sum(1 for x in hand if ctx.group_of[x] == g)
    return (trump, pts, ctx.strength_of[c], suit_len)


def lowest_bury(ctx: TrumpContext, hand: Sequence[Card]) -> list[Card]:
    """The 8 cards a kitty clock expiry buries (D6): the lowest, preferring non-trump non-point."""
    return sorted(hand, key=lambda c: (ctx.trump_of[c], points(c) > 0, ctx.strength_of[c], c))[:KITTY]
