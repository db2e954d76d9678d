"""Card model: canonical text round-trips, typed forms parse, two decks hold 200 points (docs/rules.md intro, 1.6)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import (
    BIG_JOKER,
    CLUBS,
    DIAMONDS,
    HEARTS,
    SMALL_JOKER,
    SPADES,
    card,
    cards_text,
    contains,
    full_deck,
    parse_card,
    parse_cards,
    points,
    remove_cards,
    total_points,
)
from engine.errors import RuleError


def test_two_decks_hold_108_cards_and_200_points():
    deck = full_deck()
    assert len(deck) == 108
    assert total_points(deck) == 200
    assert deck.count(BIG_JOKER) == 2 and deck.count(SMALL_JOKER) == 2


@pytest.mark.parametrize(
    "text,expected",
    [
        ("♠10", card(SPADES, 10)),
        ("♥A", card(HEARTS, 14)),
        ("SJ", SMALL_JOKER),
        ("BJ", BIG_JOKER),
        ("10s", card(SPADES, 10)),
        ("ah", card(HEARTS, 14)),
        ("AH", card(HEARTS, 14)),
        ("s10", card(SPADES, 10)),
        ("红桃5", card(HEARTS, 5)),
        ("黑桃K", card(SPADES, 13)),
        ("梅花2", card(CLUBS, 2)),
        ("方片J", card(DIAMONDS, 11)),
        ("方块Q", card(DIAMONDS, 12)),
        ("大王", BIG_JOKER),
        ("小王", SMALL_JOKER),
        ("js", card(SPADES, 11)),
        ("♠J", card(SPADES, 11)),
        ("Td", card(DIAMONDS, 10)),
    ],
)
def test_typed_card_forms_parse(text, expected):
    assert parse_card(text) == expected


@pytest.mark.parametrize("text", ["♥5 ♥5", "h5 h5", "红桃5 红桃5", "5h5h", "♥5♥5", "5h, 5h"])
def test_typed_plays_from_ux_md_parse_to_the_same_pair(text):
    assert cards_text(parse_cards(text)) == "♥5 ♥5"


def test_sj_always_means_small_joker_not_jack_of_spades():
    assert parse_cards("sj SJ") == [SMALL_JOKER, SMALL_JOKER]


@pytest.mark.parametrize("text", ["♥1", "x5", "hello", "♥5 zz", "11h"])
def test_garbage_is_a_bad_card_error_naming_the_text(text):
    with pytest.raises(RuleError) as err:
        parse_cards(text)
    assert err.value.code == "bad_card"


@given(st.lists(st.integers(min_value=0, max_value=53), max_size=30))
def test_canonical_text_round_trips(cards):
    assert parse_cards(cards_text(cards)) == cards


def test_points_five_ten_king():
    assert [points(parse_card(t)) for t in ("♠5", "♥10", "♣K", "♦Q", "BJ")] == [5, 10, 10, 0, 0]


def test_remove_cards_is_a_multiset_difference_and_refuses_missing_cards():
    hand = parse_cards("♥5 ♥5 ♠A")
    assert contains(hand, parse_cards("♥5 ♥5"))
    assert not contains(hand, parse_cards("♥5 ♥5 ♥5"))
    assert remove_cards(hand, parse_cards("♥5")) == parse_cards("♥5 ♠A")
    with pytest.raises(RuleError) as err:
        remove_cards(hand, parse_cards("♣3"))
    assert err.value.code == "not_in_hand" and err.value.params["card"] == "♣3"
