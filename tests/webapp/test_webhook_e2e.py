"""Webhook mode end to end: the real bot process (``python -m bot`` with TELEGRAM_WEBHOOK=1) against the simulator,
which POSTs every update to the bot's webhook; four people set up a table and play a whole Shengji deal."""

from __future__ import annotations

import asyncio

from sqlalchemy.ext.asyncio import create_async_engine

from bot.devtools.loadtest import players
from tests.multiproc.harness import bots


async def test_a_whole_deal_through_the_webhook():
    async with bots(1, db="sqlite") as group:
        sim = group.sim
        assert sim.webhook_url == group.splitter.url + "/telegram/webhook"  # the proxy in front of the bot
        tables = players.make_tables(1, 41)
        players.populate(sim, tables)
        observer = players.Observer(sim, tables)
        table = tables[0]
        db = create_async_engine(group.database_url)
        stop = asyncio.Event()
        try:
            await players.set_up(sim, db, table, "shengji-17-deals", 1)
            try:
                await asyncio.wait_for(
                    players.play(sim, db, observer, table, think=0.0, type_share=0.3, stop=stop), timeout=240
                )
            except TimeoutError:
                raise AssertionError(
                    f"the deal did not end: {table.actions} moves, at version {table.seq}; {group.state()}"
                ) from None
        finally:
            stop.set()
            await db.dispose()
        # the whole deal was played, every move committed in order (the replica applied each one) ...
        assert table.finished and len(table.plays) >= 40 and table.pressed and table.typed
        # ... every update went through the webhook: none was polled, none is left
        assert sim.stats.calls["getUpdates"] == 0
        info = sim.api_getWebhookInfo(None)  # type: ignore[arg-type]
        assert info["pending_update_count"] == 0
        assert sim.webhook_stats.delivered >= table.actions + 4 + 1 + 4  # moves, /start x4, /newtable, seats
        assert sim.webhook_stats.statuses.get(200) == sim.webhook_stats.delivered
        # the group was told the result
        await sim.wait_for(
            lambda: any("🏆 比赛结束" in text for text in sim.seen_texts(table.group_id)), timeout=30
        )
        assert group.errors() == []
