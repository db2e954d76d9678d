"""Live updates between processes: a page connected to a second page server (its own database
connection and engine cache, as another bot process has) gets the versions committed by the first,
through Redis pub/sub (Redis at TEST_REDIS_URL)."""

from __future__ import annotations

import pytest

from bot.presentation.i18n import normalize
from bot.webapp.relay import RedisRelay
from bot.webapp.server import WebAppServer
from storage import table_repo, user_repo
from storage.db import open_database
from tests import services
from tests.webapp.helpers import PageClient, local_table, my_turn

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
        relay = RedisRelay(other.hub, REDIS)
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
