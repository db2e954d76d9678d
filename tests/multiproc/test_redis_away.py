"""Redis going away under two processes (issue 21, "Faults survived"): two real bot processes behind the
round-robin splitter share the test's own redis-server (the machine's is never stopped) for Telegram's limits,
the updates taken once and the live relay.  People play; Redis is stopped; they play on; it is started again
(empty); they play on.  Nothing lost, nothing applied twice, no 429 burst once Redis is back, and each process's
log says what happened.  PostgreSQL (TEST_DATABASE_URL) and redis-server."""

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


async def test_redis_stopped_under_two_processes_loses_nothing_and_brings_no_429_burst(
    own_redis: OwnRedis, monkeypatch
):
    async with bots(2, WEBAPP_RELAY_URL=own_redis.url, TELEGRAM_LIMITS_URL=own_redis.url) as group:
        sim, splitter = group.sim, group.splitter
        sim.callback_query_timeout = 3600  # a press answered late (a loaded machine) still counts as answered
        # a person makes a move again only when a whole minute brought no answer: a slow answer (a loaded machine)
        # is waited for, a lost update still shows (a retry, or the play not going on)
        monkeypatch.setattr(players, "RETRY_AFTER", 60.0)
        tables = players.make_tables(1, 41)
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

            async def moves(n: int) -> float:
                started, target = time.monotonic(), table.actions + n
                await sim.wait_for(lambda: table.actions >= target or playing.done(), timeout=60)
                assert not playing.done(), "the deal ended too soon"
                return time.monotonic() - started

            await moves(5)
            own_redis.stop()
            by_process = splitter.count_by_process()
            away = await moves(10)  # both processes go on, each pacing itself alone
            assert all(
                splitter.count_by_process()[i] > by_process[i] for i in (0, 1)
            )  # both served meanwhile
            limited_away = sim.stats.rate_limited
            own_redis.start()  # empty: the limits, the claims and the relay start afresh
            limited_back = sim.stats.rate_limited
            back = await moves(10)
            stop.set()
            await playing
            await group.settle()
        finally:
            stop.set()
            if playing is not None:
                await asyncio.gather(playing, return_exceptions=True)
            await db.dispose()
        after = sim.stats.rate_limited - limited_back
        print(
            f"\nredis away under two processes: 10 moves in {away:.1f} s while away ({limited_away} 429s so "
            f"far), 10 more in {back:.1f} s once back ({after} 429s); updates delivered "
            f"{sim.webhook_stats.delivered}, by process {dict(splitter.count_by_process())}"
        )
        await assert_lost_0_doubled_0(group, table)
        assert after == 0  # Redis back: the processes share Telegram's limits again, no burst
        logs = group.log(0) + group.log(1)
        assert "unreachable" in logs and "pacing this process alone" in logs  # the log says what happened ...
        assert "answers again" in logs  # ... and that it is over
        assert group.errors() == []
