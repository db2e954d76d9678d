"""Prometheus metrics of the running bot (``prometheus-client``), off by default (docs/deploy.md "Metrics").

``METRICS_ENABLED=true`` serves ``GET /metrics`` on the bot's web server (``WEBAPP_PORT``, the table page's
server).  With ``METRICS_TOKEN`` set a scrape must send ``Authorization: Bearer <token>``; without one only a
scrape from this machine (127.0.0.1 / ::1) is answered, anything else gets 403.

Each runtime has its own registry (``Metrics``); with metrics off it holds ``NULL`` (``NullMetrics``), whose
hooks do nothing.  Where the numbers come from:

* counted as they happen, by one-line hooks in other modules (``rt.metrics.<hook>(...)``): updates by kind
  (``bot.boot.logs.bind_update``), actions applied and refused and the turn latency (``bot.tables.driver``),
  each outbox call's queueing and completion (``Outbox.observe``), scheduler lateness
  (``DeadlineScheduler.on_fire``);
* by wrapping what the runtime composes: the Bot API calls of the outbox by method and outcome
  (``sender``: the ``BotSender`` wrapped), database statement latency (SQLAlchemy's cursor events on the
  engine);
* read at each scrape (nothing to do between scrapes): outbox queue depth by priority, live matches, open
  table pages, the computer players' worker-pool depth.
"""

from __future__ import annotations

import hmac
import logging
import time
from collections.abc import Awaitable, Callable, Iterator, Sized
from typing import Protocol, TypeVar

from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector
from sqlalchemy import Engine, event
from sqlalchemy.engine import Connection, ExceptionContext, ExecutionContext

from bot.delivery.calls import Call, Markup
from bot.delivery.outbox import Outbox
from bot.delivery.senders import FileSender, Sender
from bot.webapp.server import HasBotData, running_server
from scheduler.deadlines import DeadlineScheduler
from storage.db import Database

log = logging.getLogger(__name__)

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LOCAL = frozenset({"127.0.0.1", "::1", "localhost"})
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
STATEMENT_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0)
LATENESS_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)
UPDATE_KINDS = (
    "message",
    "callback_query",
    "edited_message",
    "my_chat_member",
    "chat_member",
    "inline_query",
)
API_METHODS = {
    "send": "sendMessage",
    "edit": "editMessageText",
    "document": "sendDocument",
    "photo": "sendPhoto",
}

__all__ = ["NULL", "Metrics", "NullMetrics", "for_settings", "outcome_of"]

T = TypeVar("T")
STARTED_AT = "metrics_t0"  # the attribute a statement's execution context carries its start time in


class Calls(Sender, FileSender, Protocol):
    """The outbox's sender, file calls included (``bot.delivery.senders.BotSender``)."""


class Watched(Protocol):
    """What the metrics read of the running bot (``bot.boot.runtime.Runtime``, after its start-up)."""

    @property
    def outbox(self) -> Outbox | None: ...

    @property
    def scheduler(self) -> DeadlineScheduler | None: ...

    @property
    def db(self) -> Database | None: ...

    @property
    def seats(self) -> Sized:
        """The seats of the matches in play (one entry per live match)."""

    @property
    def app(self) -> HasBotData | None:
        """The bot's Application (its ``bot_data`` holds the table page's server)."""

    @property
    def thinker(self) -> object:
        """The computer players' worker pool (its queue is read, if it has one)."""


def outcome_of(exc: BaseException | None) -> str:
    """A Bot API call's outcome label: ok, 429, bad_request, forbidden, network, error (by the exception's
    class name: this room does not import Telegram)."""
    if exc is None:
        return "ok"
    names = {cls.__name__ for cls in type(exc).__mro__}
    if "RetryAfter" in names:
        return "429"
    if "Forbidden" in names:
        return "forbidden"
    if "BadRequest" in names:
        return "bad_request"
    if "TimedOut" in names or "NetworkError" in names:
        return "network"
    return "error"


class NullMetrics:
    """Metrics off: every hook is a no-op (the cost of a method call)."""

    enabled = False

    def update(self, update: object) -> None: ...

    def action(self, outcome: str) -> None: ...

    def turn(self, seconds: float) -> None: ...

    def lateness(self, kind: str, seconds: float) -> None: ...

    def sender(self, sender: Calls) -> Calls:
        return sender

    def watch(self, rt: Watched) -> None: ...


NULL = NullMetrics()


class Metrics(NullMetrics):
    """The registry and every metric of one runtime."""

    enabled = True

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.updates = Counter("bot_updates", "Telegram updates received, by kind", ["kind"], registry=r)
        self.actions = Counter(
            "bot_actions", "Players' actions, by outcome (applied, refused, stale)", ["outcome"], registry=r
        )
        self.api_calls = Counter(
            "bot_telegram_calls",
            "Bot API calls of the outbox, by method and outcome",
            ["method", "outcome"],
            registry=r,
        )
        self.api_seconds = Histogram(
            "bot_telegram_call_seconds",
            "Bot API call round trip",
            ["method"],
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.rate_limited = Counter("bot_telegram_429", "429 Too Many Requests answers", registry=r)
        self.limit_wait = Counter(
            "bot_outbox_wait_seconds",
            "Seconds calls waited in the outbox (Telegram's limits and pacing) before they went",
            registry=r,
        )
        self.turn_seconds = Histogram(
            "bot_turn_latency_seconds",
            "A press or typed play received -> its action committed",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.group_lag = Histogram(
            "bot_group_lag_seconds",
            "A call to a group queued -> Telegram answered it (what a table's group waits for)",
            buckets=LATENCY_BUCKETS,
            registry=r,
        )
        self.statement_seconds = Histogram(
            "bot_db_statement_seconds",
            "Database statement latency",
            ["dialect"],
            buckets=STATEMENT_BUCKETS,
            registry=r,
        )
        self.db_errors = Counter("bot_db_errors", "Database statements that raised", registry=r)
        self.scheduler_lateness = Histogram(
            "bot_scheduler_lateness_seconds",
            "A deadline fired minus when it was due, by kind",
            ["kind"],
            buckets=LATENESS_BUCKETS,
            registry=r,
        )
        self.up = Gauge("bot_started", "1 once the runtime started", registry=r)
        self._rt: Watched | None = None
        self.on_statement_error: list[Callable[[BaseException], None]] = []  # bot/boot/alerts.py

    # --- hooks (called from other modules) ------------------------------------------------------

    def update(self, update: object) -> None:
        kind = next((k for k in UPDATE_KINDS if getattr(update, k, None) is not None), "other")
        self.updates.labels(kind).inc()

    def action(self, outcome: str) -> None:
        self.actions.labels(outcome).inc()

    def turn(self, seconds: float) -> None:
        self.turn_seconds.observe(seconds)

    def lateness(self, kind: str, seconds: float) -> None:
        self.scheduler_lateness.labels(kind).observe(max(0.0, seconds))

    def sender(self, sender: Calls) -> Calls:
        return CountingSender(sender, self)

    def outbox_event(self, event: str, op: Call, now: float) -> None:
        """``Outbox.observe``: "launch" (the call leaves its queue) or "finish" (it is done)."""
        if event == "launch":
            self.limit_wait.inc(max(0.0, now - op.queued_at))
        elif op.chat_id < 0:
            self.group_lag.observe(max(0.0, now - op.queued_at))

    # --- wiring ---------------------------------------------------------------------------------

    def watch(self, rt: Watched) -> None:
        """After the runtime started: statement timing on its database engine, the outbox's events, the
        scheduler's lateness, and the gauges read at each scrape."""
        self._rt = rt
        self.up.set(1)
        if rt.outbox is not None:
            rt.outbox.observe = self.outbox_event
        if rt.scheduler is not None:
            rt.scheduler.on_fire.append(self.lateness)
        if rt.db is not None:
            self._time_statements(rt.db.engine.sync_engine, rt.db.engine.dialect.name)
        self.registry.register(_ScrapeTime(rt))

    def _time_statements(self, engine: Engine, dialect: str) -> None:

        histogram = self.statement_seconds.labels(dialect)

        observe, clock = histogram.observe, time.perf_counter

        def before(
            conn: Connection,
            cursor: object,
            statement: str,
            params: object,
            context: ExecutionContext | None,
            many: bool,
        ) -> None:
            if context is not None:
                setattr(context, STARTED_AT, clock())

        def after(
            conn: Connection,
            cursor: object,
            statement: str,
            params: object,
            context: ExecutionContext | None,
            many: bool,
        ) -> None:
            started = getattr(context, STARTED_AT, None)
            if started is not None:
                observe(clock() - started)

        def failed(context: ExceptionContext) -> None:
            self.db_errors.inc()
            for hook in self.on_statement_error:
                hook(context.original_exception)

        event.listen(engine, "before_cursor_execute", before)
        event.listen(engine, "after_cursor_execute", after)
        event.listen(engine, "handle_error", failed)

    def scrape(self) -> bytes:
        return generate_latest(self.registry)

    def routes(self, token: str | None) -> Callable[[web.Application], None]:
        """What adds ``GET /metrics`` to the bot's web server (``bot_data["web_routes"]``)."""

        async def handler(request: web.Request) -> web.Response:
            if token:
                given = request.headers.get("Authorization", "")
                if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
                    return web.Response(status=401, text="a Bearer token is needed\n")
            elif request.remote not in LOCAL:
                return web.Response(
                    status=403, text="metrics are served to this machine only (METRICS_TOKEN)\n"
                )
            return web.Response(body=self.scrape(), headers={"Content-Type": CONTENT_TYPE})

        def add(web_app: web.Application) -> None:
            web_app.router.add_get("/metrics", handler)

        return add


class CountingSender:
    """The outbox's sender with each call counted and timed (method, outcome); the call itself unchanged."""

    def __init__(self, inner: Calls, metrics: Metrics) -> None:
        self.inner = inner
        self.metrics = metrics

    async def _timed(self, kind: str, call: Awaitable[T]) -> T:
        method = API_METHODS[kind]
        t0 = time.perf_counter()
        try:
            result = await call
        except BaseException as exc:
            outcome = outcome_of(exc)
            self.metrics.api_calls.labels(method, outcome).inc()
            if outcome == "429":
                self.metrics.rate_limited.inc()
            raise
        self.metrics.api_calls.labels(method, "ok").inc()
        self.metrics.api_seconds.labels(method).observe(time.perf_counter() - t0)
        return result

    async def send_message(self, chat_id: int, text: str, reply_markup: Markup | None) -> int:
        return int(await self._timed("send", self.inner.send_message(chat_id, text, reply_markup)))

    async def edit_message_text(
        self, chat_id: int, message_id: int, text: str, reply_markup: Markup | None
    ) -> None:
        await self._timed("edit", self.inner.edit_message_text(chat_id, message_id, text, reply_markup))

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str | None, reply_markup: Markup | None
    ) -> int:
        return int(
            await self._timed(
                "document", self.inner.send_document(chat_id, data, filename, caption, reply_markup)
            )
        )

    async def send_photo(
        self, chat_id: int, data: bytes, caption: str | None, reply_markup: Markup | None
    ) -> int:
        return int(await self._timed("photo", self.inner.send_photo(chat_id, data, caption, reply_markup)))


class _ScrapeTime(Collector):
    """Gauges read from the runtime at each scrape."""

    def __init__(self, rt: Watched) -> None:
        self.rt = rt

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[GaugeMetricFamily]:
        rt = self.rt
        depth = GaugeMetricFamily(
            "bot_outbox_queued",
            "Calls queued in the outbox, by priority (urgent edit, record, note, edit)",
            labels=["priority"],
        )
        for priority, n in outbox_depth(rt.outbox).items():
            depth.add_metric([priority], n)
        yield depth
        yield GaugeMetricFamily("bot_live_matches", "Matches in play in this process", value=len(rt.seats))
        server = running_server(rt.app)
        pages = server.hub.count() if server is not None else 0
        yield GaugeMetricFamily("bot_open_pages", "Table pages connected to this process", value=pages)
        pool = getattr(rt.thinker, "_pool", None)
        pending = len(getattr(pool, "_pending_work_items", ())) if pool is not None else 0
        yield GaugeMetricFamily(
            "bot_ai_pool_depth",
            "Computer players' searches queued or running in the worker pool",
            value=pending,
        )


def outbox_depth(outbox: Outbox | None) -> dict[str, int]:
    """Queued calls by priority: ``urgent`` (an edit telling its reader to act), ``record`` (a send never
    dropped), ``note`` (a send that may be dropped), ``edit`` (the other edits)."""
    out = {"urgent": 0, "record": 0, "note": 0, "edit": 0}
    if outbox is None:
        return out
    for op in outbox.queued_calls():
        if op.kind == "edit":
            out["urgent" if op.urgent else "edit"] += 1
        else:
            out["record" if op.record else "note"] += 1
    return out


def for_settings(settings: object) -> NullMetrics:
    """``Metrics`` when ``METRICS_ENABLED``, else ``NULL``."""
    return Metrics() if getattr(settings, "METRICS_ENABLED", False) else NULL
