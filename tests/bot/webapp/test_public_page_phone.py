"""What a person sees (issue 20): the public tournament page on a 360 x 640 phone and the ``/me`` rating chart,
made from a real Swiss of eight pairs with Chinese names, its results and the ratings they give.  The images
go to demo-output/ (``public-standings-{zh,en}-360x640.png``, ``me-rating-{zh,en}.png``) to be looked at;
the tests check what can be measured: nothing wider than the phone, every pair's row shown with its
rating, the chart's texts inside the image and apart from each other."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from PIL import Image

from bot.presentation.tournament import rating_chart
from bot.presentation.tournament.texts import tt
from bot.webapp import public_page
from engine.tournament import pair_result
from engine.tournament.ratings import HistoryPoint, TableGame, replay
from storage import tournaments as ts
from storage import user_repo
from storage.db import Database
from tests.storage.support import Target
from tests.webapp.browser import DEMO_OUTPUT, PHONE, chromium

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
ORG = 1001
NAMES = [
    "张伟", "王磊", "李娜", "刘洋", "陈静", "杨帆", "赵敏", "黄晓明",
    "周杰", "吴芳", "徐志强", "孙丽", "马超", "朱琳", "胡建国", "欧阳明月",
]  # fmt: skip


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    target = Target("sqlite", tmp_path)
    await target.setup()
    try:
        database = await target.open()
        for i, name in enumerate(NAMES):
            await user_repo.upsert_user(database, ORG + i, name)
            await user_repo.set_started(database, ORG + i)
        yield database
    finally:
        await target.cleanup()


async def _swiss(db: Database) -> int:
    """A Swiss of eight pairs (two union groups), round 1 and round 2 played, round 3 scheduled."""
    row = await ts.create_tournament(
        db,
        name="2026 教工双升积分赛",
        preset_id="shengji-17-deals",
        created_by=ORG,
        settings_overrides={"format": "swiss", "swiss_rounds": 3},
        union_groups=[{"name": "机关工会", "quota": 4}, {"name": "理学院", "quota": 4}],
        registration_deadline=NOW + timedelta(days=1),
        first_round_at=NOW + timedelta(days=2),
    )
    for i in range(3):
        await ts.add_table_group(db, row.id, ORG, -500 - i, f"{i + 1}号桌")
    for i in range(8):
        inv = await ts.create_invite(db, row.id, ORG + 2 * i, "机关工会" if i < 4 else "理学院", NOW)
        await ts.accept_invite(db, inv.token, ORG + 2 * i + 1, NOW)
    await ts.freeze(db, row.id, bytes(range(32)))
    await ts.hold_draw(db, row.id)
    scores = iter([(14, 9), (9, 12), (13, 11), (10, 14), (14, 5), (8, 9), (12, 10), (6, 13)])
    for _ in range(2):
        await ts.schedule_ready(db, row.id, NOW)
        for key in sorted((await ts.engine_state(db, row.id)).ready_matches()):
            la, lb = next(scores)
            await ts.record_result(db, row.id, key, pair_result("a" if la > lb else "b", la, lb), None)
    await ts.schedule_ready(db, row.id, NOW)
    return row.id


async def _layout(page: Any) -> dict[str, Any]:
    return await page.evaluate(  # type: ignore[no-any-return]
        """() => ({
          scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
          wide: Array.from(document.querySelectorAll('body *')).filter(
            (e) => e.getBoundingClientRect().right > window.innerWidth + 0.5).map((e) => e.tagName),
          font: parseFloat(getComputedStyle(document.querySelector('pre')).fontSize),
          text: document.body.innerText,
        })"""
    )


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_public_standings_page_fits_a_phone(db: Database, lang: str) -> None:
    tid = await _swiss(db)
    app = web.Application()
    public_page.register(app, lambda: db)
    async with TestClient(TestServer(app)) as client, chromium() as browser:
        page = await browser.new_page(viewport=PHONE, device_scale_factor=2)
        await page.goto(str(client.make_url(f"/t/{tid}" + ("?lang=en" if lang == "en" else ""))))
        DEMO_OUTPUT.mkdir(exist_ok=True)
        await page.screenshot(path=DEMO_OUTPUT / f"public-standings-{lang}-360x640.png")
        await page.screenshot(path=DEMO_OUTPUT / f"public-standings-{lang}-360-full.png", full_page=True)
        got = await _layout(page)
    assert got["scroll"] <= got["inner"] and not got["wide"], got["wide"]  # no sideways scrolling
    assert got["font"] >= 14  # readable without zooming
    text = got["text"]
    # each section opens with what it is, under the page's own title: no chat emoji, no name again
    lines = text.splitlines()
    heading = "积分编排排名（第2轮后，共3轮）" if lang == "zh" else "Swiss standings (after round 2 of 3)"
    assert heading in lines, lines[:8]
    assert not any(line.startswith(("📊", "🗓", "🏁", "2026 教工双升积分赛 ·")) for line in lines), lines
    rows = [line for line in text.splitlines() if line[:2] in {f"{k}." for k in range(1, 9)}]
    assert len(rows) >= 8 and all(("等级分" if lang == "zh" else "rating") in r for r in rows[:8]), rows
    assert "欧阳明月" in text  # the longest name is there, not cut


def _history() -> dict[str, list[HistoryPoint]]:
    """Player "me": 14 Shengji tables, won 10 (no longer provisional), and 4 Guandan tables, won 1."""
    games = []
    for i in range(14):
        pair, other = ("me", f"p{i}"), (f"q{i}", f"r{i}")
        games.append(
            TableGame("shengji", *((pair, other) if i % 7 not in (2, 5) and i != 9 else (other, pair)))
        )
    for i in range(4):
        pair, other = ("me", f"g{i}"), (f"h{i}", f"k{i}")
        games.append(TableGame("guandan", *((pair, other) if i == 2 else (other, pair))))
    ratings = replay(games)
    return {g: ratings.history_of("me", g) for g in ("shengji", "guandan")}


def _apart_and_inside(boxes: dict[str, tuple[float, float, float, float]]) -> None:
    for name, (x0, y0, x1, y1) in boxes.items():
        assert x0 >= 0 and y0 >= 0 and x1 <= rating_chart.WIDTH and y1 <= rating_chart.HEIGHT, (
            name,
            boxes[name],
        )
    names = list(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            (ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1) = boxes[a], boxes[b]
            assert not (ax0 < bx1 and bx0 < ax1 and ay0 < by1 and by0 < ay1), (a, b, boxes[a], boxes[b])


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_rating_chart_keeps_its_texts_apart_and_inside(lang: str) -> None:
    """A player with 14 Shengji tables (no longer provisional) and 4 Guandan ones (provisional), and one
    with a name too long for the title line; the /me chart's texts stay inside the image and apart, at
    sizes a phone shows at a third (26 px and up)."""
    history = _history()
    title = tt(lang, "me.chart", name="欧阳明月")
    png = rating_chart.rating_png(title, history, lang)
    DEMO_OUTPUT.mkdir(exist_ok=True)
    (DEMO_OUTPUT / f"me-rating-{lang}.png").write_bytes(png)
    img = Image.open(DEMO_OUTPUT / f"me-rating-{lang}.png")
    assert img.size == (rating_chart.WIDTH, rating_chart.HEIGHT)
    boxes = rating_chart.text_boxes(title, history, lang)
    assert {"title", "legend:shengji", "legend:guandan", "note", "x:1", "x:14", "x-name"} <= set(boxes)
    _apart_and_inside(boxes)
    assert min(rating_chart.SIZES.values()) >= 26
    long = tt(lang, "me.chart", name="Alexander Constantine Fitzgerald-Montgomery 欧阳明月")
    boxes = rating_chart.text_boxes(long, history, lang)
    _apart_and_inside(boxes)
    assert boxes["title"][2] <= rating_chart.WIDTH - rating_chart.MARGIN
