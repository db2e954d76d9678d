"""The start-up checks of ``python -m bot`` that ask Telegram (``getMe``), and all of them in order
(``preflight``; the others, and what each failure says, in bot/boot/startup.py)."""

from __future__ import annotations

from telegram import Bot
from telegram.error import InvalidToken, NetworkError
from telegram.request import HTTPXRequest

from bot.boot.settings import Settings
from bot.boot.startup import StartupError, check_cjk_font, check_database, reason_of

TELEGRAM_TIMEOUT = 10.0  # seconds to connect to / read from the Bot API at start-up


async def check_telegram(settings: Settings, timeout: float = TELEGRAM_TIMEOUT) -> None:
    """``getMe`` answers and accepts the token; StartupError ``bad_token`` / ``no_network`` otherwise."""
    base = settings.TELEGRAM_API_BASE_URL or "https://api.telegram.org/bot"
    request = HTTPXRequest(connect_timeout=timeout, read_timeout=timeout)
    try:
        bot = Bot(settings.TELEGRAM_BOT_TOKEN, base_url=base, request=request)
    except InvalidToken as exc:
        raise StartupError("startup.bad_token", reason="format") from exc
    try:
        await bot.initialize()  # calls getMe
    except InvalidToken as exc:
        raise StartupError("startup.bad_token", reason="401/404") from exc
    except NetworkError as exc:  # TimedOut is a NetworkError
        raise StartupError(
            "startup.no_network", url=base.removesuffix("/bot"), reason=reason_of(exc)
        ) from exc
    finally:
        await bot.shutdown()
        await request.shutdown()


async def preflight(settings: Settings) -> None:
    """Checks 2-4 of bot/boot/startup.py; raises the first StartupError."""
    check_cjk_font()
    await check_database(settings.DATABASE_URL)
    await check_telegram(settings)
