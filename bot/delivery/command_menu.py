"""The bot's command menu (``setMyCommands``): per kind of chat, in Chinese (the default) and English, sent
once at start-up (bot/boot/runtime.py)."""

from __future__ import annotations

import logging

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)

from bot.presentation.i18n import t
from bot.presentation.tournament.texts import tt

log = logging.getLogger(__name__)

# The command menu (setMyCommands), per kind of chat, in zh-CN (no language code: the default) and en.
# ``COMMANDS``: the default scope (any chat not covered below); the tournament lists are added when the
# tournament side is registered (bot/edge/tournament; their descriptions are its ``cmd.*`` texts).
COMMANDS = ("start", "help", "newtable", "lang", "leave", "stop", "review", "replay")
PRIVATE_COMMANDS = ("start", "help", "lang", "review", "replay", "privacy", "mydata", "forget")
GROUP_COMMANDS = ("help", "newtable", "lang", "leave", "review", "replay", "mix", "privacy")
ADMIN_COMMANDS = ("stop",)  # a group's administrators (any chat administrator may /stop, /lang there)
TOURNAMENT_PRIVATE = (
    "withdraw",
    "schedule",
    "results",
    "bracket",
    "standings",
    "dashboard",
    "tournament",
    "tournament_help",
    "me",
    "season",
)
TOURNAMENT_GROUP = ("schedule", "results", "bracket", "standings", "season", "tournament_help")
TOURNAMENT_ADMIN = (
    "tournament_group",
    "table_register",
    "start_match",
    "substitute",
    "extend",
    "pause",
    "resume",
    "result",
    "forfeit",
    "violation",
    "audit",
)


def command_menu(tournaments: bool) -> list[tuple[BotCommandScope, tuple[str, ...]]]:
    """(scope, commands) of the command menu: every private chat, every group, the groups'
    administrators (who also see the group list), and the default for any other chat; ``tournaments``:
    with the tournament side's commands."""
    private = PRIVATE_COMMANDS + (TOURNAMENT_PRIVATE if tournaments else ())
    group = GROUP_COMMANDS + (TOURNAMENT_GROUP if tournaments else ())
    admin = group + ADMIN_COMMANDS + (TOURNAMENT_ADMIN if tournaments else ())
    return [
        (BotCommandScopeDefault(), COMMANDS),
        (BotCommandScopeAllPrivateChats(), private),
        (BotCommandScopeAllGroupChats(), group),
        (BotCommandScopeAllChatAdministrators(), admin),
    ]


def command_description(lang: str, name: str) -> str:
    """A command's menu description in ``lang`` (the play catalogue, else the tournament texts)."""
    text = t(lang, f"cmd.{name}")
    if text == f"cmd.{name}":
        text = tt(lang, f"cmd.{name}")
    return text[:256]


async def set_commands(bot: Bot, *, tournaments: bool) -> None:
    """Send the menu (never fatal: a failure is logged)."""
    try:
        for scope, names in command_menu(tournaments):
            for lang, code in (("zh", None), ("en", "en")):
                cmds = [BotCommand(c, command_description(lang, c)) for c in names]
                await bot.set_my_commands(cmds, scope=scope, language_code=code)
    except Exception as exc:  # never fatal
        log.warning("setMyCommands failed: %s", exc)
