"""Wild cards (逢人配, docs/rules.md 2.2): the two ♥ cards of the level rank.

A wild card may stand for any card but a joker, in any combination, or be played as itself.
The combination readers (``combos.readings``) and the enumerator (``enumerate.legal_plays``)
work on *natural* cards plus a *wild budget* (0, 1 or 2); this module holds the small shared
pieces: splitting a selection, choosing what a wild card stands for, and showing it.

Decision (the rules are silent): a group made only of wild cards (a single ♥L, or the pair
♥L ♥L) reads as itself, the level rank.  Reading it as any lower rank is allowed by the
letter of 2.2 but never useful (the level rank is the highest non-joker in group order), and
listing 13 readings for one card would only confuse players.  A full house whose pair is two
wild cards has any pair; all those readings compare the same (the triple only), so one is kept.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final, Protocol

from engine.cards import HEARTS, Card, card, card_text
from engine.guandan.ranks import is_wild, wild_card


class Played(Protocol):
    """A read combination (``engine.guandan.combos.Combo``: this module is below it, so it names only
    what it reads)."""

    @property
    def cards(self) -> tuple[Card, ...]: ...

    @property
    def as_cards(self) -> tuple[Card, ...]: ...


MAX_WILDS: Final = 2
DEFAULT_STAND_IN_SUIT: Final = HEARTS


def split_wilds(cards: Iterable[Card], level: int) -> tuple[list[Card], list[Card]]:
    """``(naturals, wilds)`` of a selection, keeping the order given."""
    naturals: list[Card] = []
    wilds: list[Card] = []
    w = wild_card(level)
    for c in cards:
        (wilds if c == w else naturals).append(c)
    return naturals, wilds


def count_wilds(cards: Iterable[Card], level: int) -> int:
    w = wild_card(level)
    return sum(1 for c in cards if c == w)


def stand_in(rank: int, suit: int = DEFAULT_STAND_IN_SUIT) -> Card:
    """The card a wild card stands for when it fills ``rank`` (in ``suit``; ♥ unless a flush needs another).

    Filling the level rank in ♥ is the wild card itself.
    """
    return card(suit, rank)


def substitutions(combo: Played, level: int) -> list[tuple[Card, Card]]:
    """``(wild card, card it stands for)`` for every wild card of ``combo`` not played as itself."""
    return [(c, a) for c, a in zip(combo.cards, combo.as_cards, strict=True) if is_wild(c, level) and c != a]


def wild_note(combo: Played, level: int) -> str:
    """Display note of the substitutions, e.g. ``"♥10=♣5"`` (empty when every card is itself)."""
    return " ".join(f"{card_text(c)}={card_text(a)}" for c, a in substitutions(combo, level))
