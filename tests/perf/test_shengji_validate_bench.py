"""Benchmark: Shengji play-rule helpers on one core (issue 2: validate a play well under a millisecond;
issue 11: the throw check with the lead's classification <= 20 us).

Prints check_follow validations per second, random_legal_play calls per second, the throw check
(``classify_lead`` + ``check_throw`` against the three other hands, as ``ShengjiMatch`` does for a
throw), and the play phase of complete random-legal deals per second (25 tricks x 4 plays, with lead
classification, throw checks and trick winners; no bidding).  Positions come from fresh seeds
(``random.SystemRandom``) on every run and repetition; times are this process's CPU time
(``time.process_time``).  Run with ``make bench``.
"""

from __future__ import annotations

import random
import statistics
import time

from engine.cards import full_deck
from engine.shengji.follow import check_follow
from engine.shengji.formats import Lead, classify_lead
from engine.shengji.legal import lowest_legal_play, random_legal_play
from engine.shengji.order import TrumpContext, trump_context
from engine.shengji.throw import check_throw
from engine.shengji.trick import trick_winner


def _positions(n: int, seed: int) -> list[tuple[TrumpContext, Lead, list[int], list[int]]]:
    """Follow positions sampled from random deals: (context, lead, hand, a legal play)."""
    rng = random.Random(seed)
    out: list[tuple[TrumpContext, Lead, list[int], list[int]]] = []
    while len(out) < n:
        ctx = trump_context(rng.randint(2, 14), rng.choice([None, 0, 1, 2, 3]))
        deck = full_deck()
        rng.shuffle(deck)
        hands = [deck[i * 25 : (i + 1) * 25] for i in range(4)]
        leader = 0
        while hands[leader] and len(out) < n:
            lead_cards = random_legal_play(ctx, hands[leader], None, rng, True)
            lead = classify_lead(ctx, lead_cards, True)
            for c in lead_cards:
                hands[leader].remove(c)
            for i in (1, 2, 3):
                h = hands[(leader + i) % 4]
                play = random_legal_play(ctx, h, lead, rng, True)
                out.append((ctx, lead, list(h), play))
                for c in play:
                    h.remove(c)
            leader = (leader + rng.randrange(4)) % 4
    return out


def _play_phase(ctx: TrumpContext, rng: random.Random, throws: bool) -> None:
    deck = full_deck()
    rng.shuffle(deck)
    hands = [deck[i * 25 : (i + 1) * 25] for i in range(4)]
    leader = 0
    while hands[leader]:
        h = hands[leader]
        cards = random_legal_play(ctx, h, None, rng, throws)
        lead = classify_lead(ctx, cards, throws)
        if lead.kind == "throw":
            res = check_throw(ctx, lead, [hands[(leader + i) % 4] for i in (1, 2, 3)])
            if res is not None:
                cards = list(res.forced.cards)
                lead = classify_lead(ctx, cards, throws)
        for c in cards:
            h.remove(c)
        plays = [cards]
        for i in (1, 2, 3):
            f = hands[(leader + i) % 4]
            p = random_legal_play(ctx, f, lead, rng, throws)
            check_follow(ctx, lead, f, p)
            for c in p:
                f.remove(c)
            plays.append(p)
        leader = (leader + trick_winner(ctx, lead, plays)) % 4


def _fresh() -> int:
    return random.SystemRandom().randrange(2**62)


def _throws(n: int, seed: int) -> list[tuple[TrumpContext, tuple[int, ...], list[list[int]]]]:
    """Throw leads sampled from random deals: (context, the cards as led, the three other hands)."""
    rng = random.Random(seed)
    out: list[tuple[TrumpContext, tuple[int, ...], list[list[int]]]] = []
    while len(out) < n:
        ctx = trump_context(rng.randint(2, 14), rng.choice([None, 0, 1, 2, 3]))
        deck = full_deck()
        rng.shuffle(deck)
        hands = [deck[i * 25 : (i + 1) * 25] for i in range(4)]
        for _ in range(30):
            cards = random_legal_play(ctx, hands[0], None, rng, True)
            if classify_lead(ctx, cards, True).kind == "throw":
                out.append((ctx, tuple(ctx.sort_for_display(cards)), hands[1:]))
                break
    return out


def test_bench_throw_check_with_classification() -> None:
    per_rep = []
    failed = total = 0
    for _ in range(5):
        pos = _throws(5000, _fresh())
        t = time.process_time()
        for ctx, cards, others in pos:
            check_throw(ctx, classify_lead(ctx, cards, True), others)
        per_rep.append((time.process_time() - t) / len(pos) * 1e6)
        failed += sum(
            1 for ctx, cards, others in pos if check_throw(ctx, classify_lead(ctx, cards, True), others)
        )
        total += len(pos)
    print(
        f"\nthrow check incl. the lead's classification: median {statistics.median(per_rep):.1f} us "
        f"(range {min(per_rep):.1f}-{max(per_rep):.1f}) over 5 x 5000 throws from fresh deals; "
        f"{failed / total:.0%} of them fail"
    )


def test_bench_check_follow_validations_per_second() -> None:
    pos = _positions(20000, _fresh())
    t = time.process_time()
    for ctx, lead, hand, play in pos:
        check_follow(ctx, lead, hand, play)
    dt = time.process_time() - t
    multi = [p for p in pos if len(p[1].cards) > 1]
    t = time.process_time()
    for ctx, lead, hand, play in multi:
        check_follow(ctx, lead, hand, play)
    dt_multi = time.process_time() - t
    print(
        f"\ncheck_follow: {len(pos) / dt:,.0f} validations/s ({dt / len(pos) * 1e6:.1f} us each); "
        f"multi-card leads only: {len(multi) / dt_multi:,.0f}/s ({dt_multi / len(multi) * 1e6:.1f} us each)"
    )


def test_bench_random_and_lowest_legal_play_per_second() -> None:
    pos = _positions(20000, _fresh())
    rng = random.Random(_fresh())
    t = time.process_time()
    for ctx, lead, hand, _ in pos:
        random_legal_play(ctx, hand, lead, rng, True)
    dt = time.process_time() - t
    t = time.process_time()
    for ctx, lead, hand, _ in pos:
        lowest_legal_play(ctx, hand, lead)
    dt_low = time.process_time() - t
    print(
        f"\nrandom_legal_play (follows): {len(pos) / dt:,.0f} calls/s; "
        f"lowest_legal_play (follows): {len(pos) / dt_low:,.0f} calls/s"
    )


def test_bench_play_phase_deals_per_second() -> None:
    rng = random.Random(_fresh())
    for throws in (True, False):
        n = 300
        t = time.process_time()
        for _ in range(n):
            ctx = trump_context(rng.randint(2, 14), rng.choice([None, 0, 1, 2, 3]))
            _play_phase(ctx, rng, throws)
        dt = time.process_time() - t
        print(f"\nplay phase of random-legal deals (throws={throws}): {n / dt:,.0f} deals/s")
