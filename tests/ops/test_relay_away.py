"""The live-version relay while Redis is away (bot/webapp/relay.py): one warning when it goes, one line when it
comes back with how many publishes failed meanwhile, never a warning per failed publish (a 200-table
tournament publishes many a second). Against the test's own redis-server, stopped and started again."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from bot.webapp.relay import RedisRelay
from tests.multiproc.own_redis import OwnRedis, own_redis_server


@pytest.fixture
def own_redis() -> Iterator[OwnRedis]:
    yield from own_redis_server()


async def until(condition, timeout: float = 20.0) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


async def test_redis_away_is_one_warning_and_its_return_one_line_with_the_count(own_redis, caplog):
    hub = SimpleNamespace(on_local_version=[], notify=lambda match_id, version: None)
    relay = RedisRelay(hub, own_redis.url, token="1:relay-away")  # type: ignore[arg-type]
    await relay.start()
    caplog.set_level(logging.INFO, logger="bot.webapp.relay")

    def lines() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name == "bot.webapp.relay"]

    try:
        relay.publish(1, 1)
        await until(lambda: relay.published == 1)
        own_redis.stop()
        for version in range(2, 202):
            relay.publish(1, version)
        await until(lambda: relay.failed == 200)
        await asyncio.sleep(2.5)  # the reader tries again every second meanwhile: no line for those either
        assert relay.away and len(lines()) == 1 and "Redis unreachable" in lines()[0], lines()
        own_redis.start()  # the same port
        relay.publish(1, 300)
        await until(lambda: relay.published == 2)
        await until(lambda: len(lines()) >= 2)
        assert not relay.away
        assert lines()[1] == "relay: Redis answers again (200 publishes failed while it was away)", lines()
        await asyncio.sleep(2.5)  # the reader is subscribed again: nothing more
        assert len(lines()) == 2, lines()
    finally:
        await relay.stop()
