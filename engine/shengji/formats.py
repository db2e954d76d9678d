"""Lead formats (docs/rules.md 1.5): single, pair, tractor, throw; and throw decomposition.

A *unit* is one component of a play: a single card, a pair (two identical cards), or a
tractor (two or more pairs at adjacent pair positions of one group, see
:mod:`engine.shengji.order`).  Any cards of one group decompose deterministically into
tractors (longest first; among equally long ones the higher first), then pairs (high to
low), then singles (high to low).  A lead is one unit (single / pair / tractor) or, where
throws are allowed, several units of one group (a throw, 甩牌).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from engine.cards import Card, cards_text
from engine.errors import RuleError
from engine.shengji.order import TrumpContext

_GROUP_RANK = (3, 2, 1, 0, 4)  # trump pairs first, then ♠ ♥ ♣ ♦ (only matters for mixed cards)

SINGLE = "single"
PAIR = "pair"
TRACTOR = "tractor"
THROW = "throw"


class Unit(NamedTuple):
    """One component of a play.

    ``kind``: "single" | "pair" | "tractor"; ``cards``: its cards, high to low (a tractor as
    ``a a b b ...``); ``length``: pairs in it (0 for a single, 1 for a pair, n for an n-pair
    tractor); ``top``: strength (:meth:`TrumpContext.strength`) of its highest card — two units
    of the same kind and length in one group compare by ``top``.
    """

    kind: str
    cards: tuple[Card, ...]
    length: int
    top: int

    @property
    def size(self) -> int:
        """Number of cards (1, 2 or 2 x length)."""
        return len(self.cards)


@dataclass(frozen=True)
class Lead:
    """A classified lead.

    ``group``: its suit group (0..3 off-suit, 4 trump); ``units``: its decomposition (tractors
    longest first, then pairs, then singles, each high to low); ``cards``: the cards as led;
    ``kind``: "single" | "pair" | "tractor" (one unit) or "throw" (several units).
    Derived: ``pairs`` (pairs in the lead, a k-pair tractor counting k), ``tractor_lengths``
    (lengths of its tractors, longest first), ``singles`` (number of single units).
    """

    group: int
    units: tuple[Unit, ...]
    cards: tuple[Card, ...]
    kind: str

    # derived on first use (a throw check never needs them): computed once, kept in the instance
    @functools.cached_property
    def pairs(self) -> int:
        return sum(u.length for u in self.units)

    @functools.cached_property
    def tractor_lengths(self) -> tuple[int, ...]:
        return tuple(u.length for u in self.units if u.kind == TRACTOR)

    @functools.cached_property
    def singles(self) -> int:
        return sum(1 for u in self.units if u.kind == SINGLE)

    @property
    def size(self) -> int:
        """Number of cards every player must play to this trick."""
        return len(self.cards)

    def largest_unit(self) -> Unit:
        """The component of the largest kind (most pairs; the first such in ``units``, i.e. the highest)."""
        best = self.units[0]
        for u in self.units:
            if u.length > best.length:
                best = u
        return best


def decompose(ctx: TrumpContext, cards: Sequence[Card]) -> tuple[Unit, ...]:
    """Deterministic decomposition of ``cards`` into units (meant for cards of one group).

    Tractors first, longest first (ties: the higher first), built greedily so the longest
    tractor is always taken; then the remaining pairs high to low; then singles high to low.
    Where several equal pairs sit at one position (off-suit level pairs), a tractor takes the
    lowest card kind (♠ before ♥ before ♣ before ♦).  Cards of several groups are decomposed
    group by group, trump group first.
    """
    st = ctx.strength_of
    n = len(cards)
    if n == 1:
        c = cards[0]
        return (Unit(SINGLE, (c,), 0, st[c]),)
    if n == 2:
        a, b = cards
        if a == b:
            return (Unit(PAIR, (a, a), 1, st[a]),)
        if st[a] < st[b] or (st[a] == st[b] and a > b):
            a, b = b, a
        return (Unit(SINGLE, (a,), 0, st[a]), Unit(SINGLE, (b,), 0, st[b]))
    grp = ctx.group_of
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    if len(counts) == n:  # no two equal cards: singles only
        return tuple([Unit(SINGLE, (c,), 0, st[c]) for c in sorted(cards, key=ctx.single_order.__getitem__)])
    # key of a pair position: group * 32 + position, so adjacent keys never cross groups
    pairs_at: dict[int, list[Card]] = {}
    singles: list[Card] = []
    for c in sorted(counts):
        k = counts[c]
        for _ in range(k // 2):
            pairs_at.setdefault(_GROUP_RANK[grp[c]] * 32 + st[c], []).append(c)
        if k % 2:
            singles.append(c)
    units: list[Unit] = []
    if len(pairs_at) >= 2:
        tractors: list[Unit] = []
        while True:
            keys = sorted((p for p, ks in pairs_at.items() if ks), reverse=True)
            best_start, best_len = -1, 1
            i = 0
            while i < len(keys):
                j = i
                while j + 1 < len(keys) and keys[j + 1] == keys[j] - 1:
                    j += 1
                if j - i + 1 > best_len:
                    best_start, best_len = i, j - i + 1
                i = j + 1
            if best_start < 0:
                break
            run = keys[best_start : best_start + best_len]
            tcards: list[Card] = []
            for p in run:
                c = pairs_at[p].pop(0)
                tcards += (c, c)
            tractors.append(Unit(TRACTOR, tuple(tcards), best_len, st[tcards[0]]))
        # keep "longest first, then higher first" whatever the greedy order was
        tractors.sort(key=lambda u: (-u.length, grp[u.cards[0]] != 4, -u.top))
        units.extend(tractors)
    for p in sorted(pairs_at, reverse=True):
        for c in pairs_at[p]:
            units.append(Unit(PAIR, (c, c), 1, st[c]))
    singles.sort(key=ctx.single_order.__getitem__)
    for c in singles:
        units.append(Unit(SINGLE, (c,), 0, st[c]))
    return tuple(units)


def classify_lead(ctx: TrumpContext, cards: Sequence[Card], throws_allowed: bool) -> Lead:
    """Classify a lead; RuleError for a lead that is not allowed.

    Codes: ``not_a_format`` (no cards), ``mixed_suits`` (cards of several suit groups; the whole
    trump group is one group), ``throws_forbidden`` (several units while ``throws_allowed`` is
    False, e.g. ♠A ♠A ♠K under seed 50min).  Does not check that the cards are in the hand, nor
    the throw check against the other hands (see :mod:`engine.shengji.throw`).
    """
    if not cards:
        raise RuleError("not_a_format", "Lead at least one card")
    grp = ctx.group_of
    g = grp[cards[0]]
    for c in cards:
        if grp[c] != g:
            raise RuleError(
                "mixed_suits",
                "A lead must be all of one suit or all trumps: {cards}",
                cards=cards_text(ctx.sort_for_display(cards)),
            )
    units = decompose(ctx, cards)
    if len(units) == 1:
        kind = units[0].kind
    else:
        if not throws_allowed:
            raise RuleError(
                "throws_forbidden",
                "Throws are not allowed: lead a single, a pair or a tractor, not {cards}",
                cards=cards_text(ctx.sort_for_display(cards)),
            )
        kind = THROW
    return Lead(g, units, tuple(cards), kind)


def lead_of_unit(ctx: TrumpContext, unit: Unit) -> Lead:
    """The lead made of one unit (e.g. the forced unit of a failed throw)."""
    return Lead(ctx.group_of[unit.cards[0]], (unit,), unit.cards, unit.kind)


def play_multiplier_format(ctx: TrumpContext, lead: Lead, winning_cards: Sequence[Card]) -> tuple[str, int]:
    """Format of the last trick's winning play for the kitty multiplier (docs/rules.md 1.6).

    Returns ("single", 0), ("pair", 1) or ("tractor", n).  A winning play always has the
    lead's format (only same-format plays win, docs/rules.md 1.5), so this is the lead's format;
    a throw counts as its largest component (the one with the most pairs).
    ``winning_cards`` is accepted for clarity; when it has the lead's size it does not change
    the answer.
    """
    del winning_cards
    u = lead.largest_unit()
    return (u.kind, u.length)
