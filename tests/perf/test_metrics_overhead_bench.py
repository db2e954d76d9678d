"""Benchmark (``make bench``; issue 21): the CPU cost of each metrics hook (bot/boot/metrics.py), on and off.

Each hook is called 100,000 times with metrics on (``Metrics``) and off (``NULL``); printed: microseconds of
CPU per call.  With the calls a card costs in ``make loadtest`` (docs/performance.md, "Metrics overhead") this
gives the hooks' share of the bot's CPU per card.  Figures only; nothing here asserts a time.
"""

from __future__ import annotations

import time
from types import SimpleNamespace

from bot.boot.metrics import NULL, Metrics
from tests.perf.machine import describe

N = 100_000


def per_call(fn) -> float:
    t0 = time.process_time()
    for _ in range(N):
        fn()
    return (time.process_time() - t0) / N * 1e6


def test_metrics_hooks_cost() -> None:
    print(describe())
    on = Metrics()
    update = SimpleNamespace(message=None, callback_query=object())
    op = SimpleNamespace(queued_at=0.0, chat_id=-5)
    rows = []
    for label, metrics in (("on", on), ("off", NULL)):
        rows.append(
            (
                label,
                per_call(lambda m=metrics: m.update(update)),
                per_call(lambda m=metrics: m.action("applied")),
                per_call(lambda m=metrics: m.turn(0.05)),
                per_call(lambda m=metrics: m.lateness("move_clock", 0.01)),
            )
        )
    outbox = per_call(lambda: on.outbox_event("launch", op, 1.0)) + per_call(
        lambda: on.outbox_event("finish", op, 1.0)
    )
    api = per_call(
        lambda: (
            on.api_calls.labels("editMessageText", "ok").inc(),
            on.api_seconds.labels("editMessageText").observe(0.1),
        )
    )
    stmt = per_call(lambda: on.statement_seconds.labels("sqlite").observe(0.001))
    print("metrics hooks, µs of CPU per call: update | action | turn | lateness")
    for label, *values in rows:
        print(f"  {label:>3}: " + " | ".join(f"{v:.2f}" for v in values))
    print(
        f"  on: outbox launch+finish {outbox:.2f} | Bot API call counted+timed {api:.2f} | statement observed {stmt:.2f} (+ SQLAlchemy event dispatch)"
    )


def test_statement_timing_cost() -> None:
    """The two cursor events per statement (``Metrics._time_statements``) on an in-memory SQLite engine."""
    from sqlalchemy import create_engine, text

    def run(engine, n: int = 20_000) -> float:
        with engine.connect() as conn:
            t0 = time.process_time()
            for _ in range(n):
                conn.execute(text("SELECT 1"))
            return (time.process_time() - t0) / n * 1e6

    plain, timed = create_engine("sqlite://"), create_engine("sqlite://")
    Metrics()._time_statements(timed, "sqlite")
    base, with_events = min(run(plain) for _ in range(3)), min(run(timed) for _ in range(3))
    print(
        f"SELECT 1: {base:.1f} µs of CPU plain, {with_events:.1f} µs timed: {with_events - base:.1f} µs per statement"
    )
