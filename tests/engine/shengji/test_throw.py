"""Throw check and failed throws: docs/rules.md 1.5 "Throw check", decision D1 (all three other hands,
partner included), and the failed-throw penalty (10 x cards)."""

from __future__ import annotations

import pytest

from engine.cards import cards_text, parse_cards
from engine.shengji.formats import classify_lead
from engine.shengji.order import trump_context
from engine.shengji.throw import ThrowResult, check_throw, penalty

HEARTS = 1
L6 = trump_context(6, HEARTS)


def run(lead: str, *others: str) -> ThrowResult | None:
    led = classify_lead(L6, parse_cards(lead), throws_allowed=True)
    return check_throw(L6, led, [parse_cards(h) for h in others])


@pytest.mark.parametrize(
    ("rule", "lead", "others"),
    [
        ("nobody holds a higher single than the lowest single", "♠A ♠K", ("♠Q ♠Q ♣A", "♠J", "♥A ♠2")),
        ("a pair is only beaten by a higher pair", "♠A ♠Q ♠Q", ("♠K ♣3", "♠J ♠J", "♠2 ♠2")),
        ("a tractor is not beaten by higher pairs", "♠10 ♠10 ♠9 ♠9 ♠A", ("♠K ♠K ♠J ♠J", "♠2", "")),
        (
            "a tractor is not beaten by a shorter higher tractor",
            "♠10 ♠10 ♠9 ♠9 ♠8 ♠8 ♠A",
            ("♠K ♠K ♠Q ♠Q", "", ""),
        ),
        ("equal off-suit level pairs do not beat each other", "♠6 ♠6 BJ", ("♣6 ♣6 ♥2", "♦6", "")),
        ("cards of other groups do not count", "♠A ♠Q", ("♥A BJ ♠6", "♣K", "♠J")),
    ],
)
def test_rules_1_5_throw_stands(rule: str, lead: str, others: tuple[str, ...]) -> None:
    assert run(lead, *others) is None


def test_rules_1_5_throw_fails_on_a_higher_single() -> None:
    res = run("♠A ♠Q", "♠K ♣3", "♠2", "♠J")
    assert res is not None
    assert cards_text(res.forced.cards) == "♠Q"
    assert (res.holder, cards_text(res.beating)) == (0, "♠K")
    assert res.choices == (res.forced,)


def test_d1_throw_fails_when_only_the_partner_holds_the_higher_card() -> None:
    """other_hands are [next, partner, previous]; the partner's ♠K still breaks the throw (D1)."""
    res = run("♠A ♠Q", "♣3", "♠K ♠2", "♥4")
    assert res is not None
    assert res.holder == 1
    assert cards_text(res.beating) == "♠K"


def test_rules_1_5_throw_fails_on_a_higher_pair() -> None:
    """Message evidence: 李四有更大的 ♠K ♠K."""
    res = run("♠A ♠Q ♠Q", "♣3", "♥4", "♠K ♠K ♠2")
    assert res is not None
    assert cards_text(res.forced.cards) == "♠Q ♠Q"
    assert (res.holder, cards_text(res.beating)) == (2, "♠K ♠K")


def test_rules_1_5_throw_fails_on_a_higher_tractor_of_the_same_length() -> None:
    res = run("♠10 ♠10 ♠9 ♠9 ♠A", "♠Q ♠Q ♠J ♠J", "", "")
    assert res is not None
    assert res.forced.kind == "tractor"
    assert cards_text(res.beating) == "♠Q ♠Q ♠J ♠J"


def test_rules_1_5_a_longer_higher_tractor_holds_a_higher_one_of_the_same_length() -> None:
    res = run("♠10 ♠10 ♠9 ♠9 ♠A", "♠K ♠K ♠Q ♠Q ♠J ♠J", "", "")
    assert res is not None
    assert cards_text(res.beating) == "♠K ♠K ♠Q ♠Q"


def test_rules_1_5_trump_throw_checked_in_the_trump_group() -> None:
    res = run("BJ ♥2 ♥2", "♠A ♠A", "♥3 ♥3", "")
    assert res is not None
    assert cards_text(res.forced.cards) == "♥2 ♥2"
    assert res.holder == 1


def test_failed_throw_choice_lowest_takes_the_smaller_unit_and_opponents_get_pair_or_single() -> None:
    """Seed 2h: 出最小的牌，若带对子时，对方可以指定出对或出单."""
    res = run("♠A ♠Q ♠Q ♠J", "♠K ♠K ♣2", "", "")
    assert res is not None
    assert sorted(cards_text(f.unit.cards) for f in res.failures) == ["♠J", "♠Q ♠Q"]
    # failed_throw_choice = "lowest": the smaller unit
    assert cards_text(res.forced.cards) == "♠J"
    # failed_throw_choice = "opponents": pair option first, then the single option
    assert [cards_text(u.cards) for u in res.choices] == ["♠Q ♠Q", "♠J"]
    assert cards_text(res.failure_of(res.choices[0]).beating) == "♠K ♠K"


def test_failed_throw_with_two_failing_pairs_forces_the_lower() -> None:
    res = run("♠A ♠Q ♠Q ♠9 ♠9", "♠K ♠K", "", "")
    assert res is not None
    assert cards_text(res.forced.cards) == "♠9 ♠9"
    assert res.choices == (res.forced,)


def test_rules_1_5_non_throw_leads_are_not_checked() -> None:
    assert run("♠2", "♠A") is None
    assert run("♠2 ♠2", "♠A ♠A") is None


@pytest.mark.parametrize(("cards", "per_card", "charge"), [(5, 10, 50), (2, 10, 20), (3, 0, 0)])
def test_rules_1_5_failed_throw_penalty_10_per_card(cards: int, per_card: int, charge: int) -> None:
    assert penalty(cards, per_card) == charge
