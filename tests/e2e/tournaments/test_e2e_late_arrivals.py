"""End to end, issue 10 "late arrivals by the notice's rule, per table": in a team match every table waits
for its own players until its own lateness limit; a player checking in late but inside the limit is
accepted (while the other tables already play) and their table starts; a table whose player never comes
is lost at the limit, and the notice names the entry and the player; the organiser is told who is missing.
"""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from storage import table_repo
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID

TEAM = (
    '[tournament]\nformat = "single_elimination"\npairs_per_team = 3\nlate_forfeit_minutes = 1\n'
    "third_place_match = false\nprize_counts = [1, 1, 0]\n\n"
    '[[union_groups]]\nname = "机关"\nquota = 1\n[[union_groups]]\nname = "理学院"\nquota = 1\n'
)


async def team_match(h: object) -> tuple[int, object]:
    now = h.clock.now()  # type: ignore[attr-defined]
    first = ts.local_text(now + timedelta(days=2), "Asia/Shanghai")
    await S.dm(
        h,
        ORG,
        f'name = "掼蛋团体赛"\npreset = "guandan-team"\nfirst_round = "{first}"\n{TEAM}',  # type: ignore[arg-type]
        "已从文件创建比赛",
    )
    await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")  # type: ignore[arg-type]
    await S.dm(h, ORG, "/role 1 add referee @p12", "添加")  # type: ignore[arg-type]  # as the set-up's hint writes it
    for gid in S.TABLE_GROUPS:
        await S.say(h, ORG, gid, "/table_register", "比赛桌")  # type: ignore[arg-type]
    for i in range(6):
        await S.dm(
            h,
            ORG,
            f"/register @p{2 * i + 1} @p{2 * i + 2} {'机关' if i < 3 else '理学院'}",  # type: ignore[arg-type]
            "报名成功",
        )
    await S.dm(h, ORG, "/team 机关队 1 2 3", "团队已组成")  # type: ignore[arg-type]
    await S.dm(h, ORG, "/team 理学院队 4 5 6", "团队已组成")  # type: ignore[arg-type]
    told = await h.sim.wait_for_message(S.EXTRA_BASE, "你已加入", timeout=15)  # type: ignore[attr-defined]
    assert "机关队" in told.text and "选手6" in told.text  # each member is told their team
    listing = await S.dm(h, ORG, "/entries", "参赛名单")  # type: ignore[arg-type]
    assert "2 队，6 对" in (listing.text or "")  # teams and pairs counted apart
    await S.dm(h, ORG, "/draw", "已完成")  # type: ignore[arg-type]
    await S.settle(h)  # type: ignore[arg-type]
    (m,) = await ts.matches(S.db(h), 1)  # type: ignore[arg-type]
    return 1, m


async def _found(h: object, chat: int, needle: str) -> list[object]:
    return S.find(h, chat, needle)  # type: ignore[arg-type]


async def test_each_table_waits_for_its_own_players_until_its_own_limit(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12, table_groups=3) as h:
        tid, m = await team_match(h)
        key = m.match_key  # type: ignore[attr-defined]
        # each player is told their own table (and its group's name) when the match is scheduled
        for k, (pa, pb) in enumerate(await ts.match_players(S.db(h), m), start=1):  # type: ignore[arg-type]
            for uid in (*pa, *pb):
                mine = S.find(h, uid, "你的下一场")
                assert mine and f"第 {k} 桌：「比赛桌{k}」" in mine[-1].text, (uid, k)
        h.clock.set(m.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        note = S.find(h, GROUP_ID, f"签到开始：{key}")[-1]
        tables = await ts.match_players(S.db(h), m)  # type: ignore[arg-type]
        late, never = (
            tables[1][1][0],
            tables[2][0][1],
        )  # table 2: a player of side b is late; table 3: side a's never comes
        for uid in [p for a, b in tables for p in (*a, *b) if p not in (late, never)]:
            await S.press(h, uid, GROUP_ID, note, "签到")
        await S.run_due(h, timedelta(minutes=30))  # the start: table 1 is complete and starts, 2 and 3 wait
        m = await S.tournament_match(h, tid, key)
        statuses = [(await table_repo.get_table(S.db(h), int(t))).status for t in m.game_tables]  # type: ignore[union-attr]
        assert statuses == ["playing", "open", "open"]
        names = await ts.user_names(S.db(h), [late, never])
        waiting = S.find(h, GROUP_ID, "等待签到")
        assert waiting and names[late] in waiting[-1].text and names[never] in waiting[-1].text
        assert "第 2 桌" in waiting[-1].text and "第 3 桌" in waiting[-1].text
        assert S.find(h, ORG, f"{key} 第 3 桌等待签到：{names[never]}")  # the organiser sees who is missing
        # the organiser's dashboard: entries by group, who is missing, the table running
        board = await S.dm(h, ORG, "/dashboard", "组织者面板")
        text = board.text or ""
        assert "机关：1/1 队（3 对）" in text and names[never] in text and names[late] in text
        assert re.search(rf"{key} 第1桌：第 \d+ 副，\d+:\d+，剩 \d+′", text), text
        assert any("刷新" in b for b in board.button_texts()) and "代报名" in text
        # 30 s late, inside the 1-minute limit, while table 1 already plays: accepted, and table 2 starts
        h.clock.advance(timedelta(seconds=30))  # type: ignore[attr-defined]
        answer = await S.press(h, late, GROUP_ID, note, "签到")
        assert answer.text == "已签到。"
        await S.settle(h)
        table2 = await table_repo.get_table(S.db(h), int(m.game_tables[1]))
        assert table2 is not None and table2.status == "playing"
        # at the limit the absent player's table is lost; the notice names the team and the player
        await S.run_due(h, timedelta(seconds=30))
        notice = S.find(h, GROUP_ID, f"{key} 第 3 桌")
        m = await S.tournament_match(h, tid, key)
        names_by_entry = {e.id: e.name for e in await ts.entries(S.db(h), tid)}
        late_team = names_by_entry[int(m.side_a)]
        assert notice and late_team in notice[-1].text and names[never] in notice[-1].text
        assert "其余桌照常进行" in notice[-1].text
        assert S.find(h, never, f"{key} 第 3 桌")  # the players are told too
        assert m.table_results["3"]["absent"] == "a" and m.result_json is None
        table2 = await table_repo.get_table(S.db(h), int(m.game_tables[1]))
        assert table2 is not None and table2.status == "playing"  # table 2 plays on
        too_late = await S.press(h, never, GROUP_ID, note, "签到")
        assert too_late.text and "签到已结束" in too_late.text
        # tables 1 and 2 finish: side b wins both, table 3 went to side b by forfeit: 3:0
        await S.finish_table(h, int(m.game_tables[0]), 1, (9, 14))
        await S.finish_table(h, int(m.game_tables[1]), 1, (10, 14))

        async def decided() -> object:
            got = await S.tournament_match(h, tid, key)
            return got if got.result_json is not None else None

        m = await S.eventually(decided)
        assert m is not None and m.result_json["winner"] == "b"
        winners = (await ts.match_players(S.db(h), m))[0][1]
        result = await S.eventually(lambda: _found(h, winners[0], "你的比赛结果"))
        assert result and "胜" in result[-1].text  # each player is told their result
        assert [t["winner"] for t in m.result_json["tables"]] == ["b", "b", "b"]
        h.assert_no_errors()
