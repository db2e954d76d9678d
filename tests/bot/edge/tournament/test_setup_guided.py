"""The guided set-up (issue 5 "Tournament set-up"): /tournament in a private chat asks for the name,
the preset (options overridable), the entrant kind, union groups and quotas, the time zone, the
registration deadline, draw time and first round, the format, the match length, the lateness limit
and the prize table; bad answers are explained, change nothing and the question comes again."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.edge.tournament import setup, setup_answers, setup_questions
from engine.errors import RuleError
from storage import tournaments as ts
from storage.db import Database
from tests.e2e.harness import ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID


async def test_every_question_is_asked_and_the_answers_make_the_tournament(tmp_path: Path) -> None:
    """Non-default answers at every step, buttons where the choices are fixed, text otherwise."""
    async with S.tournament_harness(tmp_path, extra_players=0) as h:
        now = h.clock.now()  # type: ignore[attr-defined]

        def local(delta: timedelta) -> str:
            return ts.local_text(now + delta, "Asia/Hong_Kong")

        first = await S.dm(h, ORG, "/tournament", "第 1/14 步：比赛名称")
        presets = await S.dm(h, ORG, "2026 工会双升赛", "选择比赛规程")
        assert len(presets.buttons()) == 4  # the four notices
        await S.press(h, ORG, ORG, presets, "双升 · 2 小时计时制")
        options = await h.sim.wait_for_message(ORG, "规则选项", after=presets)
        assert "throws" in (options.text or "")
        entrant = await S.dm(h, ORG, "throws = false\npublic_trump = true", "参赛形式")
        assert {"固定搭档（两人一对）", "团体（每队 3 对，同一单位）", "保留默认"} <= set(
            entrant.button_texts()
        )
        await S.press(h, ORG, ORG, entrant, "团体（每队 3 对，同一单位）")
        tz = await h.sim.wait_for_message(ORG, "时区", after=entrant)
        assert "Asia/Shanghai" in (tz.text or "")
        await S.dm(h, ORG, "Asia/Hong_Kong", "参赛单位")
        await S.dm(h, ORG, "机关 2，理学院：1、医学院", "报名截止时间（Asia/Hong_Kong）")
        await S.dm(h, ORG, local(timedelta(hours=1)), "抽签时间")
        await S.dm(h, ORG, local(timedelta(hours=2)), "第一轮开赛时间")
        fmt = await S.dm(h, ORG, local(timedelta(days=1)), "赛制")
        assert "单败淘汰" in (fmt.text or "")  # the preset's format is shown
        await S.press(h, ORG, ORG, fmt, "小组循环后淘汰 + 三四名决赛")
        knockout = await h.sim.wait_for_message(ORG, "进入淘汰赛的数量", after=fmt)
        await S.press(h, ORG, ORG, knockout, "4")
        length = await h.sim.wait_for_message(ORG, "每场比赛长度", after=knockout)
        await S.dm(h, ORG, "50分钟", "迟到判负时间")
        await S.dm(
            h, ORG, "10分钟", "间隔多少分钟"
        )  # issue 10: step 12 takes "10分钟" as step 11 takes "50分钟"
        prizes = await S.dm(h, ORG, "25分钟", "奖项")  # step 13: the gap between a match's end and the next
        assert "一等奖 1 个、二等奖 2 个、三等奖 3 个" in (prizes.text or "")  # the preset's prize table
        await S.press(h, ORG, ORG, prizes, "按淘汰轮次")
        rounds = await h.sim.wait_for_message(ORG, "冠军的奖项", after=prizes)
        confirm = await S.dm(h, ORG, "纪念奖 二等奖 一等奖 优胜奖", "请确认")
        text = confirm.text or ""
        for needle in (
            "2026 工会双升赛",
            "团体（每队 3 对，同一单位）",
            "机关 2，理学院 1，医学院 -",
            "Asia/Hong_Kong",
            "小组循环后淘汰（4 强进入淘汰赛），有三四名决赛",
            "50 分钟",
            "迟到判负：10 分钟",
            "纪念奖、二等奖、一等奖；冠军：优胜奖",
            "throws = false",
        ):
            assert needle in text, needle
        await S.press(h, ORG, ORG, confirm, "✅ 创建")
        await h.sim.wait_for_message(ORG, "已创建", after=confirm)
        del first, length, rounds

        row = await ts.get_tournament(S.db(h), 1)
        s = row.settings_json
        assert row.status == "registration" and row.time_zone == "Asia/Hong_Kong"
        assert (s["entrant"], s["pairs_per_team"]) == ("team", 3)
        assert (s["format"], s["third_place_match"], s["knockout_size"]) == ("groups_then_knockout", True, 4)
        assert s["late_forfeit_minutes"] == 10 and row.round_gap_minutes == 25
        assert (s["prize_table"], list(s["round_prizes"]), s["champion_prize"]) == (
            "by_round_eliminated",
            ["souvenir", "second", "first"],
            "champion",
        )
        assert row.rule_overrides == {
            "throws": False,
            "public_trump": True,
            "time_limit_minutes": 50,
            "deals": 0,
        }
        assert row.union_groups == [
            {"name": "机关", "quota": 2},
            {"name": "理学院", "quota": 1},
            {"name": "医学院", "quota": 0},
        ]
        assert row.first_round_at == now + timedelta(days=1)


class FakeBot:
    """What setup.py needs of TournamentBot: the database, send, arm_tournament."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.sent: list[tuple[int, str, Any]] = []
        self.armed: list[int] = []

    def send(self, chat_id: int, text: str, markup: Any = None) -> None:
        self.sent.append((chat_id, text, markup))

    async def arm_tournament(self, row: Any) -> None:
        self.armed.append(row.id)

    @property
    def last(self) -> str:
        return self.sent[-1][1]

    def labels(self) -> list[str]:
        markup = self.sent[-1][2]
        return [b.text for row in markup.inline_keyboard for b in row] if markup else []


USER = 1001


async def _at(tb: FakeBot, lang: str, step: str) -> Any:
    """A draft that has reached ``step`` (the earlier answers kept at the preset's defaults)."""
    await setup.begin(tb, USER, lang)
    row = await ts.draft_of(tb.db, USER)
    assert row is not None
    return await ts.update_setup(tb.db, row.id, USER, name="Cup", setup_step=step)


def _state(row: Any) -> tuple[Any, ...]:
    return (
        row.setup_step,
        row.name,
        row.preset_id,
        dict(row.rule_overrides or {}),
        dict(row.settings_json),
        list(row.union_groups or []),
        row.time_zone,
        row.registration_deadline,
        row.draw_at,
        row.first_round_at,
    )


BAD_ANSWERS = [  # (step, answer, part of the Chinese error, part of the English error)
    ("groups", "机关 两", "名额必须是整数", "quota must be a whole number"),
    ("groups", "Admin 2.5, Science 2", "名额必须是整数", "quota must be a whole number"),
    ("groups", "Admin: many", "名额必须是整数", "quota must be a whole number"),
    ("groups", "机关 2，机关 3", "写了两次", "given twice"),
    ("deadline", "明天下午", "时间格式不对", "Not a time"),
    ("deadline", "2026-02-30 18:00", "时间格式不对", "Not a time"),
    ("tz", "Mars/Olympus", "未知时区", "Unknown time zone"),
    ("options", "throws false", "选项 = 值", "option = value"),
    ("entrant", "many", "每队的对数", "pairs per team"),
    ("knockout", "6", "2 的幂", "power of two"),
    ("swiss_rounds", "0", "1 到 15 的整数", "from 1 to 15"),
    ("swiss_rounds", "七", "1 到 15 的整数", "from 1 to 15"),
    ("swiss_top", "6", "2 的幂", "power of two"),
    ("swiss_top", "1", "2 的幂", "power of two"),
    ("length", "很长", "17副", "17 deals"),
    ("late", "soon", "分钟数", "number of minutes"),
    ("late", "0", "分钟数", "number of minutes"),
    ("prize_counts", "1 2", "三个整数", "three whole numbers"),
    ("prize_rounds", "冠军", "至少写两项", "at least two prizes"),
    ("format", "单败", "按上面的按钮", "Press one of the buttons"),
    ("prizes", "一等奖", "按上面的按钮", "Press one of the buttons"),
]


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_bad_answers_are_explained_change_nothing_and_ask_again(db: Database, lang: str) -> None:
    tb = FakeBot(db)
    for step, text, zh, en in BAD_ANSWERS:
        row = await _at(tb, lang, step)
        if step == "knockout":
            row = await ts.update_setup(
                db, row.id, USER, settings_overrides={"format": "groups_then_knockout"}
            )
        if step.startswith("swiss"):
            row = await ts.update_setup(db, row.id, USER, settings_overrides={"format": "swiss"})
        before = _state(row)
        await setup.ask(tb, row, USER, lang)
        question = tb.last
        await setup.answer(tb, row, USER, lang, text)
        after = await ts.get_tournament(db, row.id)
        assert _state(after) == before, (step, text)
        assert (en if lang == "en" else zh) in tb.last, (step, text, tb.last)
        assert tb.last.endswith(question), (step, text)  # the same question again
        assert ("Nothing was changed" if lang == "en" else "未作更改") in tb.last


async def test_a_draw_before_the_deadline_is_refused(db: Database) -> None:
    tb = FakeBot(db)
    row = await _at(tb, "en", "deadline")
    await setup.answer(tb, row, USER, "en", "2026-12-02 18:00")
    row = await ts.get_tournament(db, row.id)
    await setup.answer(tb, row, USER, "en", "2026-12-01 18:00")
    assert "out of order" in tb.last and "draw time" in tb.last
    assert (await ts.get_tournament(db, row.id)).setup_step == "draw"


async def test_unknown_rule_option_is_named(db: Database) -> None:
    tb = FakeBot(db)
    row = await _at(tb, "en", "options")
    await setup.answer(tb, row, USER, "en", "no_such_option = 3")
    assert "no_such_option" in tb.last
    assert (await ts.get_tournament(db, row.id)).rule_overrides == {}


async def test_english_buttons_prizes_by_place_and_typed_team_size(db: Database) -> None:
    tb = FakeBot(db)
    row = await _at(tb, "en", "entrant")
    await setup.answer(tb, row, USER, "en", "2")
    row = await ts.get_tournament(db, row.id)
    assert (row.settings_json["entrant"], row.settings_json["pairs_per_team"], row.setup_step) == (
        "team",
        2,
        "tz",
    )
    row = await ts.update_setup(db, row.id, USER, setup_step="format")
    await setup.ask(tb, row, USER, "en")
    assert tb.labels() == [
        "Single elimination",
        "Single elimination + 3rd-place match",
        "Groups, then knockout",
        "Groups, then knockout + 3rd-place match",
        "Swiss rounds",
        "Keep the default",
    ]
    await setup.button(tb, USER, "en", ["pick", "format", "se3"])
    row = await ts.get_tournament(db, row.id)
    assert (row.settings_json["format"], row.settings_json["third_place_match"]) == (
        "single_elimination",
        True,
    )
    assert row.setup_step == "length" and "match length" in tb.last
    row = await ts.update_setup(db, row.id, USER, setup_step="prizes")
    await setup.button(tb, USER, "en", ["pick", "prizes", "places"])
    assert "how many first, second and third prizes" in tb.last
    row = await ts.get_tournament(db, row.id)
    await setup.answer(tb, row, USER, "en", "1 2 3 +souvenir")
    row = await ts.get_tournament(db, row.id)
    assert (list(row.settings_json["prize_counts"]), row.settings_json["souvenir_for_all"]) == (
        [1, 2, 3],
        True,
    )
    assert row.setup_step == "confirm" and "1 first, 2 second, 3 third prizes + Souvenir" in tb.last


async def test_a_button_of_an_earlier_question_does_nothing(db: Database) -> None:
    tb = FakeBot(db)
    row = await _at(tb, "zh", "late")
    before = _state(row)
    await setup.button(tb, USER, "zh", ["pick", "format", "gk"])
    await setup.button(tb, USER, "zh", ["keep", "tz"])
    await setup.button(tb, USER, "zh", ["create"])
    assert _state(await ts.get_tournament(db, row.id)) == before and not tb.armed


async def test_no_prizes_and_keep_buttons_keep_the_preset(db: Database) -> None:
    tb = FakeBot(db)
    row = await _at(tb, "zh", "late")
    await setup.button(tb, USER, "zh", ["keep", "late"])
    assert "间隔" in tb.last
    await setup.button(tb, USER, "zh", ["keep", "gap"])
    assert "奖项" in tb.last
    await setup.button(tb, USER, "zh", ["pick", "prizes", "none"])
    row = await ts.get_tournament(db, row.id)
    assert row.settings_json["prize_table"] == "none" and row.setup_step == "confirm"
    assert "奖项：无" in tb.last
    await setup.button(tb, USER, "zh", ["create"])
    row = await ts.get_tournament(db, row.id)
    assert row.status == "registration" and tb.armed == [row.id]


def test_group_and_prize_parsers() -> None:
    assert setup_answers.parse_groups("机关2；Science Dept 3\nMedicine", 2) == [
        {"name": "机关", "quota": 2},
        {"name": "Science Dept", "quota": 3},
        {"name": "Medicine", "quota": 2},
    ]
    assert setup_answers.parse_groups("-", 2) == []
    with pytest.raises(RuleError, match="whole number"):
        setup_answers.parse_groups("Admin -1", 2)
    assert setup_answers.parse_round_prizes("souvenir, third, second, first, champion")["round_prizes"] == [
        "souvenir",
        "third",
        "second",
        "first",
    ]
    assert setup_answers.parse_prize_counts("1，1，1")["prize_counts"] == [1, 1, 1]
    with pytest.raises(RuleError):
        setup_answers.parse_prize_counts("0 0 0")
    assert setup_answers.parse_options("bid_style = level_only; deals = 9") == {
        "bid_style": "level_only",
        "deals": 9,
    }


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_a_third_place_match_with_a_knockout_of_two_is_refused_clearly(db: Database, lang: str) -> None:
    """Issue 10: "+3rd-place match" with a knockout of 2 was silently ignored; it is refused with the reason."""
    tb = FakeBot(db)
    await _at(tb, lang, "format")
    await setup.button(tb, USER, lang, ["pick", "format", "gk3"])
    await setup.button(tb, USER, lang, ["pick", "knockout", "2"])
    assert ("三四名决赛需要" if lang == "zh" else "3rd-place match needs a knockout of 4") in tb.last
    row = await ts.draft_of(db, USER)
    assert row is not None and row.setup_step == "knockout" and row.settings_json["knockout_size"] != 2
    await setup.button(tb, USER, lang, ["pick", "knockout", "4"])
    row = await ts.draft_of(db, USER)
    assert (
        row is not None and row.settings_json["knockout_size"] == 4 and row.settings_json["third_place_match"]
    )


def test_minutes_take_a_unit() -> None:
    assert [setup_answers.parse_minutes(x) for x in ("1", "1分钟", "10 分", "15 min", "20 minutes")] == [
        1,
        1,
        10,
        15,
        20,
    ]
    for bad in ("0", "0分钟", "一分钟", "241", "-5"):
        with pytest.raises(RuleError):
            setup_answers.parse_minutes(bad)


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_swiss_rounds_ask_the_rounds_and_the_knockout_of_the_top(db: Database, lang: str) -> None:
    """Issue 20: the Swiss button asks how many rounds (buttons or a number), then the top K's knockout
    (none, or a power of two; 4 or more with a 3rd-place match); the summary names both."""
    tb = FakeBot(db)
    await _at(tb, lang, "format")
    await setup.button(tb, USER, lang, ["pick", "format", "sw"])
    assert ("积分编排的轮数" if lang == "zh" else "how many Swiss rounds") in tb.last
    assert tb.labels()[:4] == ["5", "6", "7", "9"]
    row = await ts.draft_of(db, USER)
    assert row is not None and row.setup_step == "swiss_rounds"
    await setup.answer(tb, row, USER, lang, "8")
    assert ("前几名进行淘汰赛" if lang == "zh" else "how many of the top go on") in tb.last
    await setup.button(tb, USER, lang, ["pick", "swiss_top", "8"])
    row = await ts.draft_of(db, USER)
    assert row is not None and row.setup_step == "length"
    s = row.settings_json
    assert (s["format"], s["swiss_rounds"], s["swiss_top"], s["third_place_match"]) == ("swiss", 8, 8, True)
    summary = setup_questions.format_text(lang, s)
    assert summary == (
        "积分编排（瑞士制），共 8 轮（8 强进入淘汰赛），有三四名决赛"
        if lang == "zh"
        else "Swiss rounds, 8 rounds (8 go on to the knockout), with a 3rd-place match"
    )
    assert setup_questions.format_text(lang, {**s, "swiss_top": 0}) == (
        "积分编排（瑞士制），共 8 轮，不设淘汰赛" if lang == "zh" else "Swiss rounds, 8 rounds, no knockout"
    )
