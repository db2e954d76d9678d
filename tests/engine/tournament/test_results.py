"""Match results and team matches (docs/rules.md section 3: 3 tables at once, the team winning 2 of 3 wins)."""

from __future__ import annotations

from engine.tournament.results import (
    FORFEIT_LEVEL_MARGIN,
    PairingResult,
    TableResult,
    disqualification_result,
    forfeit_result,
    forfeit_table,
    pair_result,
    played_table,
    team_result,
)


def test_team_best_of_three_two_tables_win() -> None:
    """guandan-team notice: 三局两胜制，三组选手同时出场，获得两组或三组比赛胜利的工會小组为胜方."""
    res = team_result([played_table("a", 14, 9, 1), played_table("b", 8, 12, 2), played_table("a", 10, 7, 3)])
    assert res.winner == "a" and res.decided_by == "tables"
    assert res.tables_won("a") == 2 and res.tables_won("b") == 1
    assert res.level_diff("a") == 5 - 4 + 3


def test_team_three_nil_and_table_order_does_not_matter() -> None:
    res = team_result([played_table("b", 5, 14, 3), played_table("b", 2, 14, 1), played_table("b", 9, 10, 2)])
    assert res.winner == "b" and res.tables_won("b") == 3
    assert [t.table for t in res.tables] == [1, 2, 3]


def test_two_pair_team_level_on_tables_goes_to_level_difference() -> None:
    """Decision for 2-pair teams (shengji-50min played as teams): 1-1 -> level difference, then table 1."""
    res = team_result([played_table("a", 14, 12, 1), played_table("b", 6, 13, 2)])
    assert res.winner == "b" and res.decided_by == "level_difference"
    even = team_result([played_table("a", 10, 8, 1), played_table("b", 8, 10, 2)])
    assert even.winner == "a" and even.decided_by == "table_1"


def test_team_with_a_double_forfeited_table_and_nothing_else_to_separate_is_a_draw() -> None:
    res = team_result([forfeit_table("both", 1), played_table("a", 9, 9, 2), played_table("b", 9, 9, 3)])
    assert res.winner is None and res.outcome == "draw"
    assert res.match_points("a") == res.match_points("b") == 1


def test_lateness_at_one_table_loses_that_table_only() -> None:
    res = team_result([forfeit_table("a", 1), played_table("a", 14, 2, 2), played_table("a", 12, 11, 3)])
    assert res.winner == "a" and res.outcome == "played"
    assert res.tables[0] == TableResult(1, "b", None, None, "a")


def test_whole_team_absent_is_a_forfeit_and_both_absent_a_double_forfeit() -> None:
    assert forfeit_result("b", tables=3).winner == "a"
    assert forfeit_result("b", tables=3).tables_won("a") == 3
    both = forfeit_result("both", tables=3)
    assert both.double_forfeit and both.winner is None and both.match_points("a") == 0
    assert team_result([forfeit_table("both", t) for t in (1, 2, 3)]).double_forfeit


def test_forfeit_counts_the_full_level_margin_against_the_absent_side() -> None:
    res = forfeit_result("a")
    assert res.level_diff("b") == FORFEIT_LEVEL_MARGIN and res.level_diff("a") == -FORFEIT_LEVEL_MARGIN
    assert forfeit_result("both").level_diff("a") == -FORFEIT_LEVEL_MARGIN


def test_disqualification_gives_the_opponent_the_match() -> None:
    res = disqualification_result("a", note="second violation")
    assert res.winner == "b" and res.outcome == "disqualified"


def test_result_round_trips_through_a_dict() -> None:
    res = team_result([played_table("a", 14, 9, 1), forfeit_table("b", 2), played_table("b", 3, 4, 3)])
    assert PairingResult.from_dict(res.to_dict()) == res
    assert PairingResult.from_dict(pair_result("b", 5, 14).to_dict()) == pair_result("b", 5, 14)
