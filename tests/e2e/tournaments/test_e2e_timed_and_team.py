"""End to end: the 吉林医药学院 2-hour notice (shengji-timed-2h: time limit, third-place and placement
matches, 一等奖1个、二等奖2个、三等奖3个) and the 掼蛋 team notice (guandan-team: teams of 3 pairs formed
by the union group leader, round-robin group then knockout, three simultaneous tables per team match)."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from pathlib import Path

from sqlalchemy import update

from storage import match_repo
from storage import tournaments as ts
from storage.models import MatchRecord
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
P = [S.EXTRA_BASE + i for i in range(18)]


def toml(h: object, preset: str, extra: str = "") -> str:
    now = h.clock.now()  # type: ignore[attr-defined]
    first = ts.local_text(now + timedelta(days=2), "Asia/Shanghai")
    return f'name = "测试赛"\npreset = "{preset}"\nfirst_round = "{first}"\n{extra}'


async def check_in_all(h: object, tid: int, key: str) -> None:
    note = S.find(h, GROUP_ID, f"签到开始：{key}")[-1]  # type: ignore[arg-type]
    m = await S.tournament_match(h, tid, key)  # type: ignore[arg-type]
    for a, b in await ts.match_players(S.db(h), m):  # type: ignore[arg-type]
        for uid in (*a, *b):
            await S.press(h, uid, GROUP_ID, note, "签到")  # type: ignore[arg-type]


async def test_timed_two_hours_time_limit_placements_and_prizes(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        await S.dm(h, ORG, toml(h, "shengji-timed-2h"), "已从文件创建比赛")
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS[:2]:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        for i in range(6):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")
        await S.dm(h, ORG, "/draw", "已完成")
        await S.settle(h)
        state = await ts.engine_state(S.db(h), 1)
        assert state.bracket is not None and {"P3-4-M1", "P5-8-M1"} <= {m.id for m in state.bracket.matches}
        first = state.ready_matches()
        m = await S.tournament_match(h, 1, first[0])
        h.clock.set(m.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        for key in first:
            await check_in_all(h, 1, key)
        await S.run_due(h, timedelta(minutes=30))
        m = await S.tournament_match(h, 1, first[0])
        assert m.status == "playing"
        match_row = await match_repo.current_match(S.db(h), int(m.game_tables[0]))
        assert match_row is not None
        # the 2-hour limit is a stored deadline; when it fires the engine gets "sys time_up"
        pending = await S.rt(h).scheduler.pending(S.db(h), "match_time", f"match:{match_row.id}:time")
        assert pending and pending[0].due_at == m.start_at + timedelta(minutes=120)
        await S.run_due(h, timedelta(minutes=120))
        log = [r.action for r in await match_repo.action_log(S.db(h), match_row.id)]
        assert "sys time_up" in log
        # the first table ends while the bot runs; the second ends while the bot is down (its result is in
        # the database, nobody announced it): after the restart the bot catches up and records it
        mm = await S.tournament_match(h, 1, first[0])
        await S.finish_table(h, int(mm.game_tables[0]), 0, (10, 7))
        for key in first[1:]:
            mm = await S.tournament_match(h, 1, key)
            table_match = await match_repo.current_match(S.db(h), int(mm.game_tables[0]))
            assert table_match is not None
            async with S.db(h).session() as s:
                await s.execute(
                    update(MatchRecord)
                    .where(MatchRecord.id == table_match.id)
                    .values(
                        status="finished", result_json={"winner": 1, "levels": [6, 9], "reason": "time_up"}
                    )
                )
                await s.commit()
        await h.restart()
        await S.settle(h)
        for key in first[1:]:
            mm = await S.tournament_match(h, 1, key)
            assert mm.result_json is not None and mm.result_json["winner"] == "b"
        await S.dm(h, ORG, f"/role add chief_referee {P[11]}", "添加")
        for _ in range(6):
            state = await ts.engine_state(S.db(h), 1)
            if state.finished:
                break
            for key in state.ready_matches():
                await S.say(h, P[11], GROUP_ID, f"/result {key} a 裁判记录", "裁判更正")
        state = await ts.engine_state(S.db(h), 1)
        assert state.finished
        prizes = Counter(r.prize for r in state.ranking())
        assert prizes["first"] == 1 and prizes["second"] == 2 and prizes["third"] == 3
        confirm = await S.say(h, P[11], GROUP_ID, f"/result {first[0]} confirm", "裁判长确认")
        assert confirm.text
        refused = await S.say(h, P[0], GROUP_ID, f"/result {first[0]} confirm", "没有权限")
        assert refused.text
        before = h.sim.last_bot_message(GROUP_ID)
        h.sim.user_sends_text(P[11], GROUP_ID, "/export")
        setup_file = await h.sim.wait_for_message(
            GROUP_ID,
            lambda msg: msg.document is not None and msg.document["filename"].endswith(".toml"),
            after=before,
            timeout=15,
        )
        files = [
            m.document["filename"]
            for m in h.sim.bot_messages(GROUP_ID)
            if m.document is not None and m.message_id > before.message_id
        ]
        assert any(f.endswith(".csv") for f in files)
        again = ts.spec_from_toml(bytes(setup_file.document["bytes"]).decode("utf-8"))
        assert again["preset_id"] == "shengji-timed-2h"  # last year's set-up can be reused
        h.assert_no_errors()


async def test_guandan_team_leader_groups_then_knockout_best_of_tables(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=18, table_groups=3) as h:
        extra = (
            '[tournament]\nknockout_size = 2\nthird_place_match = false\n\n[[union_groups]]\nname = "机关"\nquota = 1\n'
            '[[union_groups]]\nname = "理学院"\nquota = 1\n[[union_groups]]\nname = "医学院"\nquota = 1\n'
        )
        await S.dm(h, ORG, toml(h, "guandan-team", extra), "已从文件创建比赛")
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        groups = ["机关", "理学院", "医学院"]
        for i in range(9):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2} {groups[i // 3]}", "报名成功")
        # the union group leader forms the team from registered pairs of their group
        await S.dm(h, ORG, f"/role add leader {P[0]} 机关", "添加")
        listing = await S.dm(h, P[0], "/team", "已报名搭档")
        assert "理学院" not in (listing.text or "")
        wrong = await S.dm(h, P[0], "/team 机关队 1 2", "需要 6 名")
        assert wrong.text
        refused = await S.dm(h, P[0], "/team 理学院队 4 5 6", "没有权限")
        assert refused.text
        await S.dm(h, P[0], "/team 机关队 1 2 3", "团队已组成")
        await S.dm(h, ORG, "/team 理学院队 4 5 6", "团队已组成")
        await S.dm(h, ORG, "/team 医学院队 7 8 9", "团队已组成")
        await S.dm(h, ORG, "/draw", "已完成")
        await S.settle(h)
        state = await ts.engine_state(S.db(h), 1)
        assert state.groups is not None and len(state.groups.matches) == 3
        rows = await ts.matches(S.db(h), 1)
        assert all(len(r.table_chats) == 3 for r in rows)
        starts = sorted(r.start_at for r in rows if r.start_at)
        assert len(set(starts)) == 3  # a team never plays two matches at once
        m = next(r for r in rows if r.start_at == starts[0])
        h.clock.set(m.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        await check_in_all(h, 1, m.match_key)
        await S.run_due(h, timedelta(minutes=30))
        m = await S.tournament_match(h, 1, m.match_key)
        assert m.status == "playing" and len([t for t in m.game_tables if t]) == 3
        # pair k v pair k: tables 1 and 2 go to side a, table 3 to side b: side a wins the team match 2:1
        await S.finish_table(h, int(m.game_tables[0]), 0, (14, 10))
        await S.finish_table(h, int(m.game_tables[1]), 0, (12, 11))
        m_mid = await S.tournament_match(h, 1, m.match_key)
        assert m_mid.result_json is None
        await S.finish_table(h, int(m.game_tables[2]), 1, (8, 14))
        m = await S.tournament_match(h, 1, m.match_key)
        assert m.result_json is not None and m.result_json["winner"] == "a"
        assert [t["winner"] for t in m.result_json["tables"]] == ["a", "a", "b"]
        await S.dm(h, ORG, f"/role add referee {P[17]}", "添加")
        for _ in range(5):
            state = await ts.engine_state(S.db(h), 1)
            if state.finished:
                break
            for key in state.ready_matches():
                await S.say(h, P[17], GROUP_ID, f"/result {key} a 裁判记录", "裁判更正")
        state = await ts.engine_state(S.db(h), 1)
        assert state.finished
        prizes = Counter(r.prize for r in state.ranking())
        assert prizes["first"] == 1 and prizes["second"] == 1 and prizes["third"] == 1
        standings = await S.say(h, P[0], GROUP_ID, "/standings", "排名")
        text = standings.text or ""
        assert "A组" in text and "积分" in text and "[points]" not in text and "级差" in text
        h.assert_no_errors()
