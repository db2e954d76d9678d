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
from dataclasses import dataclass
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram import User as TgUser
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

from bot.edge import callbacks
from bot.edge.handlers import save_chat, save_user
from bot.edge.tournament import dashboard, setup
from bot.presentation.tournament.export import season_files
from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments import views
from bot.tournaments.core import TournamentBot
from engine.errors import RuleError
from engine.tournament import pair_result, played_table, team_result
from engine.tournament.results import referee_result
from engine.tournament.season import season_table
from storage import tournaments as ts
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
        if row is not None and row.status != "deleted":
            return row
    mine = [r for r in await ts.tournaments_of_user(tb.db, user.id)
            if r.status not in ("setup", "cancelled", "deleted")]
    if not mine:
        raise RuleError("no_tournament", "No tournament")
    return mine[0]


ORG = ("organiser",)
REF = ("referee", "chief_referee", "organiser")


@dataclass
class Call:
    """One tournament command being handled: who sent it, about which tournament, in which language."""

    update: Update
    context: Ctx
    tb: TournamentBot
    lang: str
    args: list[str]
    user: TgUser
    row: Tournament

    def reply(self, text: str, markup: Any = None) -> None:
        reply(self.update, self.tb, text, markup)

    async def require(self, roles: tuple[str, ...]) -> None:
        await ts.require(self.tb.db, self.row.id, self.user.id, roles)

    @property
    def elsewhere(self) -> bool:
        """The command was sent somewhere other than the tournament group (a private chat, a table group)."""
        chat = self.update.effective_chat
        return chat is not None and chat.id != self.row.group_chat_id


def command(roles: tuple[str, ...] | None = None, bare_id: tuple[str, ...] = ()
            ) -> Callable[[Callable[[Call], Awaitable[None]]], Callable[[Update, Ctx], Coroutine[Any, Any, None]]]:
    """A command about one tournament: ``guarded``, the tournament resolved (``#id`` popped from the
    arguments), and, with ``roles``, the sender must hold one of them (RuleError ``not_allowed``).
    ``bare_id``: words that may follow a tournament number written without ``#`` (``/role 1 add ...``)."""
    def wrap(fn: Callable[[Call], Awaitable[None]]) -> Callable[[Update, Ctx], Coroutine[Any, Any, None]]:
        @guarded
        async def run(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
            user = update.effective_user
            assert user is not None
            if bare_id and len(args) > 1 and args[0].isdigit() and args[1] in bare_id:
                args[0] = "#" + args[0]
            row = await resolve(tb, update, args)
            call = Call(update, context, tb, lang, args, user, row)
            if roles:
                await call.require(roles)
            await fn(call)
        run.__name__ = run.__qualname__ = fn.__name__
        run.__doc__ = fn.__doc__
        return run
    return wrap


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
    if tb.replaced.get(user.id):  # a typed play by a player a substitute replaced
        refused = await tb.replaced_answer(user.id, None, await _lang(tb, update))
        if refused is not None:
            tb.send(user.id, refused)
            raise ApplicationHandlerStop
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
    """A tournament file: a new tournament, or (with ``id``) an update of that tournament."""
    try:
        spec = ts.spec_from_toml(text)
        tid = spec.pop("id", None)
        if tid is not None:
            row = await ts.update_from_spec(tb.db, int(tid), user_id, spec)
        else:
            row = await ts.create_tournament(tb.db, created_by=user_id, **spec)
    except RuleError as err:
        tb.send(user_id, tt(lang, "toml.error", reason=error_text(lang, err)))
        return
    await tb.arm_tournament(row)
    if tid is not None:
        tb.send(user_id, tt(lang, "toml.updated", id=row.id, name=row.name) + "\n\n" + views.summary(lang, row))
        if row.group_chat_id:
            tb.send(row.group_chat_id, tt(tb.glang(), "ctl.updated", name=row.name))
        return
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
    from engine.registry import load_preset
    preset = load_preset(row.preset_id)
    text = tt(lang, "reg.announce", name=row.name, preset=preset.title_en if lang == "en" else preset.title_zh,
              entrant=views.entrant_text(lang, row), deadline=ts.local_text(row.registration_deadline, row.time_zone),
              draw=ts.local_text(row.draw_at, row.time_zone), commitment=row.commitment or "-")
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
    await tell_organisers_new_entry(tb, entry)
    return text


async def tell_organisers_new_entry(tb: TournamentBot, entry: Any) -> None:
    """Registrations as they come in: each organiser gets one line (the full picture: /dashboard)."""
    tb.dashboard_changed(entry.tournament_id)
    count = len([e for e in await ts.entries(tb.db, entry.tournament_id) if e.kind == entry.kind])
    for r in await ts.role_members(tb.db, entry.tournament_id, "organiser"):
        tb.send(r.user_id, tt(await tb.ulang(r.user_id), "reg.new_entry", entry=entry.name,
                              group=entry.union_group or "-", count=count))


@command()
async def cmd_withdraw(c: Call) -> None:
    """/withdraw: a player withdraws their pair (of a team: that pair alone; the team's leader is told)."""
    entry = await ts.entry_of_user(c.tb.db, c.row.id, c.user.id)
    if entry is None:
        raise RuleError("unknown_entry", "", id="-")
    done = await ts.withdraw(c.tb.db, c.row.id, entry.id, c.user.id, c.tb.now())
    c.reply(tt(c.lang, "reg.withdrawn", entry=entry.name))
    await tell_withdrawal(c.tb, done, c.user.id)


async def tell_withdrawal(tb: TournamentBot, done: ts.Withdrawn, actor: int) -> None:
    """The other players of the entry and, for a pair of a team, the team's leader are told."""
    tb.dashboard_changed(done.entry.tournament_id)
    for uid in {int(p) for p in done.entry.players_json} - {actor}:
        tb.send(uid, tt(await tb.ulang(uid), "reg.withdrawn_you", entry=done.entry.name))
    if done.team is not None:
        per = int((await ts.get_tournament(tb.db, done.team.tournament_id)).settings_json.get("pairs_per_team", 1))
        for uid in done.leaders:
            tb.send(uid, tt(await tb.ulang(uid), "reg.team_pair_left", team=done.team.name, pair=done.entry.name,
                            have=len(done.team.players_json) // 2, need=per, team_id=done.team.id))


@command()
async def cmd_register(c: Call) -> None:
    """Organiser, or the union group's leader: /register @a @b [union group]."""
    if not (await ts.roles_of(c.tb.db, c.row.id, c.user.id)) & {"organiser", "leader"}:
        raise RuleError("not_allowed", "")
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/register @a @b [单位]"))
        return
    ids = []
    for who in c.args[:2]:
        u = await ts.find_user(c.tb.db, who)
        if u is None:
            c.reply(tt(c.lang, "unknown_user", who=who))
            return
        ids.append(u.id)
    entry = await ts.register_pair(c.tb.db, c.row.id, c.user.id, ids, " ".join(c.args[2:]), c.tb.now())
    c.tb.dashboard_changed(c.row.id)
    c.reply(tt(c.lang, "reg.paired", pair=entry.name, group=entry.union_group or "-", id=entry.id))


@command(ORG)
async def cmd_remove(c: Call) -> None:
    if not c.args or not c.args[0].isdigit():
        c.reply(tt(c.lang, "usage", usage="/remove <entry no>"))
        return
    if c.row.state_json is not None and c.row.settings_json.get("format") == "swiss":  # between Swiss rounds
        gone = await ts.swiss_withdraw(c.tb.db, c.row.id, int(c.args[0]), c.user.id)
        c.tb.dashboard_changed(c.row.id)
        c.reply(tt(c.lang, "swiss.withdrawn", entry=gone.name))
        for uid in {int(p) for p in gone.players_json}:
            c.tb.send(uid, tt(await c.tb.ulang(uid), "swiss.withdrawn", entry=gone.name))
        return
    done = await ts.withdraw(c.tb.db, c.row.id, int(c.args[0]), c.user.id)
    c.reply(tt(c.lang, "reg.withdrawn", entry=done.entry.name))
    await tell_withdrawal(c.tb, done, c.user.id)


@command()
async def cmd_replace(c: Call) -> None:
    """/replace <entry no> @old @new: ``new`` is asked and takes the place once they accept."""
    if len(c.args) != 3 or not c.args[0].isdigit():
        c.reply(tt(c.lang, "usage", usage="/replace <entry no> @old @new"))
        return
    old, new = await ts.find_user(c.tb.db, c.args[1]), await ts.find_user(c.tb.db, c.args[2])
    if old is None or new is None:
        c.reply(tt(c.lang, "unknown_user", who=c.args[1] if old is None else c.args[2]))
        return
    offer = await ts.offer_replacement(c.tb.db, c.row.id, int(c.args[0]), old.id, new.id, c.user.id, c.tb.now())
    names = await ts.user_names(c.tb.db, [old.id, new.id, c.user.id])
    entries = {e.id: e for e in await ts.entries(c.tb.db, c.row.id)}
    entry = entries[int(c.args[0])]
    nl = await c.tb.ulang(new.id)
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(tt(nl, "reg.accept"), callback_data=f"T:r:{offer.token}")]])
    c.tb.send(new.id, tt(nl, "reg.replace_ask", who=names[c.user.id], old=names[old.id], entry=entry.name,
                         name=c.row.name, hours=c.row.invite_hours), markup)
    c.reply(tt(c.lang, "reg.replace_sent", new=names[new.id], old=names[old.id]))


async def accept_replacement(tb: TournamentBot, user_id: int, lang: str, token: str) -> str:
    entry, old = await ts.accept_replacement(tb.db, token, user_id, tb.now())
    tb.dashboard_changed(entry.tournament_id)
    names = await ts.user_names(tb.db, [old, user_id])
    tb.send(old, tt(await tb.ulang(old), "reg.replaced_you", new=names[user_id], entry=entry.name))
    for uid in {int(p) for p in entry.players_json} - {user_id}:
        tb.send(uid, tt(await tb.ulang(uid), "reg.replaced", entry=entry.name))
    text = tt(lang, "reg.replaced", entry=entry.name)
    tb.send(user_id, text)
    return text


@command()
async def cmd_team(c: Call) -> None:
    """Union group leader: /team (list pairs) or /team <name> <pair no> <pair no> ..."""
    per = int(c.row.settings_json.get("pairs_per_team", 1))
    if len(c.args) < 2:
        leads = {r.union_group for r in await ts.role_members(c.tb.db, c.row.id, "leader") if r.user_id == c.user.id}
        organiser = "organiser" in await ts.roles_of(c.tb.db, c.row.id, c.user.id)
        if not leads and not organiser:
            raise RuleError("not_allowed", "")
        pairs = [e for e in await ts.entries(c.tb.db, c.row.id, "pair")
                 if e.team_id is None and (organiser or e.union_group in leads)]
        lines = "\n".join(f"{e.id}. {e.name}（{e.union_group}）" for e in pairs) or "-"
        c.reply(tt(c.lang, "reg.team_list", n=per, pairs=lines))
        return
    nums = [a for a in c.args if a.isdigit()]
    name = " ".join(a for a in c.args if not a.isdigit())
    team = await ts.form_team(c.tb.db, c.row.id, c.user.id, [int(n) for n in nums], name, c.tb.now())
    c.tb.dashboard_changed(c.row.id)
    c.reply(tt(c.lang, "reg.team_formed", team=team.name, id=team.id))
    people = await ts.user_names(c.tb.db, [int(p) for p in team.players_json])
    roster = "、".join(people[int(p)] for p in team.players_json)
    for uid in people:  # every member is told they are in the team
        c.tb.send(uid, tt(await c.tb.ulang(uid), "reg.team_you", name=c.row.name, team=team.name,
                          group=team.union_group or "-", players=roster))


@command()
async def cmd_entries(c: Call) -> None:
    """/entries: pairs and teams counted apart (a team's pairs are listed under it)."""
    entries = await ts.entries(c.tb.db, c.row.id)
    pairs = [e for e in entries if e.kind == "pair"]
    teams = [e for e in entries if e.kind == "team"]
    lines = []
    for t in teams:
        lines.append(f"{t.id}. {t.name}（{t.union_group or '-'}）[{tt(c.lang, 'unit.team')}]")
        lines += [f"   {p.id}. {p.name}" for p in pairs if p.team_id == t.id]
    lines += [f"{p.id}. {p.name}（{p.union_group or '-'}）" for p in pairs if p.team_id is None]
    counts = tt(c.lang, "reg.count_pairs", n=len(pairs))
    if c.row.settings_json.get("entrant") == "team":
        counts = tt(c.lang, "reg.count_teams", n=len(teams)) + ("，" if c.lang != "en" else ", ") + counts
    c.reply(tt(c.lang, "reg.entries", counts=counts, lines="\n".join(lines) or "-"))


# --- roles, audit, draw ----------------------------------------------------------------------------

@command(ORG, bare_id=("add", "remove"))
async def cmd_role(c: Call) -> None:
    if len(c.args) < 3 or c.args[0] not in ("add", "remove"):
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "role.usage")))
        return
    op, role, who = c.args[0], c.args[1], c.args[2]
    target = await ts.find_user(c.tb.db, who)
    if target is None:
        c.reply(tt(c.lang, "unknown_user", who=who))
        return
    if op == "add":
        await ts.grant(c.tb.db, c.row.id, c.user.id, target.id, role, " ".join(c.args[3:]))
    else:
        await ts.revoke(c.tb.db, c.row.id, c.user.id, target.id, role)
    c.reply(tt(c.lang, "role.done", op=tt(c.lang, "role.added" if op == "add" else "role.removed"),
                         user=target.first_name or who, role=role))


@command(REF)
async def cmd_audit(c: Call) -> None:
    rows = await ts.audit_log(c.tb.db, c.row.id, 40)
    users = await ts.user_names(c.tb.db, [a.actor_id for a in rows if a.actor_id is not None])
    c.reply(views.audit_text(c.lang, rows, c.row.time_zone, users))


@command(ORG)
async def cmd_draw(c: Call) -> None:
    err = await c.tb.draw(c.row.id, c.user.id)
    if err:
        c.reply(err)
    elif c.elsewhere:
        c.reply(tt(c.lang, "done"))


@command(ORG)
async def cmd_close(c: Call) -> None:
    await ts.close_registration(c.tb.db, c.row.id, c.user.id)
    c.tb.dashboard_changed(c.row.id)
    c.reply(tt(c.lang, "done"))


# --- organiser control after creation --------------------------------------------------------------

def _time_args(c: Call, words: list[str]) -> Any:
    """``2026-12-01 18:00`` (two words) or ``2026-12-01T18:00`` in the tournament's time zone."""
    return ts.parse_local_time(" ".join(words), c.row.time_zone)


@command(ORG)
async def cmd_edit(c: Call) -> None:
    """/edit deadline|draw|first <time>."""
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/edit deadline|draw|first 2026-12-01 18:00"))
        return
    c.reply(await c.tb.edit_time(c.row.id, c.user.id, c.args[0].lower(), _time_args(c, c.args[1:])))


@command(ORG)
async def cmd_reschedule(c: Call) -> None:
    """/reschedule <match> <time>."""
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/reschedule R1-M1 2026-12-03 10:00"))
        return
    c.reply(await c.tb.reschedule(c.row.id, c.user.id, c.args[0].upper(), _time_args(c, c.args[1:])))


@command(ORG)
async def cmd_swap(c: Call) -> None:
    """/swap <match> <match>: two matches not begun exchange times and tables."""
    if len(c.args) != 2:
        c.reply(tt(c.lang, "usage", usage="/swap R1-M1 R1-M2"))
        return
    c.reply(await c.tb.swap(c.row.id, c.user.id, c.args[0].upper(), c.args[1].upper()))


@command(ORG)
async def cmd_move_table(c: Call) -> None:
    """/move_table <match> <table no> <table group title or chat id>."""
    if len(c.args) < 3 or not c.args[1].isdigit():
        c.reply(tt(c.lang, "usage", usage="/move_table R1-M1 1 比赛桌2"))
        return
    wanted = " ".join(c.args[2:])
    groups = await ts.table_groups(c.tb.db, c.row.id)
    chat = next((g.chat_id for g in groups if g.title == wanted or str(g.chat_id) == wanted), None)
    if chat is None:
        raise RuleError("unknown_table_group", "")
    c.reply(await c.tb.move_table(c.row.id, c.user.id, c.args[0].upper(), int(c.args[1]), chat))


@command(ORG)
async def cmd_dashboard(c: Call) -> None:
    """/dashboard: the organiser's overview, in the private chat."""
    chat = c.update.effective_chat
    if chat is None or chat.type != ChatType.PRIVATE:
        c.reply(tt(c.lang, "private_only"))
        return
    live = c.row.status not in dashboard.ENDED
    text, markup = await dashboard.dashboard(c.tb, c.row, c.lang, live=live)
    sent = c.tb.send(chat.id, text, markup)
    if live:  # kept live: edited as the tournament changes (stored once Telegram gave the message its id)
        c.tb.spawn(c.tb.follow_dashboard(c.row.id, c.user.id, c.lang, sent))


async def _confirm(c: Call, op: str) -> None:
    """Ask for the confirmation button; the request is a stored row (a restart keeps it) good for
    ``ts.CONFIRM_MINUTES`` minutes, and the buttons carry its token."""
    item = await ts.ask_confirmation(c.tb.db, c.row.id, c.user.id, op, " ".join(c.args), c.tb.now())
    data = f"T:x:{c.row.id}:{{}}:{item.token}"
    markup = InlineKeyboardMarkup([[InlineKeyboardButton(tt(c.lang, "ctl.yes"), callback_data=data.format(op)),
                                    InlineKeyboardButton(tt(c.lang, "ctl.no"), callback_data=data.format("no"))]])
    c.reply(tt(c.lang, "ctl.confirm", op=tt(c.lang, "ctl.op." + op), name=c.row.name, reason=item.reason,
               minutes=ts.CONFIRM_MINUTES), markup)


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
    item = await ts.take_confirmation(tb.db, tid, token, user_id, tb.now())
    if op == "no" or op != item.op:
        return tt(lang, "ctl.kept")
    return await tb.cancel_tournament(tid, user_id, item.reason, delete=op == "delete")


async def dashboard_button(tb: TournamentBot, q: Any, user_id: int, lang: str, tid: int, stop: bool) -> str | None:
    """Refresh (the message pressed is edited in place) or Stop (it is followed no more)."""
    await ts.require(tb.db, tid, user_id, ORG)
    message = q.message
    mid = message.message_id if message is not None else None
    if stop and mid is not None:
        await ts.unfollow_dashboard(tb.db, tid, user_id, message_id=mid)
    follows = await ts.dashboards(tb.db, tid)
    live = any(f.user_id == user_id and f.message_id == mid for f in follows)
    text, markup = await dashboard.dashboard(tb, await ts.get_tournament(tb.db, tid), lang, live=live)
    if mid is None or tb.rt.outbox is None:
        tb.send(user_id, text, markup)
    else:
        tb.rt.outbox.edit(message.chat_id, mid, text, markup)
    return tt(lang, "dash.stopped") if stop else None


# --- referee tools ------------------------------------------------------------------------------------

def _levels(args: list[str]) -> tuple[int | None, int | None, list[str]]:
    if len(args) >= 2 and args[0].isdigit() and args[1].isdigit():
        return int(args[0]), int(args[1]), args[2:]
    return None, None, args


@command(REF)
async def cmd_result(c: Call) -> None:
    """/result <match> confirm | /result <match> a|b [levels a b] <reason> [force]."""
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "result.usage")))
        return
    key, what = c.args[0].upper(), c.args[1].lower()
    if what == "confirm":
        await ts.confirm_result(c.tb.db, c.row.id, key, c.user.id)
        c.tb.send(c.row.group_chat_id, tt(c.tb.glang(), "result.confirmed", key=key))
        if c.elsewhere:
            c.reply(tt(c.lang, "result.confirmed", key=key))
        return
    if what not in ("a", "b"):
        raise RuleError("bad_side", "", side=what)
    rest = c.args[2:]
    force = bool(rest) and rest[-1].lower() == "force"
    if force:
        rest = rest[:-1]
    la, lb, rest = _levels(rest)
    if la is not None and lb is not None and (la < lb if what == "a" else lb < la):  # a typo: the loser ahead
        raise RuleError("levels_against_winner", "", side=what, la=la, lb=lb)
    reason = " ".join(rest)
    if not reason:
        raise RuleError("reason_required", "")
    async with c.tb.lock(c.row.id):
        m = await ts.get_match(c.tb.db, c.row.id, key)
        tables = len(await ts.match_players(c.tb.db, m))
        if tables == 1:
            result = pair_result(what, la, lb, note=reason)
        else:
            result = team_result([played_table(what, la, lb, k) for k in range(1, tables + 1)], note=reason)
        if m.result_json is None:
            result = referee_result(what, result.tables, reason)
            rec = await ts.record_result(c.tb.db, c.row.id, key, result, c.user.id, "referee_result", reason)
        else:
            rec = await ts.correct_result(c.tb.db, c.row.id, key, result, c.user.id, reason, force)
        if not rec.applied:
            c.reply(tt(c.lang, "result.conflict", matches=", ".join(rec.conflicts)))
            return
        await c.tb.halt_match(rec.match)
        names = await c.tb._names(c.row.id)
        eng = await ts.engine_state(c.tb.db, c.row.id)
        line = views.result_line(c.tb.glang(), key, result, names.get(m.side_a or "", "?"),
                                 names.get(m.side_b or "", "?"), eng)
        await c.tb.after_result(c.row.id, rec, text=tt(c.tb.glang(), "result.corrected", key=key, reason=reason, line=line))
    if c.elsewhere:
        c.reply(tt(c.lang, "done"))


@command(REF)
async def cmd_forfeit(c: Call) -> None:
    if len(c.args) < 3 or c.args[1].lower() not in ("a", "b", "both"):
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "forfeit.usage")))
        return
    key, absent, reason = c.args[0].upper(), c.args[1].lower(), " ".join(c.args[2:])
    async with c.tb.lock(c.row.id):
        m = await ts.get_match(c.tb.db, c.row.id, key)
        tables = len(await ts.match_players(c.tb.db, m))
        result = ts.forfeit(absent, tables, reason)
        if m.result_json is None:
            rec = await ts.record_result(c.tb.db, c.row.id, key, result, c.user.id, "award_forfeit", reason)
        else:
            rec = await ts.correct_result(c.tb.db, c.row.id, key, result, c.user.id, reason, True)
        await c.tb.halt_match(m)
        names = await c.tb._names(c.row.id)
        eng = await ts.engine_state(c.tb.db, c.row.id)
        line = views.result_line(c.tb.glang(), key, result, names.get(m.side_a or "", "?"),
                                 names.get(m.side_b or "", "?"), eng)
        text = tt(c.tb.glang(), "forfeit.awarded", key=key, line=line, reason=reason)
        await c.tb.tell_match(c.row, m, text)
        await c.tb.after_result(c.row.id, rec, announce=False)


@command(REF)
async def cmd_undo_forfeit(c: Call) -> None:
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/undo_forfeit <match> <reason>"))
        return
    await c.tb.undo_forfeit(c.row.id, c.args[0].upper(), c.user.id, " ".join(c.args[1:]))


@command(REF)
async def cmd_violation(c: Call) -> None:
    if len(c.args) < 3 or c.args[1].lower() not in ("a", "b"):
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "conduct.usage")))
        return
    key, side, note = c.args[0].upper(), c.args[1].lower(), " ".join(c.args[2:])
    async with c.tb.lock(c.row.id):
        outcome, rec, rid = await ts.add_conduct(c.tb.db, c.row.id, key, side, c.user.id, "violation", note)
        m = await ts.get_match(c.tb.db, c.row.id, key)
        names = await c.tb._names(c.row.id)
        entry = names.get((m.side_a if side == "a" else m.side_b) or "", "?")
        glang = c.tb.glang()
        text = tt(glang, "conduct.recorded", key=key, entry=entry, note=note, id=rid, count=outcome.active_violations)
        if outcome.newly_disqualified:
            text += "\n" + tt(glang, "conduct.disqualified", entry=entry, count=outcome.active_violations)
            await c.tb.halt_match(m)
        await c.tb.tell_match(c.row, m, text)
        if rec is not None:
            await c.tb.after_result(c.row.id, rec, announce=False)


@command(REF)
async def cmd_reverse(c: Call) -> None:
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/reverse <C1> <reason>"))
        return
    rid, reason = c.args[0].upper(), " ".join(c.args[1:])
    outcome = await ts.reverse_conduct(c.tb.db, c.row.id, rid, c.user.id, reason)
    names = await c.tb._names(c.row.id)
    extra = tt(c.tb.glang(), "conduct.reinstated", entry=names.get(outcome.entry_id, "?")) if outcome.reinstated else ""
    text = tt(c.tb.glang(), "conduct.reversed", id=rid, reason=reason, extra=extra)
    c.tb.send(c.row.group_chat_id, text)
    if c.elsewhere:
        c.reply(text)


@command(REF)
async def cmd_start_match(c: Call) -> None:
    """/start_match <match>: a referee starts the match's tables now (seats stay bound to the entries)."""
    if not c.args:
        c.reply(tt(c.lang, "usage", usage="/start_match <match>"))
        return
    c.reply(await c.tb.referee_start(c.row.id, c.args[0].upper(), c.user.id))


@command(REF)
async def cmd_substitute(c: Call) -> None:
    """/substitute <match> @absent @substitute [reason]: a referee-approved substitute takes the seat."""
    if len(c.args) < 3:
        c.reply(tt(c.lang, "usage", usage="/substitute <match> @old @new [理由]"))
        return
    old, new = await ts.find_user(c.tb.db, c.args[1]), await ts.find_user(c.tb.db, c.args[2])
    if old is None or new is None:
        c.reply(tt(c.lang, "unknown_user", who=c.args[1] if old is None else c.args[2]))
        return
    c.reply(await c.tb.seat_substitute(c.row.id, c.args[0].upper(), old.id, new.id, c.user.id,
                                       " ".join(c.args[3:])))


@command(REF)
async def cmd_extend(c: Call) -> None:
    """/extend <match> <minutes> [table]: more time before the lateness rule, for one table or all waiting."""
    if len(c.args) < 2 or not c.args[1].isdigit() or (len(c.args) > 2 and not c.args[2].isdigit()):
        c.reply(tt(c.lang, "usage", usage="/extend <match> <minutes> [table]"))
        return
    table = int(c.args[2]) if len(c.args) > 2 else None
    c.reply(await c.tb.extend_lateness(c.row.id, c.args[0].upper(), table, int(c.args[1]), c.user.id))


async def _pause(c: Call, paused: bool) -> None:
    if not c.args:
        c.reply(tt(c.lang, "usage", usage="/pause <match>" if paused else "/resume <match>"))
        return
    key = c.args[0].upper()
    if not await c.tb.pause(c.row.id, key, paused):
        c.reply(tt(c.lang, "no_table", key=key))
        return
    await ts.audit(c.tb.db, c.row.id, c.user.id, "pause" if paused else "resume", match=key)
    m = await ts.get_match(c.tb.db, c.row.id, key)
    text = tt(c.tb.glang(), "pause.done" if paused else "resume.done", key=key)
    for chat in {c.row.group_chat_id, *[int(x) for x in m.table_chats]}:
        c.tb.send(chat, text)


@command(REF)
async def cmd_pause(c: Call) -> None:
    await _pause(c, True)


@command(REF)
async def cmd_resume(c: Call) -> None:
    await _pause(c, False)


# --- outputs ------------------------------------------------------------------------------------------

@command(ORG)
async def cmd_end_swiss(c: Call) -> None:
    """/end_swiss: the Swiss ends after the current round (final standings, or the top-K knockout)."""
    swiss = ts.load_engine(c.row).swiss if c.row.state_json is not None else None
    rnd = swiss.current_round if swiss is not None else 0
    ended = await ts.end_swiss(c.tb.db, c.row.id, c.user.id)
    c.tb.dashboard_changed(c.row.id)
    lang = c.tb.glang()
    row = await ts.get_tournament(c.tb.db, c.row.id)
    c.tb.send(row.group_chat_id or c.user.id, tt(lang, "swiss.ended", round=rnd))
    if ended.finished:
        c.tb.send(row.group_chat_id or row.created_by,
                  tt(lang, "finished", name=row.name, ranking=views.ranking_text(lang, ts.load_engine(row))))
    else:
        await c.tb._schedule(row)


@command(ORG)
async def cmd_public_page(c: Call) -> None:
    """/public_page on|off: the tournament's public page on the bot's web server (/t/<id>)."""
    if not c.args or c.args[0].lower() not in ("on", "off"):
        c.reply(tt(c.lang, "usage", usage="/public_page on|off"))
        return
    on = c.args[0].lower() == "on"
    await ts.set_public_page(c.tb.db, c.row.id, c.user.id, on)
    c.reply(tt(c.lang, "public.on" if on else "public.off", path=f"/t/{c.row.id}"))


@command()
async def cmd_bracket(c: Call) -> None:
    if c.row.state_json is None:
        c.reply(tt(c.lang, "out.no_draw"))
        return
    eng = ts.load_engine(c.row)
    c.reply(views.bracket_text(c.lang, eng, await c.tb._names(c.row.id)))
    png = await asyncio.to_thread(_bracket_png, eng, c.lang)  # drawing takes 0.1-0.6 s: off the event loop
    chat = c.update.effective_chat
    if png is not None and chat is not None:
        await c.tb.send_document(chat.id, png, "bracket.png", photo=True)


def _bracket_png(eng: Any, lang: str) -> bytes | None:
    try:
        from bot.presentation.tournament.bracket_image import bracket_png
    except ImportError:
        return None
    try:
        return bracket_png(eng, lang).getvalue()
    except Exception as exc:  # a missing font is reported by the renderer at start-up; text was sent
        log.warning("bracket image failed: %s", exc)
        return None


@command()
async def cmd_standings(c: Call) -> None:
    if c.row.state_json is None:
        c.reply(tt(c.lang, "out.no_draw"))
        return
    eng = ts.load_engine(c.row)
    ratings = None
    if eng.swiss is not None:  # the Swiss table shows each entry's rating (its players' mean)
        ratings = views.entry_ratings(await ts.player_ratings(c.tb.db), ts.game_of(c.row),
                                      await ts.entries(c.tb.db, c.row.id, include_withdrawn=True))
    c.reply(views.standings_text(c.lang, eng, await c.tb._names(c.row.id), ratings))


@command()
async def cmd_schedule(c: Call) -> None:
    rows = [m for m in await ts.matches(c.tb.db, c.row.id) if m.status in ("scheduled", "open", "playing")]
    tables = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(c.tb.db, c.row.id)}
    lines = views.schedule_lines(c.lang, c.row, rows, await c.tb._names(c.row.id), tables)
    c.reply(tt(c.lang, "sched.round", lines="\n".join(lines)) if lines else tt(c.lang, "sched.none"))


@command()
async def cmd_results(c: Call) -> None:
    eng = ts.load_engine(c.row) if c.row.state_json is not None else None
    c.reply(views.results_text(c.lang, eng, await ts.matches(c.tb.db, c.row.id), await c.tb._names(c.row.id)))


@command(REF)
async def cmd_export(c: Call) -> None:
    chat = c.update.effective_chat
    assert chat is not None
    entries = await ts.entries(c.tb.db, c.row.id, include_withdrawn=True)
    players = sorted({int(p) for e in entries for p in e.players_json})
    users = await ts.user_names(c.tb.db, players)
    eng = ts.load_engine(c.row) if c.row.state_json else None
    rows = await ts.matches(c.tb.db, c.row.id)
    groups = await ts.table_groups(c.tb.db, c.row.id)
    files = (await asyncio.to_thread(_rendered_exports, c.tb, c.row, eng, rows, users, c.lang, groups)  # off the loop
             if eng is not None else None)
    if files is None:
        files = [(f"tournament-{c.row.id}.csv", views.export_csv(c.row, entries, rows, eng, users))]
    for i, (filename, data) in enumerate(files):
        await c.tb.send_document(chat.id, data, filename, tt(c.lang, "out.export") if i == 0 else "")
    await c.tb.send_document(chat.id, ts.spec_to_toml(c.row).encode("utf-8"), f"tournament-{c.row.id}.toml")


def _rendered_exports(tb: TournamentBot, row: Tournament, eng: Any, rows: list[Any], users: dict[int, str],
                      lang: str, table_groups: list[Any]) -> list[tuple[str, bytes]] | None:
    """CSV files and the .xlsx workbook from bot/presentation/tournament (None: not available, use the plain CSV)."""
    try:
        from bot.presentation.tournament.export import export_all
        from engine.tournament.schedule import Slot
    except ImportError:
        return None
    try:
        slots = [Slot(m.match_key, tuple(str(c) for c in m.table_chats), m.start_at) for m in rows if m.start_at]
        groups = {str(g.chat_id): g.title or str(g.chat_id) for g in table_groups}
        files = export_all(eng, lang, slots=slots, tz=row.time_zone,
                           player_names={**{str(k): v for k, v in users.items()},
                                         **{ts.player_label(v, k): v for k, v in users.items()}},
                           table_names=groups)
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
        elif op in ("d", "ds"):  # refresh the dashboard / stop following
            answer = await dashboard_button(tb, q, user.id, lang, int(parts[2]), stop=op == "ds")
        elif op == "x":  # confirm cancelling / deleting a tournament
            answer = await confirmed(tb, user.id, lang, int(parts[2]), parts[3], parts[4] if len(parts) > 4 else "")
            tb.send(user.id, answer)
        elif op == "r":  # accept a replacement offer
            answer = await accept_replacement(tb, user.id, lang, parts[2])
        elif op == "c":  # check in
            answer = await tb.check_in(int(parts[2]), parts[3], user.id)
        elif op == "s":  # guided set-up button
            answer = await setup.button(tb, user.id, lang, parts[2:])
    except RuleError as err:
        answer = error_text(lang, err)
        if parts[1] in ("a", "g", "r", "x"):
            tb.send(user.id, answer)
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
    if not tb.replaced.get(user.id):
        return
    button = callbacks.parse(q.data)
    if not isinstance(button, callbacks.HandButton):
        return
    answer = await tb.replaced_answer(user.id, button.match_id, await _lang(tb, update))
    if answer is None:
        return
    try:
        await q.answer(text=answer[:200], show_alert=True)
    except Exception as exc:
        log.info("answerCallbackQuery failed: %s", exc)
    raise ApplicationHandlerStop


@guarded
async def cmd_me(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/me (private): the player's ratings per game, their tournaments with record and place, and the
    rating graph as a picture."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type != ChatType.PRIVATE:
        reply(update, tb, tt(lang, "private_only"))
        return
    ratings = await ts.player_ratings(tb.db)
    lines = []
    for row in await ts.tournaments_of_user(tb.db, user.id):
        if row.status in ("setup", "cancelled", "deleted"):
            continue
        entry = await ts.entry_of_user(tb.db, row.id, user.id)
        if entry is None:
            continue
        eng = ts.load_engine(row) if row.state_json is not None else None
        lines.append(views.me_line(lang, row, eng, str(entry.id), entry.name))
    name = user.first_name or user.username or str(user.id)
    mine = ratings.of_player(str(user.id))
    reply(update, tb, views.me_text(lang, name, mine, lines))
    history = {g: ratings.history_of(str(user.id), g) for g in mine}
    if any(history.values()):
        png = await asyncio.to_thread(_rating_png, tt(lang, "me.chart", name=name), history, lang)
        if png is not None:
            await tb.send_document(chat.id, png, "rating.png", photo=True)


def _rating_png(title: str, history: Any, lang: str) -> bytes | None:
    try:
        from bot.presentation.tournament.rating_chart import rating_png

        return rating_png(title, history, lang)
    except Exception as exc:  # a missing font is reported by the renderer at start-up; the text was sent
        log.warning("rating chart failed: %s", exc)
        return None


@guarded
async def cmd_season(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/season <id> <id> ... [export]: the season table over the named tournaments (groups and private)."""
    chat = update.effective_chat
    assert chat is not None
    export = bool(args) and args[-1].lower() == "export"
    ids = [a.lstrip("#") for a in (args[:-1] if export else args)]
    if not ids or not all(i.isdigit() for i in ids):
        reply(update, tb, tt(lang, "usage", usage=tt(lang, "season.usage")))
        return
    chosen = []
    for i in dict.fromkeys(int(x) for x in ids):
        row = await ts.get_tournament(tb.db, i)   # RuleError tournament_not_found, translated
        if row.state_json is None or row.status == "deleted":
            raise RuleError("no_draw_yet", "The draw has not been held")
        entries = await ts.entries(tb.db, row.id, include_withdrawn=True)
        chosen.append((row, ts.load_engine(row), {str(e.id): [str(p) for p in e.players_json] for e in entries}))
    players, groups = season_table([(eng, people) for _, eng, people in chosen])
    names = await ts.user_names(tb.db, [int(r.key) for r in players if r.key.isdigit()])
    reply(update, tb, views.season_text(lang, [f"#{row.id} {row.name}" for row, _, _ in chosen], players, groups,
                                        names))
    if export:
        files = season_files(players, groups, lang, {str(k): v for k, v in names.items()},
                             "season-" + "-".join(str(row.id) for row, _, _ in chosen))
        for f in files:
            await tb.send_document(chat.id, f.data, f.filename)


@guarded
async def cmd_help(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    reply(update, tb, tt(lang, "help"))


COMMANDS: dict[str, Callable[[Update, Ctx], Coroutine[Any, Any, None]]] = {
    "tournament": cmd_tournament, "cancel": cmd_cancel, "tournament_group": cmd_tournament_group,
    "table_register": cmd_table_register, "withdraw": cmd_withdraw, "register": cmd_register,
    "remove": cmd_remove, "replace": cmd_replace, "team": cmd_team, "entries": cmd_entries, "role": cmd_role,
    "audit": cmd_audit, "draw": cmd_draw, "close_registration": cmd_close, "result": cmd_result,
    "forfeit": cmd_forfeit, "undo_forfeit": cmd_undo_forfeit, "violation": cmd_violation, "reverse": cmd_reverse,
    "pause": cmd_pause, "resume": cmd_resume, "start_match": cmd_start_match, "substitute": cmd_substitute,
    "extend": cmd_extend, "edit": cmd_edit, "reschedule": cmd_reschedule, "swap": cmd_swap,
    "move_table": cmd_move_table, "cancel_tournament": cmd_cancel_tournament,
    "delete_tournament": cmd_delete_tournament, "end_swiss": cmd_end_swiss, "dashboard": cmd_dashboard, "bracket": cmd_bracket, "standings": cmd_standings,
    "schedule": cmd_schedule, "results": cmd_results, "export": cmd_export, "tournament_help": cmd_help,
    "me": cmd_me, "public_page": cmd_public_page, "season": cmd_season,
}


def register(app: Application) -> None:  # type: ignore[type-arg]
    app.add_handler(CommandHandler("start", on_start_payload, filters=filters.ChatType.PRIVATE), group=GROUP)
    for name, fn in COMMANDS.items():
        app.add_handler(CommandHandler(name, fn), group=GROUP)
    app.add_handler(CallbackQueryHandler(on_button, pattern=r"^T:"), group=GROUP)
    app.add_handler(CallbackQueryHandler(on_replaced_press), group=GROUP)
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, on_private_text),
                    group=GROUP)
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.Document.ALL, on_document), group=GROUP)
