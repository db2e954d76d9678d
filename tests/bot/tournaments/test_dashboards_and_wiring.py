"""The live dashboards and the wiring of the tournament side, built alone on a fake play side and a real
database: no Telegram, no application."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from bot.tournaments.wiring import TournamentBot
from engine.registry import preset_ids
from storage import tournaments as ts
from storage.db import Database
from tests.bot.tournaments.fakes import FakeKeyboards, FakePlay

ORGANISER = 1001


async def _tournament(db: Database, play: FakePlay) -> int:
    now = play.scheduler.now()
    row = await ts.create_tournament(
        db,
        name="Cup",
        preset_id=preset_ids()[0],
        created_by=ORGANISER,
        registration_deadline=now + timedelta(hours=1),
        draw_at=now + timedelta(hours=2),
    )
    return row.id


async def _quiet(tb: TournamentBot) -> None:
    for _ in range(50):
        await asyncio.sleep(0.02)
        if not tb.dashboards._dash_tasks:
            return


async def test_changes_in_a_burst_cost_one_edit_and_the_ended_tournament_gets_its_last_one(
    db: Database,
) -> None:
    play = FakePlay(db)
    tb = TournamentBot(lambda: play, FakeKeyboards())
    tid = await _tournament(db, play)
    await ts.follow_dashboard(db, tid, ORGANISER, ORGANISER, 77, "en", play.scheduler.now())
    tb.dashboards.dashboard_seconds = 30.0
    for _ in range(3):
        tb.ctx.dashboard_changed(tid)
    await _quiet(tb)
    assert [(chat, mid, markup) for chat, mid, _, markup in play.edits] == [
        (ORGANISER, 77, ("dashboard", "en", tid, True))
    ]
    assert "Cup" in play.edits[0][2]
    tb.dashboards.dashboard_seconds = 0.0
    await ts.cancel(db, tid, ORGANISER, "rain")
    tb.ctx.dashboard_changed(tid)
    await _quiet(tb)
    assert play.edits[-1][3] == ("dashboard", "en", tid, False)  # no Stop button any more
    assert await ts.dashboards(db, tid) == []  # and followed no more
    await tb.shutdown()


async def test_start_up_hooks_match_ends_once_and_the_registration_deadline_closes_registration(
    db: Database,
) -> None:
    play = FakePlay(db)
    tb = TournamentBot(lambda: play, FakeKeyboards())
    await play.scheduler.start(db)
    try:
        await tb.startup()
        await tb.startup()  # a second start-up (a restart of the application) adds no second hook
        assert play.hooks == [tb.results.on_match_over]
        tid = await _tournament(db, play)
        await tb.timers.arm_tournament(await ts.get_tournament(db, tid))
        play.scheduler.clock.advance(timedelta(hours=1, minutes=1))
        await play.scheduler.run_due()
        assert (await ts.get_tournament(db, tid)).status == "closed"
    finally:
        await tb.shutdown()
        await play.scheduler.shutdown()


async def test_a_draw_with_too_few_entries_is_refused_and_at_the_deadline_the_creator_is_told(
    db: Database,
) -> None:
    from bot.presentation.tournament.texts import draw_refused_text

    play = FakePlay(db)
    tb = TournamentBot(lambda: play, FakeKeyboards())
    tid = await _tournament(db, play)
    refused = await tb.draws.draw(tid, ORGANISER)  # the organiser's /draw: answered by the edge
    assert refused is not None and refused.failed and refused.error.code == "too_few_entries"
    assert play.sent == []
    assert draw_refused_text("en", refused.error, refused.failed).startswith("The draw could not be made")
    at_deadline = await tb.draws.draw(tid, None)
    assert at_deadline is not None and at_deadline.failed
    assert [chat for chat, _, _ in play.sent] == [ORGANISER]
    assert play.sent[0][1].startswith("抽签未能进行") and "至少需要 2 个参赛者" in play.sent[0][1]
    await tb.shutdown()
