"""The 🏁 result announcement of a tournament match decided on equal levels says how it was decided."""

from __future__ import annotations

import pytest

from bot.tournaments import views
from bot.tournaments.results import table_match_result
from engine.tournament.results import played_table, team_result


@pytest.mark.parametrize(
    "engine_result,zh,en",
    [
        (
            {"winner": 0, "levels": [2, 2], "reason": "deals", "tie_break": "dealer_side"},
            "孙三 / 李四 胜 褚明 / 卫东（2:2，台上方胜）",
            "孙三 / 李四 beat 褚明 / 卫东 (2:2, dealing side wins)",
        ),
        (
            {"winner": 0, "levels": [9, 9], "reason": "time_up", "tie_break": "cut"},
            "孙三 / 李四 胜 褚明 / 卫东（9:9，搬点决胜）",
            "(9:9, decided by a cut)",
        ),
        (
            {"winner": 0, "levels": [4, 4], "reason": "deals", "last_upstream": 2},
            "孙三 / 李四 胜 褚明 / 卫东（4:4，末副上游方胜）",
            "(4:4, first out in the last deal wins)",
        ),
    ],
)
def test_equal_levels_announce_the_tie_break(engine_result, zh, en) -> None:  # type: ignore[no-untyped-def]
    """docs/rules.md 1.8 (dealer side / cut) and 2.7 (last 上游) are named."""
    res = table_match_result(engine_result, 1).to_dict()  # as stored in result_json
    assert views.result_line("zh", "R1-M1", res, "孙三 / 李四", "褚明 / 卫东") == f"R1-M1：{zh}"
    assert views.result_line("en", "R1-M1", res, "孙三 / 李四", "褚明 / 卫东").endswith(en)


def test_different_levels_show_only_the_score_winner_first() -> None:
    """Issue 10: the winner is written first and so is the winner's score."""
    res = table_match_result({"winner": 1, "levels": [6, 11], "reason": "deals", "tie_break": None}, 1)
    assert views.result_line("zh", "R1-M1", res, "甲", "乙") == "R1-M1：乙 胜 甲（11:6）"
    team = team_result([played_table("b", 4, 14, 1), played_table("b", 8, 10, 2)])
    assert views.result_line("zh", "R1-M1", team, "机关队", "医学院队") == "R1-M1：医学院队 胜 机关队（2:0）"


def test_team_match_level_on_tables_names_the_deciding_rule() -> None:
    """docs/rules.md 3: a team match level on tables is decided by the total level difference."""
    res = team_result([played_table("a", 14, 4, 1), played_table("b", 8, 10, 2)])
    assert res.decided_by == "level_difference"
    assert (
        views.result_line("zh", "G1", res, "机关1队", "医学院1队")
        == "G1：机关1队 胜 医学院1队（1:1，级差决胜）"
    )
