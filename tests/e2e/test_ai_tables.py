"""End-to-end: a table of strong computer players (issue 19): their searches run in worker processes."""

from __future__ import annotations

import asyncio

from bot.tables.thinking import THINKER
from storage import match_repo, table_repo
from tests.e2e.test_play import rt


async def test_strong_computers_play_a_table_from_worker_processes(harness):
    """/newtable ai=strong: four strong computers play tricks, searched in the worker pool."""
    h = harness
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable shengji-17-deals bid_window_seconds=0 bots=4 seed=9 ai=strong")
    await h.sim.wait_for_message(
        h.group_id, lambda m: "轮到" in (m.text or "") or "发牌" in (m.text or ""), after=last, timeout=20
    )
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    row = await match_repo.current_match(rt(h).db, table.id)
    for _ in range(1200):
        _, m = await match_repo.match_state(rt(h).db, row.id)
        if len(m.tricks) >= 2:
            break
        await asyncio.sleep(0.1)
    assert len(m.tricks) >= 2 and m.options.ai == "strong"
    assert THINKER._pool is not None  # the plays were searched in worker processes
    h.assert_no_errors()
