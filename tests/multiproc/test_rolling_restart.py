"""A rolling restart behind the webhook (issue 21, "Faults survived"): two real bot processes behind the
round-robin splitter, people playing a table; one process is restarted (stopped as an orchestrator does, with
SIGINT, and started again) while the other serves.  Every update the simulator delivered is handled once: each
press answered, each person's move applied once, none made again for want of an answer.  PostgreSQL
(TEST_DATABASE_URL) and the test's own redis-server."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy.ext.asyncio import create_async_engine

from bot.devtools.loadtest import players
from tests.multiproc.fault_checks import assert_lost_0_doubled_0
from tests.multiproc.harness import bots
from tests.multiproc.own_redis import OwnRedis, own_redis_server

pytestmark = [pytest.mark.postgres]  # skipped without it (tests/conftest.py)


@pytest.fixture
def own_redis():
    yield from own_redis_server()


async def test_a_rolling_restart_of_one_of_two_processes_loses_no_update(own_redis: OwnRedis, monkeypatch):
    async with bots(2, WEBAPP_RELAY_URL=own_redis.url, TELEGRAM_LIMITS_URL=own_redis.url) as group:
        sim, splitter = group.sim, group.splitter
        sim.callback_query_timeout = 3600  # a press answered late (a loaded machine) still counts as answered
        # a person makes a move again only when a whole minute brought no answer: a slow answer (a loaded machine)
        # is waited for, a lost update still shows (a retry, or the play not going on)
        monkeypatch.setattr(players, "RETRY_AFTER", 60.0)
        tables = players.make_tables(1, 31)
        players.populate(sim, tables)
        observer = players.Observer(sim, tables)
        table = tables[0]
        db = create_async_engine(group.database_url)
        stop = asyncio.Event()
        playing = None
        try:
            await players.set_up(sim, db, table, "shengji-17-deals", 1)
            playing = asyncio.create_task(
                players.play(sim, db, observer, table, think=0.0, type_share=0.3, stop=stop)
            )
            await sim.wait_for(lambda: table.actions >= 10 or playing.done(), timeout=60)
            assert not playing.done(), "the deal ended before the restart"
            handled_before = splitter.count_by_process()[0]
            started = time.monotonic()
            await group.restart(0)  # SIGINT, wait for the exit, start again; process 1 serves meanwhile
            back = time.monotonic() - started
            moved = table.actions
            # play goes on, and the restarted process takes its share again
            await sim.wait_for(
                lambda: (
                    (table.actions >= moved + 10 and splitter.count_by_process()[0] > handled_before + 5)
                    or playing.done()
                ),
                timeout=60,
            )
            stop.set()
            await playing
            await group.settle()
        finally:
            stop.set()
            if playing is not None:
                await asyncio.gather(playing, return_exceptions=True)
            await db.dispose()
        print(
            f"\nrolling restart: process 0 back in {back:.1f} s; updates delivered {sim.webhook_stats.delivered}, "
            f"posts {sim.webhook_stats.posts} ({sim.webhook_stats.failures} refused and posted again), by process "
            f"{dict(splitter.count_by_process())}; moves {table.actions}, retries {table.retries}"
        )
        await assert_lost_0_doubled_0(group, table)
        assert "Application started" in group.log(0)
        assert group.errors() == []
