"""Live updates between processes: a page connected to a second page server (its own database
connection and engine cache, as another bot process has) gets the versions committed by the first,
through Redis pub/sub (Redis at TEST_REDIS_URL)."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from bot.presentation.i18n import normalize
from bot.webapp.relay import RedisRelay
from bot.webapp.server import WebAppServer
from storage import table_repo, user_repo
from storage.db import open_database
from tests import services
from tests.webapp.helpers import PageClient, local_table, my_turn, wait_until

REDIS = services.REDIS_URL or services.LOCAL_REDIS
pytestmark = pytest.mark.redis  # skipped when TEST_REDIS_URL is not set (tests/conftest.py)


class SecondProcessBridge:
    """The page side of another process: reads the shared database through its own connection."""

    def __init__(self, db) -> None:
        self.db = db

    async def user_lang(self, user_id, tg_code):
        return normalize(tg_code)

    async def names(self, table_id, lang):
        seats = await table_repo.get_seats(self.db, table_id)
        users = await user_repo.get_users(self.db, [s.user_id for s in seats if s.user_id])
        return [users[s.user_id].first_name if s.user_id in users else f"bot{s.seat}" for s in seats], [
            s.is_computer for s in seats
        ]

    async def user_match(self, user_id):
        return None


async def test_a_page_on_another_process_follows_the_match(tmp_path):
    async with local_table(
        tmp_path, "/newtable guandan-team deals=1 seed=3 bots=3", WEBAPP_RELAY_URL=REDIS
    ) as table:
        db_b = await open_database(table.rt.db.url)
        other = WebAppServer(
            SecondProcessBridge(db_b), bot_token="", dev=True, dev_secret=table.server.signing_token
        )
        port = await other.start("127.0.0.1", 0)
        relay = RedisRelay(other.hub, REDIS, token=table.rt.settings.TELEGRAM_BOT_TOKEN)
        await relay.start()
        try:
            table_b = type(table)(table.sim, table.real, table.user_id, table.match_id, port)
            watcher = await PageClient.open(table_b)  # a spectator's page on the second process
            hello = await watcher.hello(table_b.init_data(user_id=555, name="观众"), table.match_id)
            assert hello["seat"] is None
            me = await PageClient.open(table)  # the player's page on the first process
            await me.hello(table.init_data(), table.match_id)
            frame = await me.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
            if frame["me"]["actions"]["pass"]:
                answer = await me.act("pass")
            else:  # leading: any single card
                answer = await me.act("play", frame["me"]["hand"][-1]["cards"][:1])
            assert answer["ok"]
            seen = await watcher.until(lambda f: f.get("type") == "state" and f["version"] > frame["version"])
            assert "me" not in seen and relay.received >= 1 and table.server.relay.published >= 1
            assert db_b.match_cache is not table.rt.db.match_cache
            await me.close()
            await watcher.close()
        finally:
            await relay.stop()
            await other.stop()
            await db_b.dispose()


async def test_two_deployments_on_one_redis_hear_only_their_own_versions():
    """Two deployments (two bots, each its own database) share one Redis: each relays its versions to its own
    processes only. Redis's pub/sub channels are one namespace for the whole server (not per db number), and
    a fresh database's matches are numbered from 1 again: "match 1 has version 7" of one deployment is no
    news of the other's match 1."""
    import redis.asyncio as aioredis

    bot_a, bot_b = random.sample(range(10**9, 10**10), 2)
    heard: dict[str, list[tuple[int, int]]] = {"a2": [], "b1": []}

    def hub(name: str) -> Any:
        return SimpleNamespace(
            on_local_version=[], notify=lambda m, v: heard.setdefault(name, []).append((m, v))
        )

    a1, a2 = (RedisRelay(hub(name), REDIS, token=f"{bot_a}:token-a") for name in ("a1", "a2"))
    b1, b2 = (RedisRelay(hub(name), REDIS, token=f"{bot_b}:token-b") for name in ("b1", "b2"))
    relays = (a1, a2, b1, b2)
    client = aioredis.from_url(REDIS)
    try:
        for relay in relays:
            await relay.start()
        assert a1.channel == a2.channel != b1.channel == b2.channel

        async def subscribed() -> bool:  # Redis has taken every relay's SUBSCRIBE
            counts = dict(await client.pubsub_numsub(a1.channel, b1.channel))
            return all(counts.get(ch.encode(), 0) == 2 for ch in (a1.channel, b1.channel))

        await wait_until(subscribed)
        # one after the other: had b1 heard A's channel, A's message would have reached it before B's
        a1.publish(1, 5)
        await wait_until(lambda: a1.published == 1)
        b2.publish(1, 7)
        await wait_until(lambda: heard["b1"])
        a1.publish(1, 6)
        await wait_until(lambda: len(heard["a2"]) >= 2)
        assert heard["b1"] == [(1, 7)] and b1.received == 1
        assert heard["a2"] == [(1, 5), (1, 6)] and a2.received == 2
    finally:
        for relay in relays:
            await relay.stop()
        await client.aclose()
