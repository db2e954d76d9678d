"""Cheap legal plays: the lowest legal play (move-clock auto-play, D6), a random legal play
(property tests, benchmarks), and the simple lead candidates for the computer player.

None of these enumerates the follows (there can be tens of thousands): a follow is built
directly from the requirements of docs/rules.md 1.5 "Following" (tractors, then pairs, then any
cards of the led group; a void hand plays anything), so it always passes
:func:`engine.shengji.follow.check_follow`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cards import Card, points
from engine.shengji.follow import best_tractor_match, pair_profile
from engine.shengji.formats import Lead
from engine.shengji.order import TrumpContext

_POINTS = tuple(points(c) for c in range(54))


def _low_key(ctx: TrumpContext) -> Callable[[Card], tuple[int, int, int]]:
    """Lowest first, point cards after non-point cards (within one group)."""
    st = ctx.strength_of
    return lambda c: (_POINTS[c] > 0, st[c], c)


def _discard_key(ctx: TrumpContext) -> Callable[[Card], tuple[bool, int, int, int]]:
    """For discards and leads: non-trumps first, then non-point cards, then lowest."""
    tr, st = ctx.trump_of, ctx.strength_of
    return lambda c: (tr[c], _POINTS[c] > 0, st[c], c)


def lowest_legal_play(ctx: TrumpContext, hand: Sequence[Card], lead: Lead | None) -> list[Card]:
    """One legal play, chosen low (move-clock auto-play, decision D6).

    Leading (``lead`` None): the lowest single, preferring a non-trump, non-point card (never a
    throw).  Following: the lead's tractor / pair requirements met with the lowest tractors and
    pairs (non-point first), then the lowest other cards of the led group, non-point first; a
    short or void hand adds its lowest non-trump, non-point cards.
    """
    if lead is None:
        return [min(hand, key=_discard_key(ctx))]
    return _follow(ctx, hand, lead, None)


def random_legal_play(
    ctx: TrumpContext, hand: Sequence[Card], lead: Lead | None, rng: random.Random, throws_allowed: bool
) -> list[Card]:
    """A random legal play (passes ``classify_lead`` / ``check_follow``).

    Leading: usually a random single, pair or tractor containing a random card; with
    ``throws_allowed``, now and then (about 1 in 20) a throw of 2-4 cards of one group (it may
    fail the throw check, which is the caller's business).  Following: random cards that meet
    the requirements.
    """
    if lead is None:
        return _random_lead(ctx, hand, rng, throws_allowed)
    return _follow(ctx, hand, lead, rng)


def _random_lead(
    ctx: TrumpContext, hand: Sequence[Card], rng: random.Random, throws_allowed: bool
) -> list[Card]:
    c = hand[rng.randrange(len(hand))]
    r = rng.random()
    grp = ctx.group_of
    if throws_allowed and r < 0.05:
        same = [x for x in hand if grp[x] == grp[c]]
        if len(same) >= 2:
            return rng.sample(same, rng.randint(2, min(4, len(same))))
        return [c]
    if r < 0.5:
        return [c]
    n = 0
    for x in hand:
        if x == c:
            n += 1
    if n < 2:
        return [c]
    if r < 0.75:
        return [c, c]
    # the longest tractor run through c's position, or a random part of it holding c
    g = grp[c]
    counts = [0] * 54
    for x in hand:
        if grp[x] == g:
            counts[x] += 1
    kinds_at = ctx.kinds_at[g]
    st = ctx.strength_of
    p0 = st[c]

    def pair_kind(p: int) -> Card | None:
        for k in kinds_at[p]:
            if counts[k] >= 2:
                return k
        return None

    lo = p0
    while lo - 1 >= 0 and pair_kind(lo - 1) is not None:
        lo -= 1
    hi = p0
    while hi + 1 < len(kinds_at) and pair_kind(hi + 1) is not None:
        hi += 1
    if hi == lo:
        return [c, c]
    a = rng.randint(lo, p0)
    b = rng.randint(p0, hi)
    if a == b:
        if b < hi:
            b += 1
        else:
            a -= 1
    out: list[Card] = []
    for p in range(b, a - 1, -1):
        k = c if p == p0 else pair_kind(p)
        assert k is not None
        out += (k, k)
    return out


def _follow(ctx: TrumpContext, hand: Sequence[Card], lead: Lead, rng: random.Random | None) -> list[Card]:
    g = lead.group
    n = len(lead.cards)
    grp = ctx.group_of
    gcards = [c for c in hand if grp[c] == g]
    if len(gcards) <= n:
        if len(gcards) == n:
            return gcards
        rest = [c for c in hand if grp[c] != g]
        if rng is None:
            rest.sort(key=_discard_key(ctx))
            return gcards + rest[: n - len(gcards)]
        return gcards + rng.sample(rest, n - len(gcards))
    if n == 1:
        return [min(gcards, key=_low_key(ctx))] if rng is None else [gcards[rng.randrange(len(gcards))]]
    chosen: list[Card] = []
    if lead.pairs:
        counts = [0] * 54
        for c in gcards:
            counts[c] += 1
        kinds = list(set(gcards))
        pair_kinds = [k for k in kinds if counts[k] >= 2]
        if pair_kinds:
            got = 0
            if lead.tractor_lengths:
                prof = pair_profile(ctx, g, counts, kinds)
                if rng is None:
                    starts = None
                else:

                    def starts(k: int, _n: int = len(prof), _r: random.Random = rng) -> list[int]:
                        s = list(range(_n - k + 1))
                        _r.shuffle(s)
                        return s

                _, placed = best_tractor_match(prof, lead.tractor_lengths, starts)
                kinds_at = ctx.kinds_at[g]
                for k, s in placed:
                    for p in range(s + k - 1, s - 1, -1):
                        kc = next(x for x in kinds_at[p] if counts[x] >= 2)
                        counts[kc] -= 2
                        chosen += (kc, kc)
                        got += 1
            need = min(len(pair_kinds), lead.pairs) - got
            if need > 0:
                free = [k for k in pair_kinds if counts[k] >= 2]
                if rng is None:
                    free.sort(key=_low_key(ctx))
                    picks = free[:need]
                else:
                    picks = rng.sample(free, need)
                for k in picks:
                    counts[k] -= 2
                    chosen += (k, k)
            if chosen:
                rest = [c for c in gcards]
                for c in chosen:
                    rest.remove(c)
                gcards = rest
    m = n - len(chosen)
    if m:
        if rng is None:
            gcards.sort(key=_low_key(ctx))
            chosen += gcards[:m]
        else:
            chosen += rng.sample(gcards, m)
    return chosen


def legal_leads_simple(ctx: TrumpContext, hand: Sequence[Card], throws_allowed: bool) -> list[list[Card]]:
    """Every distinct single, pair and tractor the hand can lead (no throws), for the computer player.

    Order: singles, then pairs, then tractors, each in display order.  ``throws_allowed`` is
    accepted for symmetry (these leads are legal either way).
    """
    del throws_allowed
    kinds = ctx.sort_for_display(set(hand))
    counts = [0] * 54
    for c in hand:
        counts[c] += 1
    out: list[list[Card]] = [[k] for k in kinds]
    out += [[k, k] for k in kinds if counts[k] >= 2]
    for g in range(5):
        kinds_at = ctx.kinds_at[g]
        npos = len(kinds_at)
        opts = [[k for k in kinds_at[p] if counts[k] >= 2] for p in range(npos)]
        for top in range(npos - 1, 0, -1):
            if not opts[top]:
                continue
            # every tractor with this top position: extend downwards
            partials: list[list[Card]] = [[k] for k in opts[top]]
            p = top - 1
            while p >= 0 and opts[p]:
                partials = [pp + [k] for pp in partials for k in opts[p]]
                for pp in partials:
                    out.append([x for k in pp for x in (k, k)])
                p -= 1
    return out
