"""The public tournament page as the running bot serves it (issue 20): the same web server that carries the
table page answers /t/<id> without login, with the page's security headers, and stops when the organiser
switches the page off (tests/bot/webapp/test_public_page.py covers the page's contents on its own app)."""

from __future__ import annotations

import aiohttp

from storage import tournaments as ts
from tests.bot.webapp.test_public_page import CARD_MARKS, ORG, swiss
from tests.webapp.helpers import local_table


async def test_the_running_bot_serves_the_public_page_without_login(tmp_path):
    async with local_table(tmp_path, "/newtable guandan-team deals=1 seed=3 bots=3") as table:
        tid = await swiss(table.rt.db)
        base = f"http://127.0.0.1:{table.port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/t/{tid}") as page:  # no initData, no cookie: anyone with the link
                assert page.status == 200 and page.content_type == "text/html"
                body = await page.text()
                assert "frame-ancestors" in page.headers["Content-Security-Policy"]
            assert "教工积分赛" in body and "积分编排排名" in body and "一号桌" in body
            assert not any(mark in body for mark in CARD_MARKS)
            async with http.get(f"{base}/t/{tid}?lang=en") as en:
                assert "Swiss standings" in await en.text()

            await ts.set_public_page(table.rt.db, tid, ORG, False)
            async with http.get(f"{base}/t/{tid}") as off:
                assert off.status == 404 and "教工积分赛" not in await off.text()
            async with http.get(f"{base}/t/{tid}x") as bad:
                assert bad.status == 404
