"""/healthz and /readyz (bot/boot/probes.py): what a container orchestrator asks the bot's web server."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.boot.probes import register
from scheduler.deadlines import DeadlineScheduler
from storage.db import open_database
from tests import services


async def _client(rt) -> TestClient:
    app = web.Application()
    register(app, {"runtime": rt})
    client = TestClient(TestServer(app))
    await client.start_server()
    return client


@pytest.fixture
async def runtime(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    scheduler = DeadlineScheduler()
    await scheduler.start(db)
    rt = SimpleNamespace(
        db=db,
        scheduler=scheduler,
        stopping=False,
        settings=SimpleNamespace(WEBAPP_RELAY_URL="", TELEGRAM_LIMITS_URL=""),
    )
    yield rt
    await scheduler.shutdown(timeout=1)
    await db.dispose()


async def test_a_running_bot_is_alive_and_ready(runtime):
    client = await _client(runtime)
    try:
        alive = await client.get("/healthz")
        assert alive.status == 200 and await alive.json() == {"alive": True}
        ready = await client.get("/readyz")
        assert ready.status == 200
        assert await ready.json() == {"ready": True, "checks": {"database": "ok", "scheduler": "ok"}}
    finally:
        await client.close()


async def test_a_stopped_scheduler_or_a_stopping_bot_is_not_ready_but_still_alive(runtime):
    client = await _client(runtime)
    try:
        await runtime.scheduler.shutdown(timeout=1)
        ready = await client.get("/readyz")
        assert ready.status == 503 and (await ready.json())["checks"]["scheduler"] == "not running"
        runtime.stopping = True
        assert (await (await client.get("/readyz")).json())["checks"]["scheduler"] == "stopping"
        assert (await client.get("/healthz")).status == 200
    finally:
        await client.close()


async def test_an_unreachable_redis_or_database_is_named_without_its_url(runtime):
    runtime.settings.WEBAPP_RELAY_URL = "redis://:s3cret@127.0.0.1:1/0"
    opened, runtime.db = runtime.db, SimpleNamespace(engine=_Refusing())
    client = await _client(runtime)
    try:
        ready = await client.get("/readyz")
        body = await ready.text()
        checks = (await ready.json())["checks"]
        assert ready.status == 503 and checks["scheduler"] == "ok"
        assert checks["redis"].startswith("ConnectionError") and checks["database"].startswith("OSError")
        assert "s3cret" not in body and "Traceback" not in body
    finally:
        runtime.db = opened
        await client.close()


class _Refusing:
    """An engine whose server is down (connect refused)."""

    def connect(self):
        raise OSError("Connect call failed ('127.0.0.1', 1)")


@pytest.mark.redis
async def test_a_configured_redis_that_answers_is_ready(runtime):
    runtime.settings.TELEGRAM_LIMITS_URL = services.REDIS_URL
    client = await _client(runtime)
    try:
        ready = await client.get("/readyz")
        assert ready.status == 200 and (await ready.json())["checks"]["redis"] == "ok"
    finally:
        await client.close()


async def test_the_compose_health_check_asks_readyz(runtime, capsys):
    """``python -m bot.boot.health --ready URL`` (compose.yaml's check): 0 while ready, 1 and the failed check."""
    import asyncio

    from bot.boot.health import ready

    client = await _client(runtime)
    try:
        url = str(client.make_url("/readyz"))
        assert await asyncio.to_thread(ready, url) == 0
        await runtime.scheduler.shutdown(timeout=1)
        assert await asyncio.to_thread(ready, url) == 1
        assert "not ready: scheduler: not running" in capsys.readouterr().err
    finally:
        await client.close()
    assert await asyncio.to_thread(ready, url) == 1
    assert "does not answer" in capsys.readouterr().err
