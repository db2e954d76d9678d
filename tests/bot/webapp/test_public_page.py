"""The public tournament page (issue 20): /t/<id> on the bot's web server without login shows the
Swiss standings, the schedule and the results (Chinese, or English with ?lang=en), the bracket image
once there is a knockout; never a card; 404 for an unknown tournament and once the organiser has
switched the page off."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from bot.webapp import public_page
from engine.errors import RuleError
from engine.tournament import pair_result
from storage import tournaments as ts
from storage.db import Database

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
ORG = 1001
CARD_MARKS = ("♠", "♥", "♣", "♦", "🃏")


async def swiss(db: Database) -> int:
    row = await ts.create_tournament(
        db,
        name="教工积分赛",
        preset_id="shengji-timed-2h",
        created_by=ORG,
        settings_overrides={"format": "swiss", "swiss_rounds": 2, "swiss_top": 2},
        registration_deadline=NOW + timedelta(days=1),
        first_round_at=NOW + timedelta(days=2),
    )
    await ts.add_table_group(db, row.id, ORG, -500, "一号桌")
    for i in range(5):
        inv = await ts.create_invite(db, row.id, 1001 + 2 * i, "", NOW)
        await ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW)
    await ts.freeze(db, row.id, bytes(range(32)))
    await ts.hold_draw(db, row.id)
    await ts.schedule_ready(db, row.id, NOW)
    return row.id


async def test_the_public_page_shows_standings_schedule_results_and_can_be_switched_off(db: Database) -> None:
    tid = await swiss(db)
    app = web.Application()
    public_page.register(app, lambda: db)
    async with TestClient(TestServer(app)) as client:
        page = await client.get(f"/t/{tid}")
        assert page.status == 200 and page.content_type == "text/html"
        body = await page.text()
        assert "教工积分赛" in body and "积分编排排名" in body and "赛程" in body and "一号桌" in body
        assert "积分编排第1轮" in body  # round 1's pairings, by title
        assert not any(mark in body for mark in CARD_MARKS)
        assert "bracket.png" not in body  # no knockout yet
        en = await (await client.get(f"/t/{tid}?lang=en")).text()
        assert "Swiss standings" in en and "Schedule" in en

        for _ in range(2):
            for key in (await ts.engine_state(db, tid)).ready_matches():
                await ts.record_result(db, tid, key, pair_result("a", 14, 9), None)
        eng = await ts.engine_state(db, tid)
        assert eng.bracket is not None
        body = await (await client.get(f"/t/{tid}")).text()
        assert "bracket.png" in body and "胜" in body
        image = await client.get(f"/t/{tid}/bracket.png")
        assert image.status == 200 and image.content_type == "image/png"

        assert (await client.get("/t/999")).status == 404
        with pytest.raises(RuleError) as err:
            await ts.set_public_page(db, tid, 1003, False)
        assert err.value.code == "not_allowed"
        assert (await client.get(f"/t/{tid}")).status == 200
        await ts.set_public_page(db, tid, ORG, False)
        off = await client.get(f"/t/{tid}")
        assert off.status == 404 and "教工积分赛" not in await off.text()
        assert (await client.get(f"/t/{tid}/bracket.png")).status == 404
        await ts.set_public_page(db, tid, ORG, True)
        assert (await client.get(f"/t/{tid}")).status == 200


async def test_the_public_page_shows_each_entrys_rating_with_the_provisional_mark(db: Database) -> None:
    """Issue 20: the Swiss standings on the public page give each pair its rating (its players' mean,
    ``?`` while provisional, as /me), and once the top-2 final is played the final ranking with its
    prizes, each entry with its rating after the tournament."""
    tid = await swiss(db)
    app = web.Application()
    public_page.register(app, lambda: db)
    async with TestClient(TestServer(app)) as client:
        for _ in range(2):
            for key in (await ts.engine_state(db, tid)).ready_matches():
                await ts.record_result(db, tid, key, pair_result("a", 14, 9), None)
        row = await ts.get_tournament(db, tid)
        shown = {k: r.text() for k, r in (await ts.entry_ratings(db, row)).items()}
        assert len(shown) == 5 and all(t.endswith("?") for t in shown.values())  # two tables each at most
        assert len(set(shown.values())) > 1  # the results moved them
        eng = await ts.engine_state(db, tid)
        body = await (await client.get(f"/t/{tid}")).text()
        for line in standings_lines(body, "积分编排排名"):
            entry = next(e for e in eng.entries if line.split(" ", 1)[1].startswith(e.name))
            assert f"· 等级分{shown[entry.id]}" in line
        assert "? = 定级中（有选手不足 10 局）" in body
        en = await (await client.get(f"/t/{tid}?lang=en")).text()
        assert "· rating " in en and "? = provisional" in en

        (final,) = eng.ready_matches()
        await ts.record_result(db, tid, final, pair_result("b", 9, 14), None)
        assert (await ts.engine_state(db, tid)).finished
        row = await ts.get_tournament(db, tid)
        after = {k: r.text() for k, r in (await ts.entry_ratings(db, row)).items()}
        assert after != shown  # the final is rated too
        body = await (await client.get(f"/t/{tid}")).text()
        champion = (await ts.engine_state(db, tid)).ranking()[0]
        assert f"1. {champion.name} — " in body  # the ranking with its prizes
        line = body.split(f"1. {champion.name} — ", 1)[1].split("\n")[0]
        assert line.endswith(f"· 等级分{after[champion.entry_id]}")


def standings_lines(body: str, title: str) -> list[str]:
    """The numbered rows of the standings block that starts with ``title`` on the page."""
    block = body.split(title, 1)[1].split("</pre>", 1)[0]
    return [ln for ln in block.splitlines() if ln[:1].isdigit() and ". " in ln]
