"""Trick winner: docs/rules.md 1.5 "Winning a trick" (same format only, ruffs, ties to the earlier play)
and seed 50min 五.5 (a ruff of a pair / tractor must be a trump pair / tractor, not fewer pairs)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import card, full_deck, parse_cards, rank_of, suit_of
from engine.shengji.formats import classify_lead
from engine.shengji.legal import random_legal_play
from engine.shengji.order import trump_context
from engine.shengji.trick import trick_winner, winning_is_trump

HEARTS = 1
L6 = trump_context(6, HEARTS)

CASES = [
    # (rule, plays (lead first), winner index)
    ("single: higher card of the suit wins", ["♠9", "♠3", "♠K", "♠10"], 2),
    ("single: a discard never wins", ["♠9", "♣A", "♦A", "♠3"], 0),
    ("single: a ruff beats the suit", ["♠A", "♠K", "♥2", "♠Q"], 2),
    ("single: a higher ruff beats a ruff", ["♠A", "♥2", "♥3", "♠Q"], 2),
    ("single: over-ruff with an off-suit level card", ["♠A", "♥A", "♣6", "♠Q"], 2),
    ("tie: equal cards, the earlier play wins", ["♠9", "♠9", "♠3", "♠4"], 0),
    ("tie: equal off-suit level cards, the earlier play wins", ["♥2", "♣6", "♦6", "♠6"], 1),
    ("tie: equal ruffs, the earlier ruff wins", ["♠A", "♥3", "♥3", "♠2"], 1),
    ("trump lead: higher trump wins", ["♥2", "♥A", "SJ", "♠6"], 2),
    ("trump lead: trump-suit level beats off-suit level", ["♠6", "♥6", "♣6", "♥A"], 1),
    ("pair: a higher pair wins", ["♠9 ♠9", "♠J ♠J", "♠A ♠K", "♠2 ♠2"], 1),
    ("pair: two higher singles do not win", ["♠9 ♠9", "♠A ♠K", "♠2 ♠3", "♠4 ♠5"], 0),
    ("pair: a trump pair ruffs", ["♠A ♠A", "♥2 ♥2", "♠3 ♠4", "♣2 ♣3"], 1),
    ("pair: two different trumps do not ruff (50min 五.5)", ["♠A ♠A", "BJ SJ", "♠3 ♠4", "♣2 ♣3"], 0),
    ("pair: a trump and an off-suit card do not ruff", ["♠A ♠A", "BJ ♣2", "♠3 ♠4", "♣2 ♣3"], 0),
    ("pair: off-suit level pairs tie, the earlier wins", ["♥2 ♥2", "♣6 ♣6", "♦6 ♦6", "♥3 ♥3"], 1),
    (
        "tractor: a higher tractor of the same length wins",
        ["♠9 ♠9 ♠8 ♠8", "♠Q ♠Q ♠J ♠J", "♠2 ♠10 ♠4 ♠5", "♠A ♠A ♠3 ♠3"],
        1,
    ),
    (
        "tractor: two higher pairs do not win",
        ["♠9 ♠9 ♠8 ♠8", "♠A ♠A ♠Q ♠Q", "♠2 ♠3 ♠4 ♠10", "♠7 ♠7 ♠5 ♠5"],
        0,
    ),
    (
        "tractor: a tractor across the level rank",
        ["♠4 ♠4 ♠3 ♠3", "♠A ♠A ♠Q ♠Q", "♠2 ♠2 ♠9 ♠10", "♠7 ♠7 ♠5 ♠5"],
        3,
    ),
    ("tractor: a trump tractor ruffs", ["♠9 ♠9 ♠8 ♠8", "♥3 ♥3 ♥2 ♥2", "♠2 ♠3 ♠4 ♠5", "♠A ♠K ♠K ♠Q"], 1),
    (
        "tractor: trump pairs that are no tractor do not ruff (50min 五.5)",
        ["♠9 ♠9 ♠8 ♠8", "BJ BJ ♥2 ♥2", "♠2 ♠3 ♠4 ♠5", "♣3 ♣3 ♣4 ♣5"],
        0,
    ),
    (
        "tractor: higher trump tractor over-ruffs",
        ["♠9 ♠9 ♠8 ♠8", "♥3 ♥3 ♥2 ♥2", "SJ SJ ♥6 ♥6", "♠6 ♠6 ♥A ♥A"],
        2,
    ),
    (
        "tractor: off-suit level pair + trump A over-ruffs",
        ["♠9 ♠9 ♠8 ♠8", "♥3 ♥3 ♥2 ♥2", "♣6 ♣6 ♥A ♥A", "♠2 ♠2 ♠3 ♠4"],
        2,
    ),
    ("throw: a follower in the suit never wins", ["♠A ♠K", "♠2 ♠3", "♠A ♠Q", "♣2 ♣3"], 0),
    ("throw: a trump ruff with the shape wins", ["♠A ♠A ♠K", "♥2 ♥2 ♥3", "♠2 ♠3 ♠4", "♣2 ♣3 ♣4"], 1),
    (
        "throw: a ruff without the throw's pair does not win",
        ["♠A ♠A ♠K", "♥2 ♥3 ♥4", "♠2 ♠3 ♠4", "♣2 ♣3 ♣4"],
        0,
    ),
    ("throw: over-ruff compares the largest component", ["♠A ♠A ♠K", "♥2 ♥2 BJ", "♥3 ♥3 ♥4", "♣2 ♣3 ♣4"], 2),
    (
        "throw: equal largest components, the earlier ruff wins",
        ["♠A ♠A ♠K", "♣6 ♣6 ♥2", "♦6 ♦6 BJ", "♣2 ♣3 ♣4"],
        1,
    ),
    ("throw: a trump pair may stand in for two singles", ["♠A ♠K", "♥2 ♥2", "♠2 ♠3", "♣2 ♣3"], 1),
    (
        "throw with a tractor: ruff needs a tractor",
        ["♠A ♠A ♠K ♠K ♠9", "♥2 ♥2 ♥4 ♥4 BJ", "♠2 ♠3 ♠4 ♠5 ♠7", "♥7 ♥7 ♥8 ♥8 ♥9"],
        3,
    ),
]


@pytest.mark.parametrize(("rule", "plays", "winner"), CASES, ids=[c[0] for c in CASES])
def test_rules_1_5_trick_winner(rule: str, plays: list[str], winner: int) -> None:
    cards = [parse_cards(p) for p in plays]
    lead = classify_lead(L6, cards[0], throws_allowed=True)
    assert trick_winner(L6, lead, cards) == winner


def test_trick_winner_on_a_partial_trick() -> None:
    plays = [parse_cards("♠9"), parse_cards("♠K")]
    assert trick_winner(L6, classify_lead(L6, plays[0], False), plays) == 1
    assert trick_winner(L6, classify_lead(L6, plays[0], False), plays[:1]) == 0


def test_no_trump_single_and_ruff() -> None:
    ctx = trump_context(9, None)
    plays = [parse_cards(p) for p in ("♠A", "♥9", "♠K", "♦9")]
    assert trick_winner(ctx, classify_lead(ctx, plays[0], False), plays) == 1


def test_rules_1_6_winning_is_trump_for_off_suit_half() -> None:
    assert winning_is_trump(L6, parse_cards("♥2 ♥2"))
    assert winning_is_trump(L6, parse_cards("♣6"))
    assert not winning_is_trump(L6, parse_cards("♠A ♠A"))


def _relabel(c: int, perm: list[int]) -> int:
    if c >= 52:
        return c
    return card(perm[suit_of(c)], rank_of(c))


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), level=st.integers(2, 14), trump=st.sampled_from([None, 0, 1, 2, 3]))
def test_trick_winner_invariant_to_card_order_and_off_suit_names(
    seed: int, level: int, trump: int | None
) -> None:
    """Property (docs/rules.md 1.5): the winner depends on the cards, not on the order they are listed in, and
    renaming the non-trump suits among themselves (♠↔♣ when ♥ is trump) changes nobody's result."""
    rng = random.Random(seed)
    ctx = trump_context(level, trump)
    deck = full_deck()
    rng.shuffle(deck)
    hands = [deck[i * 25 : (i + 1) * 25] for i in range(4)]
    throws = rng.random() < 0.5
    lead_cards = random_legal_play(ctx, hands[0], None, rng, throws)
    lead = classify_lead(ctx, lead_cards, throws)
    plays = [lead_cards] + [random_legal_play(ctx, hands[i], lead, rng, throws) for i in (1, 2, 3)]
    winner = trick_winner(ctx, lead, plays)
    shuffled = [rng.sample(p, len(p)) for p in plays]
    assert trick_winner(ctx, classify_lead(ctx, shuffled[0], throws), shuffled) == winner
    off = [s for s in range(4) if s != trump]
    perm = list(range(4))
    img = rng.sample(off, len(off))
    for a, b in zip(off, img, strict=True):
        perm[a] = b
    renamed = [[_relabel(c, perm) for c in p] for p in plays]
    assert trick_winner(ctx, classify_lead(ctx, renamed[0], throws), renamed) == winner
