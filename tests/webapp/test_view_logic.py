"""The page's view logic (bot/webapp/static/view.js) run in Chromium as the page runs it: the hand's
rows, the Shengji follow hint, combination names in each language, a Guandan trick's winner."""

from __future__ import annotations

import json
from pathlib import Path

from tests.webapp.browser import chromium

STATIC = Path(__file__).resolve().parents[2] / "bot" / "webapp" / "static"


async def run(expr: str):
    async with chromium() as browser:
        page = await browser.new_page()

        async def serve(route):
            name = route.request.url.rsplit("/", 1)[-1] or "blank.html"
            if name.endswith(".js"):
                await route.fulfill(body=(STATIC / name).read_text(), content_type="text/javascript")
            else:
                await route.fulfill(body="<!doctype html><title>t</title>", content_type="text/html")

        await page.route("http://page.test/**", serve)
        await page.goto("http://page.test/blank.html")
        return await page.evaluate(f"import('/view.js').then((v) => ({expr}))")


TEXTS = {
    "page.deal_start": "Deal {n}",
    "web.side0": "N-S",
    "web.side1": "E-W",
    "page.deal_by": "{who} deals",
    "page.deal_open": "first to declare deals",
    "page.deal_lead": "{who} leads",
}


async def test_view_logic():
    got = await run(
        """(T => ({
      sj33: v.handLayout(33, 348, 46), gd27: v.handLayout(27, 348, 46), few: v.handLayout(5, 348, 46),
      follow: v.followHint(['BJ', '♥2', '♠A', '♠3', '♣K'], '♠K', 1, 2),
      trumpLed: v.followHint(['BJ', '♥2', '♠2', '♠3', '♣K'], '♥9', 1, 2),
      none: v.followHint(['♣K', '♣3'], '♦9', 1, 2),
      en: v.comboLabel({'page.kind.bomb': 'Bomb'}, 'bomb', '炸弹 9×4', 'en'),
      zhJ: v.comboLabel({'page.kind.single': '单张'}, 'single', '单张 BJ', 'zh'),
      gd: v.completedTrick({deal_no: 1, trick_no: 3, last_trick: [
        {seat: 1, action: 'play', play: {cards: '♠3', kind: 'single', label: '单张 3'}},
        {seat: 2, action: 'play', play: {cards: '♠9', kind: 'single', label: '单张 9'}},
        {seat: 3, action: 'pass', play: null}, {seat: 0, action: 'pass', play: null},
        {seat: 1, action: 'pass', play: null}]}, 'guandan').winning,
      clock: [v.clockText(7), v.clockText(125), v.clockText(7201)],
      sjBanner: v.dealBanner(T, {game: 'shengji', names: ['你', 'a', 'b', 'c'], status: 'playing',
        table: {deal: 3, levels: [5, 12], dealer: 1, phase: 'dealing'}}, (s) => 'SENW'[s]),
      sjFirst: v.dealBanner(T, {game: 'shengji', names: ['你'], table: {deal: 1, levels: [2, 2], dealer: null}}, (s) => 'S'),
      gdBanner: v.dealBanner(T, {game: 'guandan', names: ['你', 'a', 'b', 'c'],
        table: {deal_no: 2, level_texts: ['3', 'A'], leader: 3}}, (s) => 'SENW'[s]),
      fresh: [
        v.freshDeal({game: 'shengji', status: 'playing', table: {phase: 'window'}}),
        v.freshDeal({game: 'shengji', status: 'playing', table: {phase: 'play'}}),
        v.freshDeal({game: 'guandan', status: 'playing', table: {phase: 'tribute', trick_no: 1, trick: [], last_trick: []}}),
        v.freshDeal({game: 'guandan', status: 'playing', table: {phase: 'play', trick_no: 1,
          trick: [{seat: 2, action: 'play'}], last_trick: []}}),
        v.freshDeal({game: 'guandan', status: 'finished', table: {phase: 'play', trick_no: 1, trick: []}}),
      ],
      dealer: [
        v.shownDealer({game: 'shengji', status: 'playing', table: {phase: 'play', dealer: 1, last_deal: {dealer: 3}}}),
        v.shownDealer({game: 'shengji', status: 'playing', table: {phase: 'deal_over', dealer: 2, last_deal: {dealer: 1}}}),
        v.shownDealer({game: 'shengji', status: 'finished', table: {phase: 'match_over', dealer: 2, last_deal: {dealer: 1}}}),
        v.shownDealer({game: 'shengji', status: 'playing', table: {phase: 'dealing', dealer: null, last_deal: null}}),
        v.shownDealer({game: 'guandan', status: 'playing', table: {phase: 'play'}}),
      ],
      older: [
        v.olderFrame(null, {match: 1, version: 3}), v.olderFrame({match: 1, version: 5}, {match: 1, version: 4}),
        v.olderFrame({match: 1, version: 5}, {match: 1, version: 5}), v.olderFrame({match: 1, version: 5}, {match: 2, version: 1}),
      ],
    }))("""
        + json.dumps(TEXTS)
        + ")"
    )
    for lay, n in ((got["sj33"], 33), (got["gd27"], 27)):
        assert lay["rows"] <= 3 and lay["rows"] * lay["perRow"] >= n and lay["step"] >= 27
        assert 46 + (lay["perRow"] - 1) * lay["step"] <= 348  # the widest row fits 348 px
    assert got["few"]["rows"] == 1
    assert got["follow"] == [2, 3]  # ♠A ♠3 (♠2 would be a trump at level 2)
    assert got["trumpLed"] == [0, 1, 2]  # BJ, ♥2 (trump suit), ♠2 (level card)
    assert got["none"] == [0, 1]  # no diamond: anything may be played
    assert got["en"] == "Bomb 9×4" and got["zhJ"] == "单张 大王"
    assert got["gd"] == 2
    assert got["clock"] == ["7", "2:05", "2:00:01"]
    assert got["sjBanner"] == ["Deal 3", "N-S 5 · E-W Q", "E a deals"]
    assert got["sjFirst"] == ["Deal 1", "N-S 2 · E-W 2", "first to declare deals"]
    assert got["gdBanner"] == ["Deal 2", "N-S 3 · E-W A", "W c leads"]
    assert got["fresh"] == [True, False, True, False, False]
    # the star stays on the deal just played until the next one begins (its summary says who deals next)
    assert got["dealer"] == [1, 1, 1, None, None]
    assert got["older"] == [False, True, False, False]  # only the same match at a lower version is not drawn
