"""Two bot processes behind one webhook (issue 9): real ``python -m bot`` processes in webhook mode, PostgreSQL (a
fresh database per test, on the server of TEST_DATABASE_URL), Redis at 127.0.0.1:6379, and a round-robin
splitter in front of them (tests/multiproc/harness.py)."""

from __future__ import annotations

import asyncio
from collections import Counter

from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.loadtest import players
from storage.models import ActionRecord
from tests.multiproc.harness import bots


def hand_messages(sim, user_id: int) -> list:
    return [m for m in sim.bot_messages(user_id) if "你的牌" in (m.text or "")]


async def play_tables(group, count: int, seed: int, preset: str = "shengji-17-deals") -> list[players.Table]:
    sim = group.sim
    tables = players.make_tables(count, seed)
    players.populate(sim, tables)
    observer = players.Observer(sim, tables)
    db = create_async_engine(group.database_url)
    stop = asyncio.Event()
    try:
        await asyncio.gather(*(players.set_up(sim, db, table, preset, 1) for table in tables))

        async def play(table: players.Table) -> None:
            await players.play(sim, db, observer, table, think=0.0, type_share=0.3, stop=stop)

        await asyncio.wait_for(asyncio.gather(*(play(table) for table in tables)), timeout=240)
    finally:
        stop.set()
        await db.dispose()
    return tables


async def test_tables_play_with_consecutive_updates_on_different_processes():
    async with bots(2) as group:
        tables = await play_tables(group, 2, 7)
        sim, splitter = group.sim, group.splitter
        for table in tables:
            # every move committed in order, the deal played to its end (the replica applied each action)
            assert table.finished and len(table.plays) >= 40
            # each player got one hand message for the deal, kept up to date (no second one from the other process)
            for uid in table.user_ids:
                assert len(hand_messages(sim, uid)) == 1, uid
        # the updates alternated between the processes
        by_process = splitter.count_by_process()
        assert by_process[0] > 50 and by_process[1] > 50
        assert abs(by_process[0] - by_process[1]) <= 1
        assert sim.stats.calls["getUpdates"] == 0 and sim.webhook_stats.delivered == len(splitter.handled)
        assert group.errors() == []
