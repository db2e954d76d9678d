"""End to end, issue 10 "tournament tables are locked": the casual lobby's Join / Start / Leave do nothing
on a tournament table, an outsider's deep link ``/start join_<table>_<seat>`` is refused, the table starts
when its players have checked in (never by an opponent's press); the referee starts, substitutes and gives
more time, each in the audit log.

The issue's confirmed case: side A checked in, one of them pressed Leave, an outsider joined by link,
Start was pressed: the match ran while side B had never checked in.  Here every step is refused.
"""

from __future__ import annotations

import types
from datetime import timedelta
from pathlib import Path

from bot.edge.refusals import refusal_text
from storage import table_repo
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
P = [S.EXTRA_BASE + i for i in range(12)]


async def drawn_pairs(h: object) -> list[object]:
    now = h.clock.now()  # type: ignore[attr-defined]
    first = ts.local_text(now + timedelta(days=2), "Asia/Shanghai")
    await S.dm(
        h,
        ORG,
        f'name = "教工双升"\npreset = "shengji-17-deals"\nfirst_round = "{first}"\n',  # type: ignore[arg-type]
        "已从文件创建比赛",
    )
    await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")  # type: ignore[arg-type]
    for gid in S.TABLE_GROUPS[:2]:
        await S.say(h, ORG, gid, "/table_register", "比赛桌")  # type: ignore[arg-type]
    for i in range(4):
        await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")  # type: ignore[arg-type]
    await S.dm(h, ORG, "/role 1 add referee @p12", "添加")  # type: ignore[arg-type]
    await S.dm(h, ORG, "/draw", "已完成")  # type: ignore[arg-type]
    await S.settle(h)  # type: ignore[arg-type]
    return await ts.matches(S.db(h), 1)  # type: ignore[arg-type]


async def test_nobody_joins_leaves_or_starts_a_tournament_table_from_the_lobby(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        m, _other = await drawn_pairs(h)
        key = m.match_key  # type: ignore[attr-defined]
        h.clock.set(m.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        note = S.find(h, GROUP_ID, f"签到开始：{key}")[-1]
        ((a, b),) = await ts.match_players(S.db(h), m)  # type: ignore[arg-type]
        for uid in a:  # side A checks in; side B never comes
            await S.press(h, uid, GROUP_ID, note, "签到")
        await S.run_due(h, timedelta(minutes=30))
        m = await S.tournament_match(h, 1, key)
        table_id = int(m.game_tables[0])
        table = await table_repo.get_table(S.db(h), table_id)
        assert table is not None and table.status == "open" and table.table_message_id is not None
        lobby = next(x for x in h.sim.bot_messages(table.chat_id) if x.message_id == table.table_message_id)
        assert lobby.buttons() == [] and "比赛桌" in (lobby.text or "")  # no Join / Start / Leave

        # the lobby actions behind the casual buttons (a lobby message sent before an upgrade may still
        # carry them): a seated player leaving, a player of side A starting, an outsider joining
        people = {u: types.SimpleNamespace(id=u, language_code="zh-hans") for u in (a[0], a[1], P[10])}
        rt = S.rt(h)
        joined = await rt.lobby.join(table_id, 1, P[10])  # a code, in the outsider's language at the edge
        assert joined is not None
        left = await rt.lobby.leave(table_id, people[a[0]])
        started = await rt.lobby.start_table(table_id, people[a[1]])
        assert left is not None and started is not None
        for refused_text in (
            refusal_text(await rt.user_lang(a[0], "zh-hans"), left),
            refusal_text(await rt.user_lang(a[1], "zh-hans"), started),
            refusal_text(await rt.user_lang(P[10], "zh-hans"), joined),
        ):
            assert refused_text and "比赛桌" in refused_text
        # an outsider (not in the tournament) takes a seat by the deep link
        before = h.sim.last_bot_message(P[10])
        h.sim.follow_link(P[10], S.bot_link(h, f"join_{table_id}_1"))
        refused = await h.sim.wait_for_message(P[10], "比赛桌", after=before, timeout=15)
        assert refused.text
        seats = [s.user_id for s in await table_repo.get_seats(S.db(h), table_id)]
        assert seats == [a[0], b[0], a[1], b[1]]  # still the drawn pairs, nobody gone, nobody added
        table = await table_repo.get_table(S.db(h), table_id)
        assert table is not None and table.status == "open"  # never started by a press

        # the referee seats a substitute for an absent player of side B (the substitute then checks in)
        sub = P[9]
        await S.dm(h, P[11], f"/substitute {key} {b[0]} {sub} 生病", "已完成")
        seats = [s.user_id for s in await table_repo.get_seats(S.db(h), table_id)]
        assert seats == [a[0], sub, a[1], b[1]]
        assert (await h.sim.wait_for_message(b[0], "代替", timeout=15)).text
        assert (await h.sim.wait_for_message(sub, "代替", timeout=15)).text
        # the other absent player gets two more minutes; the referee then starts the table
        await S.dm(h, P[11], f"/extend {key} 2", "已完成")
        assert (
            await h.sim.wait_for_message(GROUP_ID, "延长", timeout=15)
        ).text  # announced through the outbox
        await S.dm(h, P[11], f"/start_match {key}", "已完成")
        table = await table_repo.get_table(S.db(h), table_id)
        assert table is not None and table.status == "playing"
        actions = [x.action for x in await ts.audit_log(S.db(h), 1)]
        assert {"substitute", "extend_lateness", "referee_start"} <= set(actions)
        # a player cannot use the referee tools
        refused = await S.dm(h, a[0], f"/start_match {key}", "没有权限")
        assert refused.text
        h.assert_no_errors()
