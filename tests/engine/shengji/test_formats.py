"""Lead formats and throw decomposition: docs/rules.md 1.5 (formats, adjacency), 1.6 (a throw counts as its
largest component) and the tractor examples of seed shengji-50min 四、拖拉机的构成 (level 6)."""

from __future__ import annotations

import pytest

from engine.cards import cards_text, parse_cards
from engine.errors import RuleError
from engine.shengji.formats import classify_lead, decompose, play_multiplier_format
from engine.shengji.order import TRUMP, trump_context

SPADES, HEARTS, CLUBS, DIAMONDS = 0, 1, 2, 3
L6 = trump_context(6, HEARTS)  # the notice's "以打6为例", with ♥ as trump suit


@pytest.mark.parametrize(
    "cards",
    [
        "♠K ♠K ♠Q ♠Q",  # 1. KKQQ
        "♠9 ♠9 ♠8 ♠8",  # 9988
        "♠7 ♠7 ♠5 ♠5",  # 7755: skips the level rank 6
        "♠5 ♠5 ♠4 ♠4",  # 5544
        "♠4 ♠4 ♠3 ♠3 ♠2 ♠2",  # 443322
        "BJ BJ SJ SJ",  # 2.1) a pair of big jokers with a pair of small jokers
        "SJ SJ ♥6 ♥6",  # 2.2) small jokers with the trump-suit level pair
        "♥6 ♥6 ♣6 ♣6",  # 2.3) trump-suit level pair with an off-suit level pair
        "♦6 ♦6 ♥A ♥A",  # 2.4) off-suit level pair with trump A (66(副)AA)
        "BJ BJ SJ SJ ♥6 ♥6 ♠6 ♠6 ♥A ♥A",  # the whole trump chain
    ],
)
def test_50min_tractor_examples_are_tractors(cards: str) -> None:
    lead = classify_lead(L6, parse_cards(cards), throws_allowed=False)
    assert lead.kind == "tractor"
    assert lead.units[0].length == len(parse_cards(cards)) // 2


@pytest.mark.parametrize(
    "cards",
    [
        "♠6 ♠6 ♣6 ♣6",  # 3.1) two off-suit level pairs
        "♠A ♠A ♠2 ♠2",  # 3.2) AA22 never wraps
        "♥A ♥A ♥2 ♥2",  # 3.2) same in trumps
        "♥7 ♥7 ♥6 ♥6",  # 3.3) trump 7 and trump-suit level 6
        "♥6 ♥6 ♥5 ♥5",  # 3.4) 6655
        "SJ SJ ♠6 ♠6",  # SJ is adjacent to the trump-suit level pair only
        "♥A ♥A ♥K ♥K ♥Q ♥Q ♥10 ♥10",  # a gap (J missing) splits the run
    ],
)
def test_50min_non_tractors_are_not_a_format_without_throws(cards: str) -> None:
    with pytest.raises(RuleError) as e:
        classify_lead(L6, parse_cards(cards), throws_allowed=False)
    assert e.value.code == "throws_forbidden"
    lead = classify_lead(L6, parse_cards(cards), throws_allowed=True)
    assert lead.kind == "throw"
    assert all(u.kind != "tractor" or u.length < len(parse_cards(cards)) // 2 for u in lead.units)


@pytest.mark.parametrize(
    ("level", "trump", "cards", "is_tractor"),
    [
        (9, None, "BJ BJ SJ SJ", True),  # no trump: BJ-SJ
        (9, None, "SJ SJ ♦9 ♦9", True),  # no trump: SJ - any level pair
        (9, None, "SJ SJ ♠9 ♠9", True),
        (9, None, "BJ BJ SJ SJ ♣9 ♣9", True),
        (9, None, "♠9 ♠9 ♥9 ♥9", False),  # two level pairs are equal
        (14, SPADES, "♥A ♥A ♠K ♠K", True),  # level A: off-suit level pair - trump K
        (14, SPADES, "♠A ♠A ♠K ♠K", False),  # ♠A is the trump-suit level: next to off-suit level, not to ♠K
        (14, SPADES, "♠A ♠A ♥A ♥A", True),
        (14, HEARTS, "♠K ♠K ♠Q ♠Q", True),
        (2, CLUBS, "♣A ♣A ♠2 ♠2", True),  # level 2: off-suit level pair - trump A
        (2, CLUBS, "♠A ♠A ♠3 ♠3", False),
        (3, CLUBS, "♠4 ♠4 ♠2 ♠2", True),  # level 3 skipped in ♠
        (5, HEARTS, "♥6 ♥6 ♥4 ♥4", True),  # seed 17-deals 规定2: level 5, 对红杏44+对红杏66
        (5, SPADES, "♥6 ♥6 ♥4 ♥4", True),
        (5, HEARTS, "♥A ♥A ♠5 ♠5", True),  # 17-deals 规定1: 对副级牌和主花色的最大对牌
    ],
)
def test_rules_1_5_tractor_adjacency(level: int, trump: int | None, cards: str, is_tractor: bool) -> None:
    ctx = trump_context(level, trump)
    lead = classify_lead(ctx, parse_cards(cards), throws_allowed=True)
    assert (lead.kind == "tractor") is is_tractor


def test_rules_1_5_single_and_pair_formats() -> None:
    assert classify_lead(L6, parse_cards("♠3"), False).kind == "single"
    assert classify_lead(L6, parse_cards("♠3 ♠3"), False).kind == "pair"
    assert classify_lead(L6, parse_cards("BJ BJ"), False).kind == "pair"
    assert classify_lead(L6, parse_cards("SJ SJ"), False).kind == "pair"


def test_rules_1_5_two_off_suit_level_cards_of_different_suits_are_not_a_pair() -> None:
    lead = classify_lead(L6, parse_cards("♠6 ♣6"), throws_allowed=True)
    assert lead.kind == "throw"
    assert [u.kind for u in lead.units] == ["single", "single"]


def test_rules_1_5_lead_must_be_one_suit_group() -> None:
    with pytest.raises(RuleError) as e:
        classify_lead(L6, parse_cards("♠3 ♣3"), throws_allowed=True)
    assert e.value.code == "mixed_suits"
    # the whole trump group is one group: ♠6 (off-suit level) and ♥2 (trump suit) lead together
    assert classify_lead(L6, parse_cards("♠6 ♥2"), throws_allowed=True).group == TRUMP
    # ♠6 is a trump, ♠5 is a spade
    with pytest.raises(RuleError) as e:
        classify_lead(L6, parse_cards("♠6 ♠6 ♠5 ♠5"), throws_allowed=True)
    assert e.value.code == "mixed_suits"
    with pytest.raises(RuleError) as e:
        classify_lead(L6, [], throws_allowed=True)
    assert e.value.code == "not_a_format"


@pytest.mark.parametrize("cards", ["♠A ♠A ♠K", "♠A ♠K ♠K", "♠A ♠K"])
def test_50min_throws_forbidden_including_aak_and_akk(cards: str) -> None:
    """Seed 50min 五.2: 任何情况下不得甩牌，包括同花色单联张、AAK、AKK."""
    with pytest.raises(RuleError) as e:
        classify_lead(L6, parse_cards(cards), throws_allowed=False)
    assert e.value.code == "throws_forbidden"
    assert "♠A" in str(e.value)


@pytest.mark.parametrize(
    ("cards", "units"),
    [
        ("♠A ♠A ♠K", ["♠A ♠A", "♠K"]),
        ("♠3 ♠A ♠K ♠K ♠Q ♠Q ♠J ♠J ♠9 ♠9 ♠8 ♠8", ["♠K ♠K ♠Q ♠Q ♠J ♠J", "♠9 ♠9 ♠8 ♠8", "♠A", "♠3"]),
        ("♠2 ♠2 ♠A ♠A ♠Q ♠Q ♠K", ["♠A ♠A", "♠Q ♠Q", "♠2 ♠2", "♠K"]),
        # two off-suit level pairs around the trump-suit level: the longest tractor takes one of them
        ("SJ SJ ♥6 ♥6 ♠6 ♠6 ♣6 ♣6 ♥A ♥A", ["SJ SJ ♥6 ♥6 ♠6 ♠6 ♥A ♥A", "♣6 ♣6"]),
    ],
)
def test_rules_1_5_throw_decomposition_longest_tractor_first(cards: str, units: list[str]) -> None:
    got = decompose(L6, parse_cards(cards))
    assert [cards_text(u.cards) for u in got] == units


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("♠3", ("single", 0)),
        ("♠3 ♠3", ("pair", 1)),
        ("♠4 ♠4 ♠3 ♠3", ("tractor", 2)),
        ("♠4 ♠4 ♠3 ♠3 ♠2 ♠2", ("tractor", 3)),
        ("♠A ♠K", ("single", 0)),
        ("♠A ♠A ♠K", ("pair", 1)),
        ("♠A ♠A ♠K ♠K ♠9 ♠9 ♠3", ("tractor", 2)),
    ],
)
def test_rules_1_6_throw_counts_as_its_largest_component(cards: str, expected: tuple[str, int]) -> None:
    lead = classify_lead(L6, parse_cards(cards), throws_allowed=True)
    assert play_multiplier_format(L6, lead, lead.cards) == expected


def test_lead_derived_counts() -> None:
    lead = classify_lead(L6, parse_cards("♠A ♠A ♠K ♠K ♠9 ♠9 ♠3"), throws_allowed=True)
    assert (lead.kind, lead.pairs, lead.tractor_lengths, lead.singles, lead.size) == ("throw", 3, (2,), 1, 7)
