"""The driver built alone against fakes of its ports: what a refused action answers (and that it shows
nothing), who may resume a table, and the order of what follows a committed step."""

from __future__ import annotations

from bot.tables.driver import Driver
from storage import action_repo, match_repo, table_repo, user_repo
from storage.db import Database
from tests.bot.tables.fakes import FakeMatchShows, FakeNames, FakePace, FakeRunning, person

GROUP, ALICE, BOB = -100, 1, 2


async def started(db: Database) -> int:
    table = await table_repo.insert_table(db, GROUP, "guandan-team", "guandan", {}, ALICE)
    await user_repo.upsert_user(db, ALICE, "Alice", started_bot=True)
    await table_repo.seat_user(db, table.id, 0, ALICE)
    return (await match_repo.start_match(db, table.id, fill_computers=True)).match_id


def build(db: Database) -> tuple[Driver, FakeRunning, FakeMatchShows]:
    shared, shows = FakeRunning(db), FakeMatchShows()
    shared.stopping = True  # no next step runs by itself: each test drives the match
    return Driver(shared, FakePace(), FakeNames(), shows), shared, shows


async def test_a_refused_action_answers_in_the_language_and_shows_nothing(db: Database) -> None:
    driver, _, shows = build(db)
    match_id = await started(db)
    ok, problem = await driver.act(match_id, 0, "play ♠99", user_id=ALICE, dedupe="cb:1", lang="en")
    assert not ok and problem and problem.isprintable()
    ok, stale = await driver.act(match_id + 99, 0, "pass", user_id=ALICE, dedupe="cb:2", lang="en")
    assert (ok, stale) == (False, "This button is out of date")
    assert shows.calls == []


async def test_only_a_seated_player_the_creator_or_an_admin_resumes(db: Database) -> None:
    driver, _, shows = build(db)
    match_id = await started(db)
    assert await driver.resume_match(match_id, person(BOB)) == "This is not your seat"
    assert shows.calls == []


async def test_a_committed_step_is_announced_then_shown_and_counted(db: Database) -> None:
    driver, _, shows = build(db)
    match_id = await started(db)
    _, m = await match_repo.load_match_row(db, match_id)
    step = m.system_step()  # the table's own first step (the deal)
    assert step is not None
    applied = await action_repo.apply_action(db, match_id, step)
    await driver.after(match_id, applied, source="sys")
    assert shows.calls[-2:] == [
        ("announce", match_id, tuple(ev.kind for ev in applied.events)),
        ("render", match_id),
    ]
    assert driver.metrics.actions == 1
