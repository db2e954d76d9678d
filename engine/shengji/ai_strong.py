"""The strong Shengji player: determinized Monte Carlo search on the seat's information set.

For a play (lead or follow) it lists a few candidate plays — the baseline player's choice first, the
lowest legal play, the high and low cards of each group, pairs, tractors, short throws, discards and
trumps when void — then deals the unseen cards several times consistently with what the seat knows
(``engine.shengji.information``: voids shown by play, cards shown in declarations, the kitty it
buried) and plays each candidate out to the end of the deal in every such world, every seat following
the baseline player (``engine.shengji.ai``).  The candidate with the best average result wins (level
steps for the own side, plus the defenders' points as a small tie-break) when it beats the baseline's
choice clearly on the same worlds (``engine.search.choice``).  All candidates meet the same
worlds (common random numbers), so their differences are measured with less noise.

It is given an :class:`~engine.shengji.information.ShengjiInformation`, never the match, and draws
only from the seed it is given: two matches that look the same to the seat get the same answer.
The dealer's bury is searched (``engine.shengji.ai_bury``), and so are declarations, overturns and late
overturns (``engine.shengji.ai_declare``); a re-bury and the failed-throw choice are the baseline player's
(docs/performance.md says what was measured).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, cards_text, parse_cards, points
from engine.search.choice import ranking, scaled_worlds, worlds_for
from engine.shengji import ai_declare
from engine.shengji.ai import _candidates
from engine.shengji.ai import choose_action as normal_action
from engine.shengji.ai_bury import BuryInformation, bury_information, choose_bury
from engine.shengji.follow import is_legal_follow
from engine.shengji.formats import classify_lead
from engine.shengji.information import ShengjiInformation, determinize, information, sample_hidden
from engine.shengji.legal import legal_leads_simple, lowest_legal_play, random_legal_play
from engine.shengji.match import Move, ShengjiRules
from engine.shengji.order import TRUMP
from engine.shengji.playout import finish
from engine.shengji.scoring import settle_deal

BUDGET = 12_000  # card plays of play-outs per decision, all candidates and worlds together
MIN_WORLDS = 8  # each candidate meets at least this many worlds
MAX_WORLDS = 40
MAX_CANDIDATES = 10
SEARCH_BURY = True  # the dealer's bury is searched (engine.shengji.ai_bury); False: the baseline's
SEARCH_DECLARE = True  # declarations and (late) overturns are searched (engine.shengji.ai_declare)


def choose_action(m: ShengjiRules, seat: int, rng: random.Random) -> str | None:
    """The strong player's action for ``seat`` (the Match protocol's ``ai_action`` at level strong).

    A play is searched on ``seat``'s information set only; everything else is the baseline player's."""
    if m.phase == "play" and not m.finished and m.to_play() == seat:
        return choose_play(information(m, seat), rng.getrandbits(63)).text()
    if m.phase == "bury" and not m.finished and m.dealer == seat and SEARCH_BURY:
        return bury_text(bury_information(m, seat), rng.getrandbits(63))
    if SEARCH_DECLARE and m.phase in ai_declare.PHASES and ai_declare.is_decision(m, seat):
        info = ai_declare.declare_information(m, seat)
        if ai_declare.searched_now(info):
            return ai_declare.choose_declare(info, rng.getrandbits(63), cpu_limit=ai_declare.CPU_LIMIT)
        if m.phase == "dealing":
            return None  # it waits for a change (engine.shengji.ai_declare.searched_now)
    return normal_action(m, seat, rng)


def bury_text(info: BuryInformation, seed: int, effort: float = 1.0) -> str:
    """The searched bury of ``info.seat`` as its action text."""
    kitty = choose_bury(info, seed, effort=effort)
    return f"{info.seat} bury {cards_text(info.ctx.sort_for_display(kitty))}"


def choose_play(info: ShengjiInformation, seed: int, budget: int | None = None, effort: float = 1.0) -> Move:
    """The searched play of ``info.seat`` (its lead or follow now); ``effort`` below 1 scales the budget and
    the least and most worlds down (the bot's workers under load: a quicker, noisier search)."""
    ranked = search(info, seed, budget, effort)
    return Move(info.seat, "play", ranked[0][0])


def search(
    info: ShengjiInformation, seed: int, budget: int | None = None, effort: float = 1.0
) -> list[tuple[tuple[Card, ...], float]]:
    """Every candidate play with its average result, best first (``engine.search.choice.ranking``)."""
    cands, results = play_outs(info, seed, budget, effort=effort)
    if len(cands) == 1:
        return [(cands[0], 0.0)]
    return [(cands[i], mean) for i, mean in ranking(results)]


def play_outs(
    info: ShengjiInformation,
    seed: int,
    budget: int | None = None,
    extra: Sequence[Card] | None = None,
    effort: float = 1.0,
) -> tuple[list[tuple[Card, ...]], list[list[float]]]:
    """The candidates (``extra`` added last when it is not one: the coach's actual play) and each one's
    result in every world (``results[i][w]``); a single candidate is not played out."""
    rng = random.Random(seed)
    first_hands, first_kitty = sample_hidden(info, rng)
    base = determinize(info, first_hands, first_kitty)
    cands = candidates(info, base, rng)
    if extra is not None:
        key = tuple(info.ctx.sort_for_display(extra))
        if key not in cands:
            cands.append(key)
    if len(cands) == 1:
        return cands, [[0.0]]
    cards_left = sum(info.hand_sizes)
    least, most = scaled_worlds(MIN_WORLDS, MAX_WORLDS, effort)
    worlds = worlds_for(int((budget or BUDGET) * effort), len(cands), cards_left, least, most)
    results: list[list[float]] = [[] for _ in cands]
    for w in range(worlds):
        hands, kitty = (first_hands, first_kitty) if w == 0 else sample_hidden(info, rng)
        for i, cand in enumerate(cands):
            results[i].append(playout(info, determinize(info, hands, kitty), cand))
    return cands, results


def playout(info: ShengjiInformation, world: ShengjiRules, play: Sequence[Card]) -> float:
    """``play`` in ``world``, then the baseline player for every seat to the end of the deal: the result
    for ``info.seat``'s side (level steps won or lost, the defenders' points as a tie-break)."""
    world.apply_move(Move(info.seat, "play", tuple(play)))
    return finish(info, world)


def deal_value(info: ShengjiInformation, defender_points: int) -> int:
    """Level steps for ``info.seat``'s side if the defenders end with ``defender_points`` (the coach)."""
    st = settle_deal(info.options.level_table, info.levels, info.dealer, defender_points)
    winner = info.dealer % 2 if st.winner == "dealer" else 1 - info.dealer % 2
    return st.steps if winner == info.seat % 2 else -st.steps


def candidates(info: ShengjiInformation, world: ShengjiRules, rng: random.Random) -> list[tuple[Card, ...]]:
    """The plays the search compares: the baseline player's first, then a handful of distinct others.

    ``world`` is any world of ``info`` (the baseline player reads only the seat's own cards and the
    table, so its choice is the same in all of them)."""
    ctx = info.ctx
    hand = list(info.hand)
    seat = info.seat
    out: list[tuple[Card, ...]] = []

    def add(cards: Sequence[Card]) -> None:
        key = tuple(ctx.sort_for_display(cards))
        if key and key not in out:
            out.append(key)

    heuristic = normal_action(world, seat, rng)
    assert heuristic is not None and " play " in heuristic
    add(parse_cards(heuristic.split(" play ", 1)[1]))
    grp, st = ctx.group_of, ctx.strength_of
    if not info.trick:
        add(lowest_legal_play(ctx, hand, None))
        leads = legal_leads_simple(ctx, hand, info.options.throws)
        by_group: dict[int, list[list[Card]]] = {}
        for play in leads:
            by_group.setdefault(grp[play[0]], []).append(play)
        for g, plays in sorted(by_group.items()):
            singles = [p for p in plays if len(p) == 1]
            multi = [p for p in plays if len(p) > 1]
            if singles:
                add(max(singles, key=lambda p: st[p[0]]))
                add(min(singles, key=lambda p: (points(p[0]) > 0, st[p[0]])))
            if multi:
                add(max(multi, key=lambda p: (len(p), st[p[0]])))
            if info.options.throws and g != TRUMP:
                tops = sorted({c for c in hand if grp[c] == g}, key=lambda c: -st[c])[:2]
                if len(tops) == 2 and classify_lead(ctx, tops, True).kind == "throw":
                    add(tops)
    else:
        lead = classify_lead(ctx, info.trick[0][1], True)
        add(lowest_legal_play(ctx, hand, lead))
        if lead.kind == "single":
            same = sorted({c for c in hand if grp[c] == lead.group}, key=lambda c: st[c])
            if same:
                picks = (
                    same if len(same) <= 5 else [same[0], same[-1], same[-2]] + [c for c in same if points(c)]
                )
            else:
                plain = sorted({c for c in hand if not ctx.trump_of[c]}, key=lambda c: (points(c), st[c]))
                trumps = sorted({c for c in hand if ctx.trump_of[c]}, key=lambda c: st[c])
                picks = (
                    plain[:1] + plain[-1:] + trumps[:1] + [c for c in trumps if points(c)][:1] + trumps[-1:]
                )
            for c in picks:
                add([c])
        else:
            for cand in _candidates(ctx, hand, lead):
                if len(cand) == len(lead.cards):
                    add(cand)
            for _ in range(4):
                add(random_legal_play(ctx, hand, lead, rng, False))
        out = [c for c in out if is_legal_follow(ctx, lead, hand, c)] or out[:1]
    return out[:MAX_CANDIDATES]


def describe(cards: Sequence[Card]) -> str:
    return cards_text(cards)
