"""Trump and card order for one deal (docs/rules.md 1.2), as precomputed lookup tables.

A deal is played at a level L (2..14) with a trump suit T (0..3) or no trump (``None``).
``trump_context(level, trump_suit)`` returns a cached, immutable :class:`TrumpContext`;
every hot path of the play rules reads its tuples by card kind (0..53).

Groups (for following suit): 0..3 are the off-suits ♠ ♥ ♣ ♦ (without their level cards),
:data:`TRUMP` (4) is the whole trump group.

Strength is an int comparable only *within one group*, and it doubles as the card's
*pair position*: two pairs are adjacent for a tractor (docs/rules.md 1.5) exactly when their
strengths differ by 1.  The tables:

* off-suit S: ranks 2..A skipping L, numbered 0..11 (A is 11; K when L is A).
* trump with trump suit T: T's ranks skipping L are 0..11, every off-suit level card 12
  (all three equal, so two of them are never adjacent), T-L 13, SJ 14, BJ 15.
* no trump: every level card 0 (all four equal), SJ 1, BJ 2.

So trump-suit 7 (position 0..11) and trump-suit level 6 (13) are not adjacent, A-2 never
wraps, and the chains BJ-SJ-T·L-offL-T·A and (no trump) BJ-SJ-L are all steps of 1.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.cards import SMALL_JOKER, SUIT_SYMBOLS, Card

TRUMP = 4
"""Group number of the trump group."""

GROUP_NAMES = ("♠", "♥", "♣", "♦", "trump")
"""Message text for a group: the suit symbol, or ``trump`` (the bot translates it: 主牌)."""


def group_name(group: int) -> str:
    """``♠``/``♥``/``♣``/``♦`` for an off-suit group, ``trump`` for the trump group."""
    return GROUP_NAMES[group]


@dataclass(frozen=True)
class TrumpContext:
    """Card order of one deal: level ``level`` (2..14), trump suit ``trump_suit`` (0..3, None = no trump).

    Build it with :func:`trump_context` (cached).  Public tables (tuples indexed by card kind):
    ``trump_of`` (bool), ``group_of`` (0..4), ``strength_of`` (int, see the module doc),
    ``display_key`` (int, smaller shows first).  ``positions[g]`` is the number of pair
    positions of group g and ``kinds_at[g][p]`` the card kinds at position p of group g.
    ``outside[g]``: the card kinds not in group g, as bytes (see ``group_bytes``); ``single_order``: the
    sort key of single cards in a play's decomposition.
    """

    level: int
    trump_suit: int | None
    trump_of: tuple[bool, ...] = field(init=False, repr=False, compare=False)
    group_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    strength_of: tuple[int, ...] = field(init=False, repr=False, compare=False)
    display_key: tuple[int, ...] = field(init=False, repr=False, compare=False)
    positions: tuple[int, ...] = field(init=False, repr=False, compare=False)
    kinds_at: tuple[tuple[tuple[Card, ...], ...], ...] = field(init=False, repr=False, compare=False)
    outside: tuple[bytes, ...] = field(init=False, repr=False, compare=False)
    single_order: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        level, ts = self.level, self.trump_suit
        if not 2 <= level <= 14:
            raise ValueError(f"level must be 2..14, not {level}")
        if ts is not None and ts not in (0, 1, 2, 3):
            raise ValueError(f"trump_suit must be 0..3 or None, not {ts}")
        trump = [False] * 54
        group = [0] * 54
        strength = [0] * 54
        plain_ranks = [r for r in range(2, 15) if r != level]  # 12 ranks, low to high
        plain_index = {r: i for i, r in enumerate(plain_ranks)}
        for c in range(52):
            s, r = c // 13, c % 13 + 2
            if r == level:
                trump[c] = True
                group[c] = TRUMP
                if ts is None:
                    strength[c] = 0
                else:
                    strength[c] = 13 if s == ts else 12
            elif s == ts:
                trump[c] = True
                group[c] = TRUMP
                strength[c] = plain_index[r]
            else:
                group[c] = s
                strength[c] = plain_index[r]
        top = 0 if ts is None else 13
        for c, st in ((SMALL_JOKER, top + 1), (SMALL_JOKER + 1, top + 2)):
            trump[c] = True
            group[c] = TRUMP
            strength[c] = st
        npos = [12, 12, 12, 12, top + 3]
        kinds_at: list[list[list[Card]]] = [[[] for _ in range(n)] for n in npos]
        for c in range(54):
            kinds_at[group[c]][strength[c]].append(c)
        # display: trumps first high to low, then ♠ ♥ ♣ ♦ each high to low; equal cards by suit.
        key = [0] * 54
        for c in range(54):
            g = group[c]
            suit = c // 13 if c < 52 else 0
            key[c] = (0 if g == TRUMP else 1 + g) * 1000 + (99 - strength[c]) * 10 + suit
        object.__setattr__(self, "trump_of", tuple(trump))
        object.__setattr__(self, "group_of", tuple(group))
        object.__setattr__(self, "strength_of", tuple(strength))
        object.__setattr__(self, "display_key", tuple(key))
        object.__setattr__(self, "positions", tuple(npos))
        object.__setattr__(self, "kinds_at", tuple(tuple(tuple(sorted(k)) for k in g) for g in kinds_at))
        # the card kinds outside each group, as bytes: ``bytes(hand).translate(None, ctx.outside[g])``
        # keeps a hand's cards of group g (in C, no Python loop over the hand)
        object.__setattr__(
            self, "outside", tuple(bytes(c for c in range(54) if group[c] != g) for g in range(5))
        )
        # the order of a play's singles (formats.decompose): trump group first, then by group, high to low,
        # equal strength by kind
        object.__setattr__(
            self,
            "single_order",
            tuple(
                ((0 if group[c] == TRUMP else 1) * 8 + group[c]) * 10000 + (99 - strength[c]) * 100 + c
                for c in range(54)
            ),
        )

    def group_bytes(self, cards: Sequence[Card], group: int) -> bytes:
        """The cards of ``group`` among ``cards``, in order, as bytes (iterating gives card kinds): what
        ``cards_of_group`` gives, without a Python loop over ``cards``."""
        return bytes(cards).translate(None, self.outside[group])

    # --- single-card questions ---------------------------------------------------------------
    def is_trump(self, c: Card) -> bool:
        """True for jokers, every level card, and the trump suit."""
        return self.trump_of[c]

    def group(self, c: Card) -> int:
        """0..3: that off-suit; 4 (:data:`TRUMP`): the trump group."""
        return self.group_of[c]

    def strength(self, c: Card) -> int:
        """Order within the card's group (higher beats lower; equal cards are equal).  Also its pair position."""
        return self.strength_of[c]

    def beats(self, a: Card, b: Card) -> bool:
        """True when single ``a`` played after ``b`` wins over it, ``b`` being a card of the led group.

        Higher card of the same group, or any trump over an off-suit card.
        """
        ga, gb = self.group_of[a], self.group_of[b]
        if ga == gb:
            return self.strength_of[a] > self.strength_of[b]
        return ga == TRUMP

    # --- tractors --------------------------------------------------------------------------
    def pair_rank_sequence(self, group: int) -> list[tuple[Card, ...]]:
        """The pair positions of ``group``, low to high: each entry lists the card kinds at that position.

        Pairs at neighbouring entries are adjacent (may form a tractor).  An entry with several kinds
        (the off-suit level cards in the trump group; all level cards with no trump) holds equal
        cards: a tractor uses at most one pair from an entry, so two off-suit level pairs are never
        adjacent.  Example, level 6, ♥ trump: [..., ♥K, ♥A, (♠6 ♣6 ♦6), ♥6, SJ, BJ].
        """
        return list(self.kinds_at[group])

    def adjacent(self, a: Card, b: Card) -> bool:
        """True when a pair of ``a`` and a pair of ``b`` are neighbouring tractor steps (either order)."""
        if self.group_of[a] != self.group_of[b]:
            return False
        return abs(self.strength_of[a] - self.strength_of[b]) == 1

    # --- display ---------------------------------------------------------------------------
    def sort_for_display(self, cards: Iterable[Card]) -> list[Card]:
        """Trumps first, high to low, then ♠ ♥ ♣ ♦ each high to low (equal cards by suit)."""
        return sorted(cards, key=self.display_key.__getitem__)

    def sort_low_first(self, cards: Iterable[Card]) -> list[Card]:
        """Cards of one group (or any) ordered low to high by strength, ties by kind; deterministic."""
        st = self.strength_of
        return sorted(cards, key=lambda c: (st[c], c))

    def describe(self) -> str:
        """``level 6, ♥ trump`` / ``level 6, no trump`` (logs and tests)."""
        t = "no trump" if self.trump_suit is None else f"{SUIT_SYMBOLS[self.trump_suit]} trump"
        return f"level {self.level}, {t}"

    def cards_of_group(self, cards: Sequence[Card], group: int) -> list[Card]:
        """The cards of ``cards`` that belong to ``group``, in the order given."""
        g = self.group_of
        return [c for c in cards if g[c] == group]


@functools.cache
def trump_context(level: int, trump_suit: int | None) -> TrumpContext:
    """The cached :class:`TrumpContext` of (level, trump suit); at most 13 x 5 exist."""
    return TrumpContext(level, trump_suit)
