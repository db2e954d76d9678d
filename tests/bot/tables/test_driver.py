"""The driver built alone against fakes of its ports: what a refused action answers (and that it shows
nothing), who may resume a table, and the order of what follows a committed step."""

from __future__ import annotations

from bot.edge.refusals import refusal_text
from bot.presentation.i18n import rule_error
from bot.tables.driver import Driver
from bot.tables.outcomes import Acted, Refusal, Why
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


async def test_a_refused_action_changes_nothing_says_why_and_shows_nothing(db: Database) -> None:
    driver, _, shows = build(db)
    match_id = await started(db)
    row, m = await match_repo.match_state(db, match_id)
    version, log = row.version, list(m.log)
    acted = await driver.act(match_id, 0, "play ♠99", user_id=ALICE, dedupe="cb:1")
    assert not acted.applied and acted.refusal is not None and acted.refusal.why is Why.RULE
    assert acted.refusal.error is not None and refusal_text("en", acted.refusal) == rule_error(
        "en", acted.refusal.error
    )
    row, after = await match_repo.match_state(db, match_id)
    assert after.log == log and row.version == version  # nothing applied
    stale = await driver.act(match_id + 99, 0, "pass", user_id=ALICE, dedupe="cb:2")
    assert stale == Acted(False, Refusal(Why.STALE))
    assert refusal_text("en", stale.refusal) == "This button is out of date"
    assert shows.calls == []


async def test_a_repeated_update_is_applied_once_and_answers_nothing(db: Database) -> None:
    driver, _, shows = build(db)
    match_id = await started(db)
    _, m = await match_repo.match_state(db, match_id)
    step = m.system_step()
    assert step is not None
    assert (await driver.act(match_id, 0, step, user_id=None, dedupe="upd:7", source="sys")).applied
    calls = len(shows.calls)
    again = await driver.act(match_id, 0, step, user_id=None, dedupe="upd:7", source="sys")
    assert again == Acted(False) and len(shows.calls) == calls
    _, after = await match_repo.match_state(db, match_id)
    assert after.log == [step]


async def test_only_a_seated_player_the_creator_or_an_admin_resumes(db: Database) -> None:
    driver, _, shows = build(db)
    match_id = await started(db)
    refused = await driver.resume_match(match_id, person(BOB))
    assert refused == Refusal(Why.NOT_YOUR_TABLE) and refusal_text("en", refused) == "This is not your seat"
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
