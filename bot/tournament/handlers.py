"""Telegram handlers of tournament administration (organisers, players, referees).

Registered in handler group -1 (before the play side's handlers): a handler that deals with an
update raises ``ApplicationHandlerStop``; anything else falls through to the play side.

Which tournament a command is about: an argument ``#<id>`` if given; in a group, the tournament
linked to it (tournament group or table group); in a private chat, the newest tournament where
the user has a role or an entry.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    filters,
)

from bot.handlers import save_chat, save_user
from bot.tournament import setup, views
from bot.tournament.core import TournamentBot
from bot.tournament.texts import error_text, tt
from engine.errors import RuleError
from engine.tournament import pair_result, played_table, team_result
from engine.tournament.results import referee_result
from storage import tournament_service as ts
from storage.tournament_models import Tournament

log = logging.getLogger(__name__)

Ctx = ContextTypes.DEFAULT_TYPE
GROUP = -1


def tb_of(context: Ctx) -> TournamentBot:
    return context.application.bot_data["tournaments"]  # type: ignore[no-any-return]


async def _lang(tb: TournamentBot, update: Update) -> str:
    user = update.effective_user
    return await tb.rt.user_lang(user.id if user else None, user.language_code if user else None)  # type: ignore[no-any-return]


def guarded(fn: Callable[[Update, Ctx, TournamentBot, str, list[str]], Awaitable[None]]
            ) -> Callable[[Update, Ctx], Coroutine[Any, Any, None]]:
    """Upsert the user, work out the language, translate RuleErrors, never leak a stack trace; stop."""
    async def handler(update: Update, context: Ctx) -> None:
        tb = tb_of(context)
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return
        private = chat.type == ChatType.PRIVATE
        await save_user(tb.db, user, started=True if private else None)
        if not private:
            await save_chat(tb.db, chat)
        lang = await _lang(tb, update)
        try:
            await fn(update, context, tb, lang, list(context.args or []))
        except RuleError as err:
            _answer_text(update, tb, error_text(lang, err))
        except ApplicationHandlerStop:
            raise
        except Exception:
            log.exception("tournament handler failed")
            _answer_text(update, tb, tt(lang, "internal"))
        raise ApplicationHandlerStop
    return handler


def _answer_text(update: Update, tb: TournamentBot, text: str) -> None:
    chat = update.effective_chat
    if chat is not None:
        tb.send(chat.id, text)


def reply(update: Update, tb: TournamentBot, text: str, markup: Any = None) -> None:
    chat = update.effective_chat
    if chat is not None:
        tb.send(chat.id, text, markup)


async def resolve(tb: TournamentBot, update: Update, args: list[str]) -> Tournament:
    """The tournament of a command (see the module docstring); pops a leading ``#id`` argument."""
    if args and re.fullmatch(r"#\d+", args[0]):
        return await ts.get_tournament(tb.db, int(args.pop(0)[1:]))
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type != ChatType.PRIVATE:
        row = await ts.tournament_of_group(tb.db, chat.id)
        if row is not None:
            return row
    mine = [r for r in await ts.tournaments_of_user(tb.db, user.id) if r.status not in ("setup", "cancelled")]
    if not mine:
        raise RuleError("no_tournament", "No tournament")
    return mine[0]


async def require(tb: TournamentBot, row: Tournament, user_id: int, roles: tuple[str, ...]) -> None:
    await ts.require(tb.db, row.id, user_id, roles)


ORG = ("organiser",)
REF = ("referee", "chief_referee", "organiser")


# --- set-up ---------------------------------------------------------------------------------------

@guarded
async def cmd_tournament(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type != ChatType.PRIVATE:
        reply(update, tb, tt(lang, "private_only"))
        return
    if user.id not in tb.rt.settings.BOT_ADMIN_IDS:
        reply(update, tb, tt(lang, "setup.admin_only"))
        return
    await setup.begin(tb, user.id, lang)


@guarded
async def cmd_cancel(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    if not await setup.cancel(tb, user.id, lang):
        reply(update, tb, tt(lang, "done"))


async def on_private_text(update: Update, context: Ctx) -> None:
    """A guided set-up answer, or a pasted tournament TOML; anything else goes on to the play side."""
    tb = tb_of(context)
    user, msg = update.effective_user, update.effective_message
    if user is None or msg is None or not msg.text:
        return
    draft = await setup.draft_of(tb, user.id)
    looks_like_toml = bool(re.search(r"^\s*preset\s*=", msg.text, re.M)) and "name" in msg.text
    if draft is None and not (looks_like_toml and user.id in tb.rt.settings.BOT_ADMIN_IDS):
        return
    lang = await _lang(tb, update)
    try:
        if draft is not None:
            await setup.answer(tb, draft, user.id, lang, msg.text)
        else:
            await create_from_toml(tb, user.id, lang, msg.text)
    except RuleError as err:
        tb.send(user.id, error_text(lang, err))
    except Exception:
        log.exception("tournament set-up failed")
        tb.send(user.id, tt(lang, "internal"))
    raise ApplicationHandlerStop


async def create_from_toml(tb: TournamentBot, user_id: int, lang: str, text: str) -> None:
    try:
        spec = ts.spec_from_toml(text)
        row = await ts.create_tournament(tb.db, created_by=user_id, **spec)
    except RuleError as err:
        tb.send(user_id, tt(lang, "toml.error", reason=error_text(lang, err)))
        return
    await tb.arm_tournament(row)
    tb.send(user_id, tt(lang, "toml.created", id=row.id, name=row.name) + "\n\n" + views.summary(lang, row)
            + "\n\n" + tt(lang, "setup.created", id=row.id, name=row.name))


async def on_document(update: Update, context: Ctx) -> None:
    tb = tb_of(context)
    user, msg = update.effective_user, update.effective_message
    if user is None or msg is None or msg.document is None:
        return
    if not (msg.document.file_name or "").lower().endswith(".toml"):
        return
    lang = await _lang(tb, update)
    if user.id not in tb.rt.settings.BOT_ADMIN_IDS:
        tb.send(user.id, tt(lang, "setup.admin_only"))
        raise ApplicationHandlerStop
    try:
        file = await context.bot.get_file(msg.document.file_id)
        data = bytes(await file.download_as_bytearray())
        await create_from_toml(tb, user.id, lang, data.decode("utf-8-sig"))
    except UnicodeDecodeError:
        tb.send(user.id, tt(lang, "toml.error", reason="UTF-8"))
    except Exception:
        log.exception("reading a tournament file failed")
        tb.send(user.id, tt(lang, "internal"))
    raise ApplicationHandlerStop


@guarded
async def cmd_tournament_group(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type == ChatType.PRIVATE:
        reply(update, tb, tt(lang, "group_only"))
        return
    row = await _by_arg_or_own(tb, user.id, args)
    row = await ts.link_group(tb.db, row.id, user.id, chat.id)
    reply(update, tb, tt(lang, "group.linked", id=row.id, name=row.name))
    if row.status == "registration":
        announce_registration(tb, row)


async def _by_arg_or_own(tb: TournamentBot, user_id: int, args: list[str]) -> Tournament:
    if args and args[0].lstrip("#").isdigit():
        row = await ts.get_tournament(tb.db, int(args[0].lstrip("#")))
    else:
        own = [r for r in await ts.tournaments_of_user(tb.db, user_id)
               if "organiser" in await ts.roles_of(tb.db, r.id, user_id) and r.status not in ("setup", "cancelled")]
        if not own:
            raise RuleError("no_tournament", "No tournament")
        row = own[0]
    await ts.require(tb.db, row.id, user_id, ORG)
    return row


def announce_registration(tb: TournamentBot, row: Tournament) -> None:
    lang = tb.glang()
    from engine.options import load_preset

    preset = load_preset(row.preset_id)
    text = tt(lang, "reg.announce", name=row.name, preset=preset.title_en if lang == "en" else preset.title_zh,
              entrant=views.entrant_text(lang, row), deadline=ts.local_text(row.registration_deadline, row.time_zone),
              draw=ts.local_text(row.draw_at, row.time_zone))
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(tt(lang, "reg.button"), url=tb.bot_link(f"reg_{row.id}"))]])
    tb.send(row.group_chat_id, text, markup)


@guarded
async def cmd_table_register(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type == ChatType.PRIVATE:
        reply(update, tb, tt(lang, "group_only"))
        return
    row = await _by_arg_or_own(tb, user.id, args)
    await ts.add_table_group(tb.db, row.id, user.id, chat.id, getattr(chat, "title", "") or "")
    count = len(await ts.table_groups(tb.db, row.id))
    reply(update, tb, tt(lang, "table.registered", id=row.id, count=count))
    if row.state_json is not None and row.status == "running":  # matches waiting for tables get them now
        async with tb.lock(row.id):
            await tb._schedule(row)


# --- registration -----------------------------------------------------------------------------------

async def on_start_payload(update: Update, context: Ctx) -> None:
    """``/start reg_<id>`` (Register button) and ``/start inv_<token>`` (a partner invitation)."""
    tb = tb_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None or chat.type != ChatType.PRIVATE or not context.args:
        return
    payload = context.args[0]
    if not payload.startswith(("reg_", "inv_")):
        return
    await save_user(tb.db, user, started=True)
    lang = await _lang(tb, update)
    try:
        if payload.startswith("reg_"):
            await start_registration(tb, user.id, lang, int(payload[4:]))
        else:
            await show_invite(tb, user.id, lang, payload[4:])
    except (RuleError, ValueError) as err:
        tb.send(user.id, error_text(lang, err) if isinstance(err, RuleError) else tt(lang, "err.invite_unknown"))
    except Exception:
        log.exception("registration failed")
        tb.send(user.id, tt(lang, "internal"))
    raise ApplicationHandlerStop


async def start_registration(tb: TournamentBot, user_id: int, lang: str, tid: int) -> None:
    row = await ts.get_tournament(tb.db, tid)
    ts.check_registration_open(row, tb.now())
    groups = [g["name"] for g in row.union_groups or []]
    if not groups:
        await make_invite(tb, user_id, lang, tid, "")
        return
    buttons = [[InlineKeyboardButton(g, callback_data=f"T:g:{tid}:{i}")] for i, g in enumerate(groups)]
    tb.send(user_id, tt(lang, "reg.choose_group", name=row.name), InlineKeyboardMarkup(buttons))


async def make_invite(tb: TournamentBot, user_id: int, lang: str, tid: int, group: str) -> None:
    inv = await ts.create_invite(tb.db, tid, user_id, group, tb.now())
    row = await ts.get_tournament(tb.db, tid)
    tb.send(user_id, tt(lang, "reg.invite", hours=row.invite_hours, link=tb.bot_link(f"inv_{inv.token}")))


async def show_invite(tb: TournamentBot, user_id: int, lang: str, token: str) -> None:
    inv = await ts.get_invite(tb.db, token)
    row = await ts.get_tournament(tb.db, inv.tournament_id)
    names = await ts.user_names(tb.db, [inv.inviter_id])
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(tt(lang, "reg.accept"), callback_data=f"T:a:{token}")]])
    tb.send(user_id, tt(lang, "reg.invite_from", inviter=names[inv.inviter_id], name=row.name,
                        group=inv.union_group or "-"), markup)


async def accept(tb: TournamentBot, user_id: int, lang: str, token: str) -> str:
    entry = await ts.accept_invite(tb.db, token, user_id, tb.now())
    inviter = int(entry.players_json[0])
    names = await ts.user_names(tb.db, [user_id])
    tb.send(inviter, tt(await tb.ulang(inviter), "reg.partner_joined", partner=names[user_id], id=entry.id))
    text = tt(lang, "reg.paired", pair=entry.name, group=entry.union_group or "-", id=entry.id)
    tb.send(user_id, text)
    return text


@guarded
async def cmd_withdraw(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    entry = await ts.entry_of_user(tb.db, row.id, user.id)
    if entry is None:
        raise RuleError("unknown_entry", "", id="-")
    await ts.withdraw(tb.db, row.id, entry.id, user.id, tb.now())
    reply(update, tb, tt(lang, "reg.withdrawn", entry=entry.name))


@guarded
async def cmd_register(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """Organiser, or the union group's leader: /register @a @b [union group]."""
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    if not (await ts.roles_of(tb.db, row.id, user.id)) & {"organiser", "leader"}:
        raise RuleError("not_allowed", "")
    if len(args) < 2:
        reply(update, tb, tt(lang, "usage", usage="/register @a @b [单位]"))
        return
    ids = []
    for who in args[:2]:
        u = await ts.find_user(tb.db, who)
        if u is None:
            reply(update, tb, tt(lang, "unknown_user", who=who))
            return
        ids.append(u.id)
    entry = await ts.register_pair(tb.db, row.id, user.id, ids, " ".join(args[2:]), tb.now())
    reply(update, tb, tt(lang, "reg.paired", pair=entry.name, group=entry.union_group or "-", id=entry.id))


@guarded
async def cmd_remove(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, ORG)
    if not args or not args[0].isdigit():
        reply(update, tb, tt(lang, "usage", usage="/remove <entry no>"))
        return
    entry = await ts.withdraw(tb.db, row.id, int(args[0]), user.id)
    reply(update, tb, tt(lang, "reg.withdrawn", entry=entry.name))


@guarded
async def cmd_replace(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    if len(args) != 3 or not args[0].isdigit():
        reply(update, tb, tt(lang, "usage", usage="/replace <entry no> @old @new"))
        return
    old, new = await ts.find_user(tb.db, args[1]), await ts.find_user(tb.db, args[2])
    if old is None or new is None:
        reply(update, tb, tt(lang, "unknown_user", who=args[1] if old is None else args[2]))
        return
    entry = await ts.replace_player(tb.db, row.id, int(args[0]), old.id, new.id, user.id)
    reply(update, tb, tt(lang, "reg.replaced", entry=entry.name))


@guarded
async def cmd_team(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """Union group leader: /team (list pairs) or /team <name> <pair no> <pair no> ..."""
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    per = int(row.settings_json.get("pairs_per_team", 1))
    if len(args) < 2:
        leads = {r.union_group for r in await ts.role_members(tb.db, row.id, "leader") if r.user_id == user.id}
        organiser = "organiser" in await ts.roles_of(tb.db, row.id, user.id)
        if not leads and not organiser:
            raise RuleError("not_allowed", "")
        pairs = [e for e in await ts.entries(tb.db, row.id, "pair")
                 if e.team_id is None and (organiser or e.union_group in leads)]
        lines = "\n".join(f"{e.id}. {e.name}（{e.union_group}）" for e in pairs) or "-"
        reply(update, tb, tt(lang, "reg.team_list", n=per, pairs=lines))
        return
    nums = [a for a in args if a.isdigit()]
    name = " ".join(a for a in args if not a.isdigit())
    team = await ts.form_team(tb.db, row.id, user.id, [int(n) for n in nums], name, tb.now())
    reply(update, tb, tt(lang, "reg.team_formed", team=team.name, id=team.id))


@guarded
async def cmd_entries(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    row = await resolve(tb, update, args)
    entries = await ts.entries(tb.db, row.id)
    lines = "\n".join(f"{e.id}. {e.name}（{e.union_group or '-'}）{' [' + e.kind + ']' if e.kind == 'team' else ''}"
                      for e in entries)
    reply(update, tb, tt(lang, "reg.entries", count=len(entries), lines=lines or "-"))


# --- roles, audit, draw ----------------------------------------------------------------------------

@guarded
async def cmd_role(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, ORG)
    if len(args) < 3 or args[0] not in ("add", "remove"):
        reply(update, tb, tt(lang, "usage", usage=tt(lang, "role.usage")))
        return
    op, role, who = args[0], args[1], args[2]
    target = await ts.find_user(tb.db, who)
    if target is None:
        reply(update, tb, tt(lang, "unknown_user", who=who))
        return
    if op == "add":
        await ts.grant(tb.db, row.id, user.id, target.id, role, " ".join(args[3:]))
    else:
        await ts.revoke(tb.db, row.id, user.id, target.id, role)
    reply(update, tb, tt(lang, "role.done", op=tt(lang, "role.added" if op == "add" else "role.removed"),
                         user=target.first_name or who, role=role))


@guarded
async def cmd_audit(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    rows = await ts.audit_log(tb.db, row.id, 40)
    users = await ts.user_names(tb.db, [a.actor_id for a in rows if a.actor_id is not None])
    reply(update, tb, views.audit_text(lang, rows, row.time_zone, users))


@guarded
async def cmd_draw(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, ORG)
    err = await tb.draw(row.id, user.id)
    chat = update.effective_chat
    if err:
        reply(update, tb, err)
    elif chat is not None and chat.id != row.group_chat_id:
        reply(update, tb, tt(lang, "done"))


@guarded
async def cmd_close(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, ORG)
    await ts.close_registration(tb.db, row.id, user.id)
    reply(update, tb, tt(lang, "done"))


# --- referee tools ------------------------------------------------------------------------------------

def _levels(args: list[str]) -> tuple[int | None, int | None, list[str]]:
    if len(args) >= 2 and args[0].isdigit() and args[1].isdigit():
        return int(args[0]), int(args[1]), args[2:]
    return None, None, args


@guarded
async def cmd_result(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/result <match> confirm | /result <match> a|b [levels a b] <reason> [force]."""
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    if len(args) < 2:
        reply(update, tb, tt(lang, "usage", usage=tt(lang, "result.usage")))
        return
    key, what = args[0].upper(), args[1].lower()
    if what == "confirm":
        await ts.confirm_result(tb.db, row.id, key, user.id)
        tb.send(row.group_chat_id, tt(tb.glang(), "result.confirmed", key=key))
        if update.effective_chat and update.effective_chat.id != row.group_chat_id:
            reply(update, tb, tt(lang, "result.confirmed", key=key))
        return
    if what not in ("a", "b"):
        raise RuleError("bad_side", "", side=what)
    rest = args[2:]
    force = bool(rest) and rest[-1].lower() == "force"
    if force:
        rest = rest[:-1]
    la, lb, rest = _levels(rest)
    reason = " ".join(rest)
    if not reason:
        raise RuleError("reason_required", "")
    async with tb.lock(row.id):
        m = await ts.get_match(tb.db, row.id, key)
        tables = len(await ts.match_players(tb.db, m))
        if tables == 1:
            result = pair_result(what, la, lb, note=reason)
        else:
            result = team_result([played_table(what, la, lb, k) for k in range(1, tables + 1)], note=reason)
        if m.result_json is None:
            result = referee_result(what, result.tables, reason)
            rec = await ts.record_result(tb.db, row.id, key, result, user.id, "referee_result", reason)
        else:
            rec = await ts.correct_result(tb.db, row.id, key, result, user.id, reason, force)
        if not rec.applied:
            reply(update, tb, tt(lang, "result.conflict", matches=", ".join(rec.conflicts)))
            return
        await tb.halt_match(rec.match)
        names = await tb._names(row.id)
        line = views.result_line(tb.glang(), key, result, names.get(m.side_a or "", "?"),
                                 names.get(m.side_b or "", "?"))
        await tb.after_result(row.id, rec, text=tt(tb.glang(), "result.corrected", key=key, reason=reason, line=line))
    if update.effective_chat and update.effective_chat.id != row.group_chat_id:
        reply(update, tb, tt(lang, "done"))


@guarded
async def cmd_forfeit(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    if len(args) < 3 or args[1].lower() not in ("a", "b", "both"):
        reply(update, tb, tt(lang, "usage", usage=tt(lang, "forfeit.usage")))
        return
    key, absent, reason = args[0].upper(), args[1].lower(), " ".join(args[2:])
    async with tb.lock(row.id):
        m = await ts.get_match(tb.db, row.id, key)
        tables = len(await ts.match_players(tb.db, m))
        result = ts.forfeit(absent, tables, reason)
        if m.result_json is None:
            rec = await ts.record_result(tb.db, row.id, key, result, user.id, "award_forfeit", reason)
        else:
            rec = await ts.correct_result(tb.db, row.id, key, result, user.id, reason, True)
        await tb.halt_match(m)
        names = await tb._names(row.id)
        line = views.result_line(tb.glang(), key, result, names.get(m.side_a or "", "?"),
                                 names.get(m.side_b or "", "?"))
        text = tt(tb.glang(), "forfeit.awarded", key=key, line=line, reason=reason)
        await tb.tell_match(row, m, text)
        await tb.after_result(row.id, rec, announce=False)


@guarded
async def cmd_undo_forfeit(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    if len(args) < 2:
        reply(update, tb, tt(lang, "usage", usage="/undo_forfeit <match> <reason>"))
        return
    await tb.undo_forfeit(row.id, args[0].upper(), user.id, " ".join(args[1:]))


@guarded
async def cmd_violation(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    if len(args) < 3 or args[1].lower() not in ("a", "b"):
        reply(update, tb, tt(lang, "usage", usage=tt(lang, "conduct.usage")))
        return
    key, side, note = args[0].upper(), args[1].lower(), " ".join(args[2:])
    async with tb.lock(row.id):
        outcome, rec, rid = await ts.add_conduct(tb.db, row.id, key, side, user.id, "violation", note)
        m = await ts.get_match(tb.db, row.id, key)
        names = await tb._names(row.id)
        entry = names.get((m.side_a if side == "a" else m.side_b) or "", "?")
        glang = tb.glang()
        text = tt(glang, "conduct.recorded", key=key, entry=entry, note=note, id=rid, count=outcome.active_violations)
        if outcome.newly_disqualified:
            text += "\n" + tt(glang, "conduct.disqualified", entry=entry, count=outcome.active_violations)
            await tb.halt_match(m)
        await tb.tell_match(row, m, text)
        if rec is not None:
            await tb.after_result(row.id, rec, announce=False)


@guarded
async def cmd_reverse(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    if len(args) < 2:
        reply(update, tb, tt(lang, "usage", usage="/reverse <C1> <reason>"))
        return
    rid, reason = args[0].upper(), " ".join(args[1:])
    outcome = await ts.reverse_conduct(tb.db, row.id, rid, user.id, reason)
    names = await tb._names(row.id)
    extra = tt(tb.glang(), "conduct.reinstated", entry=names.get(outcome.entry_id, "?")) if outcome.reinstated else ""
    text = tt(tb.glang(), "conduct.reversed", id=rid, reason=reason, extra=extra)
    tb.send(row.group_chat_id, text)
    if update.effective_chat and update.effective_chat.id != row.group_chat_id:
        reply(update, tb, text)


async def _pause(update: Update, tb: TournamentBot, lang: str, args: list[str], paused: bool) -> None:
    user = update.effective_user
    assert user is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    if not args:
        reply(update, tb, tt(lang, "usage", usage="/pause <match>" if paused else "/resume <match>"))
        return
    key = args[0].upper()
    if not await tb.pause(row.id, key, paused):
        reply(update, tb, tt(lang, "no_table", key=key))
        return
    await ts.audit(tb.db, row.id, user.id, "pause" if paused else "resume", match=key)
    m = await ts.get_match(tb.db, row.id, key)
    text = tt(tb.glang(), "pause.done" if paused else "resume.done", key=key)
    for chat in {row.group_chat_id, *[int(c) for c in m.table_chats]}:
        tb.send(chat, text)


@guarded
async def cmd_pause(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    await _pause(update, tb, lang, args, True)


@guarded
async def cmd_resume(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    await _pause(update, tb, lang, args, False)


# --- outputs ------------------------------------------------------------------------------------------

@guarded
async def cmd_bracket(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    row = await resolve(tb, update, args)
    if row.state_json is None:
        reply(update, tb, tt(lang, "out.no_draw"))
        return
    eng = ts.load_engine(row)
    reply(update, tb, views.bracket_text(lang, eng, await tb._names(row.id)))
    png = await asyncio.to_thread(_bracket_png, eng, lang)  # drawing takes 0.1-0.6 s: off the event loop
    chat = update.effective_chat
    if png is not None and chat is not None:
        await tb.send_document(chat.id, png, "bracket.png", photo=True)


def _bracket_png(eng: Any, lang: str) -> bytes | None:
    try:
        from bot.tournament_render.bracket_image import bracket_png
    except ImportError:
        return None
    try:
        return bracket_png(eng, lang).getvalue()
    except Exception as exc:  # a missing font is reported by the renderer at start-up; text was sent
        log.warning("bracket image failed: %s", exc)
        return None


@guarded
async def cmd_standings(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    row = await resolve(tb, update, args)
    if row.state_json is None:
        reply(update, tb, tt(lang, "out.no_draw"))
        return
    reply(update, tb, views.standings_text(lang, ts.load_engine(row), await tb._names(row.id)))


@guarded
async def cmd_schedule(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    row = await resolve(tb, update, args)
    rows = [m for m in await ts.matches(tb.db, row.id) if m.status in ("scheduled", "open", "playing")]
    tables = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(tb.db, row.id)}
    lines = views.schedule_lines(lang, row, rows, await tb._names(row.id), tables)
    reply(update, tb, tt(lang, "sched.round", lines="\n".join(lines)) if lines else tt(lang, "sched.none"))


@guarded
async def cmd_results(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    row = await resolve(tb, update, args)
    reply(update, tb, views.results_text(lang, await ts.matches(tb.db, row.id), await tb._names(row.id)))


@guarded
async def cmd_export(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    user, chat = update.effective_user, update.effective_chat
    assert user is not None and chat is not None
    row = await resolve(tb, update, args)
    await require(tb, row, user.id, REF)
    entries = await ts.entries(tb.db, row.id, include_withdrawn=True)
    players = sorted({int(p) for e in entries for p in e.players_json})
    users = await ts.user_names(tb.db, players)
    eng = ts.load_engine(row) if row.state_json else None
    rows = await ts.matches(tb.db, row.id)
    files = (await asyncio.to_thread(_rendered_exports, tb, row, eng, rows, users, lang)  # off the event loop
             if eng is not None else None)
    if files is None:
        files = [(f"tournament-{row.id}.csv", views.export_csv(row, entries, rows, eng, users))]
    for i, (filename, data) in enumerate(files):
        await tb.send_document(chat.id, data, filename, tt(lang, "out.export") if i == 0 else "")
    await tb.send_document(chat.id, ts.spec_to_toml(row).encode("utf-8"), f"tournament-{row.id}.toml")


def _rendered_exports(tb: TournamentBot, row: Tournament, eng: Any, rows: list[Any], users: dict[int, str],
                      lang: str) -> list[tuple[str, bytes]] | None:
    """CSV files and the .xlsx workbook from bot/tournament_render (None: not available, use the plain CSV)."""
    try:
        from bot.tournament_render.export import export_all
        from engine.tournament.schedule import Slot
    except ImportError:
        return None
    try:
        slots = [Slot(m.match_key, tuple(str(c) for c in m.table_chats), m.start_at) for m in rows if m.start_at]
        files = export_all(eng, lang, slots=slots, tz=row.time_zone,
                           player_names={str(k): v for k, v in users.items()})
        return [(f.filename, f.data) for f in files]
    except Exception as exc:
        log.warning("rendered export failed, sending the plain CSV: %s", exc)
        return None


# --- buttons -----------------------------------------------------------------------------------------

async def on_button(update: Update, context: Ctx) -> None:
    q = update.callback_query
    if q is None or not (q.data or "").startswith("T:"):
        return
    tb = tb_of(context)
    user = update.effective_user
    assert user is not None
    await save_user(tb.db, user)
    lang = await _lang(tb, update)
    parts = (q.data or "").split(":")
    answer: str | None = None
    try:
        op = parts[1]
        if op == "g":  # union group chosen
            tid, idx = int(parts[2]), int(parts[3])
            row = await ts.get_tournament(tb.db, tid)
            await make_invite(tb, user.id, lang, tid, str(row.union_groups[idx]["name"]))
        elif op == "a":  # accept an invitation
            answer = await accept(tb, user.id, lang, parts[2])
        elif op == "c":  # check in
            answer = await tb.check_in(int(parts[2]), parts[3], user.id)
        elif op == "s":  # guided set-up button
            answer = await setup.button(tb, user.id, lang, parts[2:])
    except RuleError as err:
        answer = error_text(lang, err)
        if parts[1] in ("a", "g"):
            tb.send(user.id, answer)
    except Exception:
        log.exception("tournament button failed")
        answer = tt(lang, "internal")
    try:
        await q.answer(text=(answer or "")[:200] or None)
    except Exception as exc:
        log.info("answerCallbackQuery failed: %s", exc)
    raise ApplicationHandlerStop


@guarded
async def cmd_help(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    reply(update, tb, tt(lang, "help"))


COMMANDS: dict[str, Callable[[Update, Ctx], Coroutine[Any, Any, None]]] = {
    "tournament": cmd_tournament, "cancel": cmd_cancel, "tournament_group": cmd_tournament_group,
    "table_register": cmd_table_register, "withdraw": cmd_withdraw, "register": cmd_register,
    "remove": cmd_remove, "replace": cmd_replace, "team": cmd_team, "entries": cmd_entries, "role": cmd_role,
    "audit": cmd_audit, "draw": cmd_draw, "close_registration": cmd_close, "result": cmd_result,
    "forfeit": cmd_forfeit, "undo_forfeit": cmd_undo_forfeit, "violation": cmd_violation, "reverse": cmd_reverse,
    "pause": cmd_pause, "resume": cmd_resume, "bracket": cmd_bracket, "standings": cmd_standings,
    "schedule": cmd_schedule, "results": cmd_results, "export": cmd_export, "tournament_help": cmd_help,
}


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(CommandHandler("start", on_start_payload, filters=filters.ChatType.PRIVATE), group=GROUP)
    for name, fn in COMMANDS.items():
        app.add_handler(CommandHandler(name, fn), group=GROUP)
    app.add_handler(CallbackQueryHandler(on_button, pattern=r"^T:"), group=GROUP)
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, on_private_text),
                    group=GROUP)
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.Document.ALL, on_document), group=GROUP)
