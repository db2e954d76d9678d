"""Throw check (甩牌) and failed throws, rules.md 1.5 and decision D1.

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
from dataclasses import dataclass

from engine.cards import Card
from engine.shengji.follow import has_run, pair_profile
from engine.shengji.formats import SINGLE, THROW, TRACTOR, Lead, Unit
from engine.shengji.order import TrumpContext


@dataclass(frozen=True)
class ThrowFailure:
    """One component of the throw that another hand beats.

    ``unit``: the component; ``holder``: index into ``other_hands`` of the first hand that beats
    it; ``beating``: that hand's highest beating cards (e.g. ``(♥K, ♥K)`` for
    "李四有更大的 ♥K ♥K").
    """

    unit: Unit
    holder: int
    beating: tuple[Card, ...]


@dataclass(frozen=True)
class ThrowResult:
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
    grp, st = ctx.group_of, ctx.strength_of
    kinds_at = ctx.kinds_at[g]
    singles = [u for u in lead.units if u.kind == SINGLE]
    lowest_single = min((u.top for u in singles), default=None)
    failures: dict[int, ThrowFailure] = {}  # unit index -> failure
    for h, hand in enumerate(other_hands):
        gcards = [c for c in hand if grp[c] == g]
        if not gcards:
            continue
        counts = [0] * 54
        for c in gcards:
            counts[c] += 1
        kinds = list(set(gcards))
        prof = pair_profile(ctx, g, counts, kinds)
        top_card = max(gcards, key=lambda c: (st[c], -c))
        for i, u in enumerate(lead.units):
            if i in failures:
                continue
            if u.kind == SINGLE:
                assert lowest_single is not None
                if st[top_card] > u.top:
                    failures[i] = ThrowFailure(u, h, (top_card,))
                continue
            k = u.length
            s = has_run(prof, k, u.top) if u.kind == TRACTOR else has_run(prof, 1, u.top)
            if s >= 0:
                beat: list[Card] = []
                for p in range(s + k - 1, s - 1, -1):
                    kc = next(x for x in kinds_at[p] if counts[x] >= 2)
                    beat += (kc, kc)
                failures[i] = ThrowFailure(u, h, tuple(beat))
    if not failures:
        return None
    # singles: the rule beats the throw's lowest single; keep only singles that are beaten
    ordered = tuple(failures[i] for i in sorted(failures))
    forced = min(ordered, key=lambda f: _unit_order(f.unit))
    multi = [f for f in ordered if f.unit.kind != SINGLE]
    single = [f for f in ordered if f.unit.kind == SINGLE]
    if multi and single:
        choices: tuple[Unit, ...] = (
            min(multi, key=lambda f: _unit_order(f.unit)).unit,
            min(single, key=lambda f: _unit_order(f.unit)).unit,
        )
    else:
        choices = (forced.unit,)
    return ThrowResult(ordered, forced.unit, forced.holder, forced.beating, choices)
