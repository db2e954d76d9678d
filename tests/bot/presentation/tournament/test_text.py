"""/standings, /schedule, /results and the prize list as text (zh / en), and the 4096-character split."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.presentation.tournament.outputs_text import ranking_text
from bot.presentation.tournament.text import (
    TELEGRAM_LIMIT,
    results_text,
    schedule_text,
    split_message,
    standings_text,
)
from engine.tournament.results import forfeit_result
from engine.tournament.schedule import Slot
from engine.tournament.tournament import Tournament
from tests.bot.presentation.tournament.helpers import (
    START,
    groups_knockout,
    pair_win,
    pairs,
    play_all,
    settings,
    single_elim,
    slots_for,
    teams,
)


def _names(t):  # type: ignore[no-untyped-def]
    return {e.id: e.name for e in t.entries}


# --- standings -------------------------------------------------------------------------


def test_standings_state_the_tiebreak_order_and_mark_qualifiers() -> None:
    """Issue 5 / groups.py: match points, tables won, level difference, head-to-head, then a recorded lot."""
    t = groups_knockout(10)
    text = standings_text(t, "zh")
    assert "积分（胜2平1负0）› 胜桌数 › 级差 › 相互战绩 › 抽签" in text
    assert "A组" in text and "B组" in text
    assert text.count("✅") == 4  # two qualifiers in each of two groups
    assert t.groups is not None
    st = t.groups.standings("A", t.lot_seed)
    first = _names(t)[st.rows[0].entry_id]
    line = next(ln for ln in text.splitlines() if ln.startswith("1. " + first))
    assert f"{st.rows[0].points}分" in line and f"胜桌{st.rows[0].tables_won}" in line
    assert f"级差{st.rows[0].level_diff:+d}" in line
    en = standings_text(t, "en", group="B")
    assert "Group B" in en and "Group A" not in en and "head-to-head › lot" in en


def test_standings_show_the_lot_numbers_and_seed_when_a_lot_decided() -> None:
    t = groups_knockout(10, stop_after=4)  # one match per entry at most: many entries level
    assert t.groups is not None
    lots = [
        r for st in t.groups.all_standings(t.lot_seed) for r in st.rows if r.tiebreak == "lot" and r.played
    ]
    assert lots, "this fixture has entries separated only by the lot"
    text = standings_text(t, "zh")
    assert f"抽签号{lots[0].lot}" in text
    assert t.lot_seed.hex() in text


def test_single_elimination_standings_list_who_is_still_in() -> None:
    t = single_elim(6)
    champion = _names(t)[t.bracket.champion()] if t.bracket and t.bracket.champion() else ""
    text = standings_text(t, "zh")
    assert "单败淘汰" in text and f"仍在比赛（1）：{champion}" in text


# --- schedule --------------------------------------------------------------------------


def test_schedule_is_in_beijing_time_by_day_with_tables() -> None:
    t = single_elim(6, play=False)
    slots = slots_for(t)
    text = schedule_text(t, slots, "zh", table_names={"桌1": "双升1号桌"})
    lines = text.splitlines()
    assert "北京时间" in lines[0]
    assert "4月16日 周四" in lines
    assert "14:00 第1轮 第2场 · 牌桌 双升1号桌" in lines
    a, b = t.sides(slots[0].match_id)
    assert f"  {_names(t)[str(a)]} 对 {_names(t)[str(b)]}" in lines
    en = schedule_text(t, slots, "en", tz="Europe/London")
    assert "times in Europe/London" in en and "Thu 16 Apr" in en and "07:00 Round 1 match 2" in en


def test_schedule_orders_by_start_and_leaves_out_played_matches_and_byes() -> None:
    t = single_elim(6, play=False)
    m1, m2 = t.ready_matches()
    slots = [Slot(m2, ("T1",), START), Slot(m1, ("T2",), START + timedelta(days=1, hours=1))]
    text = schedule_text(t, slots, "en")
    assert text.index("Round 1 match 4") < text.index("Round 1 match 2")
    assert "Fri 17 Apr" in text and "bye" not in text
    t.record(m2, pair_win(t, m2))
    after = schedule_text(t, slots, "en")
    assert "Round 1 match 4" not in after and "Round 1 match 2" in after
    # the semi-final that became ready has no slot yet: listed as to be announced
    assert "Time to be announced" in after and "Semi-final match 2" in after


def test_schedule_with_nothing_to_come() -> None:
    t = single_elim(4)
    assert schedule_text(t, [], "zh").endswith("暂无待进行的比赛。")


# --- results ---------------------------------------------------------------------------


def test_results_put_the_winner_first_with_levels_and_forfeits() -> None:
    t = single_elim(6, play=False)
    first, second = t.ready_matches()
    t.record(first, forfeit_result("b"))
    t.record(second, pair_win(t, second))
    names = _names(t)
    a1, b1 = t.sides(first)
    text = results_text(t, "zh")
    assert f"· {names[str(a1)]} 胜 {names[str(b1)]}（{names[str(b1)]}弃权）" in text
    a2, b2 = t.sides(second)
    res = pair_win(t, second)
    win, lose = (a2, b2) if res.winner == "a" else (b2, a2)
    assert f"· {names[str(win)]} 胜 {names[str(lose)]} " in text
    assert "轮空" not in text  # byes are not results
    assert results_text(single_elim(4, play=False), "en").endswith("No results yet.")


@pytest.mark.parametrize(
    "engine_result,zh,en",
    [
        (
            {"winner": 1, "levels": [2, 2], "reason": "deals", "tie_break": "dealer_side"},
            "（台上方胜）",
            "(dealing side wins)",
        ),
        (
            {"winner": 0, "levels": [5, 5], "reason": "time_up", "tie_break": "cut"},
            "（搬点决胜）",
            "(decided by a cut)",
        ),
        (
            {"winner": 1, "levels": [7, 7], "reason": "deals", "last_upstream": 3},
            "（末副上游方胜）",
            "(first out in the last deal wins)",
        ),
    ],
)
def test_results_with_equal_levels_say_how_the_winner_was_decided(engine_result, zh, en) -> None:  # type: ignore[no-untyped-def]
    """docs/rules.md 1.8 / 2.7: equal levels at the end are decided by the preset's tie-break; the results
    text names it instead of showing a winner with an equal score and no explanation."""
    from bot.tournaments.results import table_match_result

    t = single_elim(4, play=False)
    mid = t.ready_matches()[0]
    t.record(mid, table_match_result(engine_result, 1))
    names = _names(t)
    a, b = t.sides(mid)
    win, lose = (a, b) if engine_result["winner"] == 0 else (b, a)
    la = engine_result["levels"][0]
    assert f"· {names[str(win)]} 胜 {names[str(lose)]} {la}:{la}{zh}" in results_text(t, "zh")
    assert f"{la}:{la} {en}" in results_text(t, "en")


def test_results_with_different_levels_carry_no_tie_break_note() -> None:
    from bot.tournaments.results import table_match_result

    t = single_elim(4, play=False)
    mid = t.ready_matches()[0]
    t.record(
        mid,
        table_match_result(
            {"winner": 0, "levels": [9, 6], "reason": "deals", "tie_break": None, "last_upstream": 2}, 1
        ),
    )
    text = results_text(t, "zh")
    assert "9:6" in text and "决胜" not in text and "方胜" not in text


def test_team_results_show_tables_won() -> None:
    t = groups_knockout(10)
    text = results_text(t, "en")
    assert "Group stage Round 1" in text and "Final" in text and "3rd place" in text
    assert text.count(" 2:1") >= 10
    assert "forfeited" in text  # the first match was forfeited


def test_double_forfeit_is_reported_as_such() -> None:
    t = single_elim(8, "shengji-17-deals", play=False)
    mid = t.ready_matches()[0]
    t.record(mid, forfeit_result("both"))
    assert "双方弃权" in results_text(t, "zh")
    assert "double forfeit" in results_text(t, "en")


# --- message length --------------------------------------------------------------------


@pytest.mark.parametrize("limit", [TELEGRAM_LIMIT, 300])
def test_split_keeps_every_line_and_respects_the_limit(limit: int) -> None:
    text = "\n".join(f"{i}. {'张三/李四' * (i % 7)} 积分{i}" for i in range(900))
    text += "\n\n" + "长" * (limit + 50)
    parts = split_message(text, limit)
    assert len(parts) > 1 and all(len(p) <= limit for p in parts)
    assert "".join(parts).replace("\n", "") == text.replace("\n", "")
    assert split_message("短", limit) == ["短"]


def test_a_large_team_event_text_splits_into_telegram_messages() -> None:
    from engine.tournament.tournament import Tournament
    from tests.bot.presentation.tournament.helpers import settings

    t = Tournament.create("大型掼蛋团体赛", settings("guandan-team", knockout_size=16), teams(64))
    t.hold_draw(bytes(32))
    play_all(t)
    text = results_text(t, "zh")
    parts = split_message(text)
    assert len(text) > TELEGRAM_LIMIT and all(len(p) <= TELEGRAM_LIMIT for p in parts)
    assert all(not p.startswith("\n") for p in parts)


def test_group_standings_show_each_entrys_rating_when_given() -> None:
    """Issue 20: the rating is shown in the standings (group tables as in the Swiss standings)."""
    t = groups_knockout(10)
    assert t.groups is not None
    first = t.groups.standings("A", t.lot_seed).rows[0].entry_id
    ratings = {first: "1562", **{e.id: "1500?" for e in t.entries if e.id != first}}
    text = standings_text(t, "zh", ratings=ratings)
    line = next(ln for ln in text.splitlines() if ln.startswith("1. " + _names(t)[first]))
    assert line.endswith("· 等级分1562") or "· 等级分1562 ·" in line
    assert text.count("等级分1500?") == len(t.entries) - 1
    assert "rating 1562" in standings_text(t, "en", ratings=ratings)
    assert "等级分" not in standings_text(t, "zh")


def test_the_final_ranking_shows_each_entrys_rating_and_what_the_question_mark_means() -> None:
    """Issue 20: the knockout's final ranking (the prize list of the "is over" announcement and of
    /standings) shows each entry's rating, ``?`` while provisional, and says what the mark means."""
    t = single_elim(8)
    play_all(t)
    assert t.finished
    rows = t.ranking()
    champion = rows[0].entry_id
    ratings = {champion: "1612", **{r.entry_id: "1500?" for r in rows[1:]}}
    lines = ranking_text("zh", t, ratings).splitlines()
    assert lines[0].startswith("1. " + _names(t)[champion]) and lines[0].endswith(" · 等级分1612")
    assert sum(ln.endswith(" · 等级分1500?") for ln in lines) == len(lines) - 2  # all but the champion
    assert lines[-1] == "等级分：选手等级分的平均；? = 定级中（有选手不足 10 局）"
    en = ranking_text("en", t, ratings).splitlines()
    assert en[0].endswith(" · rating 1612") and en[-1].startswith("Rating: the mean of the players' ratings")
    assert "等级分" not in ranking_text("zh", t)  # no ratings given: the ranking as before


def test_swiss_and_group_standings_say_what_the_ratings_mean() -> None:
    s = Tournament.create("积分赛", settings("shengji-17-deals", format="swiss", swiss_rounds=3), pairs(6))
    s.hold_draw(bytes(32))
    text = standings_text(s, "zh", ratings={e.id: "1540?" for e in s.entries})
    assert "? = 定级中" in text and text.count("· 等级分1540?") == 6
    assert "provisional" in standings_text(s, "en", ratings={e.id: "1540?" for e in s.entries})
    assert "定级中" not in standings_text(s, "zh")
    g = groups_knockout(10)
    assert "? = 定级中" in standings_text(g, "zh", ratings={e.id: "1500?" for e in g.entries})
