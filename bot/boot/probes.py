"""``/healthz`` and ``/readyz`` on the bot's web server, for container orchestrators (docs/deploy.md).

* ``GET /healthz``: the process's event loop answers (200 ``{"alive": true}``); nothing else is asked, so a
  slow database never gets a live process killed.
* ``GET /readyz``: the database answers ``SELECT 1``, Redis answers ``PING`` when one is configured
  (``WEBAPP_RELAY_URL`` / ``TELEGRAM_LIMITS_URL``), the deadline scheduler is running and the runtime is not
  stopping: 200 when all hold, else 503; the body says each check (``{"ready": false, "checks":
  {"database": "ok", "redis": "ConnectionError: ...", "scheduler": "ok"}}``), each answered within
  ``CHECK_TIMEOUT`` seconds.  No secret, no URL and no stack trace is in the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Protocol, TypeVar, cast

import redis.asyncio as redis
from aiohttp import web
from sqlalchemy import text

from bot.webapp.server import HasBotData
from scheduler.deadlines import DeadlineScheduler
from storage.db import Database

CHECK_TIMEOUT = 2.0
App = TypeVar("App", bound=HasBotData)
WebRoutes = list[
    Callable[[web.Application], None]
]  # ``bot_data["web_routes"]``: what adds routes to the web server


class ProbedSettings(Protocol):
    @property
    def WEBAPP_RELAY_URL(self) -> str | None: ...  # noqa: N802 (the settings' names)

    @property
    def TELEGRAM_LIMITS_URL(self) -> str | None: ...  # noqa: N802


class Probed(Protocol):
    """What the probes ask of the runtime (``bot.boot.runtime.Runtime``; ``stopping`` read if it has it)."""

    @property
    def settings(self) -> ProbedSettings: ...

    @property
    def db(self) -> Database | None: ...

    @property
    def scheduler(self) -> DeadlineScheduler | None: ...


def with_probes(bot_app: App) -> App:
    """``bot_app`` (the PTB Application) whose web server will serve the two routes (``python -m bot``)."""
    routes = cast(WebRoutes, bot_app.bot_data.setdefault("web_routes", []))
    routes.append(lambda web_app: register(web_app, bot_app.bot_data))
    return bot_app


def register(web_app: web.Application, bot_data: MutableMapping[str, object]) -> None:
    """Add the two routes to the web server's application (before it starts); the runtime is
    ``bot_data["runtime"]``, read at each request."""
    probes = Probes(bot_data)
    web_app.router.add_get("/healthz", probes.healthz)
    web_app.router.add_get("/readyz", probes.readyz)


class Probes:
    def __init__(self, bot_data: MutableMapping[str, object]) -> None:
        self.bot_data = bot_data

    @property
    def rt(self) -> Probed:
        return cast(Probed, self.bot_data["runtime"])

    async def healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"alive": True})

    async def readyz(self, request: web.Request) -> web.Response:
        checks = await self.checks()
        ready = all(v == "ok" for v in checks.values())
        return web.json_response({"ready": ready, "checks": checks}, status=200 if ready else 503)

    async def checks(self) -> dict[str, str]:
        rt = self.rt
        checks = {"database": await _timed(self._database()), "scheduler": self._scheduler()}
        url = rt.settings.WEBAPP_RELAY_URL or rt.settings.TELEGRAM_LIMITS_URL
        if url:
            checks["redis"] = await _timed(_redis(url))
        return checks

    async def _database(self) -> None:
        if self.rt.db is None:
            raise RuntimeError("not open")
        async with self.rt.db.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    def _scheduler(self) -> str:
        if getattr(self.rt, "stopping", False):
            return "stopping"
        scheduler = self.rt.scheduler
        return "ok" if scheduler is not None and scheduler.running else "not running"


async def _redis(url: str) -> None:
    client = redis.Redis.from_url(url, socket_connect_timeout=CHECK_TIMEOUT, socket_timeout=CHECK_TIMEOUT)
    try:
        await client.ping()
    finally:
        await client.aclose()


async def _timed(check: Awaitable[object]) -> str:
    """ "ok", or the error's kind and first line (never a traceback, never a URL with its password)."""
    try:
        await asyncio.wait_for(check, CHECK_TIMEOUT)
    except TimeoutError:
        return f"no answer in {CHECK_TIMEOUT:g} s"
    except Exception as exc:  # noqa: BLE001 - reported as the check's answer
        first = str(exc).splitlines()[0][:200] if str(exc) else ""
        return f"{type(exc).__name__}: {first}".rstrip(": ")
    return "ok"
