"""Lowest legal play (move-clock auto-play, D6), random legal plays and simple leads: every play they
produce obeys docs/rules.md 1.5 (lead formats and following)."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import cards_text, full_deck, parse_cards
from engine.errors import RuleError
from engine.shengji.follow import check_follow
from engine.shengji.formats import Lead, classify_lead, decompose
from engine.shengji.legal import legal_leads_simple, lowest_legal_play, random_legal_play
from engine.shengji.order import TrumpContext, trump_context

HEARTS = 1
L6 = trump_context(6, HEARTS)


@pytest.mark.parametrize(
    ("rule", "hand", "play"),
    [
        ("lead: lowest non-trump non-point single", "♥2 ♠5 ♠3 ♣K BJ", "♠3"),
        ("lead: a non-point card before a lower point card", "♠5 ♠7 ♥2", "♠7"),
        ("lead: only trumps, the lowest trump", "♥2 ♥5 SJ ♣6", "♥2"),
    ],
)
def test_d6_lowest_legal_lead(rule: str, hand: str, play: str) -> None:
    assert cards_text(lowest_legal_play(L6, parse_cards(hand), None)) == play


@pytest.mark.parametrize(
    ("rule", "lead", "hand", "play"),
    [
        ("single: lowest card of the suit, non-point first", "♣9", "♣5 ♣7 ♣A ♥2", "♣7"),
        ("single void: lowest non-trump non-point discard", "♣9", "♠5 ♠3 ♥2", "♠3"),
        ("pair: short in suit plays all of it plus the lowest others", "♣9 ♣9", "♣3 ♠5 ♠7 ♥2", "♣3 ♠7"),
        ("pair: the lowest pair", "♣9 ♣9", "♣J ♣J ♣4 ♣4 ♣2", "♣4 ♣4"),
        ("2h tractor lead: the lowest tractor", "♣9 ♣9 ♣8 ♣8", "♣5 ♣5 ♣4 ♣4 ♣Q ♣Q ♣J ♣J ♣2", "♣5 ♣5 ♣4 ♣4"),
        ("2h tractor lead: no tractor -> two pairs", "♣9 ♣9 ♣8 ♣8", "♣J ♣J ♣4 ♣4 ♣2 ♣3", "♣J ♣J ♣4 ♣4"),
        ("2h tractor lead: one pair and two low singles", "♣9 ♣9 ♣8 ♣8", "♣J ♣J ♣K ♣2 ♣3 ♣5", "♣J ♣J ♣2 ♣3"),
        ("throw: pair then the lowest single", "♠A ♠A ♠K", "♠3 ♠3 ♠4 ♠5 ♠9", "♠3 ♠3 ♠4"),
    ],
)
def test_d6_lowest_legal_follow(rule: str, lead: str, hand: str, play: str) -> None:
    led = classify_lead(L6, parse_cards(lead), throws_allowed=True)
    got = lowest_legal_play(L6, parse_cards(hand), led)
    assert sorted(got) == sorted(parse_cards(play))
    check_follow(L6, led, parse_cards(hand), got)


def test_legal_leads_simple_lists_singles_pairs_and_tractors() -> None:
    hand = parse_cards("♠7 ♠7 ♠5 ♠5 SJ SJ ♥6 ♥6 ♠6 ♠6 ♣6 ♣6 ♥A ♥A ♦3")
    leads = legal_leads_simple(L6, hand, throws_allowed=False)
    texts = {cards_text(p) for p in leads}
    assert {
        "♠7",
        "♦3",
        "♠7 ♠7",
        "♠7 ♠7 ♠5 ♠5",
        "SJ SJ ♥6 ♥6",
        "SJ SJ ♥6 ♥6 ♣6 ♣6 ♥A ♥A",
        "♥6 ♥6 ♠6 ♠6 ♥A ♥A",
    } <= texts
    assert "♠6 ♠6 ♣6 ♣6" not in texts
    for p in leads:
        assert classify_lead(L6, p, throws_allowed=False).kind != "throw"


def _deal(rng: random.Random) -> list[list[int]]:
    deck = full_deck()
    rng.shuffle(deck)
    return [sorted(deck[i * 25 : (i + 1) * 25]) for i in range(4)]


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    level=st.integers(2, 14),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
    throws=st.booleans(),
)
def test_random_and_lowest_plays_always_pass_the_rules(
    seed: int, level: int, trump: int | None, throws: bool
) -> None:
    """Property (docs/rules.md 1.5): over a whole deal of random legal play, every random lead classifies
    (no throw when throws are off), and every random and every lowest follow passes check_follow."""
    rng = random.Random(seed)
    ctx = trump_context(level, trump)
    hands = _deal(rng)
    leader = 0
    while hands[leader]:
        lead_cards = random_legal_play(ctx, hands[leader], None, rng, throws)
        lead = classify_lead(ctx, lead_cards, throws)
        assert throws or lead.kind != "throw"
        low = lowest_legal_play(ctx, hands[leader], None)
        assert classify_lead(ctx, low, False).kind == "single"
        for c in lead_cards:
            hands[leader].remove(c)
        for i in (1, 2, 3):
            h = hands[(leader + i) % 4]
            check_follow(ctx, lead, h, lowest_legal_play(ctx, h, lead))
            play = random_legal_play(ctx, h, lead, rng, throws)
            check_follow(ctx, lead, h, play)
            for c in play:
                h.remove(c)
        leader = (leader + rng.randrange(4)) % 4


def _reference_legal(ctx: TrumpContext, lead: Lead, hand: list[int], play: tuple[int, ...]) -> bool:
    """Brute force of docs/rules.md 1.5 Following for leads with at most one tractor: as many G cards as
    possible; a tractor of the lead's length when any play from the hand can show one; then at least
    min(pairs held in G, pairs in the lead) pairs."""
    g = lead.group
    n = len(lead.cards)
    gcards = [c for c in hand if ctx.group(c) == g]
    if sum(1 for c in play if ctx.group(c) == g) != min(n, len(gcards)):
        return False
    if len(gcards) <= n:
        return True

    def shows_tractor(cards: tuple[int, ...]) -> bool:
        return any(u.kind == "tractor" and u.length >= lead.tractor_lengths[0] for u in decompose(ctx, cards))

    if (
        lead.tractor_lengths
        and not shows_tractor(play)
        and any(shows_tractor(p) for p in itertools.combinations(sorted(gcards), n))
    ):
        return False
    held_pairs = sum(1 for c in set(gcards) if gcards.count(c) >= 2)
    pairs = sum(1 for c in set(play) if play.count(c) >= 2)
    return pairs >= min(held_pairs, lead.pairs)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_check_follow_agrees_with_brute_force_on_one_suit(seed: int) -> None:
    """Property (docs/rules.md 1.5 Following 2): on small one-suit hands, check_follow accepts exactly the plays
    that a brute-force reading of the rule accepts, for single, pair, tractor and throw leads."""
    rng = random.Random(seed)
    ctx = trump_context(6, HEARTS)
    spades = [c for c in range(10) if c != 4]  # ♠2..♠J without ♠6 (the lead holds the A, K, Q)
    pool = [c for c in spades for _ in range(2)]
    hand = sorted(rng.sample(pool, rng.randint(3, 9)) + rng.sample(range(13, 26), 2))
    lead_txt = rng.choice(["♠A", "♠A ♠A", "♠A ♠A ♠K ♠K", "♠A ♠A ♠K", "♠A ♠A ♠K ♠K ♠Q ♠Q", "♠A ♠K ♠Q"])
    lead = classify_lead(ctx, parse_cards(lead_txt), throws_allowed=True)
    n = len(lead.cards)
    for play in set(itertools.combinations(hand, n)):
        try:
            check_follow(ctx, lead, hand, list(play))
            ok = True
        except RuleError:
            ok = False
        assert ok == _reference_legal(ctx, lead, hand, play), (cards_text(hand), cards_text(play), lead_txt)
