"""The documented move-clock contract between the scheduler and the game service (docs/rules.md 1.9, D6):
after each action the match's move_clock is replaced; on expiry the seat is auto-played only if the match
is still at the version the clock was set for, so a clock that fires after the action does nothing."""

from __future__ import annotations

from scheduler import DeadlineData, DeadlineScheduler, ManualClock
from storage import action_repo, match_repo
from storage.db import Database
from tests.storage.support import counting_match


class MoveClock:
    """A minimal move-clock handler written the way the bot's is meant to be."""

    def __init__(self, db: Database, sched: DeadlineScheduler) -> None:
        self.db, self.sched = db, sched
        self.timeouts: list[tuple[int, str]] = []
        sched.register("move_clock", self.on_expiry)

    async def arm(self, match_id: int, seconds: float = 20) -> None:
        match, version = await match_repo.load_match(self.db, match_id)
        if match.finished:
            await self.sched.cancel(self.db, "move_clock", f"match:{match_id}")
            return
        seat = match.turns()[0].seat
        await self.sched.schedule_in(
            self.db,
            "move_clock",
            f"match:{match_id}",
            seconds,
            {"match_id": match_id, "version": version, "seat": seat},
            replace=True,
        )

    async def on_expiry(self, deadline: DeadlineData) -> None:
        p = deadline.payload
        match, version = await match_repo.load_match(self.db, p["match_id"])
        if version != p["version"]:
            return
        result = await action_repo.apply_action(
            self.db,
            p["match_id"],
            match.auto_action(p["seat"]),
            expected_version=version,
            dedupe_key=f"clock:{deadline.id}",
        )
        self.timeouts.append((p["seat"], result.action))
        await self.arm(p["match_id"])


async def test_expired_clock_auto_plays_and_rearms(db: Database, counting_game: type) -> None:
    clock = ManualClock()
    sched = DeadlineScheduler(clock, poll_interval=None)
    flow = MoveClock(db, sched)
    await sched.start(db)
    match_id = await counting_match(db, target=100)
    await flow.arm(match_id)
    clock.advance(20)
    assert await sched.run_due() == 1
    clock.advance(20)
    assert await sched.run_due() == 1
    assert flow.timeouts == [(0, "0 add 1"), (1, "1 add 1")]
    assert [r.action for r in await match_repo.action_log(db, match_id)] == ["0 add 1", "1 add 1"]
    await sched.shutdown()


async def test_clock_that_fires_after_the_player_acted_does_nothing(
    db: Database, counting_game: type
) -> None:
    clock = ManualClock()
    sched = DeadlineScheduler(clock, poll_interval=None)
    flow = MoveClock(db, sched)
    await sched.start(db)
    match_id = await counting_match(db, target=100)
    await flow.arm(match_id)
    stale = (await sched.pending(db, "move_clock"))[0]
    clock.advance(15)
    await action_repo.apply_action(db, match_id, "0 add 3", expected_version=0)  # the player acts in time
    # the old clock's job fires anyway (e.g. a job armed in another process before the cancel reached it)
    await flow.on_expiry(stale)
    await flow.arm(match_id)  # the bot's normal path: replace the clock for seat 1
    clock.advance(5)
    assert await sched.run_due() == 0  # seat 1 still has 15 s
    assert flow.timeouts == []
    assert [r.action for r in await match_repo.action_log(db, match_id)] == ["0 add 3"]
    clock.advance(15)
    assert await sched.run_due() == 1
    assert flow.timeouts == [(1, "1 add 1")]
    await sched.shutdown()
