"""Who wins a trick (docs/rules.md 1.5 "Winning a trick").

A follower beats the current winner only with the lead's format:

* single: a higher card of the led group G, or (void in G) any trump;
* pair / tractor: a higher pair / equal-length tractor of G, or (void in G) a trump pair /
  trump tractor of the same length;
* throw: only a trump play (void in G) that has the throw's shape; it beats the throw when
  the top of its component of the largest kind is higher than the throw's, and a later ruff
  must beat the earlier ruff the same way.

Ties go to the earlier play.  A play *ruffs* when the lead is off-suit and every card of the
play is a trump (following rules force G cards first, so only a void player can do that).

Decision (the spec says "the same decomposition"): a ruff of a throw qualifies when its cards
can be *arranged* into the throw's components — a trump tractor of each length the throw's
tractors have, as many further trump pairs as the throw's pairs, and any trumps for its
singles — so a trump pair may stand in for two singles.  Its strength is its best possible
component of the largest kind.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.cards import Card
from engine.shengji.follow import best_tractor_match, pair_profile
from engine.shengji.formats import PAIR, SINGLE, THROW, TRACTOR, Lead
from engine.shengji.order import TRUMP, TrumpContext


def _tractor_top(ctx: TrumpContext, group: int, cards: Sequence[Card], length: int) -> int:
    """Top strength when ``cards`` (all of ``group``) are exactly one tractor of ``length`` pairs, else -1."""
    if len(cards) != 2 * length:
        return -1
    counts: dict[Card, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    st = ctx.strength_of
    pos: list[int] = []
    for k, n in counts.items():
        if n != 2:
            return -1
        pos.append(st[k])
    pos.sort()
    for i in range(1, len(pos)):
        if pos[i] != pos[i - 1] + 1:
            return -1
    return pos[-1]


def _shape_top(ctx: TrumpContext, lead: Lead, cards: Sequence[Card]) -> int:
    """For a throw lead: the ruff's best top of the largest-kind component when ``cards`` (all trumps)
    can be arranged into the throw's components, else -1."""
    if len(cards) != len(lead.cards):
        return -1
    st = ctx.strength_of
    big = lead.largest_unit()
    if big.kind == SINGLE:
        return max(st[c] for c in cards)
    counts = [0] * 54
    for c in cards:
        counts[c] += 1
    kinds = list(set(cards))
    prof = pair_profile(ctx, TRUMP, counts, kinds)
    lengths = lead.tractor_lengths
    loose_pairs = lead.pairs - sum(lengths)
    n = len(prof)
    if big.kind == PAIR:
        # no tractors in the lead: enough pairs, and the top pair is the highest pair held
        if sum(prof) < loose_pairs:
            return -1
        for p in range(n - 1, -1, -1):
            if prof[p]:
                return p
        return -1
    # tractors: try the first (longest) tractor from the highest position down
    k0 = lengths[0]
    rest = lengths[1:]
    for s in range(n - k0, -1, -1):
        if not all(prof[s : s + k0]):
            continue
        for j in range(s, s + k0):
            prof[j] -= 1
        ok = True
        if rest:
            score, placed = best_tractor_match(prof, rest)
            if len(score) < len(rest):
                ok = False
            else:
                for k, s2 in placed:
                    for j in range(s2, s2 + k):
                        prof[j] -= 1
                ok = sum(prof) >= loose_pairs
                for k, s2 in placed:
                    for j in range(s2, s2 + k):
                        prof[j] += 1
        else:
            ok = sum(prof) >= loose_pairs
        for j in range(s, s + k0):
            prof[j] += 1
        if ok:
            return s + k0 - 1
    return -1


def play_key(ctx: TrumpContext, lead: Lead, cards: Sequence[Card]) -> tuple[int, int] | None:
    """How strongly a *follower's* play competes for the trick: (1 for a ruff else 0, top strength),
    or None when it cannot win (wrong format, mixed cards, or a non-trump play on a throw)."""
    grp = ctx.group_of
    g = lead.group
    g0 = grp[cards[0]]
    for c in cards:
        if grp[c] != g0:
            return None
    if g0 == g:
        ruff = 0
    elif g0 == TRUMP:
        ruff = 1
    else:
        return None
    kind = lead.kind
    st = ctx.strength_of
    if kind == SINGLE:
        return (ruff, st[cards[0]])
    if kind == PAIR:
        a, b = cards
        return (ruff, st[a]) if a == b else None
    if kind == TRACTOR:
        top = _tractor_top(ctx, g0, cards, lead.units[0].length)
        return (ruff, top) if top >= 0 else None
    # throw: only a ruff can beat it
    if not ruff:
        return None
    top = _shape_top(ctx, lead, cards)
    return (1, top) if top >= 0 else None


def lead_key(lead: Lead) -> tuple[int, int]:
    """The leader's own key: (0, top of its largest-kind component)."""
    if lead.kind == THROW:
        return (0, lead.largest_unit().top)
    return (0, lead.units[0].top)


def trick_winner(ctx: TrumpContext, lead: Lead, plays: Sequence[Sequence[Card]]) -> int:
    """Index into ``plays`` (``plays[0]`` is the lead, then the followers in order) of the play winning so far.

    Works on a partial trick too (the current winner after 1..4 plays).  Plays are assumed legal
    (checked with :func:`engine.shengji.follow.check_follow`); a play that does not have the
    lead's format never wins; ties go to the earlier play.
    """
    best = 0
    best_key = lead_key(lead)
    for i in range(1, len(plays)):
        k = play_key(ctx, lead, plays[i])
        if k is not None and k > best_key:
            best, best_key = i, k
    return best


def winning_is_trump(ctx: TrumpContext, cards: Sequence[Card]) -> bool:
    """True when every card of the (winning) play is a trump; False when it won with off-suit cards
    (副牌抠底: the timed-2h kitty capture is halved)."""
    tr = ctx.trump_of
    return all(tr[c] for c in cards)


__all__ = ["lead_key", "play_key", "trick_winner", "winning_is_trump", "SINGLE", "PAIR", "TRACTOR", "THROW"]
