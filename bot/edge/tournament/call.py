"""One tournament command being handled: the guard every handler runs under (the user stored, the
language worked out, a RuleError translated, no stack trace ever reaching a chat), which tournament it is
about, and the roles it needs.

Which tournament a command is about: an argument ``#<id>`` if given; in a group, the tournament
linked to it (tournament group or table group); in a private chat, the newest tournament where
the user has a role or an entry.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass

from telegram import Update
from telegram import User as TgUser
from telegram.constants import ChatType
from telegram.ext import ApplicationHandlerStop, ContextTypes

from bot.edge.handlers import save_chat, save_user
from bot.edge.tournament import setup
from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments.ports import Markup
from bot.tournaments.wiring import TournamentBot
from engine.errors import RuleError
from storage import tournaments as ts
from storage.db import Database
from storage.tournament_models import Tournament

log = logging.getLogger(__name__)


Ctx = ContextTypes.DEFAULT_TYPE

Handler = Callable[[Update, Ctx], Coroutine[object, object, None]]  # what PTB calls for an update


def tb_of(context: Ctx) -> TournamentBot:
    tb: TournamentBot = context.application.bot_data["tournaments"]
    return tb


async def lang_of(tb: TournamentBot, update: Update) -> str:
    user = update.effective_user
    return await tb.ctx.ulang(user.id if user else None, user.language_code if user else None)


def guarded(fn: Callable[[Update, Ctx, TournamentBot, str, list[str]], Awaitable[None]]) -> Handler:
    """Upsert the user, work out the language, translate RuleErrors, never leak a stack trace; stop."""

    async def handler(update: Update, context: Ctx) -> None:
        tb = tb_of(context)
        user, chat = update.effective_user, update.effective_chat
        if user is None or chat is None:
            return
        private = chat.type == ChatType.PRIVATE
        await save_user(tb.ctx.db, user, started=True if private else None)
        if not private:
            await save_chat(tb.ctx.db, chat)
        lang = await lang_of(tb, update)
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
        tb.ctx.send(chat.id, text)


def reply(update: Update, tb: TournamentBot, text: str, markup: Markup | None = None) -> None:
    chat = update.effective_chat
    if chat is not None:
        tb.ctx.send(chat.id, text, markup)


async def resolve(tb: TournamentBot, update: Update, args: list[str]) -> Tournament:
    """The tournament of a command (see the module docstring); pops a leading ``#id`` argument."""
    if args and re.fullmatch(r"#\d+", args[0]):
        return await ts.get_tournament(tb.ctx.db, int(args.pop(0)[1:]))
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type != ChatType.PRIVATE:
        row = await ts.tournament_of_group(tb.ctx.db, chat.id)
        if row is not None and row.status != "deleted":
            return row
    mine = [
        r
        for r in await ts.tournaments_of_user(tb.ctx.db, user.id)
        if r.status not in ("setup", "cancelled", "deleted")
    ]
    if not mine:
        raise RuleError("no_tournament", "No tournament")
    return mine[0]


@dataclass
class _SetupPorts:
    tb: TournamentBot

    @property
    def db(self) -> Database:
        return self.tb.ctx.db

    def send(self, chat_id: int, text: str, markup: Markup | None = None) -> object:
        return self.tb.ctx.send(chat_id, text, markup)

    async def arm_tournament(self, row: Tournament) -> None:
        await self.tb.timers.arm_tournament(row)


def setup_ports(tb: TournamentBot) -> setup.SetupPorts:
    """The guided set-up's ports, from the tournament side."""
    return _SetupPorts(tb)


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

    def reply(self, text: str, markup: Markup | None = None) -> None:
        reply(self.update, self.tb, text, markup)

    async def require(self, roles: tuple[str, ...]) -> None:
        await ts.require(self.tb.ctx.db, self.row.id, self.user.id, roles)

    @property
    def elsewhere(self) -> bool:
        """The command was sent somewhere other than the tournament group (a private chat, a table group)."""
        chat = self.update.effective_chat
        return chat is not None and chat.id != self.row.group_chat_id


def command(
    roles: tuple[str, ...] | None = None, bare_id: tuple[str, ...] = ()
) -> Callable[[Callable[[Call], Awaitable[None]]], Handler]:
    """A command about one tournament: ``guarded``, the tournament resolved (``#id`` popped from the
    arguments), and, with ``roles``, the sender must hold one of them (RuleError ``not_allowed``).
    ``bare_id``: words that may follow a tournament number written without ``#`` (``/role 1 add ...``)."""

    def wrap(fn: Callable[[Call], Awaitable[None]]) -> Handler:
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
