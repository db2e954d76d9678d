"""End to end: the 继续教育学院 17-deals notice (shengji-17-deals) at reduced size, set up with the guided
/tournament dialogue; a double forfeit, the second conduct violation disqualifying a pair
(17-deals: 违例两次取消比赛资格，判对方胜), reversing a penalty, pause/resume, the champion who goes on."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
P = [S.EXTRA_BASE + i for i in range(10)]


async def test_seventeen_deals_guided_setup_conduct_and_double_forfeit(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=10) as h:
        now = h.clock.now()  # type: ignore[attr-defined]

        def local(delta: timedelta) -> str:
            return ts.local_text(now + delta, "Asia/Shanghai")

        await S.dm(h, ORG, "/tournament", "比赛名称")
        presets = await S.dm(h, ORG, "继续教育学院 双升", "选择比赛规程")
        await S.press(h, ORG, ORG, presets, "双升 · 17 副制")
        options = await h.sim.wait_for_message(ORG, "规则选项", after=presets)
        await S.press(h, ORG, ORG, options, "保留默认")
        entrant = await h.sim.wait_for_message(ORG, "参赛形式", after=options)
        await S.press(h, ORG, ORG, entrant, "保留默认")
        tz = await h.sim.wait_for_message(ORG, "时区", after=entrant)
        await S.press(h, ORG, ORG, tz, "保留默认")
        await h.sim.wait_for_message(ORG, "参赛单位", after=tz)
        await S.dm(h, ORG, "-", "报名截止时间")
        bad = await S.dm(h, ORG, "明天下午", "时间格式不对")
        assert bad.text
        await S.dm(h, ORG, local(timedelta(hours=1)), "抽签时间")
        order = await S.dm(h, ORG, local(timedelta(minutes=30)), "时间顺序不对")  # a draw before the deadline
        assert order.text
        await S.dm(h, ORG, local(timedelta(hours=2)), "第一轮开赛时间")
        fmt = await S.dm(h, ORG, local(timedelta(days=1, hours=2)), "赛制")
        await S.press(h, ORG, ORG, fmt, "保留默认")
        length = await h.sim.wait_for_message(ORG, "每场比赛长度", after=fmt)
        assert "17 副" in (length.text or "")
        late = await S.dm(h, ORG, "很长", "请写")
        late = await S.dm(h, ORG, "17副", "迟到判负时间")
        gap = await S.dm(h, ORG, "15", "间隔多少分钟")
        await S.press(h, ORG, ORG, gap, "保留默认")
        prizes = await h.sim.wait_for_message(ORG, "奖项", after=gap)
        await S.press(h, ORG, ORG, prizes, "保留默认")
        confirm_msg = await h.sim.wait_for_message(ORG, "请确认", after=prizes)
        assert "代表参加学院比赛" in (confirm_msg.text or "") and "15 分钟" in (confirm_msg.text or "")
        await S.press(h, ORG, ORG, confirm_msg, "✅ 创建")
        await h.sim.wait_for_message(ORG, "已创建", after=confirm_msg)
        del late

        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        await S.say(h, ORG, S.TABLE_GROUPS[0], "/table_register", "比赛桌")
        await S.say(h, ORG, S.TABLE_GROUPS[1], "/table_register", "比赛桌")
        for i in range(4):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")
        await S.dm(h, ORG, f"/role add referee {P[9]}", "添加")
        await S.dm(h, ORG, "/draw", "")
        await S.settle(h)
        state = await ts.engine_state(S.db(h), 1)
        k1, k2 = state.ready_matches()
        m1, m2 = await S.tournament_match(h, 1, k1), await S.tournament_match(h, 1, k2)
        assert m1.start_at == now + timedelta(days=1, hours=2)

        # a day before: reminders by private message
        await S.run_due(h, timedelta(hours=2))
        p = (await ts.match_players(S.db(h), m1))[0][0][0]
        assert S.find(h, p, "提醒")
        # match 2: everybody checks in; match 1: nobody comes -> double forfeit
        h.clock.set(m1.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        dm_note = S.find(h, p, f"签到开始：{m1.match_key}")
        assert dm_note
        early = S.find(h, GROUP_ID, f"签到开始：{m2.match_key}")[-1]
        (a, b) = (await ts.match_players(S.db(h), m2))[0]
        for uid in (*a, *b):
            await S.press(h, uid, GROUP_ID, early, "签到")
        await S.run_due(h, timedelta(minutes=30))
        await S.run_due(h, timedelta(minutes=15, seconds=1))
        assert S.find(h, GROUP_ID, "双方均未按时到场")

        # pause and resume the table clock of match 2 (referee); a player may not
        refused = await S.say(h, a[0], GROUP_ID, f"/pause {m2.match_key}", "没有权限")
        assert refused.text
        await S.say(h, P[9], GROUP_ID, f"/pause {m2.match_key}", "暂停")
        await S.say(h, P[9], GROUP_ID, f"/resume {m2.match_key}", "继续")

        # conduct: the first violation is recorded; reversed; two more disqualify side a
        first = await S.say(h, P[9], GROUP_ID, f"/violation {m2.match_key} a 桌上交流", "违例")
        assert "C1" in (first.text or "")
        await S.say(h, P[9], GROUP_ID, "/reverse C1 误判", "撤销处罚")
        await S.say(h, P[9], GROUP_ID, f"/violation {m2.match_key} a 暗号", "违例")
        second = await S.say(h, P[9], GROUP_ID, f"/violation {m2.match_key} a 再次暗号", "取消比赛资格")
        assert second.text
        await S.settle(h)
        m2 = await S.tournament_match(h, 1, m2.match_key)
        assert m2.result_json is not None and m2.result_json["winner"] == "b"
        # the final: the winner of match 2 has a walkover (match 1 was a double forfeit): champion, goes on
        state = await ts.engine_state(S.db(h), 1)
        assert state.finished and state.bracket is not None and state.bracket.champion() == m2.side_b
        final = S.find(h, GROUP_ID, "全部比赛结束")
        assert final and "代表参加学院比赛" in (final[-1].text or "")
        bracket = await S.say(h, P[0], GROUP_ID, "/bracket", "对阵表")
        assert "双方弃权" in (bracket.text or "")
        photo = await h.sim.wait_for_message(
            GROUP_ID, lambda msg: msg.photo is not None, after=bracket, timeout=15
        )
        assert photo.photo["width"] > 200  # the bracket image (bot/presentation/tournament)
        h.assert_no_errors()
