"""Duplicate deals in a Swiss of pairs (issue 20): which matches form a comparison, which hands each table
turns, the coupled score of the two matches (docs/organiser-guide.md 5c, docs/fairness.md), and which
settings accept or refuse ``duplicate`` for pairs."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import RuleError
from engine.registry import load_preset
from engine.tournament.duplicate import (
    compare,
    deal_score,
    pair_comparison_result,
    swiss_index,
    swiss_partner,
    swiss_turn,
)
from engine.tournament.results import PairingResult, TableResult, forfeit_result, pair_result
from engine.tournament.settings import TournamentSettings
from tests.engine.tournament.helpers import played_board_table


def test_matches_of_a_round_pair_up_two_by_two_and_the_odd_one_and_the_bye_play_alone() -> None:
    paired = {"S2-M1", "S2-M2", "S2-M3", "S2-M4", "S2-M5"}  # five matches (and a bye, S2-M6, not paired)
    assert [swiss_partner(f"S2-M{i}", paired) for i in range(1, 7)] == [
        "S2-M2",
        "S2-M1",
        "S2-M4",
        "S2-M3",
        None,  # the odd match left over plays ordinary deals
        None,  # the bye has no table
    ]
    assert [swiss_turn(f"S2-M{i}") for i in (1, 2, 3, 4)] == [0, 1, 0, 1]
    assert swiss_partner("R1-M1", {"R1-M1", "R1-M2"}) is None  # a knockout match: ordinary deals
    assert swiss_partner("S1-M10", {f"S1-M{i}" for i in range(1, 11)}) == "S1-M9"
    assert swiss_index("S12-M3") == (12, 3) and swiss_index("P3-4-M1") is None


def _boards(rows: list[tuple[int, int]]) -> Any:
    """Boards from (x1, x2) per deal: side a's steps at the odd match's table and at the even one's."""

    def summary(d: int, x: int) -> dict[str, Any]:
        return {"deal_no": d, "winner_side": 0 if x > 0 else 1, "gain": abs(x)}

    odd = [summary(d, x1) for d, (x1, _) in enumerate(rows, start=1)]
    even = [summary(d, x2) for d, (_, x2) in enumerate(rows, start=1)]
    return compare("guandan", {1: odd, 2: even}, 2)


def test_the_documented_example_both_side_a_pairs_win_on_the_same_total() -> None:
    """Deal 1: x1 = +2, x2 = -3 -> -1; deal 2: x1 = -1, x2 = +3 -> +2; total +1 for side a of both matches,
    even though side b won at the odd match's table on its own levels."""
    boards = _boards([(2, -3), (-1, 3)])
    assert [b.score for b in boards] == [-1, 2]
    m1 = pair_comparison_result(pair_result("b", 5, 7), boards, "S1-M2")
    m2 = pair_comparison_result(pair_result("a", 6, 3), boards, "S1-M1")
    for res in (m1, m2):
        assert (res.winner, res.decided_by, res.outcome) == ("a", "duplicate", "played")
        assert res.extra["duplicate"]["total"] == 1
    assert m1.extra["duplicate"]["partner"] == "S1-M2" and m2.extra["duplicate"]["partner"] == "S1-M1"
    assert m1.tables == pair_result("b", 5, 7).tables  # the level difference stays the table's own


def test_a_negative_total_wins_both_matches_for_side_b() -> None:
    boards = _boards([(1, -2)])
    a1 = pair_comparison_result(pair_result("a", 9, 2), boards, "S3-M4")
    a2 = pair_comparison_result(pair_result("a", 9, 2), boards, "S3-M3")
    assert (a1.winner, a2.winner) == ("b", "b")
    assert a1.match_points("b") == 2 and a1.match_points("a") == 0


def test_a_zero_total_or_nothing_compared_leaves_each_match_its_own_table() -> None:
    zero = _boards([(2, -1), (-1, 0)])
    assert sum(b.score for b in zero) == 0
    own = pair_result("b", 4, 6)
    res = pair_comparison_result(own, zero, "S1-M2")
    assert (res.winner, res.decided_by) == ("b", "tables")
    assert res.extra["duplicate"]["total"] == 0
    assert pair_comparison_result(pair_result("a", 7, 3), (), "S1-M1").winner == "a"


def test_only_deals_finished_at_both_tables_are_compared() -> None:
    odd = [
        {"deal_no": 1, "winner_side": 0, "gain": 1},
        {"deal_no": 2, "winner_side": 0, "gain": 3},  # the even table's match was over after deal 1
    ]
    even = [{"deal_no": 1, "winner_side": 1, "gain": 2}]
    boards = compare("guandan", {1: odd, 2: even}, 2)
    assert [(b.deal_no, b.score) for b in boards] == [(1, -1)]
    assert pair_comparison_result(pair_result("a", 14, 8), boards, "S1-M2").winner == "b"


def test_a_result_not_played_at_the_table_is_never_overturned() -> None:
    boards = _boards([(3, 0)])
    walkover = forfeit_result("a")
    res = pair_comparison_result(walkover, boards, "S1-M2")
    assert (res.winner, res.outcome) == ("b", "forfeit")


@pytest.mark.parametrize("preset_id", ["shengji-17-deals", "guandan-team"])
def test_two_played_tables_score_each_pair_against_the_pair_that_held_its_cards(preset_id: str) -> None:
    """Computer players at both tables of a comparison: per deal, the pair at the odd table's side a scores
    its steps minus the steps of the pair holding the same cards at the even table (its side b), and the
    even table's side a scores its steps minus those of the odd table's side b: both are x1 + x2."""
    game = load_preset(preset_id).game
    one, two = played_board_table(preset_id, 0, 77, 3), played_board_table(preset_id, 1, 77, 3)
    boards = compare(game, {1: list(one.history), 2: list(two.history)}, 2)
    assert [b.deal_no for b in boards] == [1, 2, 3]
    for b, s1, s2 in zip(boards, one.history, two.history, strict=True):
        x1, x2 = deal_score(game, s1), deal_score(game, s2)
        assert b.score == x1 - (-x2) == x2 - (-x1)
    total = sum(b.score for b in boards)
    results = []
    for m in (one, two):
        r = m.result()
        own = PairingResult(
            "a" if r["winner"] == 0 else "b",
            "played",
            (TableResult(1, "a" if r["winner"] == 0 else "b", r["levels"][0], r["levels"][1]),),
        )
        results.append(pair_comparison_result(own, boards, "x"))
    if total:
        assert {res.winner for res in results} == {"a" if total > 0 else "b"}
    else:
        assert all(res.decided_by == "tables" for res in results)


def test_settings_accept_duplicate_for_a_swiss_of_pairs_and_refuse_it_where_it_makes_no_sense() -> None:
    ok = TournamentSettings.from_mapping({"format": "swiss", "duplicate": True})
    assert ok.duplicate and ok.entrant == "pair"
    for fmt in ("single_elimination", "groups_then_knockout"):
        with pytest.raises(RuleError) as err:
            TournamentSettings.from_mapping({"format": fmt, "duplicate": True})
        assert err.value.code == "duplicate_pairs_need_swiss"
    with pytest.raises(RuleError) as err:
        TournamentSettings.from_mapping(
            {"entrant": "team", "pairs_per_team": 3, "format": "swiss", "duplicate": True}
        )
    assert err.value.code == "duplicate_needs_pairs_of_tables"
    teams = TournamentSettings.from_mapping({"entrant": "team", "pairs_per_team": 2, "duplicate": True})
    assert teams.duplicate
