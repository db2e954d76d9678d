"""Prize lists exactly as each of the four notices defines them (docs/rules.md section 3)."""

from __future__ import annotations

from collections import Counter

from engine.tournament.prizes import prize_for_place, prize_for_round
from engine.tournament.results import pair_result, played_table, team_result
from engine.tournament.tournament import Tournament
from tests.engine.tournament.helpers import SECRET, pairs, preset_settings, teams


def run(t: Tournament, winner: str = "a") -> Tournament:
    t.hold_draw(SECRET)
    while t.ready_matches():
        mid = t.ready_matches()[0]
        if t.settings.entrant == "team":
            t.record(mid, team_result([played_table(winner, 14, 9, k) for k in (1, 2, 3)]))
        else:
            t.record(mid, pair_result(winner, 14, 9))
    assert t.finished
    return t


def test_shengji_50min_prizes_by_round_eliminated() -> None:
    """shengji-50min notice 六、奖励办法: 第一轮遭淘汰 纪念奖; 第二轮 三等奖; 第三轮 二等奖; 第四轮 一等奖;
    第四轮胜出 优胜奖.  16 pairs (8 union groups x 2 pairs) make exactly four rounds."""
    t = run(Tournament.create("50min", preset_settings("shengji-50min"), pairs(16, groups=8)))
    rows = t.ranking()
    by_round = {(r.eliminated_round, r.prize) for r in rows}
    assert by_round == {(1, "souvenir"), (2, "third"), (3, "second"), (4, "first"), (None, "champion")}
    assert Counter(r.prize for r in rows) == {
        "souvenir": 8,
        "third": 4,
        "second": 2,
        "first": 1,
        "champion": 1,
    }
    assert rows[0].prize == "champion" and rows[0].place == 1


def test_shengji_50min_with_byes_counts_bracket_rounds() -> None:
    """11 pairs: a 16 bracket (5 byes); a pair with a bye that loses in round 2 gets round 2's prize."""
    t = run(Tournament.create("50min", preset_settings("shengji-50min"), pairs(11, groups=6)))
    rows = t.ranking()
    assert Counter(r.prize for r in rows) == {
        "souvenir": 3,
        "third": 4,
        "second": 2,
        "first": 1,
        "champion": 1,
    }


def test_round_prizes_are_aligned_to_the_final_for_smaller_fields() -> None:
    """Decision: with 3 rounds the final's loser still gets 一等奖 and the champion 优胜奖."""
    table = ["souvenir", "third", "second", "first"]
    assert [prize_for_round(r, 3, table) for r in (1, 2, 3)] == ["third", "second", "first"]
    assert [prize_for_round(r, 5, table) for r in (1, 2, 5)] == ["souvenir", "souvenir", "first"]
    assert [prize_for_round(r, 3, table, "first") for r in (1, 2, 3)] == ["souvenir", "third", "second"]


def test_shengji_timed_2h_one_first_two_second_three_third_souvenir_for_all() -> None:
    """shengji-timed-2h notice 七、奖励办法: 一等奖1个、二等奖2个、三等奖3个，所有参赛选手都颁发纪念奖."""
    t = run(Tournament.create("2h", preset_settings("shengji-timed-2h"), pairs(8)))
    rows = t.ranking()
    assert [r.prize for r in rows] == [
        "first",
        "second",
        "second",
        "third",
        "third",
        "third",
        "souvenir",
        "souvenir",
    ]
    assert [r.place for r in rows] == [1, 2, 3, 4, 5, 5, 7, 7]
    ids = {m.id for m in t.bracket.matches} if t.bracket else set()
    assert {"P3-4-M1", "P5-8-M1", "P5-8-M2"} <= ids  # 3rd-place match and placement matches decided them


def test_shengji_timed_2h_larger_field() -> None:
    t = run(Tournament.create("2h", preset_settings("shengji-timed-2h"), pairs(13)))
    prizes = Counter(r.prize for r in t.ranking())
    assert prizes == {"first": 1, "second": 2, "third": 3, "souvenir": 7}


def test_guandan_team_first_second_third_and_souvenir() -> None:
    """guandan-team notice 五、比賽獎勵: 一、二、三等獎和紀念獎; final and 3rd-place match (季軍爭奪戰)."""
    t = run(Tournament.create("掼蛋", preset_settings("guandan-team"), teams(12)))
    rows = t.ranking()
    assert [r.prize for r in rows[:3]] == ["first", "second", "third"]
    assert all(r.prize == "souvenir" for r in rows[3:]) and len(rows) == 12
    assert t.bracket is not None and t.bracket.third_place_id == "P3-4-M1"
    assert [r.place for r in rows[:4]] == [1, 2, 3, 4]


def test_guandan_team_eight_teams_go_straight_to_the_knockout() -> None:
    """The notice's own schedule: 8 teams, 8进4, 4进2, 冠軍爭奪戰 and 季軍爭奪戰."""
    t = run(Tournament.create("掼蛋", preset_settings("guandan-team"), teams(8)))
    assert t.groups is None and t.bracket is not None and t.bracket.size == 8
    assert [r.prize for r in t.ranking()][:4] == ["first", "second", "third", "souvenir"]


def test_shengji_17_deals_winner_goes_on_and_nothing_else() -> None:
    """shengji-17-deals notice: no prizes; 按照报名人数最终选出2人参加学院比赛 (the winning pair goes on)."""
    t = run(Tournament.create("17", preset_settings("shengji-17-deals"), pairs(6)))
    rows = t.ranking()
    assert rows[0].prize == "representative" and rows[0].place == 1
    assert all(r.prize == "" for r in rows[1:])


def test_tied_places_at_a_boundary_share_the_better_prize() -> None:
    assert [prize_for_place(p, [1, 2, 3]) for p in (1, 2, 3, 4, 6, 7)] == [
        "first",
        "second",
        "second",
        "third",
        "third",
        "",
    ]


def test_ranking_rows_export_as_plain_dicts() -> None:
    t = run(Tournament.create("2h", preset_settings("shengji-timed-2h"), pairs(4)))
    row = t.ranking()[0].to_dict()
    assert row["prize_zh"] == "一等奖" and row["place"] == 1 and " / " in row["players"]
