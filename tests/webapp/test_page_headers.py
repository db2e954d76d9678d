"""The page's security headers (CSP with Telegram's web clients as the only framers, no inline script)
and the page working under them: a real Chromium without bypassing the CSP draws the table and
reports no violation."""

from __future__ import annotations

import asyncio

import aiohttp

from tests.webapp.browser import chromium
from tests.webapp.helpers import local_table


async def test_the_page_is_sent_with_a_csp_and_draws_the_table_under_it(tmp_path):
    async with (
        local_table(tmp_path, "/newtable guandan-team deals=1 seed=5 bots=3") as table,
        chromium() as browser,
    ):
        async with aiohttp.ClientSession() as http:
            async with http.get(table.server.base_url + f"/?m={table.match_id}") as r:
                csp = r.headers["Content-Security-Policy"]
                html = await r.text()
            async with http.get(table.server.base_url + "/static/app.js") as r:
                assert "frame-ancestors" in r.headers["Content-Security-Policy"]
        assert (
            "frame-ancestors https://web.telegram.org https://webk.telegram.org https://webz.telegram.org"
            in csp
        )
        assert "script-src 'self' https://telegram.org;" in csp and "unsafe-inline" not in csp
        assert "<script>" not in html  # no inline script
        page = await browser.new_page(viewport={"width": 360, "height": 640})
        violations: list[str] = []
        page.on(
            "console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None
        )
        await page.goto(table.link())
        for _ in range(
            100
        ):  # polled with evaluate: Playwright's string waits need eval, which the CSP forbids
            if await page.evaluate("!!(window.__table && window.__table.frame)"):
                break
            await asyncio.sleep(0.1)
        assert await page.evaluate("document.querySelectorAll('.seat .name').length") == 4
        assert violations == []
