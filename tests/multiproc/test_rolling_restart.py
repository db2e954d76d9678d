"""A rolling restart behind the webhook (issue 21, "Faults survived"): two real bot processes behind the
round-robin splitter, people playing a table; one process is restarted (stopped as an orchestrator does, with
SIGINT, and started again) while the other serves.  Every update the simulator delivered is handled once: each
press answered, each person's move applied once, none made again for want of an answer.  PostgreSQL
(TEST_DATABASE_URL) and the test's own redis-server."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.devtools.loadtest import players
from storage.models import ActionRecord
from tests.multiproc.harness import bots
from tests.multiproc.own_redis import OwnRedis, own_redis_server

pytestmark = [pytest.mark.postgres]  # skipped without it (tests/conftest.py)


@pytest.fixture
def own_redis():
    yield from own_redis_server()


async def person_actions(url: str, match_id: int) -> list[tuple[int, str | None]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(ActionRecord.seq, ActionRecord.dedupe_key)
                    .where(ActionRecord.match_id == match_id, ActionRecord.actor_user_id.is_not(None))
                    .order_by(ActionRecord.seq)
                )
            ).all()
    finally:
        await engine.dispose()
    return [(int(r.seq), r.dedupe_key) for r in rows]


async def test_a_rolling_restart_of_one_of_two_processes_loses_no_update(own_redis: OwnRedis):
    async with bots(2, WEBAPP_RELAY_URL=own_redis.url, TELEGRAM_LIMITS_URL=own_redis.url) as group:
        sim, splitter = group.sim, group.splitter
        sim.callback_query_timeout = (
            3600  # a press answered late on a loaded machine still counts as answered
        )
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
        # nothing lost: every press the simulator delivered was answered; no move had to be made again
        queries = [q for q in sim.callback_queries.values() if q.delivered_at is not None]
        unanswered = {q.id for q in queries if q.answered_at is None}
        assert queries and not unanswered, [
            (u, splitter.handled.get(u))
            for u, body in splitter.bodies.items()
            if body.get("callback_query", {}).get("id") in unanswered
        ]
        assert table.retries == 0, group.state()
        # nothing applied twice: each person's move once
        log = await person_actions(group.database_url, table.match_id or 0)
        keys = [key for _, key in log]
        assert len(log) == table.actions and len(set(keys)) == len(keys)
        assert sim.webhook_stats.delivered == len(splitter.handled)
        assert "Application started" in group.log(0)
        assert group.errors() == []
