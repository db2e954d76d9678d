"""Tribute (docs/rules.md 2.6), decisions D7 (上游+末游 on one side) and D8 (return rank ≤ 10, fallback)."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import RuleError
from engine.guandan.tribute import (
    assign_double,
    check_return,
    check_tribute,
    plan_tribute,
    return_choices,
    tribute_choices,
)


def C(text: str) -> list[int]:
    return parse_cards(text)


FILLER = C("♠3 ♣4 ♦6")


def hands_with(**by_seat: str) -> list[list[int]]:
    return [C(by_seat.get(f"s{s}", "")) + FILLER for s in range(4)]


@pytest.mark.parametrize(
    ("order", "kind", "payers", "receivers", "leader"),
    [
        ([0, 2], "double", (1, 3), (), None),  # 双下: both losers pay
        ([1, 3], "double", (2, 0), (), None),
        ([0, 1, 2], "single", (3,), ((3, 0),), 3),  # 单下: 末游 pays 上游 and leads
        ([2, 3, 0], "single", (1,), ((1, 2),), 1),
        ([0, 1, 3], "single", (2,), ((2, 0),), 2),  # D7: 上游+末游 partners, 末游 still pays
    ],
)
def test_rules_2_6_who_pays(
    order: list[int],
    kind: str,
    payers: tuple[int, ...],
    receivers: tuple[tuple[int, int], ...],
    leader: int | None,
) -> None:
    plan = plan_tribute(order, hands_with())
    assert (plan.kind, plan.payers, plan.receivers, plan.leader) == (kind, payers, receivers, leader)


def test_d7_option_none_no_tribute_upstream_leads() -> None:
    plan = plan_tribute([0, 1, 3], hands_with(), one_four="none")
    assert plan.kind == "none" and plan.payers == () and plan.leader == 0


@pytest.mark.parametrize(
    ("order", "hands", "anti"),
    [
        ([0, 2], {"s1": "BJ BJ"}, True),  # double down: one payer holds both BJs
        ([0, 2], {"s1": "BJ", "s3": "BJ"}, True),  # double down: split across the two payers
        ([0, 2], {"s1": "BJ", "s2": "BJ"}, False),  # one BJ with a receiver: tribute is paid
        ([0, 1, 2], {"s3": "BJ BJ"}, True),  # single down: the payer holds both
        ([0, 1, 2], {"s3": "BJ", "s1": "BJ"}, False),  # single down: the payer's partner's BJ does not count
        ([0, 1, 3], {"s2": "BJ BJ"}, True),  # D7 payer with both BJs
        ([0, 2], {"s1": "SJ SJ", "s3": "BJ"}, False),
    ],
)
def test_rules_2_6_anti_tribute_both_big_jokers(order: list[int], hands: dict[str, str], anti: bool) -> None:
    plan = plan_tribute(order, hands_with(**hands))
    assert (plan.kind == "anti") is anti
    if anti:
        assert plan.leader == order[0]  # 抗贡: 上游 leads


@pytest.mark.parametrize(
    ("hand", "level", "allowed"),
    [
        ("♠A ♣A ♦K ♠3", 2, "♠A ♣A"),  # equal highest cards: the payer chooses
        ("♠A ♥7 ♦3", 7, "♠A"),  # ♥ level card excepted
        ("♠A ♣7 ♥7 ♦3", 7, "♣7"),  # other level cards are the highest below jokers
        ("♠A SJ ♣7", 7, "SJ"),
        ("BJ SJ ♣7", 2, "BJ"),
        ("♥2 ♥2 ♠3", 2, "♠3"),
    ],
)
def test_rules_2_6_tribute_is_the_highest_card(hand: str, level: int, allowed: str) -> None:
    assert tribute_choices(C(hand), level) == sorted(C(allowed))


def test_rules_2_6_non_highest_tribute_refused_with_reason() -> None:
    with pytest.raises(RuleError) as err:
        check_tribute(C("♠A ♦K ♠3"), 2, C("♦K")[0])
    assert err.value.code == "tribute_not_highest"
    with pytest.raises(RuleError) as err:
        check_tribute(C("♥9 ♠3"), 9, C("♥9")[0])
    assert err.value.code == "tribute_wild"
    check_tribute(C("♠A ♣A ♠3"), 2, C("♣A")[0])


@pytest.mark.parametrize(
    ("hand", "card", "code"),
    [
        ("♠J ♣10 ♦3", "♠J", "return_above_10"),  # docs/rules.md 2.6: 10 or lower
        ("♠A ♣10", "♠A", "return_above_10"),
        ("SJ ♣4", "SJ", "return_above_10"),
        ("♠J ♣Q BJ", "♣Q", "return_not_lowest"),  # D8: nothing ≤ 10 → the lowest card
        ("♠J ♣Q", "♥3", "not_in_hand"),
    ],
)
def test_rules_2_6_d8_return_refused(hand: str, card: str, code: str) -> None:
    with pytest.raises(RuleError) as err:
        check_return(C(hand), 5, C(card)[0])
    assert err.value.code == code


@pytest.mark.parametrize(
    ("hand", "level", "allowed"),
    [
        ("♠J ♣10 ♦3", 2, "♦3 ♣10"),  # D8: 10 is included (lowest first)
        ("♠J ♣Q BJ", 2, "♠J"),  # D8 fallback: the lowest card
        ("♠J ♦J ♣Q BJ", 2, "♠J ♦J"),
        ("♠J ♣Q ♥K", 11, "♣Q"),  # at level J the J is high: Q is the lowest
        ("♠2 ♣4", 2, "♣4 ♠2"),  # at level 2, 2 is a level card (high) but still rank ≤ 10
    ],
)
def test_d8_return_choices(hand: str, level: int, allowed: str) -> None:
    assert return_choices(C(hand), level) == C(allowed)


@pytest.mark.parametrize(
    ("paid_next", "paid_prev", "to_up", "leader"),
    [
        ("♠A", "♣K", 1, 1),  # the higher tribute goes to 上游, its payer leads
        ("♣K", "♠A", 3, 3),
        ("♠A", "♦A", 1, 1),  # equal tributes: 上游's next pays 上游 and leads
        ("SJ", "BJ", 3, 3),
        ("♠5", "SJ", 3, 3),  # level 5: SJ above the level card
    ],
)
def test_rules_2_6_double_down_assignment(paid_next: str, paid_prev: str, to_up: int, leader: int) -> None:
    pairs, lead = assign_double(0, {1: C(paid_next)[0], 3: C(paid_prev)[0]}, 5)
    assert dict(pairs)[to_up] == 0
    assert dict(pairs)[4 - to_up] == 2  # the other tribute goes to 二游
    assert lead == leader
