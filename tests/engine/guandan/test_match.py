"""Tribute as actions (docs/rules.md 2.6, D7, D8), match end (2.5 A rule, 2.7 deals / time limit), replay."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import RuleError
from engine.guandan import match as match_module
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions
from engine.registry import load_preset, replay
from tests.engine.guandan.test_flow import C, run, table


def after_deal(
    monkeypatch: pytest.MonkeyPatch,
    order: list[int],
    hands: list[str],
    levels: tuple[int, int] = (2, 2),
    **opts: Any,
) -> GuandanMatch:
    """A match whose first deal ended with finishing ``order``; the next deal deals ``hands``."""
    m = GuandanMatch(GuandanOptions(**opts), 5)
    m.deal_no = 1
    m.prev_order = order
    m.last_upstream = order[0]
    m.levels = list(levels)
    m.phase = "deal_over"
    monkeypatch.setattr(match_module, "deal_hands", lambda seed, no, turn=0: [sorted(C(h)) for h in hands])
    m.apply("sys next_deal")
    return m


HANDS = ["♠3 ♠4 ♠J ♣Q ♦K", "♠A ♣A ♠5 ♠6", "♣J ♣Q ♦Q ♠K", "♦K ♠7 ♣8 ♥2"]


def test_rules_2_6_double_down_full_flow() -> None:
    mp = pytest.MonkeyPatch()
    with mp.context() as ctx:
        m = after_deal(ctx, [0, 2], HANDS)
    assert m.phase == "tribute"
    assert {(t.seat, t.kind) for t in m.turns()} == {(1, "tribute"), (3, "tribute")}
    for action, code in [
        ("3 tribute ♠7", "tribute_not_highest"),
        ("3 tribute ♥2", "tribute_wild"),
        ("0 tribute ♠3", "not_a_payer"),
        ("1 return ♠5", "no_return_now"),
    ]:
        with pytest.raises(RuleError) as err:
            m.apply(action)
        assert err.value.code == code
    run(m, "3 tribute ♦K", "1 tribute ♣A")  # the payer chooses among equal highest cards
    assert m.phase == "return"
    assert C("♣A")[0] in m.hands[0] and C("♦K")[0] in m.hands[2]  # higher to 上游, other to 二游
    with pytest.raises(RuleError) as err:
        m.apply("0 return ♠J")
    assert err.value.code == "return_above_10"  # docs/rules.md 2.6 / D8
    with pytest.raises(RuleError) as err:
        m.apply("2 return ♦K")
    assert err.value.code == "return_not_lowest"  # D8: nothing ≤ 10 → the lowest card
    run(m, "0 return ♠4", "2 return ♣J")
    assert C("♠4")[0] in m.hands[1] and C("♣J")[0] in m.hands[3]
    assert m.phase == "play" and m.turns()[0].seat == 1  # the payer of the higher tribute leads
    assert [len(h) for h in m.hands] == [5, 4, 4, 4]


def test_rules_2_6_equal_tributes_upstream_next_pays_upstream_and_leads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    m = after_deal(monkeypatch, [2, 0], ["♠3 ♠4", "♠A ♠5", "♣3 ♣4", "♦A ♠7"])
    run(m, "1 tribute ♠A", "3 tribute ♦A")
    # 上游 is seat 2: its next is seat 3, which pays 上游 and leads; seat 1 pays 二游 (seat 0)
    assert m.tribute_to == {3: 2, 1: 0}
    run(m, "2 return ♣3", "0 return ♠3")
    assert m.turns()[0].seat == 3


@pytest.mark.parametrize(
    ("order", "payer", "receiver", "opts"),
    [
        ([0, 1, 2], 3, 0, {}),  # 单下: 末游 pays 上游, 末游 leads
        ([0, 1, 3], 2, 0, {}),  # D7: 上游 + 末游 partners, 末游 still pays
        ([1, 2, 0], 3, 1, {"tribute_on_one_four": "pay"}),
    ],
)
def test_rules_2_6_d7_single_down(
    monkeypatch: pytest.MonkeyPatch, order: list[int], payer: int, receiver: int, opts: dict[str, Any]
) -> None:
    m = after_deal(monkeypatch, order, ["♠3 ♠4 ♠Q", "♠5 ♠6 ♠K", "♣3 ♣4 ♣K", "♦3 ♦4 ♦K"], **opts)
    assert [(t.seat, t.kind) for t in m.turns()] == [(payer, "tribute")]
    m.apply(f"{payer} tribute {m.seat_view(payer)['hint']['choices'][0]}")
    assert [(t.seat, t.kind) for t in m.turns()] == [(receiver, "return")]
    m.apply(m.auto_action(receiver))
    assert m.turns()[0].seat == payer and m.turns()[0].kind == "lead"


def test_d7_option_none_no_tribute_upstream_leads(monkeypatch: pytest.MonkeyPatch) -> None:
    m = after_deal(monkeypatch, [0, 1, 3], HANDS, tribute_on_one_four="none")
    assert m.phase == "play" and m.turns()[0].seat == 0


@pytest.mark.parametrize(
    ("order", "hands"),
    [
        ([0, 2], ["♠3", "BJ BJ ♠5", "♣3", "♦3"]),  # double down: one payer holds both BJs
        ([0, 2], ["♠3", "BJ ♠5", "♣3", "BJ ♦3"]),  # double down: split across the two payers
        ([0, 1, 2], ["♠3", "♠5", "♣3", "BJ BJ ♦3"]),
    ],  # single down: the payer holds both
)
def test_rules_2_6_anti_tribute_upstream_leads(
    monkeypatch: pytest.MonkeyPatch, order: list[int], hands: list[str]
) -> None:
    m = after_deal(monkeypatch, order, hands)
    assert m.tribute is not None and m.tribute.kind == "anti"
    assert m.phase == "play" and m.turns()[0].seat == order[0]


def test_rules_2_6_tribute_card_public_returned_card_private(monkeypatch: pytest.MonkeyPatch) -> None:
    m = after_deal(monkeypatch, [0, 1, 2], ["♠3 ♠4 ♠Q", "♠5 ♠6 ♠K", "♣3 ♣4 ♣K", "♦3 ♦4 ♦A"])
    run(m, "3 tribute ♦A", "0 return ♠4")
    assert m.public_view()["tribute"]["paid"] == {"3": "♦A"}
    assert "♠4" not in str(m.public_view())
    assert "♠4" not in str(m.seat_view(1)) and "♠4" not in str(m.seat_view(2))
    assert m.seat_view(3)["tribute"]["my_return"] == {"from": 0, "to": 3, "card": "♠4"}


def test_rules_2_6_tribute_clocks(monkeypatch: pytest.MonkeyPatch) -> None:
    m = after_deal(
        monkeypatch,
        [0, 1, 2],
        ["♠3 ♠4 ♠Q", "♠5 ♠6 ♠K", "♣3 ♣4 ♣K", "♦3 ♦4 ♦A"],
        tribute_clock=15,
        return_clock=30,
    )
    assert m.turns()[0].clock == "tribute_clock"
    assert m.auto_action(3) == "3 tribute ♦A"
    m.apply("3 tribute ♦A")
    assert m.turns()[0].clock == "return_clock"
    assert m.auto_action(0) == "0 return ♠3"  # the lowest allowed card


# --- match end ---------------------------------------------------------------------------

ONE_FOUR = (
    ["♠A", "♠Q", "♠5 ♣4 ♦6", "♠K"],
    ["0 play ♠A", "1 pass", "2 pass", "3 pass", "2 play ♣4", "3 pass", "1 play ♠Q", "2 pass", "3 play ♠K"],
)
ONE_TWO = (["♠A", "♠4 ♠3", "♠K", "♠6 ♠5"], ["0 play ♠A", "1 pass", "2 pass", "3 pass", "2 play ♠K"])


def test_rules_2_5_a_rule_ends_the_match_at_once() -> None:
    hands, actions = ONE_TWO
    m = table(hands, level=14, start_level=14)
    run(m, *actions)
    assert m.finished and m.result() == {
        "winner": 0,
        "levels": [14, 14],
        "reason": "a_rule",
        "deals": 1,
        "last_upstream": 0,
    }
    assert m.system_step() is None and m.turns() == []
    with pytest.raises(RuleError):
        m.apply("sys next_deal")


def test_rules_2_5_a_rule_upstream_with_partner_last_stays_at_a() -> None:
    hands, actions = ONE_FOUR
    m = table(hands, level=14, start_level=14)
    run(m, *actions)
    assert not m.finished and m.levels == [14, 14] and m.a_failures == [1, 1]


def test_rules_2_7_time_up_mid_deal_finishes_the_deal_then_ends() -> None:
    hands, actions = ONE_FOUR
    m = table(hands)
    m.levels = [3, 2]
    run(m, *actions[:3], "sys time_up", *actions[3:])
    # side 0 took 上游 + 末游: 3 → 4 ... levels differ, higher wins
    assert m.finished and m.result() is not None
    assert m.result() == {"winner": 0, "levels": [4, 2], "reason": "time_up", "deals": 1, "last_upstream": 0}


def test_rules_2_7_equal_levels_last_upstream_side_wins() -> None:
    hands, actions = ONE_FOUR
    m = table(hands)
    m.levels = [2, 3]
    run(m, "sys time_up", *actions)
    assert m.result() is not None and m.result() == {
        "winner": 0,
        "levels": [3, 3],
        "reason": "time_up",
        "deals": 1,
        "last_upstream": 0,
    }


def test_rules_2_7_time_up_between_deals_ends_now() -> None:
    hands, actions = ONE_TWO
    m = table(hands)
    run(m, *actions)
    assert m.phase == "deal_over"
    events = m.apply("sys time_up")
    assert m.finished and events[-1].kind == "match_over" and m.result() is not None
    assert m.result()["winner"] == 0


def play_out(m: GuandanMatch, seed: int = 0, max_actions: int = 100_000) -> None:
    rng = random.Random(seed)
    for _ in range(max_actions):
        if m.finished:
            return
        step = m.system_step()
        if step is not None:
            m.apply(step)
            continue
        seat = m.turns()[0].seat
        action = m.ai_action(seat, rng)
        assert action is not None
        m.apply(action)
    raise AssertionError("match did not finish")


def test_rules_2_7_deal_limit_ends_the_match() -> None:
    m = GuandanMatch(GuandanOptions(deals=3), 21)
    play_out(m)
    result = m.result()
    assert result is not None and result["reason"] == "deals" and result["deals"] == 3
    assert len(m.history) == 3


def test_preset_computer_match_from_2_past_a_replays_identically() -> None:
    """issue 3 'done when': a computer-played match of guandan-team from 2 past A replays from its log."""
    preset = load_preset("guandan-team")
    m = GuandanMatch(preset.rules, 2026)
    play_out(m)
    result = m.result()
    assert result is not None and result["reason"] == "a_rule"
    assert max(result["levels"]) == 14
    again = replay("guandan", preset.rules, 2026, list(m.log))
    assert again.result() == result and again.history == m.history
    assert again.public_view() == m.public_view()
    assert [again.seat_view(s) for s in range(4)] == [m.seat_view(s) for s in range(4)]


def test_d6_forfeit_deal_counts_as_double_down_for_that_side() -> None:
    """D6 / on_timeout = forfeit_deal: the deal ends as a loss for the seat's side (opponents 上游+二游)."""
    m = table(["♠3 ♠9", "♠4 ♠10", "♠5 ♠J", "♠6 ♠Q"])
    run(m, "0 play ♠9", "sys forfeit_deal 2")
    assert m.phase == "deal_over" and m.levels == [2, 5]
    assert m.history[-1]["order"] == [3, 1] and m.history[-1]["forfeit"] == 2
    m.apply("sys next_deal")
    assert m.tribute is not None and m.tribute.kind in ("double", "anti") and m.tribute.payers == (0, 2)
    for bad, code in [("sys forfeit_deal 7", "bad_action"), ("sys forfeit_deal", "bad_action")]:
        with pytest.raises(RuleError) as err:
            m.apply(bad)
        assert err.value.code == code


def test_d6_forfeit_needs_a_deal_in_progress() -> None:
    m = GuandanMatch(GuandanOptions(), 3)
    with pytest.raises(RuleError) as err:
        m.apply("sys forfeit_deal 1")
    assert err.value.code == "no_deal_to_forfeit"


def test_rules_2_5_a_failures_reset_in_a_match_third_failure_back_to_2() -> None:
    hands, actions = ONE_FOUR
    m = table(hands, level=14, start_level=14, a_failures_reset=True)
    m.a_failures = [2, 0]
    run(m, *actions)  # 上游 + 末游 at A: a failure for both sides playing at A; side 0's third
    assert not m.finished
    assert m.levels == [2, 14] and m.a_failures == [0, 1]
    assert m.history[-1]["reset_sides"] == [0]
