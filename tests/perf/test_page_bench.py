"""Benchmark: the table page on a throttled CPU (issue 17's targets: first useful paint <= 1 s, a frame
applied and drawn <= 16 ms p95, a tap answered on screen <= 50 ms, no layout shift when a trick
completes; the page's weight).

Method (docs/performance.md "Table page"): the real bot and page server (``make webapp``'s local table,
three computer players, SQLite), Debian's Chromium headless at 360x640 with the CPU throttled 4x through
the DevTools protocol (``Emulation.setCPUThrottlingRate``, a mid-range phone); a fresh seed per run
(``random.SystemRandom``).  A person plays one whole Shengji deal through the page (``PagePlayer``: taps
cards and buttons).  Measured in the page: *first useful paint* = navigation start to the first table
frame drawn (``__table.metrics.firstFrame`` plus the paint after it); *frame* = a state frame received
to the paint after it was rendered; *tap* = the pointer event's own time stamp to the paint showing the
card lifted; *layout shift* = the sum of Chromium's ``layout-shift`` entries during play (no input
excluded).  Weight: the page's files as served and gzip-compressed (level 6).  Run with ``make bench``.
"""

from __future__ import annotations

import gzip
import random
import statistics
from pathlib import Path

from tests.perf.machine import describe
from tests.webapp.browser import PHONE, PagePlayer, chromium
from tests.webapp.helpers import local_table

STATIC = Path(__file__).resolve().parents[2] / "bot" / "webapp" / "static"
SHIFTS = """
window.__shifts = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__shifts += e.value; })
  .observe({ type: 'layout-shift', buffered: true });
"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


async def test_page_on_a_4x_throttled_cpu(tmp_path):
    """The same deal (one fresh seed) played twice in one run: unthrottled, then 4x throttled."""
    print("\n" + describe())
    files = sorted(p for p in STATIC.iterdir() if p.suffix in (".js", ".css", ".html"))
    raw = sum(p.stat().st_size for p in files)
    packed = sum(len(gzip.compress(p.read_bytes(), 6)) for p in files)
    print(
        f"page weight: {raw / 1024:.1f} KB as served, {packed / 1024:.1f} KB gzip-compressed ({len(files)} files)"
    )
    seed = random.SystemRandom().randrange(1, 10**9)
    for rate in (1, 4):
        await one_deal(tmp_path / f"x{rate}", seed, rate)
    print("after: " + describe())


async def one_deal(folder: Path, seed: int, rate: int) -> None:
    folder.mkdir()
    command = f"/newtable shengji-17-deals deals=1 bid_window_seconds=5 seed={seed} bots=3"
    async with local_table(folder, command, DEAL_BATCH=100) as table, chromium() as browser:
        page = await browser.new_page(viewport=PHONE, bypass_csp=True)
        await page.add_init_script(SHIFTS)
        cdp = await page.context.new_cdp_session(page)
        await cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
        await page.goto(table.link())
        await page.wait_for_function(
            "window.__table && window.__table.metrics.frames.length > 0", timeout=15000
        )
        first = await page.evaluate("window.__table.metrics.firstFrame + window.__table.metrics.frames[0]")
        # where the first paint's time went: the page's files, the socket, the server's hello and frame, the render
        parts = await page.evaluate("""() => {
            const t = (name) => { const m = performance.getEntriesByName(name)[0]; return m ? Math.round(m.startTime) : null; };
            const nav = performance.getEntriesByType('navigation')[0];
            return {dom_content_loaded: Math.round(nav.domContentLoadedEventEnd), socket_open: t('ws-open'),
                    hello: t('hello'), first_frame: Math.round(window.__table.metrics.firstFrame),
                    first_render: Math.round(window.__table.metrics.renders[0])}; }""")
        before = await page.evaluate("window.__shifts")
        player = PagePlayer(page, table, declare_first=False)
        await player.play_until(lambda f: f["status"] == "finished", timeout=600)
        m = await page.evaluate("window.__table.metrics")
        shifts = await page.evaluate("window.__shifts") - before
    frames, renders, taps = m["frames"], m["renders"], m["taps"]
    assert frames and taps

    def line(name: str, values: list[float]) -> str:
        return (
            f"{name} n={len(values)} median {statistics.median(values):.1f} p95 {pct(values, 0.95):.1f} "
            f"max {max(values):.1f} ms"
        )

    print(
        f"CPU x{rate}, seed {seed}: first useful paint {first:.0f} ms ({parts}); {line('frame drawn', frames)}; "
        f"{line('render() alone', renders)}; {line('tap to screen', taps)}; layout shift during play {shifts:.4f}"
    )
