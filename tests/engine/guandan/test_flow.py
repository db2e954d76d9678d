"""The deal and the play flow (docs/rules.md 2.1 and 2.4): dealing, lead, beat or pass, new lead,
finishing order, 接风, end of the deal, readings to choose, card counts, clocks, auto-play."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import full_deck, parse_cards
from engine.errors import RuleError
from engine.guandan.deal import DealPlay, deal_hands, first_leader
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions


def C(text: str) -> list[int]:
    return parse_cards(text)


def table(hands: list[str], leader: int = 0, level: int = 2, seed: int = 1, **opts: Any) -> GuandanMatch:
    """A match in its first deal's play phase with these hands, ``leader`` to lead, at ``level``."""
    m = GuandanMatch(GuandanOptions(**opts), seed)
    m.apply("sys next_deal")
    m.hands = [sorted(C(h)) for h in hands]
    m.deal_level = level
    m.play = DealPlay(level, m.hands, leader)
    return m


def run(m: GuandanMatch, *actions: str) -> None:
    for a in actions:
        m.apply(a)


FOUR = ["♠3 ♠9 ♣K", "♠4 ♠10 ♦K", "♠5 ♠J ♣A", "♠6 ♠Q ♦A"]


def test_rules_2_1_deal_108_cards_27_each_from_the_seed() -> None:
    hands = deal_hands(7, 1)
    assert [len(h) for h in hands] == [27, 27, 27, 27]
    assert sorted(c for h in hands for c in h) == full_deck(2)
    assert deal_hands(7, 1) == hands
    assert deal_hands(7, 2) != hands and deal_hands(8, 1) != hands


def test_rules_2_6_first_deal_random_leader_from_the_seed() -> None:
    leaders = {first_leader(s) for s in range(40)}
    assert leaders == {0, 1, 2, 3}
    m = GuandanMatch(GuandanOptions(), 11)
    m.apply("sys next_deal")
    assert m.turns()[0].seat == first_leader(11) and m.turns()[0].kind == "lead"


def test_rules_2_4_leader_may_not_pass() -> None:
    m = table(FOUR)
    with pytest.raises(RuleError) as err:
        m.apply("0 pass")
    assert err.value.code == "must_lead"


def test_rules_2_4_play_counter_clockwise_and_new_lead_after_all_pass() -> None:
    m = table(FOUR)
    run(m, "0 play ♠9", "1 pass", "2 pass")
    assert m.turns()[0].seat == 3
    run(m, "3 pass")
    assert m.play is not None and m.play.to_beat is None
    assert m.turns()[0].seat == 0 and m.turns()[0].kind == "lead"


def test_rules_2_4_highest_play_leads_next() -> None:
    m = table(FOUR)
    run(m, "0 play ♠3", "1 play ♠10", "2 pass", "3 play ♠Q", "0 pass", "1 pass", "2 pass")
    assert m.turns()[0].seat == 3 and m.turns()[0].kind == "lead"


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ("1 play ♠4", "not_your_turn"),
        ("0 play ♠4", "not_in_hand"),
        ("0 play ♠3 ♠9", "not_a_combination"),
        ("0 fly", "bad_action"),
        ("5 pass", "bad_action"),
    ],
)
def test_rules_2_4_refused_actions_leave_state_unchanged(action: str, code: str) -> None:
    m = table(FOUR)
    before = (list(m.log), [list(h) for h in m.hands], m.public_view())
    with pytest.raises(RuleError) as err:
        m.apply(action)
    assert err.value.code == code
    assert (m.log, m.hands, m.public_view()) == before


def test_rules_2_3_lower_or_other_kind_does_not_beat() -> None:
    m = table(["♠3 ♠9 ♣9", "♠4 ♠10 ♦K", "♠5 ♠J ♣A", "♠6 ♠Q ♦A"])
    run(m, "0 play ♠9 ♣9")
    with pytest.raises(RuleError) as err:
        m.apply("1 play ♠10")
    assert err.value.code in ("does_not_beat", "not_a_combination")


def test_rules_2_4_finishing_order_and_skipping_finished_players() -> None:
    m = table(["♠3", "♠4 ♠10", "♠5 ♠J", "♠6 ♠Q"])
    run(m, "0 play ♠3")
    assert m.play is not None and m.play.finish_order == [0]
    run(m, "1 play ♠10", "2 play ♠J", "3 play ♠Q", "1 pass", "2 pass")
    assert m.turns()[0].seat == 3  # seat 0 is out and skipped


def test_rules_2_4_jiefeng_partner_leads_when_finishing_play_is_passed() -> None:
    m = table(["♠A", "♠4 ♠10", "♠5 ♠J", "♠6 ♠Q"])
    run(m, "0 play ♠A", "1 pass", "2 pass", "3 pass")
    assert m.turns()[0].seat == 2 and m.turns()[0].kind == "lead"  # 接风: the finisher's partner
    assert m.public_view()["jiefeng"] is True


def test_rules_2_4_no_jiefeng_when_the_finishing_play_is_beaten() -> None:
    m = table(["♠3", "♠4 ♠10", "♠5 ♠J", "♠6 ♠Q"])
    run(m, "0 play ♠3", "1 play ♠4", "2 pass", "3 pass")
    assert m.turns()[0].seat == 1


@pytest.mark.parametrize(
    ("hands", "actions", "order", "levels"),
    [
        # side 0 both out: 上游 + 二游, +3 (docs/rules.md 2.4 end of deal, 2.5)
        (
            ["♠A", "♠4 ♠3", "♠K", "♠6 ♠5"],
            ["0 play ♠A", "1 pass", "2 pass", "3 pass", "2 play ♠K"],
            [0, 2],
            [5, 2],
        ),
        # three out: 上游 + 三游, +2
        (
            ["♠A", "♠Q", "♠K ♣3", "♠6 ♠5"],
            ["0 play ♠A", "1 pass", "2 pass", "3 pass", "2 play ♣3", "3 play ♠5", "1 play ♠Q", "2 play ♠K"],
            [0, 1, 2],
            [4, 2],
        ),
        # 上游 + 末游 (the other side both out after 上游): +1
        (
            ["♠A", "♠Q", "♠5 ♣4 ♦6", "♠K"],
            [
                "0 play ♠A",
                "1 pass",
                "2 pass",
                "3 pass",
                "2 play ♣4",
                "3 pass",
                "1 play ♠Q",
                "2 pass",
                "3 play ♠K",
            ],
            [0, 1, 3],
            [3, 2],
        ),
        # the other side both out first: 上游 + 二游 for side 1
        (["♠A ♣3", "♠Q", "♠5 ♣4", "♠K"], ["0 play ♣3", "1 play ♠Q", "2 pass", "3 play ♠K"], [1, 3], [2, 5]),
    ],
)
def test_rules_2_4_deal_ends_when_a_side_is_out_or_three_are_out(
    hands: list[str], actions: list[str], order: list[int], levels: list[int]
) -> None:
    m = table(hands)
    run(m, *actions)
    assert m.phase == "deal_over"
    assert m.history[-1]["order"] == order
    assert m.levels == levels
    assert m.turns() == [] and m.system_step() == "sys next_deal"


def test_rules_2_3_choose_reading_when_several_are_playable() -> None:
    m = table(["♠3 ♠4 ♠5 ♠6 ♠7 ♦9", "♠8", "♠9", "♠10"])
    with pytest.raises(RuleError) as err:
        m.apply("0 play ♠3 ♠4 ♠5 ♠6 ♠7")
    assert err.value.code == "choose_reading"
    assert set(str(err.value.params["readings"]).split(" / ")) == {"sf7.5", "st7.5"}
    with pytest.raises(RuleError) as err:
        m.apply("0 play ♠3 ♠4 ♠5 ♠6 ♠7 as b4.4")
    assert err.value.code == "unknown_reading"
    m.apply("0 play 3s 4s 5s 6s 7s as st7.5")
    assert m.log[-1] == "0 play ♠3 ♠4 ♠5 ♠6 ♠7 as st7.5"  # canonical text, reading named
    assert m.play is not None and m.play.to_beat is not None and m.play.to_beat.kind == "straight"


def test_rules_2_4_single_reading_needs_no_name() -> None:
    m = table(["♠3 ♣3", "♠8", "♠9", "♠10"])
    m.apply("0 play 3s 3c")
    assert m.log[-1] == "0 play ♠3 ♣3"


@pytest.mark.parametrize("always", [False, True])
def test_rules_2_4_ask_counts_ten_or_fewer_else_more_than_10(always: bool) -> None:
    m = table(
        ["♠3", "♠4 ♠5 ♠6 ♠7 ♠8 ♠9 ♠10 ♠J ♠Q ♠K ♣3", "♣4 ♣5", "♣6 ♣7 ♣8 ♣9 ♣10 ♣J ♣Q ♣K ♣A ♦3"],
        always_show_counts=always,
    )
    events = m.apply("2 ask_counts")
    assert events[0].kind == "counts"
    assert events[0].data["answer"] == {"0": 1, "1": "more_than_10", "3": 10}
    view = m.public_view()  # asking is aloud at the table: the answer is public
    assert view["counts_asked"] == {"by": 2, "answer": {"0": 1, "1": "more_than_10", "3": 10}}
    assert view["counts"] == ([1, 11, 2, 10] if always else None)
    assert m.log[-1] == "2 ask_counts"


def test_d10_turns_name_the_clock_option_only_when_on() -> None:
    m = table(FOUR)
    assert m.turns()[0].clock is None
    m = table(FOUR, play_clock=20)
    assert m.turns()[0].clock == "play_clock"
    assert m.public_view()["turns"][0]["seconds"] == 20


def test_auto_action_pass_when_allowed_else_lowest_play() -> None:
    m = table(["♠3 ♠9 ♣K", "♠4 ♠10 ♦K", "♠5 ♠J ♣A", "♠6 ♠Q ♦A"], level=3)
    assert m.auto_action(0) == "0 play ♠9"  # at level 3 the 3 is high: 9 is the lowest single
    m.apply(m.auto_action(0))
    assert m.auto_action(1) == "1 pass"
    with pytest.raises(RuleError):
        m.auto_action(3)


def test_typed_ace_of_spades_as_is_not_a_reading_name() -> None:
    m = table(["♠10 ♠J ♠Q ♠K ♠A ♦3", "♠8", "♠9", "♠10"])
    with pytest.raises(RuleError) as err:
        m.apply("0 play 10s js qs ks as")
    assert err.value.code == "choose_reading"
    m.apply("0 play 10s js qs ks as as sf14.5")
    assert m.log[-1] == "0 play ♠10 ♠J ♠Q ♠K ♠A as sf14.5"
    m2 = table(["♠10 ♠J ♠Q ♠K ♠A ♦3", "♠8", "♠9", "♠10"])
    m2.apply("0 play 10s js qs ks as as straight")
    assert m2.log[-1] == "0 play ♠10 ♠J ♠Q ♠K ♠A as st14.5"
