"""``python -m bot`` (``make run``): the bot with long polling."""

from __future__ import annotations

import logging
import sys


def main() -> int:
    from bot.settings import TOKEN_HELP, Settings

    settings = Settings()
    if not settings.TELEGRAM_BOT_TOKEN:
        print(TOKEN_HELP, file=sys.stderr)
        return 2
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)  # import-time noise
    from bot.app import StartupError, build_application

    try:
        app = build_application(settings)
    except StartupError as exc:  # one clear line for the person starting the bot
        print(str(exc), file=sys.stderr)
        return 3
    if settings.WEBAPP_PORT is None:  # the table page on a local port unless configured otherwise
        settings.WEBAPP_PORT = 8080
    if settings.TELEGRAM_WEBHOOK:  # one web server: the table page and the bot's webhook (bot/webapp/webhook.py)
        return _run_webhook(app, settings)
    app.run_polling(allowed_updates=["message", "callback_query"], timeout=settings.POLL_TIMEOUT)
    return 0


def _run_webhook(app: object, settings: object) -> int:
    import asyncio
    import signal

    from bot.webapp.webhook import run_webhook

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        await run_webhook(app, settings, stop=stop)

    asyncio.run(main())
    return 0


if __name__ == "__main__":
    sys.exit(main())
