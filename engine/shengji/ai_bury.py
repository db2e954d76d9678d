"""The strong Shengji player's bury (扣底): a determinized search over a few candidate kitties.

When the dealer has taken the kitty (phase ``bury``) it holds 33 cards (with the default deck) and must
bury 8.  :func:`bury_information` keeps what that seat knows then — its 33 cards, the trump, the levels,
the cards the others showed in their declarations — and :func:`choose_bury` compares candidate kitties:
the baseline player's (``engine.shengji.ai.choose_bury``) first, then kitties that empty one or two short
suits, and the baseline's with point cards or pairs allowed.  The 75 cards the seat cannot see are dealt
several times over the three other hands (the shown cards to their owners); in every such world each
candidate is buried and the deal played out with the baseline player at all four seats
(``engine.shengji.playout.finish``).  All candidates meet the same worlds; the baseline's kitty is left
only when another beats it clearly (``engine.search.choice``).

A re-bury after a late overturn (phase ``rebury``) stays the baseline's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import Card, full_deck
from engine.search.choice import ranking, scaled_worlds, worlds_for
from engine.search.sampling import deal_hidden
from engine.shengji.ai import bury_order
from engine.shengji.information import ShengjiInformation, determinize, shown_in_bids
from engine.shengji.match import ShengjiRules
from engine.shengji.options import ShengjiOptions
from engine.shengji.order import TRUMP, TrumpContext, trump_context
from engine.shengji.playout import finish

KITTY = 8
BURY_BUDGET = 40_000  # card plays of play-outs for the one bury of a deal, all candidates and worlds
BURY_MIN_WORLDS = 8
BURY_MAX_WORLDS = 40
MAX_BURY_CANDIDATES = 8


@dataclass(frozen=True)
class BuryInformation:
    """What the dealer knows when it buries: hashable, picklable, no hidden card."""

    seat: int
    options: ShengjiOptions
    levels: tuple[int, int]
    dealer: int
    level: int
    trump_suit: int | None
    deal_no: int
    deals_played: int
    hand: tuple[Card, ...]  # its cards with the kitty taken
    hand_sizes: tuple[int, int, int, int]
    shown: tuple[tuple[Card, ...], ...]  # per seat: cards shown in declarations (none for itself)

    @property
    def ctx(self) -> TrumpContext:
        return trump_context(self.level, self.trump_suit)

    def unseen(self) -> list[Card]:
        rest = full_deck(2)
        for c in self.hand:
            rest.remove(c)
        return rest


def bury_information(m: ShengjiRules, seat: int) -> BuryInformation:
    """``seat``'s information set when it buries (phase ``bury``, ``seat`` the dealer)."""
    if m.phase != "bury" or m.dealer != seat or m.level is None:
        raise ValueError("the bury information is defined for the dealer in the bury phase")
    shown = shown_in_bids(m)
    shown[seat] = []
    return BuryInformation(
        seat=seat,
        options=m.options,
        levels=(m.levels[0], m.levels[1]),
        dealer=m.dealer,
        level=m.level,
        trump_suit=m.trump_suit,
        deal_no=m.deal_no,
        deals_played=m.deals_played,
        hand=tuple(sorted(m.hands[seat])),
        hand_sizes=(len(m.hands[0]), len(m.hands[1]), len(m.hands[2]), len(m.hands[3])),
        shown=tuple(tuple(sorted(x)) for x in shown),
    )


def bury_candidates(ctx: TrumpContext, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """The kitties compared: the baseline's first, then distinct others (each 8 cards of ``hand``)."""
    grp, st = ctx.group_of, ctx.strength_of
    order = bury_order(ctx, hand)  # cheapest to bury first
    base = order[:KITTY]
    out: list[tuple[Card, ...]] = []

    def add(cards: Sequence[Card]) -> None:
        key = tuple(sorted(cards))
        if len(key) == KITTY and key not in out:
            out.append(key)

    add(base)
    counts = [0] * 54
    for c in hand:
        counts[c] += 1
    suits = [g for g in range(4) if g != TRUMP]
    by_suit = {g: sorted((c for c in hand if grp[c] == g), key=lambda c: st[c]) for g in suits}
    short = sorted((g for g in suits if by_suit[g]), key=lambda g: (len(by_suit[g]), g))

    def void(groups: Sequence[int]) -> None:
        cards = [c for g in groups for c in by_suit[g]]
        if len(cards) > KITTY:
            return
        rest = list(hand)
        for c in cards:
            rest.remove(c)
        fill = [c for c in bury_order(ctx, rest) if grp[c] not in groups]
        add(cards + fill[: KITTY - len(cards)])

    for g in short:
        void([g])
    for i, g in enumerate(short):
        for h in short[i + 1 :]:
            void([g, h])
    # the baseline's order but point cards allowed (a short suit's 10s and Ks go too), and pairs kept
    add(
        sorted(
            (c for c in hand if grp[c] != TRUMP), key=lambda c: (st[c] >= ctx.positions[grp[c]] - 2, st[c])
        )[:KITTY]
    )
    add([c for c in order if counts[c] < 2][:KITTY])
    return out[:MAX_BURY_CANDIDATES]


def sample_others(info: BuryInformation, rng: random.Random) -> list[list[Card]]:
    """One deal of the unseen cards over the three other hands (the shown cards to their owners); the
    seat's own entry is empty."""
    others = [s for s in range(4) if s != info.seat]
    dealt = deal_hidden(
        info.unseen(), [info.hand_sizes[s] for s in others], rng, None, [list(info.shown[s]) for s in others]
    )
    hands: list[list[Card]] = [[], [], [], []]
    for slot, s in enumerate(others):
        hands[s] = dealt[slot]
    return hands


def play_info(info: BuryInformation, kitty: Sequence[Card]) -> ShengjiInformation:
    """The information set the seat has at the first lead after burying ``kitty``."""
    hand = list(info.hand)
    for c in kitty:
        hand.remove(c)
    sizes = list(info.hand_sizes)
    sizes[info.seat] = len(hand)
    return ShengjiInformation(
        seat=info.seat,
        options=info.options,
        levels=info.levels,
        dealer=info.dealer,
        level=info.level,
        trump_suit=info.trump_suit,
        deal_no=info.deal_no,
        deals_played=info.deals_played,
        hand=tuple(sorted(hand)),
        hand_sizes=(sizes[0], sizes[1], sizes[2], sizes[3]),
        kitty=tuple(sorted(kitty)),
        leader=info.dealer,
        trick=(),
        tricks=(),
        defender_points=0,
        charges=(),
        voids=(frozenset(), frozenset(), frozenset(), frozenset()),
        shown=info.shown,
    )


def bury_play_outs(
    info: BuryInformation, seed: int, budget: int | None = None, effort: float = 1.0
) -> tuple[list[tuple[Card, ...]], list[list[float]]]:
    """The candidate kitties and each one's result in every world (``results[i][w]``)."""
    rng = random.Random(seed)
    cands = bury_candidates(info.ctx, info.hand)
    if len(cands) == 1:
        return cands, [[0.0]]
    infos = [play_info(info, k) for k in cands]
    cards_left = sum(info.hand_sizes) - KITTY
    least, most = scaled_worlds(BURY_MIN_WORLDS, BURY_MAX_WORLDS, effort)
    worlds = worlds_for(int((budget or BURY_BUDGET) * effort), len(cands), cards_left, least, most)
    results: list[list[float]] = [[] for _ in cands]
    for _ in range(worlds):
        others = sample_others(info, rng)
        for i, (k, pinfo) in enumerate(zip(cands, infos, strict=True)):
            hands = [list(pinfo.hand) if s == info.seat else others[s] for s in range(4)]
            results[i].append(finish(pinfo, determinize(pinfo, hands, list(k))))
    return cands, results


def choose_bury(
    info: BuryInformation, seed: int, budget: int | None = None, effort: float = 1.0
) -> tuple[Card, ...]:
    """The searched kitty of ``info.seat`` (8 of its cards); ``effort`` as ``ai_strong.choose_play``."""
    cands, results = bury_play_outs(info, seed, budget, effort)
    if len(cands) == 1:
        return cands[0]
    return cands[ranking(results)[0][0]]
