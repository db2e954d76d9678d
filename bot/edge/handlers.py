"""Every handler, registered in one place (``register``).  Handlers are thin: parse the update,
check who may do this, call the runtime, answer."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

from telegram import Chat, InlineKeyboardButton, InlineKeyboardMarkup, Update, User
from telegram.constants import ChatType
from telegram.ext import (
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.boot.logs import bind, bind_update
from bot.boot.runtime import Runtime
from bot.edge import privacy, ratelimit, review_handlers
from bot.edge.bad_input import card_left_my_hand, rule_error_clipped
from bot.edge.ptb_types import App, Ctx
from bot.edge.refusals import refusal_text
from bot.presentation import callbacks, render
from bot.presentation.i18n import normalize, t
from bot.presentation.keyboards import ctext, parse_hand
from bot.presentation.markup import Keyboard
from bot.tables.outcomes import Refusal, Why
from bot.tables.table_request import problems_message, read_request
from engine.cards import cards_text, parse_cards
from engine.errors import RuleError
from engine.registry import preset_ids
from engine.views import SeatView
from storage import match_repo, selection_repo, table_repo, user_repo
from storage.db import Database

log = logging.getLogger(__name__)


async def save_user(db: Database, user: User, *, started: bool | None = None) -> None:
    """Store a Telegram user (name, username, language); ``started=True``: they started the bot in private."""
    await user_repo.upsert_user(
        db,
        user.id,
        user.first_name or "",
        user.username,
        user.language_code,
        started_bot=True if started else None,
    )


async def save_chat(db: Database, chat: Chat) -> None:
    """Store a Telegram chat (kind and title)."""
    await user_repo.upsert_chat(db, chat.id, chat.type, getattr(chat, "title", None))


def rt_of(context: Ctx) -> Runtime:
    rt: Runtime = context.application.bot_data["runtime"]
    return rt


async def _lang(context: Ctx, update: Update) -> str:
    user = update.effective_user
    rt = rt_of(context)
    if user is None:
        return str(rt.group_lang())
    return str(await rt.user_lang(user.id, user.language_code))


async def _known(rt: Runtime, user: User, started: bool | None = None) -> None:
    """Store the user (name, language) once per process and whenever those change."""
    key = (user.id, user.first_name, user.username, user.language_code, bool(started))
    if key in rt.seen_users:
        return
    await save_user(rt.db, user, started=started)
    rt.forget_user_lang(user.id)
    if len(rt.seen_users) >= 10_000:  # bounded: forgetting only costs one more write of a user
        rt.seen_users.clear()
    rt.seen_users.add(key)


def _reply(
    context: Ctx, chat_id: int, text: str, markup: Keyboard | InlineKeyboardMarkup | None = None
) -> None:
    rt_of(context).messages.send(chat_id, text, markup)


def _refuse(context: Ctx, chat_id: int, user: User, text: str) -> None:
    """A group command refused: a note that waits behind the group's messages of record (a lobby, a result),
    and one person's refusals still queued fold into one (the newest text)."""
    rt_of(context).messages.send(chat_id, text, record=False, fold=("refused", getattr(user, "id", None)))


async def _answer(update: Update, text: str | None = None, alert: bool = False) -> None:
    q = update.callback_query
    if q is None:
        return
    try:
        await q.answer(text=(text or "")[:200] or None, show_alert=alert)
    except Exception as exc:  # an old query, network trouble: never fatal
        log.info("answerCallbackQuery failed: %s", exc)


# --- commands ------------------------------------------------------------------------------------


async def cmd_start(update: Update, context: Ctx) -> None:
    rt = rt_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    private = chat.type == ChatType.PRIVATE
    await save_user(rt.db, user, started=private or None)
    rt.forget_user_lang(user.id)
    lang = await _lang(context, update)
    if not private:
        _reply(context, chat.id, t(lang, "help.text"))
        return
    payload = context.args[0] if context.args else ""
    if payload.startswith("join_"):
        try:
            _, table_id, seat = payload.split("_")
            refused = await rt.lobby.join(int(table_id), int(seat), user.id)
            err = None if refused is None or refused.why is Why.NEED_START else refusal_text(lang, refused)
        except ValueError:  # (NEED_START cannot happen: we just marked the user)
            err = t(lang, "err.bad_link")
        if err:
            _reply(context, chat.id, err)
        else:
            _reply(
                context,
                chat.id,
                t(lang, "start.seated", seat=render.seat_name(lang, int(seat)), table=table_id),
            )
        return
    _reply(context, chat.id, t(lang, "start.welcome") + "\n\n" + t(lang, "help.text"))
    found = await rt.driver.user_match(user.id)
    if found is not None:  # their current hand again (a new message if needed)
        await rt.live.show_hand(*found, user.id)


async def cmd_help(update: Update, context: Ctx) -> None:
    chat = update.effective_chat
    if chat is None:
        return
    lang = await _lang(context, update)
    _reply(
        context,
        chat.id,
        t(lang, "help.text") + "\n" + t(lang, "help.presets", presets=", ".join(preset_ids())),
    )


async def cmd_lang(update: Update, context: Ctx) -> None:
    rt = rt_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    await save_user(rt.db, user)
    rt.forget_user_lang(user.id)
    arg = (context.args[0] if context.args else "").lower()
    if arg in ("zh", "zh-cn", "中文", "cn", "en", "english"):
        lang = "en" if arg.startswith("en") else "zh"
        if chat.type != ChatType.PRIVATE:
            # in a group: the group's language (its admins only); the user's own stays as it is
            if not await _is_admin(context, chat.id, user.id):
                _refuse(context, chat.id, user, t(await _lang(context, update), "err.only_admin"))
                return
            await rt.set_chat_lang(chat.id, lang)
            _reply(context, chat.id, t(lang, "lang.group_set"))
            return
        await user_repo.set_lang_override(rt.db, user.id, lang)
        rt.forget_user_lang(user.id)
        _reply(context, chat.id, t(lang, "lang.set"))
        return
    lang = await _lang(context, update)
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton("中文", callback_data=callbacks.LangButton("zh").encode()),
                InlineKeyboardButton("English", callback_data=callbacks.LangButton("en").encode()),
            ]
        ]
    )
    _reply(context, chat.id, t(lang, "lang.choose"), markup)


async def _is_admin(context: Ctx, chat_id: int, user_id: int) -> bool:
    if user_id in rt_of(context).settings.BOT_ADMIN_IDS:
        return True
    try:
        member = await context.bot.get_chat_member(chat_id, user_id)
    except Exception:
        return False
    return member.status in ("administrator", "creator")


async def cmd_newtable(update: Update, context: Ctx) -> None:
    rt = rt_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    await save_user(rt.db, user)
    rt.forget_user_lang(user.id)
    lang = await _lang(context, update)
    if chat.type == ChatType.PRIVATE:
        _reply(context, chat.id, t(lang, "newtable.group_only"))
        return
    await save_chat(rt.db, chat)
    # every bad option in one message (bot/tables/table_request.py); seed= only from a bot admin or at a practice table
    req = read_request(lang, list(context.args or []), may_fix_seed=user.id in rt.admin_ids)
    if isinstance(req, list):
        _refuse(context, chat.id, user, problems_message(lang, req))
        return
    refused = await rt.lobby.new_table(chat.id, user.id, req)
    if refused is not None:
        _refuse(context, chat.id, user, refusal_text(lang, refused))


async def _on_open_table(
    update: Update, context: Ctx, act: Callable[[Runtime, int, User], Awaitable[Refusal | None]]
) -> None:
    """A group command acting on the chat's open table: ``act(runtime, table_id, user)`` returns why it
    did nothing (or None), said in the user's language; no open table gets "no table"."""
    rt = rt_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None:
        return
    lang = await _lang(context, update)
    table = await table_repo.open_table_in_chat(rt.db, chat.id)
    if table is None:
        _refuse(context, chat.id, user, t(lang, "err.no_table"))
        return
    refused = await act(rt, table.id, user)
    if refused is not None:
        _refuse(context, chat.id, user, refusal_text(lang, refused))


async def cmd_leave(update: Update, context: Ctx) -> None:
    await _on_open_table(update, context, lambda rt, table_id, user: rt.lobby.leave(table_id, user))


async def cmd_stop(update: Update, context: Ctx) -> None:
    chat, user = update.effective_chat, update.effective_user
    admin = (
        chat is not None
        and user is not None
        and chat.type != ChatType.PRIVATE
        and await _is_admin(context, chat.id, user.id)
    )
    await _on_open_table(
        update, context, lambda rt, table_id, user: rt.lobby.stop_table(table_id, user, group_admin=admin)
    )


# --- buttons -------------------------------------------------------------------------------------


async def on_button(update: Update, context: Ctx) -> None:
    t0 = time.perf_counter()
    q = update.callback_query
    if q is None or q.from_user is None:
        return
    rt = rt_of(context)
    user = q.from_user
    await _known(rt, user)
    lang = await rt.user_lang(user.id, user.language_code)
    button = callbacks.parse(q.data)
    bind(match_id=getattr(button, "match_id", None), table_id=getattr(button, "table_id", None))
    if isinstance(button, callbacks.LangButton) and button.lang not in ("zh", "en"):
        await _answer(update, t(lang, "err.bad_language"))  # a forged or stale code: say so, change nothing
    elif isinstance(button, callbacks.LangButton):
        new = normalize(button.lang)
        await user_repo.set_lang_override(rt.db, user.id, new)
        rt.forget_user_lang(user.id)
        await _answer(update, t(new, "lang.set"))
    elif isinstance(button, callbacks.ResumeButton):
        refused = await rt.driver.resume_match(button.match_id, user)
        await _answer(update, refusal_text(lang, refused) if refused else t(lang, "resume.ok"))
    elif isinstance(button, callbacks.TableButton):
        await table_button(update, context, button, user, lang)
    elif isinstance(button, callbacks.HandButton):
        await hand_button(update, context, button, user, lang, t0)
    else:
        await _answer(update, t(lang, "err.stale"))


async def table_button(
    update: Update, context: Ctx, button: callbacks.TableButton, user: User, lang: str
) -> None:
    rt = rt_of(context)
    table_id = button.table_id
    if button.op is callbacks.TableOp.JOIN:
        seat = int(button.seat or 0)
        refused = await rt.lobby.join(table_id, seat, user.id)
        if refused is not None and refused.why is Why.NEED_START:
            await _answer(update, t(lang, "join.need_start"), alert=True)
            table = await table_repo.get_table(rt.db, table_id)
            if table is not None:
                glang = await rt.chat_lang(table.chat_id)
                rt.messages.send(
                    table.chat_id,
                    t(glang, "join.open_chat", name=user.first_name, seat=render.seat_name(glang, seat)),
                    render.open_chat_button(glang, rt.bot_username, f"join_{table_id}_{seat}"),
                )
            return
        await _answer(
            update,
            refusal_text(lang, refused) if refused else t(lang, "join.ok", seat=render.seat_name(lang, seat)),
        )
    elif button.op is callbacks.TableOp.START:
        # answered once the start is committed, while the table message and the hands are rendered
        refused = await rt.lobby.start_table(
            table_id, user, on_started=lambda: rt.spawn(_answer(update, t(lang, "start.ok")))
        )
        if refused is not None:
            await _answer(update, refusal_text(lang, refused))
    else:
        refused = await rt.lobby.leave(table_id, user)
        await _answer(update, refusal_text(lang, refused) if refused else t(lang, "leave.ok"))


async def hand_button(
    update: Update, context: Ctx, button: callbacks.HandButton, user: User, lang: str, t0: float
) -> None:
    rt = rt_of(context)
    Op = callbacks.HandOp
    match_id, deal, op = button.match_id, button.deal, button.op
    seat = await rt.driver.seat_of_user(match_id, user.id)
    if seat is None:
        answer = t(lang, "err.stale") if rt.seats.get(match_id) is None else t(lang, "err.not_your_table")
        await _answer(update, answer, alert=answer != t(lang, "err.stale"))
        return
    if op in (Op.TAP, Op.CLEAR):
        await _tap(update, rt, button, seat, user, lang)
        return
    try:
        row, m = await match_repo.match_state(rt.db, match_id)
    except RuleError:
        await _answer(update, t(lang, "err.stale"))
        return
    if row.status not in ("playing", "paused"):
        await _answer(update, t(lang, "err.stale"))
        return
    view = m.seat_view(seat)
    if render.deal_marker(row.game, view) != deal:
        await _answer(update, t(lang, "err.stale"))
        return
    selection = await _selection(rt, match_id, seat, deal)
    my = _my_kinds(view)
    sel = cards_text(selection)
    wanted = {
        Op.BURY: ("kitty", "rebury"),
        Op.TRIBUTE: ("tribute", "return"),
        Op.BID: ("bid", "overturn"),
        Op.OVERTURN: ("overturn", "bid"),
        Op.CHOOSE: ("choose",),
    }.get(op)
    if wanted is not None and not set(wanted) & set(my):
        await _answer(update, t(lang, "err.not_your_move"))  # e.g. a forged bury press by a non-dealer
        return
    if op in (Op.PLAY, Op.BURY, Op.TRIBUTE, Op.PLAY_AS) and not selection:
        await _answer(update, t(lang, "err.select_first"))
        return
    if op is Op.PLAY:
        action = f"{seat} play {sel}"
    elif op is Op.PLAY_AS:
        action = f"{seat} play {sel} as {button.word}"
    elif op is Op.BURY:
        action = f"{seat} bury {sel}"
    elif op is Op.TRIBUTE:
        action = f"{seat} {'return' if 'return' in my else 'tribute'} {sel}"
    elif op in (Op.BID, Op.OVERTURN):
        action = f"{seat} {'overturn' if op is Op.OVERTURN else 'bid'} {cards_text(list(button.cards))}"
    elif op is Op.PASS_BID:
        action = f"{seat} {'pass_overturn' if 'overturn' in my else 'pass_bid'}"
    elif op is Op.PASS:
        action = f"{seat} pass"
    elif op is Op.ASK_COUNTS:
        action = f"{seat} ask_counts"
    else:  # Op.CHOOSE
        action = f"{seat} choose {button.word}"
    query_id = update.callback_query.id if update.callback_query is not None else None
    acted = await rt.driver.act(match_id, seat, action, user_id=user.id, dedupe=f"cb:{query_id}", t0=t0)
    await _answer(update, refusal_text(lang, acted.refusal) if acted.refusal else None)


async def _selection(rt: Runtime, match_id: int, seat: int, deal: int) -> list[int]:
    """The cards the seat has tapped in this deal's hand message."""
    cards, sel_deal = await selection_repo.selected(rt.db, match_id, seat)
    if not cards or sel_deal != deal:
        return []
    return parse_cards(cards)


async def _tap(
    update: Update, rt: Runtime, button: callbacks.HandButton, seat: int, user: User, lang: str
) -> None:
    """Tap a card (select / unselect that copy) or clear the selection.  Under the match's lock, so a
    tap never races a play of the same seat (a clock's auto-play clears the selection).  The answer
    on the button says what is selected; the hand message shows it after a short delay (a Play
    pressed meanwhile makes that edit unneeded)."""
    match_id, deal = button.match_id, button.deal
    async with rt.lock(match_id):
        try:
            row, m = await match_repo.match_state(rt.db, match_id)
        except RuleError:
            await _answer(update, t(lang, "err.stale"))
            return
        view = m.seat_view(seat)
        if row.status not in ("playing", "paused") or render.deal_marker(row.game, view) != deal:
            answer = t(lang, "err.stale")
        else:
            selection = await _selection(rt, match_id, seat, deal)
            if button.op is callbacks.HandOp.CLEAR:
                selection = []
                answer = t(lang, "tap.cleared")
            else:
                card, copy = int(button.card or 0), button.copy
                if parse_hand(view).count(card) <= copy:
                    played = await card_left_my_hand(rt.db, match_id, seat, card)
                    await _answer(update, t(lang, "err.card_played" if played else "err.not_your_card"))
                    return
                have = selection.count(card)
                selection = [c for c in selection if c != card]
                selection += [card] * (copy if have > copy else copy + 1)
                answer = (
                    t(lang, "tap.selected", cards=ctext(lang, cards_text(selection)))
                    if selection
                    else t(lang, "tap.cleared")
                )
            await selection_repo.set_selection(rt.db, match_id, seat, cards_text(selection), deal)
            await rt.live.render_hand(
                row, m, seat, user.id, view=view, selection=selection, delay=rt.settings.TAP_EDIT_DELAY
            )
    await _answer(update, answer)


def _my_kinds(view: SeatView) -> list[str]:
    if "my_turns" in view:
        return list(view.get("my_turns") or [])
    hint = view.get("hint")
    return [hint["kind"]] if hint else []


# --- typed plays ---------------------------------------------------------------------------------

PASS_WORDS = {"pass", "p", "不要", "过", "要不起", "pass_bid", "不亮", "不反"}


async def on_private_text(update: Update, context: Ctx) -> None:
    t0 = time.perf_counter()
    rt = rt_of(context)
    msg, user = update.effective_message, update.effective_user
    if msg is None or user is None or not msg.text:
        return
    await _known(rt, user, started=True)
    lang = await rt.user_lang(user.id, user.language_code)
    found = await rt.driver.user_match(user.id)
    if found is None:
        _reply(context, msg.chat_id, t(lang, "typed.no_match"))
        return
    match_id, seat = found
    row, m = await match_repo.match_state(rt.db, match_id)
    view = m.seat_view(seat)
    my = _my_kinds(view)
    text = msg.text.strip()
    low = text.lower()
    if low in PASS_WORDS:
        if "overturn" in my:
            action = f"{seat} pass_overturn"
        elif "bid" in my:
            action = f"{seat} pass_bid"
        else:
            action = f"{seat} pass"
    elif low in ("问张数", "counts", "ask"):
        action = f"{seat} ask_counts"
    elif "choose" in my and low in ("pair", "single", "tractor"):
        action = f"{seat} choose {low}"
    else:
        try:
            cards = parse_cards(text)
        except RuleError as err:
            _reply(context, msg.chat_id, rule_error_clipped(lang, err) + "\n" + t(lang, "typed.hint"))
            return
        if not cards:
            _reply(context, msg.chat_id, t(lang, "typed.hint"))
            return
        verb = "play"
        for kind, v in (
            ("kitty", "bury"),
            ("rebury", "bury"),
            ("tribute", "tribute"),
            ("return", "return"),
            ("overturn", "overturn"),
            ("lead", "play"),
            ("follow", "play"),
            ("play", "play"),
        ):
            if kind in my:
                verb = v
                break
        else:
            if view.get("legal_bids") and "bid" in my:
                verb = "bid"
        action = f"{seat} {verb} {cards_text(cards)}"
        if verb == "play":
            try:
                readings = m.readings_for(seat, cards)
            except RuleError:
                readings = []
            if len(readings) > 1:
                # several readings (wild cards): select the cards so the hand keyboard offers one button each
                deal = render.deal_marker(row.game, view)
                async with rt.lock(match_id):  # a tap of the same seat is under the lock too
                    await selection_repo.set_selection(rt.db, match_id, seat, cards_text(cards), deal)
                    row2, m2 = await match_repo.match_state(rt.db, match_id)
                    await rt.live.render_hand(row2, m2, seat, user.id)
                level = view.get("level")
                labels = " / ".join(r.label(level) if level is not None else r.reading_id() for r in readings)
                _reply(
                    context,
                    msg.chat_id,
                    t(lang, "err.choose_reading", cards=cards_text(cards), labels=labels),
                )
                return
    acted = await rt.driver.act(
        match_id, seat, action, user_id=user.id, dedupe=f"upd:{update.update_id}", t0=t0
    )
    if acted.refusal:
        _reply(context, msg.chat_id, refusal_text(lang, acted.refusal))


# --- errors --------------------------------------------------------------------------------------


async def on_error(update: object, context: Ctx) -> None:
    log.error("error while handling an update", exc_info=context.error)
    if not isinstance(update, Update):
        return
    try:
        rt = rt_of(context)
        user = update.effective_user
        lang = await rt.user_lang(user.id if user else None, user.language_code if user else None)
    except Exception:
        lang = "zh"
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(t(lang, "err.internal"))
        elif update.effective_chat is not None:
            rt_of(context).messages.send(update.effective_chat.id, t(lang, "err.internal"))
    except Exception:
        pass


def register(app: App) -> None:
    app.add_handler(
        TypeHandler(Update, bind_update), group=-1000
    )  # log lines name the update (bot/boot/logs.py)
    ratelimit.install(app)  # the per-user rate limit runs before every other handler
    review_handlers.register(app)
    app.add_handler(CommandHandler("start", cmd_start))
    app.add_handler(CommandHandler("help", cmd_help))
    app.add_handler(CommandHandler("lang", cmd_lang))
    app.add_handler(CommandHandler("newtable", cmd_newtable))
    app.add_handler(CommandHandler("leave", cmd_leave))
    app.add_handler(CommandHandler("stop", cmd_stop))
    privacy.register(app)  # /privacy, /mydata, /forget and their button (before the catch-all one)
    app.add_handler(CallbackQueryHandler(on_button))
    app.add_handler(
        MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, on_private_text)
    )
    app.add_error_handler(on_error)
