"""End to end, issue 10: "an organiser dashboard in the private chat: registrations as they come in ..."
-- the /dashboard message follows the tournament by itself: edited when a registration, a withdrawal,
a check-in or a table's start changes it, and its time left while it plays, paced (one edit per interval, changes meanwhile ride along),
through the outbox; it survives a restart (the message followed is stored); Stop ends the following,
and so does the end of the tournament."""

from __future__ import annotations

import asyncio
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
PACE = 2.0  # seconds between two edits of one dashboard in this test (10 in production)


def tb(h: Any) -> Any:
    return h.app.bot_data["tournaments"]


async def shows(h: Any, message: Any, needle: str, timeout: float = 15.0) -> bool:
    return bool(
        await h.sim.wait_for(
            lambda: needle in (message.text or ""),
            timeout,
            f"the dashboard never showed {needle!r}: {message.text}",
        )
    )


def waiting(message: Any, key: str) -> list[str]:
    """The names the dashboard lists as not checked in for match ``key``."""
    text = message.text or ""
    part = text.split("未签到")[1].split("进行中的牌桌")[0] if "未签到" in text else ""
    line = next((x for x in part.splitlines() if x.strip().startswith(key + " ")), "")
    return [w for w in re.split(r"[：；、\s]+", line.split("：", 1)[-1]) if w] if line else []


async def test_the_dashboard_follows_changes_paced_across_a_restart_until_stopped(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        tb(h).dashboards.dashboard_seconds = PACE
        now = h.clock.now()  # type: ignore[attr-defined]
        first = ts.local_text(now + timedelta(days=2), "Asia/Shanghai")
        await S.dm(
            h,
            ORG,
            f'name = "教工双升"\npreset = "shengji-17-deals"\nfirst_round = "{first}"\n'
            "[rules]\ndeals = 0\ntime_limit_minutes = 50\n",
            "已从文件创建比赛",
        )
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS[:2]:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        board = await S.dm(h, ORG, "/dashboard", "组织者面板")
        assert "自动更新" in (board.text or "") and any("停止自动更新" in b for b in board.button_texts())
        await S.settle(h)
        assert [f.message_id for f in await ts.dashboards(S.db(h), 1)] == [board.message_id]

        # a registration edits the message by itself
        await S.dm(h, ORG, "/register @p1 @p2", "报名成功")
        await shows(h, board, "选手1")
        # a burst of three registrations: one edit at most per PACE seconds, the last one shows them all
        start = len(board.versions)
        for i in range(1, 4):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")
        await shows(h, board, "选手7")
        await S.settle(h)
        edits = board.versions[start:]
        assert 1 <= len(edits) <= 2, [v.text for v in edits]
        times = [v.at for v in board.versions[start - 1 :]]
        assert all(b - a >= PACE - 0.3 for a, b in zip(times, times[1:], strict=False)), times

        # a restart: the message is still followed (a stored row) and catches up with a withdrawal
        await h.restart()
        tb(h).dashboards.dashboard_seconds = PACE
        entry = await ts.entry_of_user(S.db(h), 1, S.EXTRA_BASE)
        assert entry is not None
        await S.dm(h, ORG, f"/remove {entry.id}", "退出")
        await shows(h, board, "退出")

        # the organiser presses Stop: no more edits
        answer = await S.press(h, ORG, ORG, board, "停止自动更新")
        assert "已停止" in (answer.text or "")
        await h.sim.wait_for(lambda: not any("停止" in b for b in board.button_texts()), 10, "Stop stays")
        assert await ts.dashboards(S.db(h), 1) == []
        frozen = len(board.versions)
        await S.dm(h, ORG, "/register @p1 @p2", "报名成功")
        await S.settle(h)
        await asyncio.sleep(PACE + 0.5)  # longer than the pace: an edit would have come by now
        await S.settle(h)
        assert len(board.versions) == frozen
        # Refresh still brings it up to date, in place
        await S.press(h, ORG, ORG, board, "刷新")
        await h.sim.wait_for(lambda: len(board.versions) > frozen, 10, "Refresh did not edit")

        # a new /dashboard follows the draw, the check-ins and the table starting
        board2 = await S.dm(h, ORG, "/dashboard", "组织者面板")
        await S.settle(h)
        await S.dm(h, ORG, "/draw", "已完成")
        m = (await ts.matches(S.db(h), 1))[0]
        key = m.match_key
        await shows(h, board2, f"  {key} ")  # its players are listed as not checked in
        ((a, b),) = await ts.match_players(S.db(h), m)
        names = await ts.user_names(S.db(h), [*a, *b])
        assert all(names[u] in waiting(board2, key) for u in (*a, *b))
        h.clock.set(m.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        note = S.find(h, GROUP_ID, f"签到开始：{key}")[-1]
        await S.press(h, a[0], GROUP_ID, note, "签到")
        await h.sim.wait_for(lambda: names[a[0]] not in waiting(board2, key), 15, "check-in not shown")
        for uid in (a[1], *b):
            await S.press(h, uid, GROUP_ID, note, "签到")
        tb(h).dashboards.dashboard_tick_seconds = PACE  # 60 s in production
        await S.run_due(h, timedelta(minutes=30))  # the start time: all four are here, the table starts
        await shows(h, board2, f"{key} 第1桌：第 ")
        await shows(h, board2, "剩 50′")
        # while the table plays, its time left follows without any event (once a minute in production)
        h.clock.advance(timedelta(minutes=5))  # type: ignore[attr-defined]
        await shows(h, board2, "剩 45′")

        # the tournament is cancelled: a last edit, and it is followed no more
        ask = await S.dm(h, ORG, "/cancel_tournament 场地临时不能使用", "确定要取消比赛")
        await S.press(h, ORG, ORG, ask, "确定")
        await shows(h, board2, "已取消")
        await S.settle(h)
        assert not any("停止" in b for b in board2.button_texts())
        assert await ts.dashboards(S.db(h), 1) == []
        h.assert_no_errors()
