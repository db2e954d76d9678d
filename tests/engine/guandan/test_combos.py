"""Guandan combinations and their order (docs/rules.md 2.1 card order, 2.3 combinations)."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import RuleError
from engine.guandan.combos import (
    Combo,
    beats,
    classify_or_error,
    find_reading,
    playable_readings,
    readings,
)
from engine.guandan.ranks import card_order, is_wild, order_value, sort_for_display


def keys(text: str, level: int) -> list[tuple[str, int, int]]:
    return [r.key for r in readings(parse_cards(text), level)]


def one(text: str, level: int) -> Combo:
    rs = readings(parse_cards(text), level)
    assert len(rs) == 1, rs
    return rs[0]


# (cards, level, expected readings as (kind, rank_key, size)) -- docs/rules.md 2.3 table, row by row
VALID = [
    # single: group order, level card high (2.1)
    ("♠3", 9, [("single", 3, 1)]),
    ("♠A", 9, [("single", 14, 1)]),
    ("♠9", 9, [("single", 15, 1)]),
    ("SJ", 9, [("single", 16, 1)]),
    ("BJ", 9, [("single", 17, 1)]),
    # pair: jokers of one colour allowed
    ("♠7 ♦7", 9, [("pair", 7, 2)]),
    ("SJ SJ", 9, [("pair", 16, 2)]),
    ("BJ BJ", 9, [("pair", 17, 2)]),
    ("♠9 ♣9", 9, [("pair", 15, 2)]),
    # triple
    ("♠7 ♦7 ♣7", 9, [("triple", 7, 3)]),
    # full house: compared by the triple only
    ("♠7 ♦7 ♣7 ♠K ♦K", 9, [("full_house", 7, 5)]),
    ("♠K ♦K ♣K ♠7 ♦7", 9, [("full_house", 13, 5)]),
    ("♠9 ♦9 ♣9 ♠3 ♦3", 9, [("full_house", 15, 5)]),
    ("♠7 ♦7 ♣7 BJ BJ", 9, [("full_house", 7, 5)]),
    # straight: exactly 5, any suits, A low or high, level card natural
    ("♠3 ♦4 ♣5 ♠6 ♦7", 9, [("straight", 7, 5)]),
    ("♠A ♦2 ♣3 ♠4 ♦5", 9, [("straight", 5, 5)]),
    ("♠10 ♦J ♣Q ♠K ♦A", 9, [("straight", 14, 5)]),
    ("♠7 ♦8 ♣9 ♠10 ♦J", 9, [("straight", 11, 5)]),
    # tube: exactly 3 consecutive pairs, AA2233 lowest, QQKKAA highest
    ("♠3 ♦3 ♣4 ♠4 ♦5 ♣5", 9, [("tube", 5, 6)]),
    ("♠A ♦A ♣2 ♠2 ♦3 ♣3", 9, [("tube", 3, 6)]),
    ("♠Q ♦Q ♣K ♠K ♦A ♣A", 9, [("tube", 14, 6)]),
    # plate: exactly 2 consecutive triples, AAA222 lowest, KKKAAA highest
    ("♠3 ♦3 ♣3 ♠4 ♦4 ♣4", 9, [("plate", 4, 6)]),
    ("♠A ♦A ♣A ♠2 ♦2 ♣2", 9, [("plate", 2, 6)]),
    ("♠K ♦K ♣K ♠A ♦A ♣A", 9, [("plate", 14, 6)]),
    # bombs: 4 to 8 natural cards of one rank (9 and 10 need wild cards, test_wild)
    ("♠7 ♦7 ♣7 ♥7", 9, [("bomb", 7, 4)]),
    ("♠7 ♦7 ♣7 ♥7 ♠7", 9, [("bomb", 7, 5)]),
    ("♠7 ♦7 ♣7 ♥7 ♠7 ♦7 ♣7 ♥7", 9, [("bomb", 7, 8)]),
    ("♠9 ♦9 ♣9 ♠9", 9, [("bomb", 15, 4)]),
    # straight flush: five suited consecutive cards read as straight flush AND straight
    ("♠3 ♠4 ♠5 ♠6 ♠7", 9, [("straight_flush", 7, 5), ("straight", 7, 5)]),
    ("♦A ♦2 ♦3 ♦4 ♦5", 9, [("straight_flush", 5, 5), ("straight", 5, 5)]),
    ("♣10 ♣J ♣Q ♣K ♣A", 9, [("straight_flush", 14, 5), ("straight", 14, 5)]),
    # joker bomb
    ("BJ BJ SJ SJ", 9, [("joker_bomb", 17, 4)]),
]


@pytest.mark.parametrize(("text", "level", "expected"), VALID)
def test_rules_2_3_every_combination_type_reads(
    text: str, level: int, expected: list[tuple[str, int, int]]
) -> None:
    assert keys(text, level) == expected


# (cards, level, reason code) -- the invalid neighbours of each row of the 2.3 table
INVALID = [
    ("", 9, "no_cards"),
    ("BJ SJ", 9, "mixed_joker_pair"),
    ("♠3 ♦4", 9, "not_a_combination"),
    ("SJ SJ BJ", 9, "not_a_combination"),  # no triple of jokers
    ("♠7 ♦7 ♣7 ♠K", 9, "not_a_combination"),  # no triple with one card in Guandan
    ("♠7 ♦7 ♣7 ♠K ♦Q", 9, "not_a_combination"),
    ("♠7 ♦7 ♣7 SJ BJ", 9, "not_a_combination"),  # BJ SJ is no pair, in a full house neither
    ("♠3 ♦4 ♣5", 9, "straight_needs_five"),
    ("♠3 ♦4 ♣5 ♠6", 9, "straight_needs_five"),
    ("♠3 ♦4 ♣5 ♠6 ♦7 ♣8", 9, "straight_needs_five"),
    ("♠Q ♦K ♣A ♠2 ♦3", 9, "straight_wraps"),
    ("♠K ♦A ♣2 ♠3 ♦4", 9, "straight_wraps"),
    ("♠J ♦Q ♣K ♠A ♦2", 9, "straight_wraps"),
    ("♠3 ♦4 ♣5 ♠6 ♦8", 9, "not_consecutive"),
    ("♠3 ♦4 ♣5 ♠6 SJ", 9, "jokers_in_straight"),
    ("♠3 ♦4 ♣5 SJ BJ", 9, "jokers_in_straight"),
    ("♠3 ♦3 ♣4 ♠4", 9, "tube_needs_three_pairs"),
    ("♠3 ♦3 ♣4 ♠4 ♦5 ♣5 ♠6 ♦6", 9, "tube_needs_three_pairs"),
    ("♠K ♦K ♣A ♠A ♦2 ♣2", 9, "straight_wraps"),
    ("♠3 ♦3 ♣4 ♠4 ♦6 ♣6", 9, "not_consecutive"),
    ("♠3 ♦3 ♣4 ♠4 SJ SJ", 9, "jokers_in_sequence"),
    ("♠3 ♦3 ♣3 ♠4 ♦4 ♣4 ♠5 ♦5 ♣5", 9, "plate_needs_two_triples"),
    ("♠K ♦K ♣K ♠A ♦A ♣A ♠2 ♦2 ♣2", 9, "not_a_combination"),
    ("♠A ♦A ♣A ♠2 ♦2 ♣2 ♠3 ♦3 ♣3 ♠4 ♦4", 9, "too_many_cards"),
]


@pytest.mark.parametrize(("text", "level", "code"), INVALID)
def test_rules_2_3_invalid_sets_have_a_reason(text: str, level: int, code: str) -> None:
    cards = parse_cards(text) if text else []
    assert readings(cards, level) == []
    with pytest.raises(RuleError) as err:
        classify_or_error(cards, level)
    assert err.value.code == code
    assert err.value.params["cards"] == text


def test_rules_2_1_group_order_at_level_10_matches_the_notice() -> None:
    """Notice: at level 10 singles run 大王, 小王, 10, A, K, Q, J, 9, ..., 2."""
    order = "BJ SJ ♠10 ♠A ♠K ♠Q ♠J ♠9 ♠8 ♠7 ♠6 ♠5 ♠4 ♠3 ♠2"
    singles = [one(t, 10) for t in order.split()]
    for higher, lower in zip(singles, singles[1:], strict=False):
        assert beats(higher, lower)
        assert not beats(lower, higher)
    assert [order_value(r, 10) for r in (10, 14, 2)] == [15, 14, 2]
    assert sort_for_display(parse_cards("♠2 ♠A ♠10 SJ BJ"), 10) == parse_cards("BJ SJ ♠10 ♠A ♠2")
    assert card_order(parse_cards("♥10")[0], 10) == 15


@pytest.mark.parametrize(
    ("higher", "lower", "level"),
    [
        ("♠8 ♦8", "♠7 ♦7", 9),
        ("♠9 ♦9", "♠A ♦A", 9),  # level pair above aces
        ("SJ SJ", "♠9 ♦9", 9),
        ("BJ BJ", "SJ SJ", 9),
        ("♠8 ♦8 ♣8", "♠7 ♦7 ♣7", 9),
        ("♠9 ♦9 ♣9", "♠A ♦A ♣A", 9),
        ("♠4 ♦4 ♣4 ♠2 ♦2", "♠3 ♦3 ♣3 ♠A ♦A", 9),  # full house compares the triple only
        ("♠9 ♦9 ♣9 ♠2 ♦2", "♠A ♦A ♣A ♠K ♦K", 9),  # level triple is highest
        ("♠2 ♦3 ♣4 ♠5 ♦6", "♠A ♦2 ♣3 ♠4 ♦5", 9),  # A-low straight is the lowest
        ("♠10 ♦J ♣Q ♠K ♦A", "♠9 ♦10 ♣J ♠Q ♦K", 9),
        ("♠7 ♦8 ♣9 ♠10 ♦J", "♠6 ♦7 ♣8 ♠9 ♦10", 10),  # level card natural in straights
        ("♠2 ♦2 ♣3 ♠3 ♦4 ♣4", "♠A ♦A ♣2 ♠2 ♦3 ♣3", 9),
        ("♠Q ♦Q ♣K ♠K ♦A ♣A", "♠J ♦J ♣Q ♠Q ♦K ♣K", 9),
        ("♠2 ♦2 ♣2 ♠3 ♦3 ♣3", "♠A ♦A ♣A ♠2 ♦2 ♣2", 9),
        ("♠K ♦K ♣K ♠A ♦A ♣A", "♠Q ♦Q ♣Q ♠K ♦K ♣K", 9),
    ],
)
def test_rules_2_3_same_kind_compares_by_rank(higher: str, lower: str, level: int) -> None:
    h = readings(parse_cards(higher), level)[-1]
    lo = readings(parse_cards(lower), level)[-1]
    assert beats(h, lo)
    assert not beats(lo, h)
    assert not beats(h, h)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("♠8 ♦8", "♠3"),  # a pair does not beat a single
        ("♠8", "♠3 ♦3"),
        ("♠3 ♦3 ♣4 ♠4 ♦5 ♣5", "♠3 ♦3 ♣3 ♠4 ♦4 ♣4"),  # a tube does not beat a plate (both 6 cards)
        ("♠3 ♦3 ♣3 ♠4 ♦4 ♣4", "♠3 ♦3 ♣4 ♠4 ♦5 ♣5"),
        ("♠K ♦K ♣K ♠2 ♦2", "♠3 ♦4 ♣5 ♠6 ♦7"),  # full house vs straight (both 5 cards)
        ("♠3 ♦4 ♣5 ♠6 ♦7", "♠K ♦K ♣K ♠2 ♦2"),
        ("♠K ♦K ♣K", "♠3 ♦3"),
    ],
)
def test_rules_2_3_other_kinds_only_beat_their_own_kind(a: str, b: str) -> None:
    ca = readings(parse_cards(a), 9)[-1]
    cb = readings(parse_cards(b), 9)[-1]
    assert not beats(ca, cb)


def test_rules_2_3_suited_straight_offers_both_readings_and_playable_filters() -> None:
    cards = parse_cards("♠3 ♠4 ♠5 ♠6 ♠7")
    rs = readings(cards, 9)
    assert [r.kind for r in rs] == ["straight_flush", "straight"]
    assert {r.reading_id() for r in rs} == {"sf7.5", "st7.5"}
    higher_straight = one("♠4 ♦5 ♣6 ♠7 ♦8", 9)
    only_bomb = playable_readings(cards, 9, higher_straight)
    assert [r.kind for r in only_bomb] == ["straight_flush"]
    lower_straight = one("♠2 ♦3 ♣4 ♠5 ♦6", 9)
    assert [r.kind for r in playable_readings(cards, 9, lower_straight)] == ["straight_flush", "straight"]
    assert playable_readings(cards, 9, None) == rs
    assert find_reading(rs, "st7.5") == rs[1]
    assert find_reading(rs, "b7.5") is None


def test_rules_2_3_canonical_text_and_label() -> None:
    sf = readings(parse_cards("♠7 ♠3 ♠5 ♠4 ♠6"), 9)[0]
    assert sf.to_text() == "straight_flush ♠3 ♠4 ♠5 ♠6 ♠7"
    assert sf.label(9) == "同花顺 ♠3-7"
    assert sf.cards_text() == "♠3 ♠4 ♠5 ♠6 ♠7"
    fh = one("♠2 ♦K ♣K ♠K ♦2", 9)
    assert fh.to_text() == "full_house ♠K ♣K ♦K ♠2 ♦2"
    assert fh.label(9) == "三带二 K"
    assert one("♠A ♦2 ♣3 ♠4 ♦5", 9).label(9) == "顺子 A-5"
    assert one("BJ BJ SJ SJ", 9).label(9) == "天王炸"
    assert len(one("♠7 ♦7 ♣7 ♥7 ♠7", 9).reading_id().encode()) <= 8


def test_rules_2_2_only_the_hearts_of_the_level_are_wild() -> None:
    (h10,) = parse_cards("♥10")
    assert is_wild(h10, 10)
    assert not is_wild(h10, 9)
    assert not any(is_wild(c, 10) for c in parse_cards("♠10 ♣10 ♦10 ♥9 SJ BJ"))
