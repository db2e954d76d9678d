"""GET /metrics (bot/boot/metrics.py): what an operator's Prometheus scrapes while tables play."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.boot.metrics import NULL, Metrics, for_settings
from bot.boot.settings import Settings
from scheduler.deadlines import DeadlineScheduler
from storage import match_repo, table_repo
from storage.db import open_database


def rt(h):
    return h.app.bot_data["runtime"]


async def scrape(h, headers=None) -> tuple[int, str]:
    server = h.app.bot_data["webapp"]
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}/metrics", headers=headers or {}) as answer,
    ):
        return answer.status, await answer.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(found, name: str, **labels: str) -> float:
    return found.get((name, tuple(sorted(labels.items()))), 0.0)


async def computers_play(h, tricks: int = 2) -> int:
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable shengji-17-deals bid_window_seconds=0 bots=4 seed=5")
    await h.sim.wait_for_message(h.group_id, lambda m: "轮到" in (m.text or ""), after=last, timeout=30)
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    row = await match_repo.current_match(rt(h).db, table.id)
    for _ in range(3000):
        _, m, _ = await match_repo.match_context(rt(h).db, row.id)
        if len(m.tricks) >= tricks:
            return int(row.id)
        await asyncio.sleep(0.02)
    raise AssertionError("the computers played no tricks")


def test_metrics_are_off_unless_enabled():
    assert for_settings(Settings()) is NULL
    assert isinstance(for_settings(Settings(METRICS_ENABLED=True)), Metrics)


async def test_a_scrape_shows_updates_actions_calls_statements_and_live_matches(harness_factory):
    async with harness_factory(METRICS_ENABLED=True, WEBAPP_PORT=0) as h:
        match_id = await computers_play(h)
        # the computers play on quickly (no pause): the match is in play now, two tricks into 17 deals
        assert value(samples((await scrape(h))[1]), "bot_live_matches") == 1
        acted = await rt(h).driver.act(match_id, 0, "play 2x", user_id=None, dedupe=None)
        assert not acted.applied and acted.refusal is not None  # a bad card: refused
        await h.settle()
        status, text = await scrape(h)
        assert status == 200
        found = samples(text)
        assert value(found, "bot_updates_total", kind="message") >= 1
        assert value(found, "bot_actions_total", outcome="applied") >= 8  # the dealing and the tricks' plays
        assert value(found, "bot_actions_total", outcome="refused") == 1
        assert value(found, "bot_telegram_calls_total", method="sendMessage", outcome="ok") >= 1
        assert value(found, "bot_telegram_calls_total", method="editMessageText", outcome="ok") >= 1
        assert value(found, "bot_db_statement_seconds_count", dialect="sqlite") > 10
        assert value(found, "bot_group_lag_seconds_count") >= 1
        assert ("bot_live_matches", ()) in found
        assert ("bot_outbox_queued", (("priority", "record"),)) in found
        assert ("bot_ai_pool_depth", ()) in found and ("bot_open_pages", ()) in found
        h.assert_no_errors()


async def test_a_token_is_asked_for_when_configured(harness_factory):
    async with harness_factory(METRICS_ENABLED=True, METRICS_TOKEN="s3cret", WEBAPP_PORT=0) as h:
        assert (await scrape(h))[0] == 401
        assert (await scrape(h, {"Authorization": "Bearer wrong"}))[0] == 401
        status, text = await scrape(h, {"Authorization": "Bearer s3cret"})
        assert status == 200 and "bot_updates_total" in text


async def test_no_metrics_route_when_off(harness_factory):
    async with harness_factory(WEBAPP_PORT=0) as h:
        assert (await scrape(h))[0] == 404


async def test_a_late_deadline_reports_its_lateness(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    scheduler = DeadlineScheduler(poll_interval=None)
    metrics = Metrics()
    scheduler.on_fire.append(metrics.lateness)
    fired = asyncio.Event()

    async def handler(deadline):
        fired.set()

    scheduler.register("probe", handler)
    try:
        await scheduler.schedule(db, "probe", "x", scheduler.now() - timedelta(seconds=7))
        await scheduler.start(db)
        await asyncio.wait_for(fired.wait(), 20)
        found = samples(metrics.scrape().decode())
        assert value(found, "bot_scheduler_lateness_seconds_count", kind="probe") == 1
        assert value(found, "bot_scheduler_lateness_seconds_bucket", kind="probe", le="5.0") == 0
        assert value(found, "bot_scheduler_lateness_seconds_bucket", kind="probe", le="10.0") == 1
    finally:
        await scheduler.shutdown(timeout=1)
        await db.dispose()
