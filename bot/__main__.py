"""``python -m bot`` (``make run``): the bot with long polling.

Before polling, ``bot.boot.startup`` checks the token, the CJK font, the database and Telegram; a failure is
one translated line on stderr (no traceback) and exit code 2 (no token) or 3 (any other start-up error).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys

from bot.boot.health import HEARTBEAT_EVERY, heartbeat_job
from bot.boot.logs import configure
from bot.boot.probes import with_probes
from bot.boot.settings import Settings
from bot.boot.startup import EXIT_NO_TOKEN, EXIT_STARTUP, StartupError, console_language
from bot.edge.app import build_application
from bot.edge.preflight import preflight
from bot.edge.ptb_types import App
from bot.edge.webhook import run_webhook


def with_heartbeat(app: App) -> App:
    """``app`` with a job that writes the heartbeat ``python -m bot.boot.health`` reads (from the bot's event loop)."""
    assert app.job_queue is not None  # python-telegram-bot[job-queue] is a dependency
    app.job_queue.run_repeating(heartbeat_job, interval=HEARTBEAT_EVERY, first=1, name="heartbeat")
    return app


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bot",
        description="The Shengji / Guandan Telegram bot (long polling, "
        "or its webhook with TELEGRAM_WEBHOOK).",
        epilog="Every setting is an environment variable (TELEGRAM_BOT_TOKEN, DATABASE_URL, "
        "...): docs/deploy.md lists them.",
    )
    try:
        ap.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return 0 if stop.code in (0, None) else 2
    lang = console_language()
    settings = Settings()
    if not settings.TELEGRAM_BOT_TOKEN:
        print(StartupError("startup.no_token").line(lang), file=sys.stderr)
        return EXIT_NO_TOKEN
    try:
        asyncio.run(preflight(settings))
        app = with_probes(with_heartbeat(build_application(settings)))
    except StartupError as exc:  # one clear line for the person starting the bot
        print(exc.line(lang), file=sys.stderr)
        return EXIT_STARTUP
    configure(settings.LOG_FORMAT)  # text, or one JSON object a line with the update / match / table ids
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # import-time noise
    if settings.WEBAPP_PORT is None:  # the table page on a local port unless configured otherwise
        settings.WEBAPP_PORT = 8080
    if (
        settings.TELEGRAM_WEBHOOK
    ):  # one web server: the table page and the bot's webhook (bot/edge/webhook.py)
        return _run_webhook(app, settings)
    app.run_polling(allowed_updates=["message", "callback_query"], timeout=settings.POLL_TIMEOUT)
    return 0


def _run_webhook(app: App, settings: Settings) -> int:
    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await run_webhook(app, settings, stop=stop)

    asyncio.run(run())
    return 0


if __name__ == "__main__":
    sys.exit(main())
