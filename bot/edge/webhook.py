"""The bot's webhook on the table page's web server (PTB's "custom webhook server" pattern): Telegram
POSTs each update to ``<WEBAPP_URL>/telegram/webhook`` with the secret token header; the handler puts
it on the Application's update queue.  One web server, one port, behind one TLS proxy.

Several processes behind one webhook (``WEBAPP_RELAY_URL`` set): an update is queued by the first process that
marks its ``update_id`` in Redis (``SET NX``, kept a day); a copy delivered to another process (Telegram posts an
update again when the answer came late, a proxy retried it) is answered 200 and dropped, so a card tap is never
applied twice (a tap toggles the selection; actions are also guarded by their version and dedupe key).

Stopping (SIGINT / SIGTERM: a restart, a rolling upgrade): the webhook answers 503 from the moment the stop
begins, before the application drains its update queue, so an update is never accepted by a process that no
longer reads it; Telegram (or the proxy) posts it again and another process, or this one once restarted,
takes it."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from telegram import Update

from bot.boot.settings import Settings
from bot.delivery.message_claims import RedisClaims
from bot.edge.ptb_types import App

log = logging.getLogger(__name__)

WEBHOOK_PATH = "/telegram/webhook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def webhook_secret(bot_token: str, configured: str | None = None) -> str:
    """The secret token Telegram sends back (``TELEGRAM_WEBHOOK_SECRET``, else derived from the token):
    1-256 characters of A-Z a-z 0-9 _ -."""
    if configured:
        return configured
    return hmac.new(b"webhook-secret", bot_token.encode(), hashlib.sha256).hexdigest()


class UpdateOnce(RedisClaims):
    """Which process takes an update: the first to mark its id in Redis (kept a day)."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(url, token, "tg-updates", "webhook: updates not checked against other processes")
        self.duplicates = 0

    async def first(self, update_id: int) -> bool:
        fresh = await self.claim(str(update_id), 24 * 3600)
        if not fresh:
            self.duplicates += 1
        return fresh


class Gate:
    """Open while the process takes updates; closed when its stop begins (then every POST is answered 503)."""

    def __init__(self) -> None:
        self.open = True
        self.refused = 0


def webhook_handler(
    app: App,
    secret: str,
    once: UpdateOnce | None = None,
    gate: Gate | None = None,
) -> Callable[[web.Request], Awaitable[web.Response]]:
    """An aiohttp handler feeding ``app.update_queue`` (refuses a wrong secret with 403, bad JSON with 400;
    with ``once``, an update another process took is answered 200 and dropped; with ``gate`` closed, 503)."""

    def closed(update_id: int) -> web.Response:
        assert gate is not None
        gate.refused += 1
        log.info("webhook: stopping, update %s left to be posted again", update_id)
        return web.Response(status=503)

    async def handle(request: web.Request) -> web.Response:
        if not hmac.compare_digest(request.headers.get(SECRET_HEADER, ""), secret):
            return web.Response(status=403)
        try:
            data = json.loads(await request.text())
            update = Update.de_json(data, app.bot)
        except Exception:
            log.info("webhook: not an update")
            return web.Response(status=400)
        if update is None:
            return web.Response(status=400)
        if gate is not None and not gate.open:
            return closed(update.update_id)
        if once is not None and not await once.first(update.update_id):
            log.info("webhook: update %s was taken by another process", update.update_id)
            return web.Response(status=200)
        if gate is not None and not gate.open:  # the stop began while Redis answered: give the update back
            if once is not None:
                await once.release(str(update.update_id))
            return closed(update.update_id)
        app.update_queue.put_nowait(update)  # no await between the gate's check and the queue
        return web.Response(status=200)

    return handle


async def run_webhook(app: App, settings: Settings, *, stop: asyncio.Event) -> None:
    """Run ``app`` fed by the webhook until ``stop`` (an asyncio.Event) is set."""
    if not settings.WEBAPP_URL or settings.WEBAPP_PORT is None:
        raise RuntimeError("webhook mode needs WEBAPP_URL (the public https base) and WEBAPP_PORT")
    secret = webhook_secret(settings.TELEGRAM_BOT_TOKEN, settings.TELEGRAM_WEBHOOK_SECRET)
    once = (
        UpdateOnce(settings.WEBAPP_RELAY_URL, settings.TELEGRAM_BOT_TOKEN)
        if settings.WEBAPP_RELAY_URL
        else None
    )
    if once is not None:
        await once.start()
    gate = Gate()
    app.bot_data["webhook_route"] = (WEBHOOK_PATH, webhook_handler(app, secret, once, gate))
    await app.initialize()  # the runtime, then the web server with the webhook route
    await app.start()
    await app.bot.set_webhook(
        url=settings.WEBAPP_URL.rstrip("/") + WEBHOOK_PATH,
        secret_token=secret,
        allowed_updates=["message", "callback_query"],
    )
    try:
        await stop.wait()
    finally:
        gate.open = False  # before the update queue is drained: nothing accepted is left unread
        log.info("webhook: stopping: updates are answered 503 (posted again to another process)")
        await app.stop()
        await app.shutdown()
        if once is not None:
            await once.stop()
