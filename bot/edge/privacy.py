"""Members' data (issue 21): ``/privacy`` (what is kept, why, for how long), ``/mydata`` (the member's data
as a JSON file, private chat only), ``/forget`` (remove it, after a confirmation button; refused while the
member is seated at a live table or registered in a tournament that has not ended).

Thin: read the update, call ``storage.privacy_repo``, answer through the outbox.  After ``/forget`` the
in-memory copies of the member are dropped (the users the handlers have stored, their language, the
names of the tables they sat at): a member who writes again is stored as a new user from what Telegram
sends then.  Registered by ``register`` (from ``bot.edge.handlers.register``, before the catch-all button
handler).
"""

from __future__ import annotations

import json
import logging
import time

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update, User
from telegram.constants import ChatType
from telegram.ext import CallbackQueryHandler, CommandHandler

from bot.boot.runtime import Runtime
from bot.edge.ptb_types import App, Ctx
from bot.presentation.i18n import normalize, t
from storage import privacy_repo
from storage.tournaments import player_ratings

log = logging.getLogger(__name__)

PREFIX = "pv:"
CONFIRM_SECONDS = 600  # a confirmation button older than this is refused (asked again)


def _rt(context: Ctx) -> Runtime:
    rt: Runtime = context.application.bot_data["runtime"]
    return rt


async def _lang(rt: Runtime, user: User) -> str:
    return str(await rt.user_lang(user.id, user.language_code))


def _private_only(rt: Runtime, chat: Chat, user: User, lang: str, command: str) -> bool:
    """True when the command may go on (a private chat); in a group: one answer saying where to use it."""
    if chat.type == ChatType.PRIVATE:
        return True
    rt.messages.send(
        chat.id, t(lang, "privacy.private_only", command=command), record=False, fold=("refused", user.id)
    )
    return False


def _retention(rt: Runtime, lang: str) -> str:
    days = float(getattr(rt.settings, "CASUAL_RETENTION_DAYS", 0) or 0)
    if days > 0:
        return t(lang, "privacy.retention_days", days=f"{days:g}")
    return t(lang, "privacy.retention_keep")


async def cmd_privacy(update: Update, context: Ctx) -> None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    rt = _rt(context)
    lang = await _lang(rt, user) if chat.type == ChatType.PRIVATE else await rt.chat_lang(chat.id)
    rt.messages.send(chat.id, t(lang, "privacy.text", retention=_retention(rt, lang)))


async def user_export(rt: Runtime, user_id: int) -> dict[str, object]:
    ratings = (await player_ratings(rt.db)).of_player(str(user_id))
    shown = {
        game: {"rating": r.shown, "games": r.games, "provisional": r.provisional}
        for game, r in ratings.items()
    }
    return await privacy_repo.export_user(rt.db, user_id, shown)


async def cmd_mydata(update: Update, context: Ctx) -> None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    rt = _rt(context)
    lang = await _lang(rt, user)
    if not _private_only(rt, chat, user, lang, "/mydata"):
        return
    data = await user_export(rt, user.id)
    body = json.dumps(data, ensure_ascii=False, indent=2, default=str).encode("utf-8")
    assert rt.outbox is not None  # started before any update is handled
    rt.outbox.send_document_nowait(chat.id, body, f"mydata-{user.id}.json", t(lang, "privacy.mydata_caption"))


def _confirm_markup(lang: str) -> InlineKeyboardMarkup:
    now = int(time.time())
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(t(lang, "privacy.forget_yes"), callback_data=f"{PREFIX}forget:{now}"),
                InlineKeyboardButton(t(lang, "privacy.forget_no"), callback_data=f"{PREFIX}keep"),
            ]
        ]
    )


def _refused_text(lang: str, refused: privacy_repo.Refusal) -> str:
    return t(lang, f"privacy.refused_{refused.reason}", ref=refused.ref)


async def cmd_forget(update: Update, context: Ctx) -> None:
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    rt = _rt(context)
    lang = await _lang(rt, user)
    if not _private_only(rt, chat, user, lang, "/forget"):
        return
    async with rt.db.session() as s:
        refused = await privacy_repo.refusal(s, user.id)
    if refused is not None:
        rt.messages.send(chat.id, _refused_text(lang, refused))
        return
    rt.messages.send(chat.id, t(lang, "privacy.forget_confirm"), _confirm_markup(lang))


def forget_caches(rt: Runtime, user_id: int, table_ids: list[int]) -> None:
    """Drop every in-memory copy of the member: the users the handlers stored (``seen_users``), their
    language, the names of the tables they sat at (``bot/tables/names.py``)."""
    for key in [k for k in rt.seen_users if k and k[0] == user_id]:
        rt.seen_users.discard(key)
    rt.forget_user_lang(user_id)
    for table_id in table_ids:
        rt.names.forget(table_id)


async def _answer(update: Update, text: str, alert: bool = False) -> None:
    q = update.callback_query
    if q is None:
        return
    try:
        await q.answer(text=text[:200], show_alert=alert)
    except Exception as exc:  # an old query, network trouble: never fatal
        log.info("answerCallbackQuery failed: %s", exc)


async def on_privacy_button(update: Update, context: Ctx) -> None:
    q = update.callback_query
    if q is None or q.from_user is None:
        return
    rt = _rt(context)
    user = q.from_user
    lang = await _lang(rt, user)
    data = q.data or ""
    chat_id = q.message.chat.id if q.message is not None else user.id
    if data == f"{PREFIX}keep":
        await _answer(update, t(lang, "privacy.forget_kept"))
        rt.messages.send(chat_id, t(lang, "privacy.forget_kept"))
        return
    stamp = data.removeprefix(f"{PREFIX}forget:")
    if not data.startswith(f"{PREFIX}forget:") or not stamp.isdigit():
        await _answer(update, t(lang, "err.stale"))
        return
    if chat_id != user.id:  # a button forwarded out of the private chat
        await _answer(update, t(lang, "privacy.private_only", command="/forget"), alert=True)
        return
    if time.time() - int(stamp) > CONFIRM_SECONDS:
        await _answer(update, t(lang, "privacy.forget_expired"), alert=True)
        return
    tables = [row["table_id"] for row in (await privacy_repo.export_user(rt.db, user.id))["tables"]]
    result = await privacy_repo.forget_user(
        rt.db,
        user.id,
        lambda n, code: t(normalize(code, rt.settings.BOT_LANGUAGE), "privacy.placeholder", n=n),
    )
    if isinstance(result, privacy_repo.Refusal):
        text = _refused_text(lang, result)
        await _answer(update, text, alert=True)
        rt.messages.send(chat_id, text)
        return
    forget_caches(rt, user.id, tables)
    log.info("privacy: a member's data was removed (placeholder #%s)", result)
    await _answer(update, t(lang, "privacy.forgotten"))
    rt.messages.send(chat_id, t(lang, "privacy.forgotten"))


def register(app: App) -> None:
    app.add_handler(CommandHandler("privacy", cmd_privacy))
    app.add_handler(CommandHandler("mydata", cmd_mydata))
    app.add_handler(CommandHandler("forget", cmd_forget))
    app.add_handler(CallbackQueryHandler(on_privacy_button, pattern=f"^{PREFIX}"))
