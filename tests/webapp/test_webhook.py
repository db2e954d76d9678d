"""The bot's webhook on the page's server: Telegram's secret token checked, updates queued for PTB."""

from __future__ import annotations

import asyncio

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from telegram import Bot

from bot.edge.webhook import SECRET_HEADER, WEBHOOK_PATH, webhook_handler, webhook_secret

UPDATE = {
    "update_id": 7,
    "message": {
        "message_id": 1,
        "date": 0,
        "chat": {"id": 5, "type": "private"},
        "from": {"id": 5, "is_bot": False, "first_name": "A"},
        "text": "/start",
    },
}


class FakeApp:
    def __init__(self) -> None:
        self.bot = Bot("123:abc")
        self.update_queue: asyncio.Queue = asyncio.Queue()


async def test_updates_with_the_secret_are_queued_others_refused():
    app = FakeApp()
    secret = webhook_secret("123:abc")
    assert secret == webhook_secret("123:abc") and secret != webhook_secret("124:abc")
    web_app = web.Application()
    web_app.router.add_post(WEBHOOK_PATH, webhook_handler(app, secret))
    async with TestClient(TestServer(web_app)) as client:
        assert (await client.post(WEBHOOK_PATH, json=UPDATE)).status == 403
        assert (await client.post(WEBHOOK_PATH, json=UPDATE, headers={SECRET_HEADER: "wrong"})).status == 403
        assert (
            await client.post(WEBHOOK_PATH, data="{not json", headers={SECRET_HEADER: secret})
        ).status == 400
        assert app.update_queue.empty()
        assert (await client.post(WEBHOOK_PATH, json=UPDATE, headers={SECRET_HEADER: secret})).status == 200
        update = app.update_queue.get_nowait()
        assert update.update_id == 7 and update.message.text == "/start"
