"""A tiny python-telegram-bot Application used to prove PTB ↔ simulator compatibility."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.devtools.simulator import BotApiSimulator


async def _start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and update.effective_user is not None
    payload = " ".join(context.args or [])
    await update.effective_message.reply_text(
        f"Hello {update.effective_user.first_name}! payload={payload or '-'}"
    )


async def _echo(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and update.effective_message.text is not None
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("👍 Like", callback_data="like")]])
    await update.effective_message.reply_text(f"echo: {update.effective_message.text}", reply_markup=keyboard)


async def _burst(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_chat is not None
    count = int(context.args[0]) if context.args else 4
    for number in range(1, count + 1):
        await context.bot.send_message(update.effective_chat.id, f"burst {number}/{count}")


async def _like(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None and query.message is not None
    await query.answer("Liked!")
    await query.edit_message_text(f"{query.message.text} ❤")  # type: ignore[union-attr]


def build_echo_app(sim: BotApiSimulator) -> Application:  # type: ignore[type-arg]
    """Echo bot: /start greets, text is echoed with a Like button, /burst N sends N messages at once.

    PTB's own AIORateLimiter only retries on 429 here (no throttling of its own), so the simulator's
    retry_after is what paces /burst.
    """
    app = (
        Application.builder()
        .token(sim.token or "1:x")
        .base_url(sim.base_url)
        .base_file_url(sim.base_file_url)
        .rate_limiter(AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=5))
        .build()
    )
    app.add_handler(CommandHandler("start", _start))
    app.add_handler(CommandHandler("burst", _burst))
    app.add_handler(MessageHandler(filters.TEXT & ~filters.COMMAND, _echo))
    app.add_handler(CallbackQueryHandler(_like, pattern="^like$"))
    return app


@asynccontextmanager
async def running(app: Application) -> AsyncIterator[Application]:  # type: ignore[type-arg]
    """PTB's manual mode: initialize, start, poll; stop in reverse."""
    await app.initialize()
    await app.start()
    assert app.updater is not None
    await app.updater.start_polling(poll_interval=0.0, timeout=1)
    try:
        yield app
    finally:
        await app.updater.stop()
        await app.stop()
        await app.shutdown()
