"""The bot's webhook on the table page's web server (PTB's "custom webhook server" pattern): Telegram
POSTs each update to ``<WEBAPP_URL>/telegram/webhook`` with the secret token header; the handler puts
it on the Application's update queue.  One web server, one port, behind one TLS proxy."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)

WEBHOOK_PATH = "/telegram/webhook"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def webhook_secret(bot_token: str, configured: str | None = None) -> str:
    """The secret token Telegram sends back (``TELEGRAM_WEBHOOK_SECRET``, else derived from the token):
    1-256 characters of A-Z a-z 0-9 _ -."""
    if configured:
        return configured
    return hmac.new(b"webhook-secret", bot_token.encode(), hashlib.sha256).hexdigest()


def webhook_handler(app: Any, secret: str) -> Callable[[web.Request], Awaitable[web.Response]]:
    """An aiohttp handler feeding ``app.update_queue`` (refuses a wrong secret with 403, bad JSON with 400)."""
    from telegram import Update

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
        await app.update_queue.put(update)
        return web.Response(status=200)

    return handle


async def run_webhook(app: Any, settings: Any, *, stop: Any) -> None:
    """Run ``app`` fed by the webhook until ``stop`` (an asyncio.Event) is set."""
    if not settings.WEBAPP_URL or settings.WEBAPP_PORT is None:
        raise RuntimeError("webhook mode needs WEBAPP_URL (the public https base) and WEBAPP_PORT")
    secret = webhook_secret(settings.TELEGRAM_BOT_TOKEN, settings.TELEGRAM_WEBHOOK_SECRET)
    app.bot_data["webhook_route"] = (WEBHOOK_PATH, webhook_handler(app, secret))
    await app.initialize()  # the runtime, then the web server with the webhook route
    await app.start()
    await app.bot.set_webhook(url=settings.WEBAPP_URL.rstrip("/") + WEBHOOK_PATH, secret_token=secret,
                              allowed_updates=["message", "callback_query"])
    try:
        await stop.wait()
    finally:
        await app.stop()
        await app.shutdown()
