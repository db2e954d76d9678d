"""The tournament side's button presses (``T:`` buttons) and the presses of players a substitute replaced."""

from __future__ import annotations

import logging

from telegram import Update
from telegram.ext import ApplicationHandlerStop

from bot.edge import callbacks
from bot.edge.handlers import save_user
from bot.edge.tournament import setup
from bot.edge.tournament.call import Ctx, lang_of, setup_ports, tb_of
from bot.edge.tournament.organiser import confirmed, dashboard_button
from bot.edge.tournament.registration import accept, accept_replacement, make_invite
from bot.presentation.tournament.texts import error_text, tt
from engine.errors import RuleError
from storage import tournaments as ts

log = logging.getLogger(__name__)


# --- buttons -----------------------------------------------------------------------------------------

async def on_button(update: Update, context: Ctx) -> None:
    q = update.callback_query
    if q is None or not (q.data or "").startswith("T:"):
        return
    tb = tb_of(context)
    user = update.effective_user
    assert user is not None
    await save_user(tb.ctx.db, user)
    lang = await lang_of(tb, update)
    parts = (q.data or "").split(":")
    answer: str | None = None
    try:
        op = parts[1]
        if op == "g":  # union group chosen
            tid, idx = int(parts[2]), int(parts[3])
            row = await ts.get_tournament(tb.ctx.db, tid)
            await make_invite(tb, user.id, lang, tid, str(row.union_groups[idx]["name"]))
        elif op == "a":  # accept an invitation
            answer = await accept(tb, user.id, lang, parts[2])
        elif op in ("d", "ds"):  # refresh the dashboard / stop following
            answer = await dashboard_button(tb, q, user.id, lang, int(parts[2]), stop=op == "ds")
        elif op == "x":  # confirm cancelling / deleting a tournament
            answer = await confirmed(tb, user.id, lang, int(parts[2]), parts[3], parts[4] if len(parts) > 4 else "")
            tb.ctx.send(user.id, answer)
        elif op == "r":  # accept a replacement offer
            answer = await accept_replacement(tb, user.id, lang, parts[2])
        elif op == "c":  # check in
            answer = await tb.tables.check_in(int(parts[2]), parts[3], user.id)
        elif op == "s":  # guided set-up button
            answer = await setup.button(setup_ports(tb), user.id, lang, parts[2:])
    except RuleError as err:
        answer = error_text(lang, err)
        if parts[1] in ("a", "g", "r", "x"):
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
    answer = await tb.substitutes.replaced_answer(user.id, button.match_id, await lang_of(tb, update))
    if answer is None:
        return
    try:
        await q.answer(text=answer[:200], show_alert=True)
    except Exception as exc:
        log.info("answerCallbackQuery failed: %s", exc)
    raise ApplicationHandlerStop
