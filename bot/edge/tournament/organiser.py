"""The organiser's commands: creating a tournament (guided, or from a TOML file), linking its groups,
roles, closing registration, the draw, editing times and tables, the dashboard, cancelling."""

from __future__ import annotations

import logging
import re
from datetime import datetime

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.ext import ApplicationHandlerStop

from bot.edge.tournament import setup
from bot.edge.tournament.call import ORG, Call, Ctx, command, guarded, lang_of, reply, setup_ports, tb_of
from bot.presentation.callbacks import TournamentButton, TournamentOp
from bot.presentation.tournament.texts import draw_refused_text, error_text, tt
from bot.tournaments import views
from bot.tournaments.dashboard_text import ENDED
from bot.tournaments.wiring import TournamentBot
from engine.errors import RuleError
from engine.registry import load_preset
from storage import tournaments as ts
from storage.tournament_models import Tournament

log = logging.getLogger(__name__)


# --- set-up ---------------------------------------------------------------------------------------


@guarded
async def cmd_tournament(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type != ChatType.PRIVATE:
        reply(update, tb, tt(lang, "private_only"))
        return
    if not tb.ctx.is_admin(user.id):
        reply(update, tb, tt(lang, "setup.admin_only"))
        return
    await setup.begin(setup_ports(tb), user.id, lang)


@guarded
async def cmd_cancel(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    if not await setup.cancel(setup_ports(tb), user.id, lang):
        reply(update, tb, tt(lang, "done"))


async def on_private_text(update: Update, context: Ctx) -> None:
    """A guided set-up answer, or a pasted tournament TOML; anything else goes on to the play side."""
    tb = tb_of(context)
    user, msg = update.effective_user, update.effective_message
    if user is None or msg is None or not msg.text:
        return
    # a typed play by a player a substitute replaced
    if tb.substitutes.replaced.get(user.id) and await tb.substitutes.refuse_replaced(user.id, None):
        tb.ctx.send(user.id, tt(await lang_of(tb, update), "sub.refused"))
        raise ApplicationHandlerStop
    draft = await setup.draft_of(setup_ports(tb), user.id)
    looks_like_toml = bool(re.search(r"^\s*preset\s*=", msg.text, re.M)) and "name" in msg.text
    if draft is None and not (looks_like_toml and tb.ctx.is_admin(user.id)):
        return
    lang = await lang_of(tb, update)
    try:
        if draft is not None:
            await setup.answer(setup_ports(tb), draft, user.id, lang, msg.text)
        else:
            await create_from_toml(tb, user.id, lang, msg.text)
    except RuleError as err:
        tb.ctx.send(user.id, error_text(lang, err))
    except Exception:
        log.exception("tournament set-up failed")
        tb.ctx.send(user.id, tt(lang, "internal"))
    raise ApplicationHandlerStop


async def create_from_toml(tb: TournamentBot, user_id: int, lang: str, text: str) -> None:
    """A tournament file: a new tournament, or (with ``id``) an update of that tournament."""
    try:
        spec = ts.spec_from_toml(text)
        tid = spec.pop("id", None)
        if tid is not None:
            row = await ts.update_from_spec(tb.ctx.db, int(tid), user_id, spec)
        else:
            row = await ts.create_tournament(tb.ctx.db, created_by=user_id, **spec)
    except RuleError as err:
        tb.ctx.send(user_id, tt(lang, "toml.error", reason=error_text(lang, err)))
        return
    await tb.timers.arm_tournament(row)
    if tid is not None:
        tb.ctx.send(
            user_id, tt(lang, "toml.updated", id=row.id, name=row.name) + "\n\n" + views.summary(lang, row)
        )
        if row.group_chat_id:
            tb.ctx.send(row.group_chat_id, tt(tb.ctx.glang(), "ctl.updated", name=row.name))
        return
    tb.ctx.send(
        user_id,
        tt(lang, "toml.created", id=row.id, name=row.name)
        + "\n\n"
        + views.summary(lang, row)
        + "\n\n"
        + tt(lang, "setup.created", id=row.id, name=row.name),
    )


async def on_document(update: Update, context: Ctx) -> None:
    tb = tb_of(context)
    user, msg = update.effective_user, update.effective_message
    if user is None or msg is None or msg.document is None:
        return
    if not (msg.document.file_name or "").lower().endswith(".toml"):
        return
    lang = await lang_of(tb, update)
    if not tb.ctx.is_admin(user.id):
        tb.ctx.send(user.id, tt(lang, "setup.admin_only"))
        raise ApplicationHandlerStop
    try:
        file = await context.bot.get_file(msg.document.file_id)
        data = bytes(await file.download_as_bytearray())
        await create_from_toml(tb, user.id, lang, data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        tb.ctx.send(user.id, tt(lang, "toml.error", reason="UTF-8"))
    except Exception:
        log.exception("reading a tournament file failed")
        tb.ctx.send(user.id, tt(lang, "internal"))
    raise ApplicationHandlerStop


@guarded
async def cmd_tournament_group(
    update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]
) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type == ChatType.PRIVATE:
        reply(update, tb, tt(lang, "group_only"))
        return
    row = await _by_arg_or_own(tb, user.id, args)
    row = await ts.link_group(tb.ctx.db, row.id, user.id, chat.id)
    reply(update, tb, tt(lang, "group.linked", id=row.id, name=row.name))
    if row.status == "registration":
        announce_registration(tb, row)


async def _by_arg_or_own(tb: TournamentBot, user_id: int, args: list[str]) -> Tournament:
    if args and args[0].lstrip("#").isdigit():
        row = await ts.get_tournament(tb.ctx.db, int(args[0].lstrip("#")))
    else:
        own = [
            r
            for r in await ts.tournaments_of_user(tb.ctx.db, user_id)
            if "organiser" in await ts.roles_of(tb.ctx.db, r.id, user_id)
            and r.status not in ("setup", "cancelled")
        ]
        if not own:
            raise RuleError("no_tournament", "No tournament")
        row = own[0]
    await ts.require(tb.ctx.db, row.id, user_id, ORG)
    return row


def announce_registration(tb: TournamentBot, row: Tournament) -> None:
    lang = tb.ctx.glang()
    preset = load_preset(row.preset_id)
    text = tt(
        lang,
        "reg.announce",
        name=row.name,
        preset=preset.title_en if lang == "en" else preset.title_zh,
        entrant=views.entrant_text(lang, row),
        deadline=ts.local_text(row.registration_deadline, row.time_zone),
        draw=ts.local_text(row.draw_at, row.time_zone),
        commitment=row.commitment or "-",
    )
    link = tb.ctx.public_link(row.id, row.settings_json)
    if link is not None:
        text += "\n" + tt(lang, "reg.public", link=link)
    markup = InlineKeyboardMarkup(
        [[InlineKeyboardButton(tt(lang, "reg.button"), url=tb.ctx.bot_link(f"reg_{row.id}"))]]
    )
    tb.ctx.send(row.group_chat_id, text, markup)


@guarded
async def cmd_table_register(
    update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]
) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type == ChatType.PRIVATE:
        reply(update, tb, tt(lang, "group_only"))
        return
    row = await _by_arg_or_own(tb, user.id, args)
    await ts.add_table_group(tb.ctx.db, row.id, user.id, chat.id, getattr(chat, "title", "") or "")
    count = len(await ts.table_groups(tb.ctx.db, row.id))
    reply(update, tb, tt(lang, "table.registered", id=row.id, count=count))
    if row.state_json is not None and row.status == "running":  # matches waiting for tables get them now
        async with tb.ctx.lock(row.id):
            await tb.scheduling.schedule_ready(row)


# --- roles, audit, draw ----------------------------------------------------------------------------


@command(ORG, bare_id=("add", "remove"))
async def cmd_role(c: Call) -> None:
    if len(c.args) < 3 or c.args[0] not in ("add", "remove"):
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "role.usage")))
        return
    op, role, who = c.args[0], c.args[1], c.args[2]
    target = await ts.find_user(c.tb.ctx.db, who)
    if target is None:
        c.reply(tt(c.lang, "unknown_user", who=who))
        return
    if op == "add":
        await ts.grant(c.tb.ctx.db, c.row.id, c.user.id, target.id, role, " ".join(c.args[3:]))
    else:
        await ts.revoke(c.tb.ctx.db, c.row.id, c.user.id, target.id, role)
    c.reply(
        tt(
            c.lang,
            "role.done",
            op=tt(c.lang, "role.added" if op == "add" else "role.removed"),
            user=target.first_name or who,
            role=role,
        )
    )


@command(ORG)
async def cmd_draw(c: Call) -> None:
    refused = await c.tb.draws.draw(c.row.id, c.user.id)
    if refused is not None:
        c.reply(draw_refused_text(c.lang, refused.error, refused.failed))
    elif c.elsewhere:
        c.reply(tt(c.lang, "done"))


@command(ORG)
async def cmd_close(c: Call) -> None:
    await ts.close_registration(c.tb.ctx.db, c.row.id, c.user.id)
    c.tb.ctx.dashboard_changed(c.row.id)
    c.reply(tt(c.lang, "done"))


# --- organiser control after creation --------------------------------------------------------------


def _time_args(c: Call, words: list[str]) -> datetime:
    """``2026-12-01 18:00`` (two words) or ``2026-12-01T18:00`` in the tournament's time zone."""
    return ts.parse_local_time(" ".join(words), c.row.time_zone)


@command(ORG)
async def cmd_edit(c: Call) -> None:
    """/edit deadline|draw|first <time>."""
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/edit deadline|draw|first 2026-12-01 18:00"))
        return
    await c.tb.control.edit_time(c.row.id, c.user.id, c.args[0].lower(), _time_args(c, c.args[1:]))
    c.reply(tt(c.lang, "done"))


@command(ORG)
async def cmd_reschedule(c: Call) -> None:
    """/reschedule <match> <time>."""
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/reschedule R1-M1 2026-12-03 10:00"))
        return
    await c.tb.control.reschedule(c.row.id, c.user.id, c.args[0].upper(), _time_args(c, c.args[1:]))
    c.reply(tt(c.lang, "done"))


@command(ORG)
async def cmd_swap(c: Call) -> None:
    """/swap <match> <match>: two matches not begun exchange times and tables."""
    if len(c.args) != 2:
        c.reply(tt(c.lang, "usage", usage="/swap R1-M1 R1-M2"))
        return
    await c.tb.control.swap(c.row.id, c.user.id, c.args[0].upper(), c.args[1].upper())
    c.reply(tt(c.lang, "done"))


@command(ORG)
async def cmd_move_table(c: Call) -> None:
    """/move_table <match> <table no> <table group title or chat id>."""
    if len(c.args) < 3 or not c.args[1].isdigit():
        c.reply(tt(c.lang, "usage", usage="/move_table R1-M1 1 比赛桌2"))
        return
    wanted = " ".join(c.args[2:])
    groups = await ts.table_groups(c.tb.ctx.db, c.row.id)
    chat = next((g.chat_id for g in groups if g.title == wanted or str(g.chat_id) == wanted), None)
    if chat is None:
        raise RuleError("unknown_table_group", "")
    await c.tb.control.move_table(c.row.id, c.user.id, c.args[0].upper(), int(c.args[1]), chat)
    c.reply(tt(c.lang, "done"))


@command(ORG)
async def cmd_dashboard(c: Call) -> None:
    """/dashboard: the organiser's overview, in the private chat."""
    chat = c.update.effective_chat
    if chat is None or chat.type != ChatType.PRIVATE:
        c.reply(tt(c.lang, "private_only"))
        return
    live = c.row.status not in ENDED
    text, markup = await c.tb.dashboards.view(c.row, c.lang, live=live)
    sent = c.tb.ctx.send(chat.id, text, markup)
    if live:  # kept live: edited as the tournament changes (stored once Telegram gave the message its id)
        c.tb.ctx.spawn(c.tb.dashboards.follow_dashboard(c.row.id, c.user.id, c.lang, sent))


async def _confirm(c: Call, op: str) -> None:
    """Ask for the confirmation button; the request is a stored row (a restart keeps it) good for
    ``ts.CONFIRM_MINUTES`` minutes, and the buttons carry its token."""
    item = await ts.ask_confirmation(c.tb.ctx.db, c.row.id, c.user.id, op, " ".join(c.args), c.tb.ctx.now())

    def data(word: str) -> str:
        return TournamentButton(TournamentOp.CONFIRM, c.row.id, word=word, token=item.token).encode()

    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(tt(c.lang, "ctl.yes"), callback_data=data(op)),
                InlineKeyboardButton(tt(c.lang, "ctl.no"), callback_data=data("no")),
            ]
        ]
    )
    c.reply(
        tt(
            c.lang,
            "ctl.confirm",
            op=tt(c.lang, "ctl.op." + op),
            name=c.row.name,
            reason=item.reason,
            minutes=ts.CONFIRM_MINUTES,
        ),
        markup,
    )


@command(ORG)
async def cmd_cancel_tournament(c: Call) -> None:
    """/cancel_tournament <reason>: asks for confirmation, then cancels and tells everyone."""
    await _confirm(c, "cancel")


@command(ORG)
async def cmd_delete_tournament(c: Call) -> None:
    """/delete_tournament <reason>: like cancelling, and hidden from every list (the audit log stays)."""
    await _confirm(c, "delete")


async def confirmed(tb: TournamentBot, user_id: int, lang: str, tid: int, op: str, token: str) -> str:
    """A confirmation button: Yes carries out the stored request, No drops it; an expired, used or
    unknown one changes nothing and says so."""
    if not token:  # a button from before confirmations were stored
        raise RuleError("confirm_unknown", "")
    item = await ts.take_confirmation(tb.ctx.db, tid, token, user_id, tb.ctx.now())
    if op == "no" or op != item.op:
        return tt(lang, "ctl.kept")
    row = await tb.control.cancel_tournament(tid, user_id, item.reason, delete=op == "delete")
    return tt(lang, "ctl.deleted" if op == "delete" else "ctl.cancelled", name=row.name, reason=item.reason)


async def dashboard_button(
    tb: TournamentBot, q: CallbackQuery, user_id: int, lang: str, tid: int, stop: bool
) -> str | None:
    """Refresh (the message pressed is edited in place) or Stop (it is followed no more)."""
    await ts.require(tb.ctx.db, tid, user_id, ORG)
    message = q.message
    mid = message.message_id if message is not None else None
    if stop and mid is not None:
        await ts.unfollow_dashboard(tb.ctx.db, tid, user_id, message_id=mid)
    follows = await ts.dashboards(tb.ctx.db, tid)
    live = any(f.user_id == user_id and f.message_id == mid for f in follows)
    text, markup = await tb.dashboards.view(await ts.get_tournament(tb.ctx.db, tid), lang, live=live)
    if message is None or not tb.ctx.play.ready:
        tb.ctx.send(user_id, text, markup)
    else:
        tb.ctx.play.edit(message.chat.id, message.message_id, text, markup)
    return tt(lang, "dash.stopped") if stop else None


# --- Swiss rounds and the public page ----------------------------------------------------------------


@command(ORG)
async def cmd_end_swiss(c: Call) -> None:
    """/end_swiss: the Swiss ends after the current round (final standings, or the top-K knockout)."""
    swiss = ts.load_engine(c.row).swiss if c.row.state_json is not None else None
    rnd = swiss.current_round if swiss is not None else 0
    ended = await ts.end_swiss(c.tb.ctx.db, c.row.id, c.user.id)
    c.tb.ctx.dashboard_changed(c.row.id)
    lang = c.tb.ctx.glang()
    row = await ts.get_tournament(c.tb.ctx.db, c.row.id)
    c.tb.ctx.send(row.group_chat_id or c.user.id, tt(lang, "swiss.ended", round=rnd))
    if ended.finished:
        c.tb.ctx.send(
            row.group_chat_id or row.created_by,
            tt(
                lang,
                "finished",
                name=row.name,
                ranking=views.ranking_text(
                    lang, ts.load_engine(row), views.rating_texts(await ts.entry_ratings(c.tb.ctx.db, row))
                ),
            ),
        )
    else:
        await c.tb.scheduling.schedule_ready(row)


@command(ORG)
async def cmd_public_page(c: Call) -> None:
    """/public_page on|off: the tournament's public page on the bot's web server (/t/<id>)."""
    if not c.args or c.args[0].lower() not in ("on", "off"):
        c.reply(tt(c.lang, "usage", usage="/public_page on|off"))
        return
    on = c.args[0].lower() == "on"
    await ts.set_public_page(c.tb.ctx.db, c.row.id, c.user.id, on)
    c.reply(tt(c.lang, "public.on" if on else "public.off", path=f"/t/{c.row.id}"))
