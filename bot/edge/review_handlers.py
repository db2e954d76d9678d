"""Handlers of the fairness and review commands: ``/review [deal]``, ``/replay``, ``/mix <words>``.

Thin: read the update, call ``bot.tables.review_requests`` / storage (``storage.match_repo``), answer through the outbox
(never awaiting it).  Registered by ``register`` (called from ``bot.edge.handlers.register``).
"""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import CommandHandler

from bot.boot.runtime import Runtime
from bot.edge.bad_input import rule_error_clipped
from bot.edge.ptb_types import App, Ctx
from bot.presentation.echo import clip
from bot.presentation.i18n import t
from bot.tables.review_requests import deliver, review_request
from engine.errors import RuleError
from storage import table_repo

log = logging.getLogger(__name__)

MIX_MAX = 30


def _rt(context: Ctx) -> Runtime:
    rt: Runtime = context.application.bot_data["runtime"]
    return rt


async def _review(update: Update, context: Ctx, whole_match: bool) -> None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    rt = _rt(context)
    deliver(rt, await review_request(rt, user, chat, list(context.args or []), whole_match=whole_match))


async def cmd_review(update: Update, context: Ctx) -> None:
    await _review(update, context, whole_match=False)


async def cmd_replay(update: Update, context: Ctx) -> None:
    await _review(update, context, whole_match=True)


async def cmd_mix(update: Update, context: Ctx) -> None:
    """A seated player adds words to the mix of an open tournament table (docs/fairness.md)."""
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    rt = _rt(context)
    lang = await rt.user_lang(user.id, user.language_code)
    words = clip(" ".join(context.args or []), MIX_MAX)
    if not words:
        rt.messages.send(chat.id, t(lang, "mix.usage"))
        return
    table = await table_repo.open_table_in_chat(rt.db, chat.id)
    if table is None:
        rt.messages.send(chat.id, t(lang, "err.no_table"))
        return
    try:
        await table_repo.add_mix_words(rt.db, table.id, user.id, words)
    except RuleError as err:
        rt.messages.send(chat.id, rule_error_clipped(lang, err))
        return
    rt.messages.send(chat.id, t(lang, "mix.added", words=words))
    render_lobby = getattr(rt, "render_lobby", None) or getattr(
        getattr(rt, "lobby", None), "render_lobby", None
    )
    if render_lobby is not None:
        await render_lobby(table.id)


def register(app: App) -> None:
    app.add_handler(CommandHandler("review", cmd_review))
    app.add_handler(CommandHandler("replay", cmd_replay))
    app.add_handler(CommandHandler("mix", cmd_mix))
