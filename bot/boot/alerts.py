"""Alerts: the bot tells its admins (``BOT_ADMIN_IDS``) privately when something needs an operator.

Kinds (each at most once per ``EVERY`` seconds, ten minutes; what happens meanwhile is counted into the next
one's text, never sent as more messages):

* ``rate_limited``: Telegram answered 429 (the outbox's ``retry_after`` count grew);
* ``scheduler_late``: a deadline fired more than ``LATE_AFTER`` (5) seconds after it was due;
* ``database``: a database statement raised (SQLAlchemy's ``handle_error`` event on the engine), except a
  constraint's refusal (``IntegrityError``: two requests raced for one row, the code answers it, e.g. a second
  table in a group; nothing an operator can fix);
* ``redis``: the Redis of ``WEBAPP_RELAY_URL`` / ``TELEGRAM_LIMITS_URL`` did not answer ``PING``
  (asked every ``REDIS_EVERY`` seconds);
* ``outbox``: the outbox holds more calls than its bound (``max_queued``), or it had to queue a message of
  record over a bound or drop a note.

A watcher task looks at the outbox (and Redis) every ``WATCH_EVERY`` seconds; the scheduler and the database
report as it happens.  Each alert is also logged (WARNING, ``alert <kind>: ...``), admins or not.  The
messages go through the outbox like any other (a private chat: Telegram's 429 of a group never delays it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Collection, Coroutine
from typing import Protocol

from sqlalchemy import event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import IntegrityError

from bot.delivery.outbox import Outbox
from bot.presentation.i18n import t
from scheduler.deadlines import DeadlineScheduler
from storage.db import Database

log = logging.getLogger(__name__)

EVERY = 600.0  # seconds between two alerts of one kind
LATE_AFTER = 5.0  # a deadline fired later than this is an alert
WATCH_EVERY = 1.0
REDIS_EVERY = 15.0
KINDS = ("rate_limited", "scheduler_late", "database", "redis", "outbox")


class WatchedSettings(Protocol):
    @property
    def WEBAPP_RELAY_URL(self) -> str | None: ...  # noqa: N802 (the settings' names)

    @property
    def TELEGRAM_LIMITS_URL(self) -> str | None: ...  # noqa: N802


class Says(Protocol):
    def send(self, chat_id: int, text: str) -> object:
        """Queue a message (its future is not awaited here)."""


class Alerted(Protocol):
    """What the alerts read and use of the running bot (``bot.boot.runtime.Runtime``)."""

    @property
    def settings(self) -> WatchedSettings: ...

    @property
    def outbox(self) -> Outbox | None: ...

    @property
    def scheduler(self) -> DeadlineScheduler | None: ...

    @property
    def db(self) -> Database | None: ...

    @property
    def admin_ids(self) -> Collection[int]: ...

    def spawn(self, coro: Coroutine[object, object, object]) -> None: ...

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str: ...

    def group_lang(self) -> str: ...

    @property
    def messages(self) -> Says: ...


class Alerts:
    def __init__(self, rt: Alerted, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.rt = rt
        self.clock = clock
        self.last: dict[str, float] = {}  # kind -> when its last alert went
        self.sent: list[tuple[str, str]] = []  # (kind, English text) of each alert sent (tests, logs)
        self._seen_429 = 0
        self._seen_bound = 0
        self._task: asyncio.Task[None] | None = None
        self._next_redis = 0.0

    # --- reports ------------------------------------------------------------------------------

    def raise_(self, kind: str, **params: object) -> bool:
        """Tell the admins about ``kind`` unless it was told less than ``EVERY`` seconds ago; True when told."""
        now = self.clock()
        last = self.last.get(kind)
        if last is not None and now - last < EVERY:
            return False
        self.last[kind] = now
        text = t("en", f"alert.{kind}", **params)
        self.sent.append((kind, text))
        log.warning("alert %s: %s", kind, text)
        if self.rt.outbox is not None and self.rt.admin_ids:
            self.rt.spawn(self._tell(kind, params))
        return True

    async def _tell(self, kind: str, params: dict[str, object]) -> None:
        for admin in sorted(self.rt.admin_ids):
            try:
                lang = await self.rt.user_lang(admin)
            except Exception:  # the database may be what is failing
                lang = self.rt.group_lang()
            self.rt.messages.send(admin, t(lang, f"alert.{kind}", **params))

    def late(self, kind: str, seconds: float) -> None:
        """``DeadlineScheduler.on_fire``."""
        if seconds > LATE_AFTER:
            self.raise_("scheduler_late", seconds=f"{seconds:.0f}", what=kind)

    def database_error(self, exc: BaseException) -> None:
        first = str(exc).splitlines()[0][:120] if str(exc) else ""
        self.raise_("database", error=f"{type(exc).__name__}: {first}".rstrip(": "))

    # --- wiring -------------------------------------------------------------------------------

    def watch(self) -> None:
        """After the runtime started: the scheduler's and the database's reports, and the watcher task."""
        rt = self.rt
        if rt.scheduler is not None:
            rt.scheduler.on_fire.append(self.late)
        if rt.db is not None:
            event.listen(rt.db.engine.sync_engine, "handle_error", self._on_db_error)
        if rt.outbox is not None:
            self._seen_429 = rt.outbox.stats.retry_after
            self._seen_bound = self._bound_events(rt.outbox)
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="alerts")

    def _on_db_error(self, context: ExceptionContext) -> None:
        if isinstance(context.sqlalchemy_exception, IntegrityError):
            return  # the schema refused a row (a race lost): the caller answers it, the server is fine
        self.database_error(context.original_exception)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None

    @staticmethod
    def _bound_events(outbox: Outbox) -> int:
        stats = outbox.stats
        return int(stats.over_bound_records + stats.dropped_notes)

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(WATCH_EVERY)
            try:
                await self.check()
            except Exception:  # never let the watcher die
                log.exception("alerts: check failed")

    async def check(self) -> None:
        """One look at the outbox (429s, its bound) and, when it is time, Redis."""
        outbox = self.rt.outbox
        if outbox is not None:
            count = outbox.stats.retry_after - self._seen_429
            if count > 0 and self.raise_("rate_limited", count=count):
                self._seen_429 = outbox.stats.retry_after
            bound = self._bound_events(outbox)
            if (outbox.pending() > outbox.max_queued or bound > self._seen_bound) and self.raise_(
                "outbox", queued=outbox.pending(), bound=outbox.max_queued
            ):
                self._seen_bound = bound
        url = self.rt.settings.WEBAPP_RELAY_URL or self.rt.settings.TELEGRAM_LIMITS_URL
        if url and self.clock() >= self._next_redis:
            self._next_redis = self.clock() + REDIS_EVERY
            problem = await redis_problem(url)
            if problem is not None:
                self.raise_("redis", error=problem)


async def redis_problem(url: str, timeout: float = 2.0) -> str | None:
    """None when Redis answers PING; else the error's kind and first line (never the URL)."""
    import redis.asyncio as redis

    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        await asyncio.wait_for(client.ping(), timeout)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        first = str(exc).splitlines()[0][:120] if str(exc) else ""
        return f"{type(exc).__name__}: {first}".rstrip(": ")
    finally:
        with contextlib.suppress(Exception):
            await client.aclose()
    return None
