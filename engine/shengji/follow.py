"""Following a lead (跟牌 / 垫牌), docs/rules.md 1.5 "Following" 1-3.

For a lead of n cards in group G:

1. holding at least n cards of G, all n must be from G; otherwise all your G cards plus any;
2. within G: for each tractor of the lead (longest first) play a tractor of that length if you
   hold one; then play as many pairs as you hold, up to the pairs in the lead (a k-pair tractor
   counts k); then any cards of G (seed 2h: 2-pair tractor lead, no tractor → two pairs, else
   one pair and two singles, else anything);
3. void in G: anything (trump = ruff 毙, or discard 垫).

Decision (the spec is silent): with several tractors in a throw, "hold a tractor of that
length" is read as the best assignment of disjoint tractors from the hand to the lead's
tractors, longest first; a longer held tractor holds every shorter one; a shorter tractor
than the lead's is not required (only its pairs count, through the pair rule).

The helpers ``pair_profile`` / ``best_tractor_match`` are shared with
:mod:`engine.shengji.legal` and :mod:`engine.shengji.trick`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.cards import Card, card_text, cards_text
from engine.errors import RuleError
from engine.shengji.formats import Lead
from engine.shengji.order import TrumpContext, group_name

Placement = tuple[int, int]  # (length, start position)


def pair_profile(ctx: TrumpContext, group: int, counts: Sequence[int], kinds: Sequence[Card]) -> list[int]:
    """Pairs per pair position of ``group``: one for each kind in ``kinds`` (distinct kinds of that group)
    with ``counts[kind] >= 2``."""
    prof = [0] * ctx.positions[group]
    st = ctx.strength_of
    for k in kinds:
        if counts[k] >= 2:
            prof[st[k]] += 1
    return prof


def has_run(prof: Sequence[int], k: int, above: int = -1) -> int:
    """Highest start position of ``k`` adjacent positions all holding a pair, whose top is above
    position ``above``; -1 when there is none."""
    s = len(prof) - k
    while s >= 0 and s + k - 1 > above:
        ok = True
        for i in range(s + k - 1, s - 1, -1):
            if not prof[i]:
                ok = False
                break
        if ok:
            return s
        s -= 1
    return -1


def best_tractor_match(
    prof: list[int],
    lengths: Sequence[int],
    starts: Callable[[int], Sequence[int]] | None = None,
) -> tuple[tuple[int, ...], list[Placement]]:
    """Best assignment of disjoint tractors in ``prof`` to tractor ``lengths`` (longest first).

    Returns (score, placements): score is the tuple of matched lengths in lead order (compared
    lexicographically: matching a longer tractor beats matching several shorter ones), and
    placements the (length, start) used.  ``starts(k)`` gives the start positions to try for
    length k, in preference order (default: low to high).  ``prof`` is restored on return.
    """
    n = len(prof)
    if len(lengths) == 1:
        k = lengths[0]
        order = starts(k) if starts is not None else range(n - k + 1)
        for s in order:
            if all(prof[s : s + k]):
                return (k,), [(k, s)]
        return (), []

    full = len(lengths)
    memo: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, ...], list[Placement]]] = {}

    def solve(i: int) -> tuple[tuple[int, ...], list[Placement]]:
        if i == full:
            return (), []
        key = (i, tuple(prof))
        got = memo.get(key)
        if got is not None:
            return got
        k = lengths[i]
        best: tuple[tuple[int, ...], list[Placement]] = ((), [])
        order = starts(k) if starts is not None else range(n - k + 1)
        for s in order:
            if all(prof[s : s + k]):
                for j in range(s, s + k):
                    prof[j] -= 1
                sc, pl = solve(i + 1)
                for j in range(s, s + k):
                    prof[j] += 1
                cand = ((k, *sc), [(k, s), *pl])
                if cand[0] > best[0]:
                    best = cand
                    if len(sc) == full - i - 1:
                        break  # every remaining tractor matched: nothing can do better
        if len(best[0]) < full - i:
            skip = solve(i + 1)
            if skip[0] > best[0]:
                best = skip
        memo[key] = best
        return best

    return solve(0)


def _suit_word(group: int) -> str:
    return group_name(group)


def check_follow(ctx: TrumpContext, lead: Lead, hand: Sequence[Card], cards: Sequence[Card]) -> None:
    """Raise RuleError unless ``cards`` (from ``hand``, which still includes them) legally follow ``lead``.

    Codes and params (cards as canonical text, suit as ``♣`` or ``trump``):

    * ``wrong_count`` (need, count): "Play {need} cards, not {count}";
    * ``not_in_hand`` (card): "You do not hold {card}";
    * ``must_follow_suit`` (suit, cards = the G cards you hold): "You hold {suit} cards and must play them: {cards}";
    * ``must_follow_tractor`` (suit, length, cards = the tractor(s) you hold for the lead):
      "You hold a tractor of {suit} and must play it: {cards}" (several: "You hold tractors of
      {suit} and must play them: {cards}");
    * ``must_follow_pair`` (suit, cards = the pair): "You hold a pair of {suit} and must play it: {cards}";
    * ``must_follow_pairs`` (suit, need, cards = the pairs you hold and did not play):
      "You hold pairs of {suit} and must play {need} pairs: {cards}".
    """
    need = len(lead.cards)
    if len(cards) != need:
        raise RuleError("wrong_count", "Play {need} cards, not {count}", need=need, count=len(cards))
    grp = ctx.group_of
    g = lead.group
    if need == 1:
        c = cards[0]
        if c not in hand:
            raise RuleError("not_in_hand", "You do not hold {card}", card=card_text(c))
        if grp[c] != g:
            for h in hand:
                if grp[h] == g:
                    _suit_error(ctx, g, hand)
        return
    counts = [0] * 54
    for c in hand:
        counts[c] += 1
    played = [0] * 54
    for c in cards:
        played[c] += 1
        if played[c] > counts[c]:
            raise RuleError("not_in_hand", "You do not hold {card}", card=card_text(c))
    held_g = 0
    for c in hand:
        if grp[c] == g:
            held_g += 1
    played_g = 0
    for c in cards:
        if grp[c] == g:
            played_g += 1
    if played_g < (need if held_g >= need else held_g):
        _suit_error(ctx, g, hand)
    if held_g <= need or lead.pairs == 0:
        return
    # all cards are from G and the hand has more G cards: format requirements
    g_kinds = [k for k in set(hand) if grp[k] == g]
    hand_pairs = 0
    for k in g_kinds:
        if counts[k] >= 2:
            hand_pairs += 1
    if hand_pairs == 0:
        return
    lengths = lead.tractor_lengths
    if lengths:
        hprof = pair_profile(ctx, g, counts, g_kinds)
        hscore, hplace = best_tractor_match(hprof, lengths)
        if hscore:
            pprof = pair_profile(ctx, g, played, g_kinds)
            pscore, _ = best_tractor_match(pprof, lengths)
            if pscore < hscore:
                # evidence: the tractors the hand holds for the lead (equal level pairs kept apart)
                left = list(counts)
                kinds_at = ctx.kinds_at[g]
                tcards: list[Card] = []
                for k, s in sorted(hplace, key=lambda ks: -(ks[0] + ks[1])):
                    for p in range(s + k - 1, s - 1, -1):
                        kc = next(x for x in kinds_at[p] if left[x] >= 2)
                        left[kc] -= 2
                        tcards += (kc, kc)
                if len(hplace) == 1:
                    raise RuleError(
                        "must_follow_tractor",
                        "You hold a tractor of {suit} and must play it: {cards}",
                        suit=_suit_word(g),
                        length=hplace[0][0],
                        cards=cards_text(tcards),
                    )
                raise RuleError(
                    "must_follow_tractor",
                    "You hold tractors of {suit} and must play them: {cards}",
                    suit=_suit_word(g),
                    length=hplace[0][0],
                    cards=cards_text(tcards),
                )
    required = min(hand_pairs, lead.pairs)
    played_pairs = 0
    for k in g_kinds:
        if played[k] >= 2:
            played_pairs += 1
    if played_pairs < required:
        unplayed = ctx.sort_for_display(k for k in g_kinds if counts[k] >= 2 and played[k] < 2)
        if required == 1:
            k = unplayed[-1]
            raise RuleError(
                "must_follow_pair",
                "You hold a pair of {suit} and must play it: {cards}",
                suit=_suit_word(g),
                cards=cards_text((k, k)),
            )
        raise RuleError(
            "must_follow_pairs",
            "You hold pairs of {suit} and must play {need} pairs: {cards}",
            suit=_suit_word(g),
            need=required,
            cards=cards_text([x for k in unplayed for x in (k, k)]),
        )


def _suit_error(ctx: TrumpContext, g: int, hand: Sequence[Card]) -> None:
    held = ctx.sort_for_display(c for c in hand if ctx.group_of[c] == g)
    raise RuleError(
        "must_follow_suit",
        "You hold {suit} cards and must play them: {cards}",
        suit=_suit_word(g),
        cards=cards_text(held),
    )


def is_legal_follow(ctx: TrumpContext, lead: Lead, hand: Sequence[Card], cards: Sequence[Card]) -> bool:
    """True when :func:`check_follow` accepts the play."""
    try:
        check_follow(ctx, lead, hand, cards)
    except RuleError:
        return False
    return True
