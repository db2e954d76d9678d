"""What a tournament's organiser decides for its tables' page (engine/tournament/settings.py): who may
watch (``page_watch``: anyone / participants / referees; a refused watcher reads one translated line and
receives no table data) and whether the cards that may be played are hinted (``page_hints``: off unless
the organiser turns it on; a casual table always hints). Guandan's hint is what beats the table."""

from __future__ import annotations

from typing import Any

import aiohttp
from sqlalchemy import update

from bot.devtools.webapp_local import GROUP
from bot.presentation.i18n import t
from engine.cards import parse_card
from engine.guandan.combos import beats
from storage import match_repo
from storage.models import GameTable
from storage.tournament_models import Tournament, TournamentEntry, TournamentRole
from tests.webapp.browser import LIGHT, PagePlayer, chromium, open_page, screenshot_path, telegram_stub
from tests.webapp.helpers import LocalTable, PageClient, local_table
from tests.webapp.test_page_moments import check_layout

GUANDAN = "/newtable guandan-team deals=1 seed={seed} bots=3"
REFEREE, PLAYER, STRANGER = 555, 888, 777


async def make_tournament(table: LocalTable, **settings: Any) -> int:
    """The local table becomes table 1 of a tournament with ``settings``, a referee and one entry (PLAYER)."""
    async with table.rt.db.session() as s:
        tour = Tournament(name="工会杯", created_by=table.user_id, settings_json=settings, status="running")
        s.add(tour)
        await s.flush()
        s.add(TournamentRole(tournament_id=tour.id, user_id=REFEREE, role="referee"))
        s.add(TournamentEntry(tournament_id=tour.id, kind="pair", players_json=[PLAYER, PLAYER + 1]))
        await s.execute(
            update(GameTable).where(GameTable.chat_id == GROUP).values(tournament_ref=f"t{tour.id}:A1:1")
        )
        await s.commit()
        return int(tour.id)


async def hello(table: LocalTable, user_id: int, lang: str = "zh-hans") -> tuple[PageClient, dict[str, Any]]:
    client = await PageClient.open(table)
    first = await client.hello(table.init_data(user_id=user_id, name="x", lang=lang), table.match_id)
    return client, first


async def test_who_may_watch_a_tournament_table_is_the_organisers_setting(tmp_path):
    async with local_table(tmp_path, GUANDAN.format(seed=18)) as table:
        await make_tournament(table, page_watch="participants")
        refused, first = await hello(table, STRANGER)
        assert first["type"] == "error" and first["fatal"] is True
        assert first["message"] == t("zh", "page.watch_only_participants")
        await refused.receive(timeout=5)  # the socket closes: nothing else comes
        assert refused.ws.closed and refused.ws.close_code == 4003
        assert not [f for f in refused.frames if f.get("type") in ("state", "hello")]  # no table data
        await refused.close()
        for user in (PLAYER, REFEREE, table.user_id):  # an entrant, a referee, the seated player
            client, first = await hello(table, user)
            assert first["type"] == "hello", (user, first)
            state = await client.until(lambda f: f.get("type") == "state")
            assert ("me" in state) == (user == table.user_id)
            await client.close()
        async with aiohttp.ClientSession() as http:  # the JSON endpoint refuses the same way, in English
            init = table.init_data(user_id=STRANGER, name="x", lang="en")
            async with http.get(
                f"http://127.0.0.1:{table.port}/api/state?m={table.match_id}",
                headers={"Authorization": f"tma {init}"},
            ) as r:
                assert r.status == 403
                assert await r.json() == {"error": t("en", "page.watch_only_participants")}


async def test_referees_only_refuses_an_entrant_and_the_page_shows_one_message(tmp_path):
    async with local_table(tmp_path, GUANDAN.format(seed=18)) as table, chromium() as browser:
        await make_tournament(table, page_watch="referees")
        client, first = await hello(table, PLAYER, lang="en")
        assert first == {
            "type": "error",
            "code": "watch",
            "fatal": True,
            "message": t("en", "page.watch_only_referees"),
        }
        await client.close()
        client, first = await hello(table, REFEREE)
        assert first["type"] == "hello" and first["referee"] is True
        await client.close()
        page = await browser.new_page(viewport={"width": 360, "height": 640}, bypass_csp=True)
        await page.goto(table.server.dev_link(table.match_id, STRANGER, "观众", "zh-hans"))
        await page.wait_for_selector(".fatal")
        assert await page.locator(".fatal").inner_text() == t("zh", "page.watch_only_referees")
        assert await page.locator("#table, #hand, .card, .seat").count() == 0  # nothing of the table
        assert await page.evaluate("window.__table.frame") is None
        await page.screenshot(path=screenshot_path("page-watch-refused-zh-360x640.png"))


def flat(frame: dict[str, Any]) -> list[str]:
    return [c for g in frame["me"]["hand"] for c in g["cards"]]


async def test_guandan_hints_what_beats_the_table_and_the_hint_selects_it(tmp_path):
    """A casual table (hints on): when seat 0 must beat a play, the page dims every card that is in no
    play beating it, and Hint lifts the weakest such play; each hinted play beats the table (the engine)."""
    async with local_table(tmp_path, GUANDAN.format(seed=18)) as table, chromium() as browser:
        page, _ = await open_page(browser, table.link())
        player = PagePlayer(page, table)

        def following(f: dict[str, Any]) -> bool:
            a = f["me"]["actions"]
            return f["status"] == "playing" and bool(a.get("pass")) and len(a.get("beats") or []) >= 2

        await player.play_until(following, timeout=180)
        f = await player.frame()
        assert f["hints"] is True
        beat_plays = f["me"]["actions"]["beats"]
        _, m = await match_repo.load_match_row(table.rt.db, table.match_id)
        to_beat = m.play.to_beat
        for cards in beat_plays:  # the engine agrees: each hinted play has a reading that beats the table
            readings = m.readings_for(0, [parse_card(c) for c in cards])
            assert any(beats(r, to_beat) for r in readings), cards
        hinted = {c for p in beat_plays for c in p}
        dims = await page.evaluate(
            "Array.from(document.querySelectorAll('#hand .card')).map((c) => [c.dataset.card, c.classList.contains('dim')])"
        )
        assert dims and all(dim == (card not in hinted) for card, dim in dims), dims
        await check_layout(page, "the hint")
        await page.click('#actions button[data-op="suggest"]')
        lifted = await page.evaluate(
            "Array.from(document.querySelectorAll('#hand .card.sel')).map((c) => c.dataset.card)"
        )
        assert sorted(lifted) == sorted(beat_plays[0])
        await page.screenshot(path=screenshot_path("page-gd-hint-zh-360x640.png"))
        await page.click('#actions button[data-op="suggest"]')  # the next one
        lifted = await page.evaluate(
            "Array.from(document.querySelectorAll('#hand .card.sel')).map((c) => c.dataset.card)"
        )
        assert sorted(lifted) == sorted(beat_plays[1])
        assert not page.errors  # type: ignore[attr-defined]


async def test_light_theme_chinese_guandan_hint(tmp_path):
    """Telegram's light theme in Chinese (the gallery's light Chinese shot): the hint at a casual table."""
    async with local_table(tmp_path, GUANDAN.format(seed=18)) as table, chromium() as browser:
        stub = telegram_stub(table.init_data(name="你", lang="zh-hans"), LIGHT)
        page, _ = await open_page(browser, table.server.base_url + f"/?m={table.match_id}", init_script=stub)
        player = PagePlayer(page, table)
        await player.play_until(lambda f: bool(f["me"]["actions"].get("beats")), timeout=180)
        await page.wait_for_selector("#hand .card.dim")
        await page.screenshot(path=screenshot_path("page-gd-hint-zh-light-360x640.png"))
        assert not page.errors  # type: ignore[attr-defined]


async def test_a_tournament_table_hints_only_when_the_organiser_turns_hints_on(tmp_path):
    async with local_table(tmp_path, GUANDAN.format(seed=18)) as table:
        tid = await make_tournament(table)  # the default: no hints at a tournament table
        client, _ = await hello(table, table.user_id)
        state = await client.until(lambda f: f.get("type") == "state")
        assert state["hints"] is False and state["ai"] == "strong"  # a tournament's stand-in plays strong
        # play on until seat 0 must beat a play: no hint is in its frame
        while not state["me"]["actions"].get("pass"):
            if state["me"]["actions"].get("play"):
                hand = flat(state)
                ack = await client.act("play", [hand[-1]])
                assert ack["ok"], ack
            seen = state["version"]
            state = await client.until(lambda f, v=seen: f.get("type") == "state" and f["version"] > v)
        assert "beats" not in state["me"]["actions"]
        await client.close()
        async with table.rt.db.session() as s:
            await s.execute(
                update(Tournament).where(Tournament.id == tid).values(settings_json={"page_hints": True})
            )
            await s.commit()
        client, _ = await hello(table, table.user_id)  # the organiser's setting holds from the next page open
        state = await client.until(lambda f: f.get("type") == "state")
        assert state["hints"] is True and state["me"]["actions"]["beats"] is not None
        await client.close()


async def test_the_dealing_moment_banner_and_cards_arriving_never_in_the_way(tmp_path):
    """Shengji dealt slowly (10 cards a batch, 0.3 s apart): the banner names the deal, both sides'
    levels and who deals (the first deal: whoever declares first); the cards dealt slide in, not with
    reduced motion; the banner covers no seat, no played card and no button; it goes once play starts."""
    command = "/newtable shengji-17-deals deals=1 bid_window_seconds=30 seed=3 bots=3"
    async with (
        local_table(tmp_path, command, DEAL_BATCH=10, DEAL_BATCH_DELAY=0.3, DEMO_PACE=1.0) as table,
        chromium() as browser,
    ):
        page, _ = await open_page(browser, table.link())
        await page.wait_for_selector("#deal-banner:not([hidden])", timeout=10000)
        lines = await page.evaluate(
            "Array.from(document.getElementById('deal-banner').children).map((e) => e.textContent)"
        )
        assert lines == [
            t("zh", "page.deal_start").format(n=1),
            "南北 2 · 东西 2",
            t("zh", "page.deal_open"),
        ], lines
        # a card arriving slides in (read in one go: a card that has landed drops its arrival)
        flight = await page.wait_for_function(
            "() => { const c = document.querySelector('#hand .card.arrive');"
            " return c && getComputedStyle(c).animationName; }",
            timeout=10000,
        )
        assert await flight.json_value() == "card-in"
        covered = await page.evaluate("""() => {
            const b = document.getElementById('deal-banner').getBoundingClientRect();
            const hit = (e) => { const r = e.getBoundingClientRect();
              return r.width && !(r.right <= b.left || r.left >= b.right || r.bottom <= b.top || r.top >= b.bottom); };
            return Array.from(document.querySelectorAll('.seat, .play .cards, #actions button, #hand .card'))
              .filter(hit).map((e) => e.id || e.className);
        }""")
        assert covered == [], covered
        assert await page.evaluate(
            "getComputedStyle(document.getElementById('deal-banner')).pointerEvents"
        ) == ("none")
        await page.screenshot(path=screenshot_path("page-sj-dealing-zh-360x640.png"))
        await page.emulate_media(reduced_motion="reduce")
        assert await page.evaluate(
            "getComputedStyle(document.querySelector('#hand .card')).animationName"
        ) == ("none")
        player = PagePlayer(page, table, declare_first=False)
        await player.play_until(lambda f: f["table"]["phase"] == "play" and bool(f["table"]["trick"]))
        await page.wait_for_selector("#deal-banner", state="hidden", timeout=10000)
        assert not page.errors  # type: ignore[attr-defined]
