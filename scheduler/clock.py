"""Clocks: the only source of "now" for deadlines (UTC, timezone-aware).

* ``SystemClock``: real time.
* ``ScaledClock(scale, anchor)``: time runs ``scale`` times faster than real time (the demo: a 20 s
  move clock passes in 20/scale real seconds).  Deadlines are stored in the clock's time; a restarted
  process must use the same ``anchor`` (``DeadlineScheduler(time_scale=..., anchor=...)``).
* ``ManualClock``: stands still until ``advance``/``set`` (tests); nothing is armed on real time:
  call ``DeadlineScheduler.run_due()`` after moving it.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class Clock:
    """Real time (the base class is the system clock)."""

    def now(self) -> datetime:
        return datetime.now(UTC)

    def real_delay(self, due_at: datetime) -> float | None:
        """Real seconds from now until ``due_at`` (negative: overdue); None: do not arm a real-time job."""
        return (due_at - self.now()).total_seconds()


SystemClock = Clock


class ScaledClock(Clock):
    """A clock running ``scale`` times faster than real time from ``anchor`` (default: when created).

    ``now() = anchor + (real now - anchor) * scale``.  Deadlines are stored in this clock's time, so
    after a restart build the clock with the same ``anchor`` (or reuse the object) to keep them in step.
    """

    def __init__(self, scale: float, anchor: datetime | None = None) -> None:
        if scale <= 0:
            raise ValueError("scale must be positive")
        self.scale = float(scale)
        self.anchor = anchor or datetime.now(UTC)

    def now(self) -> datetime:
        return self.anchor + (datetime.now(UTC) - self.anchor) * self.scale

    def real_delay(self, due_at: datetime) -> float | None:
        return (due_at - self.now()).total_seconds() / self.scale


class ManualClock(Clock):
    """A clock that moves only when told to (tests)."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)

    def now(self) -> datetime:
        return self._now

    def set(self, when: datetime) -> None:
        if when.tzinfo is None:
            raise ValueError("use a timezone-aware datetime")
        self._now = when.astimezone(UTC)

    def advance(self, seconds: float | timedelta) -> datetime:
        self._now += seconds if isinstance(seconds, timedelta) else timedelta(seconds=seconds)
        return self._now

    def real_delay(self, due_at: datetime) -> float | None:
        return None
