"""Throw check (甩牌) and failed throws, docs/rules.md 1.5 and decision D1.

A throw stands only if none of the other three hands (partner included, D1; only the two
opponents' hands with option ``throw_check_partner = False``) holds, in the throw's group G:

* a higher tractor of the same length than a tractor in it,
* a higher pair than a pair in it (a pair taken out of a tractor counts: a held tractor holds
  pairs), or
* a single higher than the throw's lowest single.

A failed throw (甩牌失败): the thrower plays one failing component instead and the side is
charged ``penalty(cards in the attempted throw, per_card)``.  With
``failed_throw_choice = "lowest"`` the component is :attr:`ThrowResult.forced` — the smaller
unit (fewest cards: single < pair < tractor; then the lowest).  With ``"opponents"`` the
opponents pick one of :attr:`ThrowResult.choices` (the lowest failing pair-or-tractor and
the lowest failing single, when both exist).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.cards import Card
from engine.shengji.follow import has_run
from engine.shengji.formats import SINGLE, THROW, Lead, Unit
from engine.shengji.order import TrumpContext


class ThrowFailure(NamedTuple):
    """One component of the throw that another hand beats.

    ``unit``: the component; ``holder``: index into ``other_hands`` of the first hand that beats
    it; ``beating``: that hand's highest beating cards (e.g. ``(♥K, ♥K)`` for
    "李四有更大的 ♥K ♥K").
    """

    unit: Unit
    holder: int
    beating: tuple[Card, ...]


class ThrowResult(NamedTuple):
    """A failed throw.

    ``failures``: every failing component (throw decomposition order); ``forced``: the unit the
    thrower must play under ``failed_throw_choice = "lowest"``; ``holder`` / ``beating``: who
    beats ``forced`` and with what; ``choices``: the units the opponents may choose from under
    ``failed_throw_choice = "opponents"`` — (lowest failing pair or tractor, lowest failing
    single) when both exist, else just ``(forced,)``.
    """

    failures: tuple[ThrowFailure, ...]
    forced: Unit
    holder: int
    beating: tuple[Card, ...]
    choices: tuple[Unit, ...]

    def failure_of(self, unit: Unit) -> ThrowFailure:
        """The failure record of ``unit`` (one of ``failures``, e.g. the opponents' choice)."""
        for f in self.failures:
            if f.unit == unit:
                return f
        raise KeyError(unit)


def penalty(cards_in_throw: int, per_card: int) -> int:
    """Charge for a failed throw: ``per_card`` x cards in the attempted throw (10 x 5 cards = 50)."""
    return cards_in_throw * per_card


def _unit_order(u: Unit) -> tuple[int, int]:
    return (len(u.cards), u.top)


def check_throw(ctx: TrumpContext, lead: Lead, other_hands: Sequence[Sequence[Card]]) -> ThrowResult | None:
    """None when the throw stands (or ``lead`` is not a throw); otherwise the :class:`ThrowResult`.

    ``other_hands``: the hands to check, as the caller chooses them: the other three players'
    current hands (partner included, D1), or only the two opponents' (``throw_check_partner =
    False``); ``holder`` values index this sequence (the caller maps them back to seats).
    """
    if lead.kind != THROW:
        return None
    g = lead.group
    st = ctx.strength_of
    kinds_at = ctx.kinds_at[g]
    outside = ctx.outside[g]
    units = lead.units
    n = len(units)
    # formats.decompose orders a throw's units tractors, pairs, then singles high to low: units[m:] are
    # the singles and units[-1] the lowest one (a hand whose highest card does not beat it beats none)
    m = 0
    while m < n and units[m].kind != SINGLE:
        m += 1
    lowest_single = units[-1].top
    failures: dict[int, ThrowFailure] = {}  # unit index -> failure
    for h, hand in enumerate(other_hands):
        gcards = bytes(hand).translate(
            None, outside
        )  # the hand's cards of the group (TrumpContext.group_bytes)
        if not gcards:
            continue
        if m < n:
            top = max(map(st.__getitem__, gcards))
            if top > lowest_single:
                # the highest card; at equal strength (off-suit level cards) the lowest kind
                top_card = next(x for x in kinds_at[top] if x in gcards)
                for i in range(m, n):
                    u = units[i]
                    if top > u.top and i not in failures:
                        failures[i] = ThrowFailure(u, h, (top_card,))
        if m and len(gcards) >= 2:
            counts = [0] * 54
            prof = [0] * ctx.positions[g]
            for c in gcards:
                counts[c] += 1
                if counts[c] == 2:
                    prof[st[c]] += 1
            for i in range(m):
                if i in failures:
                    continue
                u = units[i]
                k = u.length
                s = has_run(prof, k, u.top)
                if s >= 0:
                    beat: list[Card] = []
                    for p in range(s + k - 1, s - 1, -1):
                        kc = next(x for x in kinds_at[p] if counts[x] >= 2)
                        beat += (kc, kc)
                    failures[i] = ThrowFailure(u, h, tuple(beat))
        if len(failures) == n:
            break  # every unit is beaten: later hands cannot change the holders
    if not failures:
        return None
    ordered = tuple(failures[i] for i in sorted(failures))
    # the smallest failing unit of each kind (fewest cards, then lowest; the first of equals)
    low_single: ThrowFailure | None = None
    low_multi: ThrowFailure | None = None
    for f in ordered:
        u = f.unit
        if u.kind == SINGLE:
            if low_single is None or u.top < low_single.unit.top:
                low_single = f
        elif low_multi is None or _unit_order(u) < _unit_order(low_multi.unit):
            low_multi = f
    forced = low_single if low_single is not None else low_multi
    assert forced is not None
    if low_multi is not None and low_single is not None:
        choices: tuple[Unit, ...] = (low_multi.unit, low_single.unit)
    else:
        choices = (forced.unit,)
    return ThrowResult(ordered, forced.unit, forced.holder, forced.beating, choices)
