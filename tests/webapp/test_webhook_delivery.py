"""The simulator delivers updates to a webhook as Telegram does: POSTed JSON with the secret token header, one
at a time in order, the same update again while the server answers non-2xx or cannot be reached, only the
kinds in ``allowed_updates``."""

from __future__ import annotations

import socket

import pytest
from aiohttp import web
from telegram import Bot
from telegram.error import Conflict

from bot.devtools.simulator import BotApiSimulator
from bot.devtools.simulator.webhook import SECRET_HEADER


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Receiver:
    """A webhook server that answers ``fail_first`` POSTs with 502, then 200."""

    def __init__(self, port: int, fail_first: int = 0) -> None:
        self.port = port
        self.fail_first = fail_first
        self.posts: list[tuple[str | None, dict]] = []
        self.accepted: list[dict] = []
        self.runner: web.AppRunner | None = None

    async def handle(self, request: web.Request) -> web.Response:
        body = await request.json()
        self.posts.append((request.headers.get(SECRET_HEADER), body))
        if len(self.posts) <= self.fail_first:
            return web.Response(status=502)
        self.accepted.append(body)
        return web.Response(status=200)

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self.handle)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        await web.TCPSite(self.runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"


async def test_updates_are_posted_in_order_with_the_secret_and_retried_until_accepted():
    receiver = Receiver(free_port(), fail_first=2)
    async with BotApiSimulator(rate_scale=20) as sim:
        sim.add_user(1001, "张伟", started=True)
        async with Bot(sim.token, base_url=sim.base_url) as bot:
            # the server is not up yet: delivery fails with "Connection refused" and keeps trying
            await bot.set_webhook(
                receiver.url, secret_token="s3cret_-token", allowed_updates=["message", "callback_query"]
            )
            sim.user_sends_text(1001, 1001, "first")
            await sim.wait_for(lambda: sim.webhook_stats.failures >= 1, timeout=10)
            info = await bot.get_webhook_info()
            assert info.url == receiver.url and info.pending_update_count == 1
            assert info.last_error_message == "Connection refused"
            with pytest.raises(Conflict):  # as on Telegram: no getUpdates while a webhook is set
                await bot.get_updates()
            await receiver.start()
            try:
                sim.user_sends_text(1001, 1001, "second")
                sim.block_bot(1001)  # a my_chat_member update: not in allowed_updates, never posted
                sim.unblock_bot(1001)  # ... and unblocking is "/start" in the private chat: a message
                sim.user_sends_text(1001, 1001, "third")
                await sim.wait_for(lambda: len(receiver.accepted) == 4, timeout=20)
                info = await bot.get_webhook_info()
                assert info.pending_update_count == 0
                assert info.last_error_message.startswith("Wrong response from the webhook: 502")
            finally:
                await receiver.stop()
    texts = [body["message"]["text"] for body in receiver.accepted]
    assert texts == ["first", "second", "/start", "third"]
    ids = [body["update_id"] for body in receiver.accepted]
    assert ids == sorted(ids)
    # the two 502s were for the first update, posted again until accepted; every POST had the secret
    assert [body["message"]["text"] for _, body in receiver.posts[:3]] == ["first", "first", "first"]
    assert {secret for secret, _ in receiver.posts} == {"s3cret_-token"}
    assert all("my_chat_member" not in body for _, body in receiver.posts)


async def test_delete_webhook_stops_posting_and_get_updates_works_again():
    receiver = Receiver(free_port())
    await receiver.start()
    try:
        async with BotApiSimulator() as sim:
            sim.add_user(1001, "Ann", started=True)
            async with Bot(sim.token, base_url=sim.base_url) as bot:
                await bot.set_webhook(receiver.url)
                sim.user_sends_text(1001, 1001, "hello")
                await sim.wait_for(lambda: receiver.accepted, timeout=10)
                assert receiver.posts[0][0] is None  # no secret_token given: no header
                await bot.delete_webhook()
                sim.user_sends_text(1001, 1001, "polled")
                updates = await bot.get_updates(timeout=1)
                assert [u.message.text for u in updates] == ["polled"]
                assert len(receiver.accepted) == 1
                with pytest.raises(Exception, match="unallowed characters"):
                    await bot.set_webhook(receiver.url, secret_token="not allowed!")
    finally:
        await receiver.stop()
