"""Someone not seated at a tournament table: the public table, the tournament's running tables to move
between (levels, deal, time left), and for a referee which seats have their page open."""

from __future__ import annotations

from sqlalchemy import update

from bot.devtools.webapp_local import GROUP, open_local_table
from storage.models import GameTable
from storage.tournament_models import Tournament, TournamentRole
from tests.webapp.browser import chromium, drawn, open_page, screenshot_path
from tests.webapp.helpers import local_table

SHENGJI = "/newtable shengji-timed-2h deals=1 seed={seed} bots=3"
OTHER_GROUP = -1009000000002
REFEREE = 555


async def test_a_referee_moves_between_the_tournaments_tables_and_sees_who_is_connected(tmp_path):
    async with local_table(tmp_path, SHENGJI.format(seed=3), DEAL_BATCH=100) as table, chromium() as browser:
        table.sim.add_group(OTHER_GROUP, "第二桌", [table.user_id], [table.user_id])
        second = await open_local_table(
            table.sim, table.real, SHENGJI.format(seed=4), table.user_id, group_id=OTHER_GROUP
        )
        db = table.rt.db
        async with db.session() as s:
            tour = Tournament(name="工会杯", created_by=table.user_id)
            s.add(tour)
            await s.flush()
            s.add(TournamentRole(tournament_id=tour.id, user_id=REFEREE, role="referee"))
            for k, chat in enumerate((GROUP, OTHER_GROUP), start=1):
                await s.execute(
                    update(GameTable)
                    .where(GameTable.chat_id == chat)
                    .values(tournament_ref=f"t{tour.id}:A1:{k}")
                )
            await s.commit()
        seat_page, _ = await open_page(
            browser, table.link()
        )  # seat 0's page is open, the others are computers
        ref_page, ref_log = await open_page(browser, table.link(user_id=REFEREE, name="裁判"))
        hello = next(f for f in ref_log.frames if f.get("type") == "hello")
        assert hello["seat"] is None and hello["referee"] is True
        assert [x["match"] for x in hello["tables"]] == [table.match_id, second]
        assert all(x["deadline"] for x in hello["tables"])  # the 2-hour match clock of each table
        frame = await ref_page.evaluate("window.__table.frame")
        assert "me" not in frame and frame["connected"][0] is True
        assert await ref_page.locator(".seat .online.on").count() == 1
        await ref_page.click('#actions button[data-op="tables"]')
        assert await ref_page.locator('#sheet button[data-op="watch"]').count() == 2
        await ref_page.screenshot(path=screenshot_path("page-referee-tables-zh-360x640.png"))
        await ref_page.click(f'#sheet button[data-op="watch"][data-arg="{second}"]')
        await ref_page.wait_for_function(f"window.__table.frame && window.__table.frame.match === {second}")
        await drawn(ref_page)
        frame = await ref_page.evaluate("window.__table.frame")
        assert frame["connected"] == [False, False, False, False]  # nobody has that table's page open
        assert await ref_page.locator(".seat .online.off").count() == 1  # seat 0 (a person), offline

        watcher, watch_log = await open_page(browser, table.link(user_id=777, name="观众"))
        hello = next(f for f in watch_log.frames if f.get("type") == "hello")
        assert hello["referee"] is False and len(hello["tables"]) == 2
        assert "connected" not in await watcher.evaluate("window.__table.frame")
        assert "connected" not in await seat_page.evaluate(
            "window.__table.frame"
        )  # a player learns nothing about the others' pages
        assert not ref_page.errors and not watcher.errors  # type: ignore[attr-defined]
