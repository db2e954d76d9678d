"""python-telegram-bot's generic types as this bot fills them in (PTB's defaults, ``ApplicationBuilder()``):
the callback context ``Ctx`` and the Application ``App``.

PTB keeps the user, chat and bot data as plain dicts of anything (its ``ContextTypes`` default), so a value is
read by key into a typed local where it is used (``rt: Runtime = context.application.bot_data["runtime"]``).
"""

from __future__ import annotations

from typing import Any

from telegram.ext import Application, ContextTypes, ExtBot, JobQueue

Ctx = ContextTypes.DEFAULT_TYPE
Data = dict[Any, Any]  # PTB's default user / chat / bot data (telegram.ext.ContextTypes)
App = Application[ExtBot[None], Ctx, Data, Data, Data, JobQueue[Ctx]]

__all__ = ["App", "Ctx", "Data"]
