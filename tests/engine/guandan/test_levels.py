"""Level change, the A rule and a_failures_reset (docs/rules.md 2.5), match-end tiebreak (2.7)."""

from __future__ import annotations

import pytest

from engine.guandan.levels import deal_outcome, full_order, level_change, places, time_winner


@pytest.mark.parametrize(
    ("order", "side", "gain", "result"),
    [
        ([0, 2], 0, 3, "1-2"),  # 上游 + 二游: +3, the other side 双下
        ([1, 3], 1, 3, "1-2"),
        ([0, 1, 2], 0, 2, "1-3"),  # 上游 + 三游: +2
        ([3, 0, 1], 1, 2, "1-3"),
        ([0, 1, 3], 0, 1, "1-4"),  # 上游 + 末游: +1 (the other side both out)
        ([2, 3, 1], 0, 1, "1-4"),
    ],
)
def test_rules_2_5_upgrade_by_result(order: list[int], side: int, gain: int, result: str) -> None:
    assert deal_outcome(order) == (side, gain, result)
    change = level_change([5, 5], 5, order)
    assert change.levels_after[side] == 5 + gain
    assert change.levels_after[1 - side] == 5
    assert change.match_winner is None


def test_rules_2_5_levels_stop_at_a() -> None:
    change = level_change([12, 4], 12, [0, 2])
    assert change.levels_after == (14, 4)
    assert change.match_winner is None  # reaching A is not winning: A must be played


@pytest.mark.parametrize(
    ("order", "wins"),
    [
        ([0, 2], True),
        ([0, 1, 2], True),
        ([0, 1, 3], False),
        ([1, 3], False),
        ([1, 0, 3], False),
        ([2, 3, 0], True),
        ([2, 1, 3], False),
    ],
)
def test_rules_2_5_a_rule_side_playing_a_wins_only_with_upstream_and_partner_not_last(
    order: list[int], wins: bool
) -> None:
    change = level_change([14, 9], 14, order)
    assert (change.match_winner == 0) is wins
    assert change.levels_after[0] == 14  # a failure at A stays at A


def test_rules_2_5_a_rule_needs_the_deal_played_at_a() -> None:
    # side 0 sits at A but the deal is played at side 1's level 9: taking 1-2 keeps it at A
    change = level_change([14, 9], 9, [0, 2])
    assert change.match_winner is None
    assert change.levels_after == (14, 9)


def test_rules_2_5_both_sides_at_a_either_can_win() -> None:
    assert level_change([14, 14], 14, [1, 3]).match_winner == 1


def test_rules_2_5_a_failures_reset_after_three_failed_deals() -> None:
    fails = (0, 0)
    levels = (14, 9)
    for expected in (1, 2):
        change = level_change(levels, 14, [0, 1, 3], fails, a_failures_reset=True)
        assert change.a_failures[0] == expected
        assert change.levels_after[0] == 14
        levels, fails = change.levels_after, change.a_failures
    change = level_change(levels, 14, [0, 1, 3], fails, a_failures_reset=True)
    assert change.levels_after[0] == 2 and change.reset_sides == (0,)
    assert change.a_failures[0] == 0


def test_rules_2_5_a_failures_counted_but_no_reset_when_option_off() -> None:
    change = level_change((14, 9), 14, [1, 3], (2, 0), a_failures_reset=False)
    assert change.levels_after == (14, 12)
    assert change.a_failures == (3, 0)


@pytest.mark.parametrize(
    ("levels", "up", "winner"), [((9, 7), 1, 0), ((7, 9), 0, 1), ((8, 8), 3, 1), ((8, 8), 2, 0)]
)
def test_rules_2_7_time_winner_higher_level_then_last_upstream(
    levels: tuple[int, int], up: int, winner: int
) -> None:
    assert time_winner(levels, up) == winner


def test_places_and_full_order() -> None:
    assert full_order([2, 0]) == [2, 0, 1, 3]
    assert places([1, 2, 3]) == [3, 0, 1, 2]
