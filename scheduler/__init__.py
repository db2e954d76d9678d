"""Timers: deadline rows in the database, fired by APScheduler jobs (the only place that knows about timers)."""

from scheduler.clock import Clock, ManualClock, ScaledClock, SystemClock
from scheduler.deadlines import DeadlineData, DeadlineScheduler, Handler

__all__ = [
    "Clock",
    "DeadlineData",
    "DeadlineScheduler",
    "Handler",
    "ManualClock",
    "ScaledClock",
    "SystemClock",
]
