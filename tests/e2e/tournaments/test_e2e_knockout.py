"""End to end against the simulator: the 工会 50-minute knockout (shengji-50min) at reduced size.

Set-up from a TOML file, registration through the deep links with every error the issue lists, the
verifiable draw, byes, check-in, lateness forfeit and its undo, a referee correction that changes who
advances, a restart in the middle of a round with the timers intact, and the prize list by the round
eliminated (docs/rules.md section 3; issue 5).
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from engine.tournament import verify
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
P = [S.EXTRA_BASE + i for i in range(12)]

TOML = """
name = "工会双升淘汰赛"
preset = "shengji-50min"
registration_deadline = "{deadline}"
draw_at = "{draw}"
first_round = "{first}"
round_gap_minutes = 60

[tournament]
separate_union_groups = true

[[union_groups]]
name = "机关"
quota = 2
[[union_groups]]
name = "理学院"
quota = 2
[[union_groups]]
name = "医学院"
quota = 2
"""


def local(h: object, delta: timedelta) -> str:
    return ts.local_text(h.clock.now() + delta, "Asia/Shanghai")  # type: ignore[attr-defined]


async def test_fifty_minute_knockout_end_to_end(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        toml = TOML.format(
            deadline=local(h, timedelta(hours=2)),
            draw=local(h, timedelta(hours=3)),
            first=local(h, timedelta(days=1)),
        )
        created = await S.dm(h, ORG, toml, "已从文件创建比赛")
        assert "#1" in (created.text or "")
        bad = await S.dm(h, ORG, 'name = "x"\npreset = "no-such"', "文件有误")
        assert "no-such" in (bad.text or "")
        # a non-admin cannot start the guided set-up
        refused = await S.dm(h, P[0], "/tournament", "只有机器人管理员")
        assert refused.text

        ann = await S.say(h, ORG, GROUP_ID, "/tournament_group 1", "开始报名")
        for gid in S.TABLE_GROUPS[:2]:
            await S.say(h, ORG, gid, "/table_register 1", "比赛桌")
        refused = await S.say(h, P[0], GROUP_ID, "/draw", "没有权限")
        assert refused.text

        # registration through the Register button and a one-time partner invitation
        link = S.url_button(ann)
        choose = await S.follow(h, P[0], link, "请选择你的单位")
        await S.press(h, P[0], P[0], choose, "机关")
        invite = await h.sim.wait_for_message(P[0], "https://t.me/", after=choose)
        inv_url = next(w for w in (invite.text or "").split() if w.startswith("https://t.me/"))
        own = await S.follow(h, P[0], inv_url, "邀请你作为搭档")
        answer = await S.press(h, P[0], P[0], own, "接受邀请")
        assert "自己" in (answer.text or "")  # partner is yourself
        offer = await S.follow(h, P[1], inv_url, "邀请你作为搭档")
        await S.press(h, P[1], P[1], offer, "接受邀请")
        await h.sim.wait_for_message(P[1], "报名成功")
        await h.sim.wait_for_message(P[0], "接受了你的邀请")
        late_offer = await S.follow(h, P[2], inv_url, "邀请你作为搭档")
        answer = await S.press(h, P[2], P[2], late_offer, "接受邀请")
        assert "已被使用" in (answer.text or "")  # invite used
        again = await S.follow(h, P[1], link, "请选择你的单位")
        answer = await S.press(h, P[1], P[1], again, "理学院")
        assert "已经报名" in (answer.text or "")  # already registered
        # the organiser registers the others on their behalf; quota and "never started" errors
        pairs = [(P[2], P[3], "机关"), (P[4], P[5], "理学院"), (P[6], P[7], "理学院"), (P[8], P[9], "医学院")]
        for a, b, g in pairs:
            await S.dm(h, ORG, f"/register {a} {b} {g}", "报名成功")
        full = await S.dm(h, ORG, f"/register {P[10]} {P[11]} 机关", "名额")
        assert "机关" in (full.text or "")
        await S.say(
            h, 1006, GROUP_ID, "/results", ""
        )  # the stranger is known from the group, never started the bot
        never = await S.dm(h, ORG, f"/register {P[10]} 1006 医学院", "还没有私聊机器人")
        assert never.text

        # the deadline closes registration by itself
        await S.run_due(h, timedelta(hours=2, minutes=1))
        assert S.find(h, GROUP_ID, "报名已截止")
        closed = await S.follow(h, P[10], link, "")
        assert "报名已截止" in (closed.text or "")  # deadline passed

        # the draw at the draw time: hash and commitment, then the reveal and the JSON anyone can check
        await S.run_due(h, timedelta(hours=1))
        frozen = S.find(h, GROUP_ID, "名单 SHA-256")[-1]
        doc = next(m for m in h.sim.bot_messages(GROUP_ID) if m.document is not None)
        published = S.published_from(doc)
        announced = {"list_hash": published["list_hash"], "commitment": published["commitment"]}
        assert published["list_hash"] in (frozen.text or "") and published["commitment"] in (
            frozen.text or ""
        )
        assert verify(published, announced).ok
        # issue 10: the commitment was published when registration opened, before any entry existed
        assert published["commitment"] in (ann.text or "")
        # the draw file names the players (with their ids, so names may repeat), never bare ids
        names = {p for e in published["entries"] for p in e["players"]}
        assert all(re.fullmatch(r".+ \(\d+\)", p) and not p.split(" (")[0].isdigit() for p in names), names
        assert published["bracket"].count(None) == 3  # 5 pairs in a bracket of 8: three byes
        assert S.find(h, GROUP_ID, "轮空")
        tid = 1
        state = await ts.engine_state(S.db(h), tid)
        ready = state.ready_matches()
        assert len(ready) == 2 and S.find(h, GROUP_ID, "赛程")

        # check-in opens 30 minutes before; one side of the first match never comes
        m1 = await S.tournament_match(h, tid, ready[0])
        m2 = await S.tournament_match(h, tid, ready[1])
        h.clock.set(m1.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        note = S.find(h, GROUP_ID, f"签到开始：{m1.match_key}")[-1]
        players1 = await ts.match_players(S.db(h), m1)
        (a1, a2), (b1, b2) = players1[0]
        for uid in (a1, a2):
            await S.press(h, uid, GROUP_ID, note, "签到")
        players2 = await ts.match_players(S.db(h), m2)
        note2 = S.find(h, GROUP_ID, f"签到开始：{m2.match_key}")[-1]
        for uid in (*players2[0][0], *players2[0][1]):
            await S.press(h, uid, GROUP_ID, note2, "签到")
        outsider = await S.press(h, P[11], GROUP_ID, note, "签到")
        assert "不在场次" in (outsider.text or "")

        # the start: tables open in the table groups; the complete match starts at once
        await S.run_due(h, timedelta(minutes=30))
        m2 = await S.tournament_match(h, tid, m2.match_key)
        assert m2.status == "playing" and m2.game_tables
        m1 = await S.tournament_match(h, tid, m1.match_key)
        assert m1.status == "open"

        # restart in the middle of the round: the lateness timer survives
        await h.restart()
        pending = await S.rt(h).scheduler.pending(S.db(h), "t_late", f"tm:{m1.id}")
        assert pending
        await S.run_due(h, timedelta(minutes=10, seconds=1))
        forfeit = S.find(h, GROUP_ID, "迟到超过 10 分钟")
        assert forfeit and h.sim.bot_messages(b1)
        m1 = await S.tournament_match(h, tid, m1.match_key)
        assert m1.result_json and m1.result_json["winner"] == "a"

        # the referee undoes it: the late side arrived; the match is played after all
        await S.dm(h, ORG, f"/role add referee {P[11]}", "添加")
        refused = await S.dm(h, P[10], f"/undo_forfeit #{tid} {m1.match_key} 网络问题", "没有权限")
        assert refused.text
        await S.say(h, P[11], GROUP_ID, f"/undo_forfeit #{tid} {m1.match_key} 网络故障", "撤销了迟到判负")
        await S.settle(h)

        async def playing() -> object:
            m = await S.tournament_match(h, tid, m1.match_key)
            return m if m.status == "playing" else None

        m1 = await S.eventually(playing)
        assert m1 is not None and m1.result_json is None

        # both matches finish by themselves and report: side b wins match 1, side a match 2
        await S.finish_table(h, int(m1.game_tables[0]), 1, (9, 14))
        await S.finish_table(h, int(m2.game_tables[0]), 0, (14, 5))
        announced = S.find(h, GROUP_ID, f"（{m1.match_key}）")
        assert (
            len([x for x in announced if x.text.startswith("🏁 第1轮")]) == 1
        )  # announced once, by its name
        state = await ts.engine_state(S.db(h), tid)
        winner1 = m1.side_b
        nxt = [k for k in state.ready_matches()]
        assert nxt and any(winner1 in state.sides(k) for k in nxt)

        # a referee correction of match 1 changes who advances (no later match has begun)
        await S.say(h, P[11], GROUP_ID, f"/result #{tid} {m1.match_key} a 14 10 记分错误", "裁判更正")
        state = await ts.engine_state(S.db(h), tid)
        assert any(m1.side_a in state.sides(k) for k in state.ready_matches())
        assert not any(winner1 in state.sides(k) for k in state.ready_matches())
        audit = await S.dm(h, ORG, "/audit", "操作记录")
        assert "correct" in (audit.text or "") and "undo_forfeit" in (audit.text or "")

        # play the rest through the referee's /result and check the prize list by the round eliminated
        for _ in range(5):
            state = await ts.engine_state(S.db(h), tid)
            if state.finished:
                break
            for key in state.ready_matches():
                await S.say(h, P[11], GROUP_ID, f"/result #{tid} {key} a 14 8 裁判记录", "裁判更正")
        state = await ts.engine_state(S.db(h), tid)
        assert state.finished
        await S.settle(h)
        final = S.find(h, GROUP_ID, "全部比赛结束")
        # 8-slot bracket (3 rounds): prizes aligned to the final -- R3 loser 一等奖, R2 二等奖, R1 三等奖
        text = final[-1].text or ""
        assert (
            "1. " in text and "优胜奖" in text and "一等奖" in text and "二等奖" in text and "三等奖" in text
        )
        standings = await S.say(h, P[0], GROUP_ID, "/standings", "排名")
        assert "优胜奖" in (standings.text or "")
        results = await S.say(h, P[0], GROUP_ID, "/results", "已完成比赛")
        assert m1.match_key in (results.text or "")
        h.assert_no_errors()
