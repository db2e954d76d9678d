"""Start-up checks of ``python -m bot``: each failure is one translated line and an exit code, no traceback.

Checked in this order, before the bot starts polling:

1. ``TELEGRAM_BOT_TOKEN`` is set (``startup.no_token``, exit 2);
2. a CJK font draws Chinese for the bracket image (``startup.no_font`` / ``startup.font_not_usable``);
3. the database of ``DATABASE_URL`` answers (``startup.no_database``);
4. Telegram (or ``TELEGRAM_API_BASE_URL``) answers ``getMe`` and accepts the token
   (``startup.bad_token`` for 401/404, ``startup.no_network`` for a network error or time-out):
   bot/edge/preflight.py, which runs the four in this order (``preflight``).

Checks 2-4 raise :class:`StartupError` (exit 3). The line is in the console's language: English when
``LC_ALL`` / ``LC_MESSAGES`` / ``LANG`` (the first one set) starts with ``en``, else Chinese.
The token itself is never printed.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from sqlalchemy import text
from sqlalchemy.engine import make_url

from bot.presentation.i18n import t
from bot.presentation.tournament import FontMissing, ensure_cjk_font
from storage.db import create_engine_for

EXIT_NO_TOKEN = 2
EXIT_STARTUP = 3
DATABASE_TIMEOUT = 10.0  # seconds to wait for the database to answer


class StartupError(RuntimeError):
    """The bot cannot start: ``key`` names the message in the catalogues, ``params`` fill it.

    ``str(err)`` is the English line (for logs); :meth:`line` gives it in a language."""

    def __init__(self, key: str, **params: object) -> None:
        self.key = key
        self.params = params
        super().__init__(self.line("en"))

    def line(self, lang: str) -> str:
        return " ".join(t(lang, self.key, **self.params).split())


def console_language(environ: dict[str, str] | None = None) -> str:
    """``en`` when the first of LC_ALL, LC_MESSAGES, LANG that is set starts with ``en``; else ``zh``."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "en" if value.lower().startswith("en") else "zh"
    return "zh"


def reason_of(exc: BaseException) -> str:
    """A short one-line cause: the driver's error under SQLAlchemy's wrapper, its type and text."""
    inner = getattr(exc, "orig", None) or exc
    text = " ".join(str(inner).split())
    name = type(inner).__name__
    return (f"{name}: {text}" if text else name)[:200]


def check_cjk_font() -> Path:
    """A CJK font that draws Chinese, for the bracket image (else tofu boxes); StartupError when missing."""
    try:
        return ensure_cjk_font()
    except FontMissing as exc:
        override = os.environ.get("BOT_CJK_FONT", "").strip()
        if override:
            raise StartupError("startup.font_not_usable", path=override) from exc
        raise StartupError("startup.no_font") from exc


def _where(url: str) -> str:
    """The database named without its password: ``postgresql+asyncpg://bot@db:5432/bot`` or the SQLite file."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:  # an unparsable URL is shown as given, minus anything after a ':' in the user part
        return url.split("@")[-1]


async def check_database(url: str, timeout: float = DATABASE_TIMEOUT) -> None:
    """The database of ``url`` answers ``SELECT 1`` within ``timeout`` s; StartupError otherwise."""
    try:
        engine = create_engine_for(url)
    except Exception as exc:
        raise StartupError("startup.no_database", where=_where(url), reason=reason_of(exc)) from exc
    try:

        async def probe() -> None:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))

        await asyncio.wait_for(probe(), timeout)
    except TimeoutError as exc:
        raise StartupError(
            "startup.no_database", where=_where(url), reason=f"no answer in {timeout:g} s"
        ) from exc
    except Exception as exc:
        raise StartupError("startup.no_database", where=_where(url), reason=reason_of(exc)) from exc
    finally:
        await engine.dispose()
