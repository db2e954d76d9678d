"""The tournament side's button presses (``T:`` buttons) and the presses of players a substitute replaced."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update
from telegram.ext import ApplicationHandlerStop

from bot.edge.handlers import save_user
from bot.edge.tournament import setup
from bot.edge.tournament.call import Ctx, lang_of, setup_ports, tb_of
from bot.edge.tournament.organiser import confirmed, dashboard_button
from bot.edge.tournament.registration import accept, accept_replacement, make_invite
from bot.presentation import callbacks
from bot.presentation.callbacks import TournamentOp as Op
from bot.presentation.i18n import t
from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments.wiring import TournamentBot
from engine.errors import RuleError
from storage import tournaments as ts

log = logging.getLogger(__name__)


# an answer to these is also sent privately (a lasting message, not only the button's passing note)
_TOLD_PRIVATELY = (Op.ACCEPT_INVITE, Op.UNION_GROUP, Op.ACCEPT_REPLACEMENT, Op.CONFIRM)


async def _pressed(
    tb: TournamentBot, q: CallbackQuery, user_id: int, lang: str, button: callbacks.TournamentButton | None
) -> str | None:
    """Carry out a tournament button; the answer to show (None: none)."""
    if button is None:  # forged, truncated, or of a version that made other buttons
        return t(lang, "err.stale")
    op, tid = button.op, button.tournament_id
    if op is Op.UNION_GROUP:
        row = await ts.get_tournament(tb.ctx.db, tid)
        groups = row.union_groups or []
        if button.index >= len(groups):
            return t(lang, "err.stale")
        await make_invite(tb, user_id, lang, tid, str(groups[button.index]["name"]))
        return None
    if op is Op.ACCEPT_INVITE:
        return await accept(tb, user_id, lang, button.token)
    if op in (Op.DASHBOARD, Op.DASHBOARD_STOP):  # refresh the dashboard / stop following
        return await dashboard_button(tb, q, user_id, lang, tid, stop=op is Op.DASHBOARD_STOP)
    if op is Op.CONFIRM:  # confirm cancelling / deleting a tournament
        answer = await confirmed(tb, user_id, lang, tid, button.word, button.token)
        tb.ctx.send(user_id, answer)
        return answer
    if op is Op.ACCEPT_REPLACEMENT:
        return await accept_replacement(tb, user_id, lang, button.token)
    if op is Op.CHECK_IN:
        refused = await tb.tables.check_in(tid, button.word, user_id)
        ulang = await tb.ctx.ulang(user_id)  # the player's own language, as the check-in note's answer
        return tt(ulang, "checkin.ok") if refused is None else error_text(ulang, refused)
    return await setup.button(setup_ports(tb), user_id, lang, list(button.words))  # the guided set-up


async def on_button(update: Update, context: Ctx) -> None:
    q = update.callback_query
    if q is None or not (q.data or "").startswith("T:"):
        return
    tb = tb_of(context)
    user = update.effective_user
    assert user is not None
    await save_user(tb.ctx.db, user)
    lang = await lang_of(tb, update)
    button = callbacks.parse_tournament(q.data)
    answer: str | None = None
    try:
        answer = await _pressed(tb, q, user.id, lang, button)
    except RuleError as err:
        answer = error_text(lang, err)
        if button is not None and button.op in _TOLD_PRIVATELY:
            tb.ctx.send(user.id, answer)
    except Exception:
        log.exception("tournament button failed")
        answer = tt(lang, "internal")
    try:
        await q.answer(text=(answer or "")[:200] or None)
    except Exception as exc:
        log.info("answerCallbackQuery failed: %s", exc)
    raise ApplicationHandlerStop


async def on_replaced_press(update: Update, context: Ctx) -> None:
    """A hand button pressed by a player a substitute replaced in that match: a clear answer, nothing
    changes.  Anyone else's press goes on to the play side (a dictionary look-up, no database call)."""
    q, user = update.callback_query, update.effective_user
    if q is None or user is None:
        return
    tb = tb_of(context)
    if not tb.substitutes.replaced.get(user.id):
        return
    button = callbacks.parse(q.data)
    if not isinstance(button, callbacks.HandButton):
        return
    if not await tb.substitutes.refuse_replaced(user.id, button.match_id):
        return
    answer = tt(await lang_of(tb, update), "sub.refused")
    try:
        await q.answer(text=answer[:200], show_alert=True)
    except Exception as exc:
        log.info("answerCallbackQuery failed: %s", exc)
    raise ApplicationHandlerStop
