"""Scores as the outputs print them: levels for pairs, tables for teams (docs/rules.md section 3), forfeits."""

from __future__ import annotations

from bot.presentation.tournament.labels import level_text, score_line, side_scores, table_details
from engine.tournament.results import (
    disqualification_result,
    forfeit_result,
    forfeit_table,
    pair_result,
    played_table,
    referee_result,
    team_result,
)


def test_pair_scores_are_the_levels_reached() -> None:
    assert [level_text(v) for v in (2, 10, 11, 12, 13, 14, None)] == ["2", "10", "J", "Q", "K", "A", "-"]
    r = pair_result("b", 9, 14)
    assert side_scores(r, "zh", team=False) == ("9", "A")
    assert score_line(r, "en", team=False) == "9 : A"


def test_team_scores_are_tables_won_and_name_the_tie_rule() -> None:
    """Team match: more tables wins; level tables fall to level difference, then table 1."""
    r = team_result([played_table("a", 14, 8, 1), played_table("b", 10, 12, 2), played_table("a", 13, 2, 3)])
    assert score_line(r, "zh", team=True) == "2 : 1"
    tie = team_result([played_table("a", 14, 8, 1), played_table("b", 10, 12, 2), forfeit_table("both", 3)])
    assert tie.decided_by == "level_difference"
    assert score_line(tie, "zh", team=True) == "1 : 1 (级差)"
    assert table_details(tie, "zh") == "桌1 A:8; 桌2 10:Q; 桌3 双方弃权"
    assert table_details(tie, "en") == "T1 A:8; T2 10:Q; T3 double forfeit"


def test_forfeits_and_disqualification_are_named_on_the_losing_side() -> None:
    assert side_scores(forfeit_result("a"), "zh", team=False) == ("弃权", "")
    assert score_line(forfeit_result("a", 3), "en", team=True) == "forfeit"
    assert score_line(disqualification_result("b"), "zh", team=False) == "取消资格"
    assert side_scores(forfeit_result("both"), "zh", team=False) == ("弃权", "弃权")
    assert score_line(forfeit_result("both"), "zh", team=False) == "双方弃权"
    one_table = team_result(
        [forfeit_table("b", 1), played_table("b", 10, 14, 2), played_table("a", 13, 2, 3)]
    )
    assert score_line(one_table, "zh", team=True) == "2 : 1"
    assert table_details(one_table, "zh").startswith("桌1 弃权(乙)")


def test_referee_decisions_without_table_scores() -> None:
    assert score_line(referee_result("b", note="cut"), "zh", team=False) == "裁判判定"
    assert side_scores(referee_result("b"), "zh", team=False) == ("", "✓")
    assert score_line(referee_result(None), "en", team=True) == "draw"
    assert score_line(None, "zh", team=True) == ""
