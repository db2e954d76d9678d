"""A monotonic clock for the outbox that moves only when a test moves it (``Outbox(clock=c, sleep=c.sleep)``).

Time stands still while the event loop runs: every task runs until it waits for the clock (``sleep``) or for
another task, and only then does the test move the clock, to the next time something waits for
(``advance``, ``run_until``). So what the outbox does at each moment of its clock is exactly what its
pacing says, however slowly the machine runs the test. ``settle`` lets the tasks run until the event loop
has nothing ready to run (every task waits for the clock or for another task); the outbox and the fake
senders do no real I/O and start no timer of the loop's, so that is the moment's end."""

from __future__ import annotations

import asyncio
import heapq
from collections.abc import Callable

SETTLE_TURNS = 100_000  # a loop never quiet that long spins (a worker waking itself): a bug to report


class ManualClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._seq = 0

    def __call__(self) -> float:
        """The clock's time (monotonic seconds), as ``time.monotonic``."""
        return self.now

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has moved ``seconds`` on (at once for none), as ``asyncio.sleep``."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.now + seconds, self._seq, fut))
        self._seq += 1
        await fut

    async def settle(self) -> None:
        """Let every task run until it waits (for the clock, or for another task)."""
        loop = asyncio.get_running_loop()
        for _ in range(SETTLE_TURNS):
            await asyncio.sleep(0)
            if not loop._ready:  # type: ignore[attr-defined]  # CPython's queue of callbacks ready to run
                return
        raise AssertionError("the event loop never came to rest: something wakes itself without end")

    def _next_due(self) -> float | None:
        while self._sleepers and self._sleepers[0][2].done():  # a sleep cancelled (its waiter woke first)
            heapq.heappop(self._sleepers)
        return self._sleepers[0][0] if self._sleepers else None

    async def _step_to(self, due: float) -> None:
        self.now = max(self.now, due)
        while self._sleepers and self._sleepers[0][0] <= self.now:
            fut = heapq.heappop(self._sleepers)[2]
            if not fut.done():
                fut.set_result(None)
        await self.settle()

    async def advance(self, seconds: float) -> None:
        """Move the clock ``seconds`` on, stopping at each time something waits for on the way."""
        target = self.now + seconds
        await self.settle()
        while (due := self._next_due()) is not None and due <= target:
            await self._step_to(due)
        self.now = target
        await self.settle()

    async def run_until(
        self, done: Callable[[], bool], limit: float = 600.0, what: str = "not done"
    ) -> float:
        """Move the clock from one waiting time to the next until ``done()``; the clock seconds it took.
        AssertionError (``what``) when nothing waits for the clock any more, or before ``limit`` clock
        seconds would pass."""
        start = self.now
        await self.settle()
        while not done():
            due = self._next_due()
            if due is None or due > start + limit:
                raise AssertionError(f"{what} after {self.now - start:.4f} clock seconds")
            await self._step_to(due)
        return self.now - start
