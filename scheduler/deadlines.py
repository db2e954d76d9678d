"""Deadlines as database rows, fired by APScheduler jobs derived from them.

``schedule`` writes a ``Deadline`` row and arms a job; ``start`` re-arms every pending row (an overdue
one fires at once); a periodic poll also picks up rows written by other processes.  Firing claims the
row with a conditional UPDATE (pending -> running); only the caller whose UPDATE changed the row runs the
handler, so a deadline that fires twice, after ``cancel``, or in two processes runs its handler once.
The row is marked ``fired`` once the handler has returned.  A handler that raises is logged, its row is
marked ``failed`` and the scheduler carries on; a handler cancelled by ``shutdown`` gives its row back
(pending).  ``start`` takes back the rows left ``failed``; ``start`` and every poll take back the rows left
``running`` for longer than ``claim_lease`` seconds (real time since the claim: the process that claimed it died inside
the handler) and fire them again: a deadline is done only when its handler completed.  A row claimed less
than the lease ago is left alone, because with two processes on one database (webhook behind a splitter)
it is most likely being run right now by the other one.  Handlers must therefore be short (well under the
lease) and idempotent (check the version, pass a dedupe key, look for what a first run made).
A kind with no registered handler stays pending.

Move clocks (the bot's handlers decide what to auto-play; this is only the mechanism): after each
action the bot cancels the match's ``move_clock`` deadline and schedules the next one with payload
``{"match_id", "version", "seat"}``; the handler applies ``auto_action`` only if the match is still at
that version (pass ``expected_version`` and ``dedupe_key=f"clock:{deadline.id}"`` to ``apply_action``).
Compute due times with ``scheduler.now()`` (or use ``schedule_in``) so accelerated clocks work.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler  # type: ignore[import-untyped]
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from scheduler.clock import Clock, ScaledClock
from storage.db import Database
from storage.models import Deadline, utcnow

log = logging.getLogger(__name__)
# APScheduler reports every job run at INFO (the poll runs every 30 s): keep it quiet unless configured.
for _name in ("apscheduler.executors.default", "apscheduler.scheduler"):
    if logging.getLogger(_name).level == logging.NOTSET:
        logging.getLogger(_name).setLevel(logging.WARNING)


@dataclass(frozen=True)
class DeadlineData:
    """A deadline row as handed to handlers."""

    id: int
    kind: str
    ref: str
    due_at: datetime
    payload: dict[str, Any] = field(default_factory=dict)
    created_at: datetime | None = None
    fired_at: datetime | None = None
    status: str = "pending"

    @classmethod
    def of(cls, row: Deadline) -> DeadlineData:
        return cls(
            row.id,
            row.kind,
            row.ref,
            row.due_at,
            dict(row.payload_json or {}),
            row.created_at,
            row.fired_at,
            row.status,
        )


Handler = Callable[[DeadlineData], Awaitable[object]]


class DeadlineScheduler:
    """Deadline rows + APScheduler 3 jobs.  One instance per process.

    ``clock``: where "now" comes from (default: real time, or ``ScaledClock(time_scale, anchor)`` when
    ``time_scale`` != 1; keep the same ``anchor`` across a restart).  ``poll_interval``: real seconds between looks for rows armed nowhere
    (written by another process); None disables the poll.
    """

    def __init__(
        self,
        clock: Clock | None = None,
        *,
        time_scale: float = 1.0,
        anchor: datetime | None = None,
        poll_interval: float | None = 30.0,
        claim_lease: float = 60.0,
    ) -> None:
        if clock is None:
            clock = Clock() if time_scale == 1.0 else ScaledClock(time_scale, anchor)
        self.clock = clock
        self.poll_interval = poll_interval
        self.claim_lease = claim_lease
        self.db: Database | None = None
        self._handlers: dict[str, Handler] = {}
        self._aps: AsyncIOScheduler | None = None
        self._armed: dict[int, datetime] = {}
        self._inflight: set[asyncio.Task[bool]] = set()
        self._periodic: set[asyncio.Task[object]] = set()  # runs of ``every`` jobs in progress
        # called with (kind, seconds late: fired minus due, scheduler clock) as each deadline is claimed (metrics, alerts)
        self.on_fire: list[Callable[[str, float], None]] = []

    # --- set-up -------------------------------------------------------------------------------

    def now(self) -> datetime:
        """The scheduler clock's time (UTC); compute due times from this."""
        return self.clock.now()

    def register(self, kind: str, handler: Handler) -> None:
        """``handler(deadline: DeadlineData)`` runs when a deadline of ``kind`` fires."""
        self._handlers[kind] = handler

    def every(self, name: str, seconds: float, job: Callable[[], Awaitable[object]]) -> None:
        """Run ``job`` every ``seconds`` real seconds while the scheduler runs (e.g. the periodic backup);
        a run still going when the next is due makes that one skip (one at a time). Call after ``start``."""
        if self._aps is None:
            raise RuntimeError("start the scheduler first")

        async def run() -> None:  # a coroutine function: APScheduler awaits it on the loop (a callable object
            # with an async __call__ would be run in a thread, never awaited).  The run is a task of its own,
            # shielded: APScheduler's shutdown cancels the coroutine it awaits, which would leave a job's thread
            # (a backup) finishing unseen; ``shutdown`` waits for the run instead, as for a deadline's handler.
            if self._aps is None:  # submitted just before shutdown, started after it: not run
                return
            inner: asyncio.Task[object] = asyncio.ensure_future(job())
            self._periodic.add(inner)
            inner.add_done_callback(self._periodic_done)
            await asyncio.shield(inner)

        self._aps.add_job(
            run, "interval", seconds=seconds, id=name, coalesce=True, max_instances=1, misfire_grace_time=None
        )

    def _periodic_done(self, task: asyncio.Task[object]) -> None:
        self._periodic.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("periodic job failed", exc_info=task.exception())

    @property
    def running(self) -> bool:
        return self._aps is not None

    async def start(self, db: Database) -> None:
        """Start the APScheduler loop and re-arm every pending deadline from the database."""
        if self._aps is not None:
            return
        self.db = db
        await self._recover(db, self.claim_lease, failed=True)
        self._aps = AsyncIOScheduler(event_loop=asyncio.get_running_loop(), timezone=UTC)
        self._aps.start()
        if self.poll_interval:
            self._aps.add_job(
                self._poll,
                "interval",
                seconds=self.poll_interval,
                id="deadline-poll",
                coalesce=True,
                max_instances=1,
                misfire_grace_time=None,
            )
        await self.rearm()

    @staticmethod
    async def _recover(db: Database, lease: float, failed: bool) -> None:
        """Rows whose handler never completed are pending again: running ones claimed more than ``lease``
        seconds ago (the claiming process died inside the handler; a younger claim is probably being run by
        another process right now) and, when ``failed`` (at start), the failed ones."""
        stale = utcnow() - timedelta(seconds=lease)
        taken_back = (Deadline.status == "running") & (Deadline.fired_at < stale)
        if failed:
            taken_back = taken_back | (Deadline.status == "failed")
        async with db.session() as s:
            result = await s.execute(
                update(Deadline).where(taken_back).values(status="pending", fired_at=None)
            )
            await s.commit()
        if result.rowcount:  # type: ignore[attr-defined]
            log.warning("%d deadline(s) whose handler did not complete will run again", result.rowcount)  # type: ignore[attr-defined]

    async def shutdown(self, timeout: float = 10.0) -> None:
        """Stop arming; wait (up to ``timeout`` s) for handlers and ``every`` runs already going, then cancel
        the rest (their deadlines go back to pending and fire again after the restart).  Pending rows stay
        pending."""
        if self._aps is not None:
            self._aps.shutdown(wait=False)
            self._aps = None
        self._armed.clear()
        running: list[asyncio.Task[Any]] = [*self._inflight, *self._periodic]
        if running:
            _, late = await asyncio.wait(running, timeout=timeout)
            for task in late:
                task.cancel()
            if late:
                await asyncio.wait(late, timeout=5)

    # --- writing deadlines ------------------------------------------------------------------

    async def schedule(
        self,
        db: Database,
        kind: str,
        ref: str,
        due_at: datetime,
        payload: Mapping[str, Any] | None = None,
        *,
        replace: bool = False,
    ) -> int:
        """Store a pending deadline and arm it; returns its id.

        ``replace=True`` cancels the pending deadlines of the same (kind, ref) in the same transaction.
        """
        if due_at.tzinfo is None:
            raise ValueError("due_at must be timezone-aware (UTC)")
        async with db.session() as s:
            cancelled: list[int] = []
            if replace:
                cancelled = await self._cancel_rows(s, kind, ref)
            row = Deadline(
                kind=kind,
                ref=ref,
                due_at=due_at.astimezone(UTC),
                payload_json=dict(payload or {}),
                status="pending",
                created_at=utcnow(),
            )
            s.add(row)
            await s.commit()
            deadline_id = row.id
        for old in cancelled:
            self._disarm(old)
        if db is self.db:
            self._arm(deadline_id, row.due_at)
        return deadline_id

    async def schedule_in(
        self,
        db: Database,
        kind: str,
        ref: str,
        seconds: float,
        payload: Mapping[str, Any] | None = None,
        *,
        replace: bool = False,
    ) -> int:
        """``schedule`` at ``now() + seconds`` on the scheduler's clock."""
        return await self.schedule(
            db, kind, ref, self.now() + timedelta(seconds=seconds), payload, replace=replace
        )

    async def cancel(self, db: Database, kind: str, ref: str) -> int:
        """Cancel the pending deadlines of (kind, ref); returns how many were cancelled."""
        async with db.session() as s:
            ids = await self._cancel_rows(s, kind, ref)
            await s.commit()
        for deadline_id in ids:
            self._disarm(deadline_id)
        return len(ids)

    async def cancel_id(self, db: Database, deadline_id: int) -> bool:
        async with db.session() as s:
            result = await s.execute(
                update(Deadline)
                .where(Deadline.id == deadline_id, Deadline.status == "pending")
                .values(status="cancelled")
            )
            await s.commit()
        self._disarm(deadline_id)
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    @staticmethod
    async def _cancel_rows(s: AsyncSession, kind: str, ref: str) -> list[int]:
        ids = list(
            (
                await s.execute(
                    select(Deadline.id).where(
                        Deadline.kind == kind, Deadline.ref == ref, Deadline.status == "pending"
                    )
                )
            )
            .scalars()
            .all()
        )
        if ids:
            await s.execute(
                update(Deadline)
                .where(Deadline.id.in_(ids), Deadline.status == "pending")
                .values(status="cancelled")
            )
        return ids

    async def pending(
        self, db: Database, kind: str | None = None, ref: str | None = None
    ) -> list[DeadlineData]:
        """Pending deadlines (optionally of one kind / ref), soonest first (e.g. to show a clock)."""
        async with db.session() as s:
            query = select(Deadline).where(Deadline.status == "pending")
            if kind is not None:
                query = query.where(Deadline.kind == kind)
            if ref is not None:
                query = query.where(Deadline.ref == ref)
            rows = (await s.execute(query.order_by(Deadline.due_at, Deadline.id))).scalars().all()
            return [DeadlineData.of(r) for r in rows]

    async def live_refs(self, db: Database, kind: str) -> set[str]:
        """The refs with a deadline of ``kind`` still to fire: pending, or running (being fired now)."""
        async with db.session() as s:
            rows = await s.execute(
                select(Deadline.ref).where(Deadline.kind == kind, Deadline.status.in_(("pending", "running")))
            )
            return {str(r) for r in rows.scalars()}

    async def get(self, db: Database, deadline_id: int) -> DeadlineData | None:
        async with db.session() as s:
            row = await s.get(Deadline, deadline_id)
            return None if row is None else DeadlineData.of(row)

    # --- arming -------------------------------------------------------------------------------

    def armed_ids(self) -> set[int]:
        """Ids of the deadlines this instance has armed (tests)."""
        return set(self._armed)

    def _arm(self, deadline_id: int, due_at: datetime) -> None:
        if self._aps is None:
            return
        self._armed[deadline_id] = due_at
        delay = self.clock.real_delay(due_at)
        if delay is None:  # a manual clock: run_due() fires
            return
        run_date = datetime.now(UTC) + timedelta(seconds=max(0.0, delay))
        self._aps.add_job(
            self._job,
            "date",
            run_date=run_date,
            args=[deadline_id],
            id=f"deadline-{deadline_id}",
            replace_existing=True,
            misfire_grace_time=None,
            coalesce=True,
        )

    def _disarm(self, deadline_id: int) -> None:
        self._armed.pop(deadline_id, None)
        if self._aps is not None:
            with contextlib.suppress(Exception):  # JobLookupError: already run or never armed
                self._aps.remove_job(f"deadline-{deadline_id}")

    async def rearm(self) -> int:
        """Arm every pending row of a registered kind not armed yet; returns how many were armed."""
        if self.db is None:
            return 0
        async with self.db.session() as s:
            rows = (
                await s.execute(
                    select(Deadline.id, Deadline.kind, Deadline.due_at)
                    .where(Deadline.status == "pending")
                    .order_by(Deadline.due_at)
                )
            ).all()
        count = 0
        for deadline_id, kind, due_at in rows:
            if deadline_id not in self._armed and kind in self._handlers:
                self._arm(deadline_id, due_at)
                count += 1
        return count

    async def _poll(self) -> None:
        try:
            if self.db is not None:
                await self._recover(self.db, self.claim_lease, failed=False)
            await self.rearm()
        except Exception:  # the database may be briefly unavailable: try again next time
            log.exception("deadline poll failed")

    async def _job(self, deadline_id: int) -> None:
        task = asyncio.create_task(self.fire(deadline_id))
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)

    # --- firing -------------------------------------------------------------------------------

    async def fire(self, deadline_id: int) -> bool:
        """Claim the deadline (pending -> running), run its handler, mark it fired (or failed); False if it was
        not ours to run."""
        db = self.db
        if db is None:
            return False
        self._armed.pop(deadline_id, None)
        try:
            async with db.session() as s:
                row = await s.get(Deadline, deadline_id)
                if row is None or row.status != "pending":
                    return False
                handler = self._handlers.get(row.kind)
                if handler is None:
                    log.warning(
                        "no handler for deadline kind %r (id %s); left pending", row.kind, deadline_id
                    )
                    return False
                fired_at = utcnow()
                claimed = await s.execute(
                    update(Deadline)
                    .where(Deadline.id == deadline_id, Deadline.status == "pending")
                    .values(status="running", fired_at=fired_at)
                )
                if claimed.rowcount != 1:  # type: ignore[attr-defined]
                    await s.rollback()
                    return False
                data = DeadlineData(
                    row.id,
                    row.kind,
                    row.ref,
                    row.due_at,
                    dict(row.payload_json or {}),
                    row.created_at,
                    fired_at,
                    "running",
                )
                await s.commit()
        except Exception:
            log.exception("claiming deadline %s failed", deadline_id)
            return False
        late = (self.clock.now() - data.due_at.replace(tzinfo=data.due_at.tzinfo or UTC)).total_seconds()
        for hook in self.on_fire:
            hook(data.kind, late)
        try:
            await handler(data)
        except asyncio.CancelledError:
            # stopped mid-handler (shutdown): give the deadline back so it fires again after the restart;
            # handlers are idempotent (version check, dedupe key), so a partly done one is safe to repeat
            await self._release(db, data)
            raise
        except Exception:
            log.exception("deadline handler for %s %s (id %s) failed", data.kind, data.ref, data.id)
            await self._finish(db, data, "failed")
            return True
        await self._finish(db, data, "fired")
        return True

    @staticmethod
    async def _finish(db: Database, data: DeadlineData, status: str) -> None:
        try:
            async with db.session() as s:
                await s.execute(
                    update(Deadline)
                    .where(Deadline.id == data.id, Deadline.status == "running")
                    .values(status=status)
                )
                await s.commit()
        except Exception:  # left running: it runs again after a restart
            log.exception("could not mark deadline %s %s", data.id, status)

    @staticmethod
    async def _release(db: Database, data: DeadlineData) -> None:
        try:
            async with db.session() as s:
                await s.execute(
                    update(Deadline)
                    .where(
                        Deadline.id == data.id,
                        Deadline.status == "running",
                        Deadline.fired_at == data.fired_at,
                    )
                    .values(status="pending", fired_at=None)
                )
                await s.commit()
        except Exception:
            log.exception("could not give deadline %s back after cancellation", data.id)

    async def run_due(self, now: datetime | None = None) -> int:
        """Fire (and await) every pending deadline due by ``now`` (default: the clock); returns how many ran.

        The manual trigger for tests and for the demo with a ``ManualClock``.
        """
        if self.db is None:
            raise RuntimeError("start(db) first")
        limit = now or self.now()
        async with self.db.session() as s:
            ids = list(
                (
                    await s.execute(
                        select(Deadline.id)
                        .where(Deadline.status == "pending", Deadline.due_at <= limit)
                        .order_by(Deadline.due_at, Deadline.id)
                    )
                )
                .scalars()
                .all()
            )
        count = 0
        for deadline_id in ids:
            if await self.fire(deadline_id):
                count += 1
        return count

    async def trigger(self, kind: str, ref: str) -> int:
        """Fire the pending deadlines of (kind, ref) now, whatever their due time (tests, demo)."""
        if self.db is None:
            raise RuntimeError("start(db) first")
        ids = [d.id for d in await self.pending(self.db, kind, ref)]
        count = 0
        for deadline_id in ids:
            if await self.fire(deadline_id):
                count += 1
        return count
