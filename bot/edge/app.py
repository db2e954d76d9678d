"""The Telegram application: ``build_application(settings)``.

One place registers every handler (``bot.edge.handlers.register``).  Start-up (``post_init``, also
run by ``Application.initialize`` so a harness that starts the application by hand gets it):
open the database (migrations), start the outbox and the deadline scheduler (re-arming the
pending deadlines), resume live tables and register the commands in both languages; then the start-up heap
is frozen (``bot.boot.heap``).
"""

from __future__ import annotations

import logging

from telegram.ext import ApplicationBuilder

from bot.boot.heap import settle_after_start
from bot.boot.runtime import Runtime
from bot.boot.settings import Settings
from bot.boot.startup import StartupError, check_cjk_font
from bot.edge.handlers import register
from bot.edge.ptb_types import App
from bot.edge.tournament import register_tournament_handlers
from bot.webapp import start_for, stop_for

log = logging.getLogger(__name__)

__all__ = ["BotApplication", "StartupError", "build_application", "check_cjk_font"]


class BotApplication(App):
    """An Application whose initialize/stop/shutdown also start and stop the bot's runtime."""

    async def initialize(self) -> None:
        await super().initialize()
        await _post_init(self)

    async def stop(self) -> None:
        rt = self.bot_data.get("runtime")
        if rt is not None:
            await rt.stop()
        await super().stop()

    async def shutdown(self) -> None:
        await stop_for(self)
        rt = self.bot_data.get("runtime")
        if rt is not None:
            await rt.shutdown()
        await super().shutdown()


async def _post_init(app: App) -> None:
    if app.bot_data.get("runtime") is not None and app.bot_data["runtime"].started:
        return
    rt = app.bot_data.get("runtime") or Runtime(app, app.bot_data["settings"])
    app.bot_data["runtime"] = rt
    await rt.startup()
    if app.bot_data.get("webapp") is None:  # the table page (Mini App) when WEBAPP_PORT is set
        await start_for(app)
    frozen = settle_after_start()  # full collections skip what start-up made (bot/boot/heap.py)
    if frozen:
        log.info("start-up heap frozen: %d objects the collector no longer walks", frozen)


def build_application(settings: Settings | None = None) -> App:
    """The PTB 22 Application of the bot (long polling by default).

    StartupError when the bot cannot run (no CJK font for the bracket image)."""
    settings = settings or Settings()
    check_cjk_font()
    builder = (
        ApplicationBuilder()
        .application_class(BotApplication)
        .token(settings.TELEGRAM_BOT_TOKEN or "123456:demo-token")
        .concurrent_updates(16)
        .post_init(_post_init)
    )
    if settings.TELEGRAM_API_BASE_URL:
        builder = builder.base_url(settings.TELEGRAM_API_BASE_URL)
        builder = builder.base_file_url(
            settings.TELEGRAM_API_FILE_URL or settings.TELEGRAM_API_BASE_URL.replace("/bot", "/file/bot")
        )
    app = builder.build()
    app.bot_data["settings"] = settings
    register(app)
    register_tournament_handlers(app)  # the tournament side: its handlers run before the play side's
    return app
