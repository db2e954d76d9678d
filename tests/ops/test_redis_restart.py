"""Redis stopped and started under a playing table (issue 21, "Faults survived"): the bot's OWN redis-server on
a free port (the shared one other tests use is never touched), Telegram's limits shared through it
(``TELEGRAM_LIMITS_URL``).  Redis away: the bot paces itself alone, says so in its log and tells its admin;
the table plays on; Redis back: the shared limits are used again.  Skipped, with one line, without
redis-server."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest
import redis.asyncio as aioredis

from engine.registry import match_from_stored
from storage import match_repo, table_repo
from storage.db import open_database
from tests.multiproc.own_redis import own_redis_server


@pytest.fixture
def own_redis():
    yield from own_redis_server()


def rt(h):
    return h.app.bot_data["runtime"]


async def played_more(h, match_id: int, actions: int, timeout: float = 120) -> float:
    """Seconds until the match has ``actions`` more actions."""
    started = time.monotonic()
    target = (await match_repo.get_match_row(rt(h).db, match_id)).version + actions
    while (await match_repo.get_match_row(rt(h).db, match_id)).version < target:
        assert time.monotonic() - started < timeout, "the table stopped playing"
        await asyncio.sleep(0.05)
    return time.monotonic() - started


async def test_redis_stopped_and_started_the_table_plays_on(harness_factory, own_redis, caplog):
    caplog.set_level(logging.WARNING)
    async with harness_factory(TELEGRAM_LIMITS_URL=own_redis.url, AI_DELAY=0.05, BOT_ADMIN_IDS="1001") as h:
        last = h.sim.last_bot_message(h.group_id)
        h.players[0].say(h.group_id, "/newtable shengji-17-deals bid_window_seconds=0 bots=4 seed=8")
        await h.sim.wait_for_message(h.group_id, lambda m: "轮到" in (m.text or ""), after=last, timeout=60)
        table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
        match_id = int((await match_repo.current_match(rt(h).db, table.id)).id)
        limits = rt(h).shared_limits
        await played_more(h, match_id, 5)

        own_redis.stop()
        away = await played_more(h, match_id, 20)  # paced by this process alone meanwhile
        assert limits.failures > 0
        assert any(
            "shared limits" in r.getMessage() and "unreachable" in r.getMessage() for r in caplog.records
        )
        rt(h).alerts._next_redis = 0.0  # the watcher's next look at Redis, now
        await rt(h).alerts.check()
        assert "redis" in [kind for kind, _ in rt(h).alerts.sent]

        own_redis.start()  # an empty Redis: the slots the bot reserves from now on are written there again
        back = await played_more(h, match_id, 20)
        print(f"redis away: 20 actions in {away:.1f} s; back: 20 more in {back:.1f} s")
        client = aioredis.from_url(own_redis.url)
        try:
            started = time.monotonic()
            while not await client.keys(f"{limits.prefix}*"):
                assert time.monotonic() - started < 60, "the shared limits did not come back to Redis"
                await asyncio.sleep(0.05)
        finally:
            await client.aclose()
        await h.stop_bot()
    db = await open_database(h.database_url)
    try:
        log = await match_repo.action_log(db, match_id)
        row = await match_repo.get_match_row(db, match_id)
    finally:
        await db.dispose()
    assert [r.seq for r in log] == list(range(1, len(log) + 1)) and len(log) == row.version
    m = match_from_stored(row.game, row.options_json, row.seed)
    for r in log:
        m.apply(r.action)
