"""The table page in headless Chromium: a person plays a whole Shengji deal and a whole Guandan deal
through the page against three computer players; what seat 0's page and a spectator's page receive;
the bot killed mid-deal and the page carrying on.  Screenshots at 360x640 go to demo-output/."""

from __future__ import annotations

from collections import Counter

from engine.cards import parse_cards
from engine.registry import match_from_stored
from storage import match_repo
from tests.webapp.browser import PagePlayer, chromium, open_page, screenshot_path
from tests.webapp.helpers import local_table

SHENGJI = "/newtable shengji-17-deals deals=1 bid_window_seconds=30 seed={seed} bots=3"
GUANDAN = "/newtable guandan-team deals={deals} seed={seed} bots=3"


def finished(frame) -> bool:
    return frame["status"] == "finished"


async def held_by_version(table) -> list[list[Counter]]:
    """For every version of the match, each seat's hand then (replaying the stored log)."""
    row = await match_repo.get_match_row(table.rt.db, table.match_id)
    m = match_from_stored(row.game, row.options_json, row.seed)
    out = [[Counter(h) for h in m.hands]]
    for record in await table.actions():
        m.apply(record.action)
        out.append([Counter(h) for h in m.hands])
    return out


async def check_privacy(table, seat_frames, spectator_frames) -> None:
    """Seat 0's frames: its own hand of that version, the public table, a kitty only if seat 0 buried it;
    a spectator's frames: no hand, no kitty."""
    hands = await held_by_version(table)
    row = await match_repo.get_match_row(table.rt.db, table.match_id)
    replay = match_from_stored(row.game, row.options_json, row.seed)
    log = [r.action for r in await table.actions()]
    publics = {}
    for frame in seat_frames:
        assert set(frame) <= {
            "type",
            "match",
            "version",
            "game",
            "status",
            "seat",
            "names",
            "computers",
            "table",
            "clock",
            "now",
            "me",
            "window_deadline",
            "match_deadline",
            "hints",  # the page's policy: whether hints are shown
            "ai",  # the computers' level
        }
        shown = [c for g in frame["me"]["hand"] for c in parse_cards(" ".join(g["cards"]))]
        assert Counter(shown) == hands[frame["version"]][0], frame["version"]
        for play in frame["me"]["actions"].get("beats") or []:  # the hint names only the seat's own cards
            assert not Counter(parse_cards(" ".join(play))) - Counter(shown), (frame["version"], play)
        if "kitty" in frame["me"]:
            assert any(a.startswith("0 bury") for a in log[: frame["version"]])
        publics[frame["version"]] = frame["table"]
    for version in sorted(publics):  # the rest of the frame is the engine's public view of that version
        while len(replay.log) < version:
            replay.apply(log[len(replay.log)])
        expected = replay.public_view()
        assert publics[version] == (expected["table"] if row.game == "shengji" else expected)
    assert spectator_frames
    for frame in spectator_frames:
        assert "me" not in frame and "kitty" not in str(frame.keys())


async def test_a_person_plays_a_whole_shengji_deal_on_the_page(tmp_path):
    # seed 3: seat 0 may declare ♥2 BJ when the cards are dealt and nobody outbids it (it buries the kitty)
    async with local_table(tmp_path, SHENGJI.format(seed=3), DEAL_BATCH=100) as table, chromium() as browser:
        page, seat_log = await open_page(browser, table.link())
        watcher, watch_log = await open_page(browser, table.link(user_id=555, name="观众"))
        player = PagePlayer(page, table)
        shot = {}

        async def snap(p):
            f = await p.frame()
            if "play" not in shot and f["table"]["phase"] == "play" and len(f["table"]["trick"]) >= 2:
                shot["play"] = screenshot_path("webapp-shengji-360x640.png")
                await page.screenshot(path=shot["play"])

        await player.play_until(finished, after_move=snap)
        log = [r for r in await table.actions()]
        by_page = [r.action for r in log if (r.dedupe_key or "").startswith("web:")]
        assert any(a.startswith("0 bid") for a in by_page), [
            r.action for r in log if not r.action.startswith("sys deal")
        ][:12]
        assert any(a.startswith("0 bury") for a in by_page), (
            "seat 0 did not bury: the seed no longer makes it dealer"
        )
        assert sum(a.startswith("0 play") for a in by_page) >= 20  # a whole deal's worth of tricks (25 cards)
        final = await player.frame()
        assert final["table"]["last_deal"]["kitty"]  # the kitty is public once the deal is over
        await check_privacy(table, seat_log.states(), watch_log.states())
        assert shot and not page.errors and not watcher.errors  # type: ignore[attr-defined]
        assert await match_repo.replay_check(table.rt.db, table.match_id)


async def test_a_person_plays_two_guandan_deals_on_the_page_in_english(tmp_path):
    """Seed 18: seat 0 once selects cards that read two ways (the page asks which), and returns a card
    in the second deal's tribute."""
    async with (
        local_table(tmp_path, GUANDAN.format(seed=18, deals=2), lang="en") as table,
        chromium() as browser,
    ):
        page, seat_log = await open_page(browser, table.link(name="You", lang="en"))
        player = PagePlayer(page, table)
        assert await page.locator("#dev").inner_text() == "DEV"
        shot = {}

        async def snap(p):
            f = await p.frame()
            if "play" not in shot and len(f["table"]["trick"]) >= 3:
                shot["play"] = screenshot_path("webapp-guandan-360x640.png")
                await page.screenshot(path=shot["play"])
            if "last" not in shot and await page.locator('#actions button[data-op="last_trick"]').count():
                await page.click('#actions button[data-op="last_trick"]')
                assert await page.locator("#sheet").inner_text()
                shot["last"] = True
                await page.click("#sheet button.secondary")

        await player.play_until(finished, after_move=snap)
        records = await table.actions()
        assert (
            sum(r.action.startswith("0 play") and (r.dedupe_key or "").startswith("web:") for r in records)
            >= 3
        )
        assert "play" in player.used and shot.get("last")
        assert "reading" in player.used and "return" in player.used, player.used
        assert any(
            r.action.startswith("0 return") and (r.dedupe_key or "").startswith("web:") for r in records
        )
        assert "Match over" in await page.locator("#status").inner_text()
        await check_privacy(table, seat_log.states(), [{"type": "state"}])
        assert not page.errors  # type: ignore[attr-defined]


async def test_the_bot_restarts_mid_deal_and_the_page_carries_on(tmp_path):
    async with local_table(tmp_path, GUANDAN.format(seed=5, deals=1)) as table, chromium() as browser:
        page, seat_log = await open_page(browser, table.link())
        player = PagePlayer(page, table)
        moves = {"n": 0}

        async def count(p):
            moves["n"] += 1

        await player.play_until(lambda f: moves["n"] >= 3, after_move=count)
        before = await table.version()
        await table.real.restart()  # the bot process goes away (page server included) and comes back
        await page.wait_for_function("window.__table.ws && window.__table.ws.readyState === 1", timeout=20000)
        assert seat_log.sockets >= 2
        await player.play_until(finished)
        assert await table.version() > before
        assert await match_repo.replay_check(table.rt.db, table.match_id)
        assert not page.errors  # type: ignore[attr-defined]
