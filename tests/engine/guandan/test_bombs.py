"""The Guandan bomb ladder (docs/rules.md 2.3): 4 < 5 < straight flush < 6 < 7 < 8 < 9 < 10 < joker bomb."""

from __future__ import annotations

import itertools

import pytest

from engine.cards import parse_cards
from engine.guandan.combos import Combo, beats, readings


def first(text: str, level: int) -> Combo:
    return readings(parse_cards(text), level)[0]


LEVEL = 10  # ♥10 is wild
# every rung, low to high, with its lowest and highest member where the rung has a rank order
LADDER = [
    ("4-card 2s", "♠2 ♦2 ♣2 ♥2"),
    ("4-card As", "♠A ♦A ♣A ♥A"),
    ("4-card level", "♠10 ♦10 ♣10 ♠10"),
    ("5-card 2s", "♠2 ♦2 ♣2 ♥2 ♠2"),
    ("5-card level", "♠10 ♦10 ♣10 ♠10 ♦10"),
    ("straight flush A-5", "♠A ♠2 ♠3 ♠4 ♠5"),
    ("straight flush 2-6", "♦2 ♦3 ♦4 ♦5 ♦6"),
    ("straight flush 10-A", "♣10 ♣J ♣Q ♣K ♣A"),
    ("6-card 2s", "♠2 ♦2 ♣2 ♥2 ♠2 ♦2"),
    ("6-card As", "♠A ♦A ♣A ♥A ♠A ♦A"),
    ("7-card 3s", "♠3 ♦3 ♣3 ♥3 ♠3 ♦3 ♣3"),
    ("8-card 3s", "♠3 ♦3 ♣3 ♥3 ♠3 ♦3 ♣3 ♥3"),
    ("8-card Ks", "♠K ♦K ♣K ♥K ♠K ♦K ♣K ♥K"),
    ("9-card 3s", "♠3 ♦3 ♣3 ♥3 ♠3 ♦3 ♣3 ♥3 ♥10"),
    ("10-card 3s", "♠3 ♦3 ♣3 ♥3 ♠3 ♦3 ♣3 ♥3 ♥10 ♥10"),
    ("10-card As", "♠A ♦A ♣A ♥A ♠A ♦A ♣A ♥A ♥10 ♥10"),
    ("joker bomb", "BJ BJ SJ SJ"),
]


@pytest.mark.parametrize(("i", "j"), list(itertools.combinations(range(len(LADDER)), 2)))
def test_rules_2_3_bomb_ladder_every_pair_of_rungs(i: int, j: int) -> None:
    low = first(LADDER[i][1], LEVEL)
    high = first(LADDER[j][1], LEVEL)
    assert low.is_bomb and high.is_bomb
    assert beats(high, low), f"{LADDER[j][0]} should beat {LADDER[i][0]}"
    assert not beats(low, high), f"{LADDER[i][0]} should not beat {LADDER[j][0]}"


@pytest.mark.parametrize(("name", "text"), LADDER)
def test_rules_2_3_equal_bombs_do_not_beat_each_other(name: str, text: str) -> None:
    b = first(text, LEVEL)
    assert not beats(b, b), name


NON_BOMBS = [
    "BJ",
    "BJ BJ",
    "♠A ♦A ♣A",
    "♠A ♦A ♣A ♠K ♦K",
    "♠10 ♦J ♣Q ♠K ♦A",
    "♠Q ♦Q ♣K ♠K ♦A ♣A",
    "♠K ♦K ♣K ♠A ♦A ♣A",
]


@pytest.mark.parametrize("non_bomb", NON_BOMBS)
@pytest.mark.parametrize(("name", "bomb"), [LADDER[0], LADDER[5], LADDER[-1]])
def test_rules_2_3_any_bomb_beats_any_non_bomb(name: str, bomb: str, non_bomb: str) -> None:
    b = first(bomb, LEVEL)
    nb = readings(parse_cards(non_bomb), LEVEL)[-1]
    assert not nb.is_bomb
    assert beats(b, nb), name
    assert not beats(nb, b)


def test_rules_2_3_bomb_size_before_rank_and_level_rank_highest_within_a_size() -> None:
    """Notice 二.1: more cards win; same size, higher rank wins (the level rank above A)."""
    assert beats(first("♠2 ♦2 ♣2 ♥2 ♠2", 9), first("♠A ♦A ♣A ♥A", 9))
    assert beats(first("♠9 ♦9 ♣9 ♥9", 9), first("♠A ♦A ♣A ♥A", 9))
    assert not beats(first("♠9 ♦9 ♣9 ♥9", 10), first("♠A ♦A ♣A ♥A", 10))


def test_rules_2_3_straight_flush_order_by_top_card_suit_irrelevant() -> None:
    assert not beats(first("♥3 ♥4 ♥5 ♥6 ♥7", 9), first("♠3 ♠4 ♠5 ♠6 ♠7", 9))
    assert beats(first("♥4 ♥5 ♥6 ♥7 ♥8", 9), first("♠3 ♠4 ♠5 ♠6 ♠7", 9))
    # the level card sits at its natural place in a straight flush
    assert first("♠8 ♠9 ♠10 ♠J ♠Q", 10).rank_key == 12
