"""Deadlines as rows fired by APScheduler (issue 4 "Clocks"): once, never after cancel, re-armed after
a restart, once across two processes, overdue ones at start-up."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest

from scheduler import DeadlineData, DeadlineScheduler, ManualClock, ScaledClock
from storage.db import Database
from tests.storage.support import Target

WAIT = (
    60.0  # generous real-time bound (a loaded 2-core CI machine) for a job due within a fraction of a second
)


class Recorder:
    def __init__(self) -> None:
        self.fired: list[DeadlineData] = []
        self.event = asyncio.Event()

    async def __call__(self, deadline: DeadlineData) -> None:
        self.fired.append(deadline)
        self.event.set()

    async def wait(self, count: int = 1) -> None:
        async def until() -> None:
            while len(self.fired) < count:
                self.event.clear()
                await self.event.wait()

        await asyncio.wait_for(until(), WAIT)


async def manual(db: Database, *kinds: str) -> tuple[DeadlineScheduler, ManualClock, Recorder]:
    clock = ManualClock()
    sched = DeadlineScheduler(clock, poll_interval=None)
    rec = Recorder()
    for kind in kinds or ("move_clock",):
        sched.register(kind, rec)
    await sched.start(db)
    return sched, clock, rec


async def test_deadline_fires_once_when_due(db: Database) -> None:
    sched, clock, rec = await manual(db)
    payload = {"match_id": 3, "version": 7, "seat": 2}
    deadline_id = await sched.schedule_in(db, "move_clock", "match:3", 20, payload)
    assert await sched.run_due() == 0  # not due yet
    clock.advance(19)
    assert await sched.run_due() == 0
    clock.advance(1)
    assert await sched.run_due() == 1
    assert await sched.run_due() == 0
    assert await sched.fire(deadline_id) is False  # a late duplicate job does nothing
    assert [(d.id, d.kind, d.ref, d.payload) for d in rec.fired] == [
        (deadline_id, "move_clock", "match:3", payload)
    ]
    row = await sched.get(db, deadline_id)
    assert row is not None and row.status == "fired" and row.fired_at is not None
    await sched.shutdown()


async def test_cancelled_deadline_never_fires(db: Database) -> None:
    sched, clock, rec = await manual(db)
    deadline_id = await sched.schedule_in(db, "move_clock", "match:1", 10, {"version": 1})
    assert await sched.cancel(db, "move_clock", "match:1") == 1
    clock.advance(60)
    assert await sched.run_due() == 0
    assert await sched.fire(deadline_id) is False
    assert rec.fired == []
    row = await sched.get(db, deadline_id)
    assert row is not None and row.status == "cancelled"
    await sched.shutdown()


async def test_schedule_with_replace_keeps_only_the_newest(db: Database) -> None:
    """Each action: the bot replaces the match's move clock; only the latest one can fire."""
    sched, clock, rec = await manual(db)
    await sched.schedule_in(db, "move_clock", "match:5", 10, {"version": 1}, replace=True)
    newest = await sched.schedule_in(db, "move_clock", "match:5", 10, {"version": 2}, replace=True)
    await sched.schedule_in(db, "move_clock", "match:6", 10, {"version": 9}, replace=True)  # another match
    assert [d.id for d in await sched.pending(db, "move_clock", "match:5")] == [newest]
    clock.advance(10)
    assert await sched.run_due() == 2
    assert sorted(d.payload["version"] for d in rec.fired) == [2, 9]
    await sched.shutdown()


async def test_armed_job_fires_on_an_accelerated_clock(db: Database) -> None:
    sched = DeadlineScheduler(ScaledClock(200.0), poll_interval=None)
    rec = Recorder()
    sched.register("move_clock", rec)
    await sched.start(db)
    deadline_id = await sched.schedule_in(db, "move_clock", "match:1", 20, {"seat": 0})  # 0.1 s real
    assert deadline_id in sched.armed_ids()
    await rec.wait()
    assert [d.id for d in rec.fired] == [deadline_id]
    await sched.shutdown()


async def test_pending_deadlines_are_rearmed_after_a_restart(target: Target) -> None:
    db = await target.open()
    first = DeadlineScheduler(ScaledClock(1.0), poll_interval=None)
    first.register("move_clock", Recorder())
    await first.start(db)
    # far enough that the 100x clock below cannot reach it however slow the machine is (30 days = 7 h real)
    later = await first.schedule(db, "move_clock", "match:2", first.now() + timedelta(days=30), {"v": 1})
    soon = await first.schedule(db, "bid_window", "match:2", first.now() + timedelta(seconds=3), {"v": 2})
    await first.shutdown()
    await db.dispose()

    reopened = await target.open()
    clock = ScaledClock(100.0)  # 3 s of deadline time pass in 0.03 s
    second = DeadlineScheduler(clock, poll_interval=None)
    rec = Recorder()
    second.register("move_clock", rec)
    second.register("bid_window", rec)
    await second.start(reopened)
    assert {later, soon} <= second.armed_ids()
    await rec.wait()
    assert [d.id for d in rec.fired] == [soon]
    assert [d.id for d in await second.pending(reopened)] == [later]
    await second.shutdown()


async def test_overdue_deadlines_fire_at_start_up(target: Target) -> None:
    db = await target.open()
    writer = DeadlineScheduler(poll_interval=None)  # not started: only writes rows
    overdue = await writer.schedule(db, "deal_step", "match:4", writer.now() - timedelta(minutes=5), {"n": 1})
    sched = DeadlineScheduler(poll_interval=None)
    rec = Recorder()
    sched.register("deal_step", rec)
    await sched.start(db)
    await rec.wait()
    assert [d.id for d in rec.fired] == [overdue]
    await sched.shutdown()


async def test_two_scheduler_processes_run_the_handler_once(target: Target) -> None:
    db1, db2 = await target.open(), await target.open()
    clock = ManualClock()
    one, two = DeadlineScheduler(clock, poll_interval=None), DeadlineScheduler(clock, poll_interval=None)
    rec = Recorder()
    one.register("move_clock", rec)
    two.register("move_clock", rec)
    await one.start(db1)
    await two.start(db2)
    ids = [await one.schedule_in(db1, "move_clock", f"match:{n}", 5, {"n": n}) for n in range(5)]
    clock.advance(5)
    results = await asyncio.gather(
        one.run_due(), two.run_due(), *[s.fire(i) for i in ids for s in (one, two)]
    )
    assert sum(results) == 5
    assert sorted(d.id for d in rec.fired) == ids
    await one.shutdown()
    await two.shutdown()


async def test_a_failing_handler_is_logged_and_the_scheduler_carries_on(
    db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    sched, clock, rec = await manual(db, "move_clock")

    async def broken(deadline: DeadlineData) -> None:
        raise RuntimeError("boom")

    sched.register("reminder", broken)
    bad = await sched.schedule_in(db, "reminder", "t:1", 1)
    await sched.schedule_in(db, "move_clock", "match:1", 2)
    clock.advance(2)
    with caplog.at_level(logging.ERROR):
        assert await sched.run_due() == 2
    assert "boom" in caplog.text
    assert len(rec.fired) == 1
    row = await sched.get(db, bad)
    assert row is not None and row.status == "failed"
    assert await sched.run_due() == 0  # not again in this process: it would fail the same way
    await sched.shutdown()


async def test_a_kind_without_handler_stays_pending(db: Database) -> None:
    sched, clock, rec = await manual(db, "move_clock")
    deadline_id = await sched.schedule_in(db, "registration_close", "tournament:1", 1)
    clock.advance(5)
    assert await sched.run_due() == 0
    row = await sched.get(db, deadline_id)
    assert row is not None and row.status == "pending"
    await sched.shutdown()


async def test_poll_picks_up_deadlines_written_by_another_process(target: Target) -> None:
    db1, db2 = await target.open(), await target.open()
    sched = DeadlineScheduler(poll_interval=0.05)
    rec = Recorder()
    sched.register("move_clock", rec)
    await sched.start(db1)
    other = DeadlineScheduler(poll_interval=None)  # the other process: writes the row only
    deadline_id = await other.schedule(db2, "move_clock", "match:8", other.now(), {"x": 1})
    await rec.wait()
    assert [d.id for d in rec.fired] == [deadline_id]
    await sched.shutdown()


async def test_trigger_fires_a_deadline_early(db: Database) -> None:
    sched, clock, rec = await manual(db)
    await sched.schedule_in(db, "move_clock", "match:1", 600)
    assert await sched.trigger("move_clock", "match:1") == 1
    assert await sched.trigger("move_clock", "match:1") == 0
    assert len(rec.fired) == 1
    await sched.shutdown()


async def test_naive_due_time_is_refused(db: Database) -> None:
    sched, clock, rec = await manual(db)
    with pytest.raises(ValueError):
        await sched.schedule(db, "move_clock", "match:1", clock.now().replace(tzinfo=None))
    await sched.shutdown()


async def test_accelerated_clock_keeps_its_deadlines_across_a_restart(target: Target) -> None:
    """The demo's fast clock: a restarted process with the same anchor fires the stored deadline on time."""
    from datetime import UTC, datetime

    anchor = datetime.now(UTC) - timedelta(minutes=10)  # the demo has been running for 10 minutes at 50x
    db = await target.open()
    first = DeadlineScheduler(time_scale=50, anchor=anchor, poll_interval=None)  # stops before it is due
    assert first.now() - datetime.now(UTC) > timedelta(hours=8)
    deadline_id = await first.schedule_in(db, "move_clock", "match:1", 30, {"seat": 1})  # 0.6 s real
    await db.dispose()

    db = await target.open()
    second = DeadlineScheduler(time_scale=50, anchor=anchor, poll_interval=None)
    rec = Recorder()
    second.register("move_clock", rec)
    await second.start(db)
    await rec.wait()
    assert [d.id for d in rec.fired] == [deadline_id]
    await second.shutdown()


async def test_a_handler_cut_short_by_shutdown_fires_again_after_the_restart(target: Target) -> None:
    db = await target.open()
    started = asyncio.Event()

    async def slow(deadline: DeadlineData) -> None:
        started.set()
        await asyncio.sleep(3600)

    fast = ScaledClock(100.0)
    first = DeadlineScheduler(fast, poll_interval=None)
    first.register("move_clock", slow)
    await first.start(db)
    deadline_id = await first.schedule_in(db, "move_clock", "match:1", 1, {"version": 4})
    await asyncio.wait_for(started.wait(), WAIT)
    await first.shutdown(timeout=0.05)
    row = await first.get(db, deadline_id)
    assert row is not None and row.status == "pending"
    await db.dispose()

    db = await target.open()
    # the restarted process keeps the clock (same anchor): with a real-time clock the stored due time would
    # lie 99x the real time spent before scheduling in the future, beyond WAIT on a slow machine
    second = DeadlineScheduler(ScaledClock(100.0, anchor=fast.anchor), poll_interval=None)
    rec = Recorder()
    second.register("move_clock", rec)
    await second.start(db)
    await rec.wait()
    assert [(d.id, d.payload) for d in rec.fired] == [(deadline_id, {"version": 4})]
    await second.shutdown()


async def test_a_failed_handler_runs_again_after_a_restart_until_it_completes(target: Target) -> None:
    """Issue 10: a deadline whose handler failed is not lost: the next start runs it again."""
    db = await target.open()
    calls: list[int] = []

    async def flaky(deadline: DeadlineData) -> None:
        calls.append(deadline.id)
        if len(calls) == 1:
            raise RuntimeError("database went away")

    first = DeadlineScheduler(ManualClock(), poll_interval=None)
    first.register("t_draw", flaky)
    await first.start(db)
    deadline_id = await first.schedule_in(db, "t_draw", "t:1", 1, {"tid": 1})
    first.clock.advance(2)  # type: ignore[attr-defined]
    assert await first.run_due() == 1
    assert (await first.get(db, deadline_id)).status == "failed"  # type: ignore[union-attr]
    await first.shutdown()
    await db.dispose()

    db = await target.open()
    second = DeadlineScheduler(ManualClock(), poll_interval=None)
    second.register("t_draw", flaky)
    await second.start(db)
    second.clock.advance(2)  # type: ignore[attr-defined]
    assert await second.run_due() == 1
    assert calls == [deadline_id, deadline_id]
    assert (await second.get(db, deadline_id)).status == "fired"  # type: ignore[union-attr]
    await second.shutdown()
    await db.dispose()
    third = await target.open()  # a third start finds nothing left to do
    again = DeadlineScheduler(ManualClock(), poll_interval=None)
    again.register("t_draw", flaky)
    await again.start(third)
    assert await again.run_due() == 0 and calls == [deadline_id, deadline_id]
    await again.shutdown()


async def test_a_deadline_claimed_by_a_process_that_died_runs_again_at_start(target: Target) -> None:
    """The process died inside the handler (no shutdown): the row was left claimed; once the claim is older
    than the lease, the restart takes it back."""
    from sqlalchemy import update

    from storage.models import Deadline, utcnow

    db = await target.open()
    sched = DeadlineScheduler(ManualClock(), poll_interval=None, claim_lease=60)
    deadline_id = await sched.schedule(
        db, "t_late", "tm:1", sched.now() - timedelta(seconds=5), {"key": "R1-M1"}
    )
    async with db.session() as s:  # what a claim leaves behind when the process is killed mid-handler
        await s.execute(
            update(Deadline)
            .where(Deadline.id == deadline_id)
            .values(status="running", fired_at=utcnow() - timedelta(seconds=61))
        )
        await s.commit()
    rec = Recorder()
    sched.register("t_late", rec)
    await sched.start(db)
    assert await sched.run_due() == 1
    assert [(d.id, d.payload) for d in rec.fired] == [(deadline_id, {"key": "R1-M1"})]
    assert (await sched.get(db, deadline_id)).status == "fired"  # type: ignore[union-attr]
    await sched.shutdown()


async def test_a_deadline_another_process_is_running_is_not_taken_back_by_a_starting_one(
    target: Target,
) -> None:
    """Two processes on one database: A claimed the deadline and is running its handler when B starts (a
    rolling restart). B must leave the fresh claim alone (else the row turns pending again, runs a second
    time, or is cancelled under A's feet); A's handler then marks it fired."""
    from sqlalchemy import update

    from storage.models import Deadline, utcnow

    db = await target.open()
    a = DeadlineScheduler(ManualClock(), poll_interval=None, claim_lease=60)
    deadline_id = await a.schedule(db, "t_late", "tm:2", a.now() - timedelta(seconds=5), {"key": "R1-M2"})
    async with db.session() as s:  # A's claim, a moment ago
        await s.execute(
            update(Deadline)
            .where(Deadline.id == deadline_id)
            .values(status="running", fired_at=utcnow() - timedelta(seconds=1))
        )
        await s.commit()
    b = DeadlineScheduler(ManualClock(), poll_interval=None, claim_lease=60)
    rec = Recorder()
    b.register("t_late", rec)
    await b.start(db)
    assert await b.run_due() == 0 and rec.fired == []
    assert (await b.get(db, deadline_id)).status == "running"  # type: ignore[union-attr]
    await b.shutdown()
