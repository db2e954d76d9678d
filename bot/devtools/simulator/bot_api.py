"""The Bot API surface of the simulator: every method python-telegram-bot calls, with Telegram's checks,
answers and error descriptions (``api_<method>``; the HTTP layer in ``server`` dispatches to them).

Assembled from one module per job: ``api_checks`` (the checks the methods share), ``api_updates`` (getMe,
getUpdates), ``api_commands`` (the command menu, menu button, profile), ``api_chats`` (chats, members,
pins), ``api_messages`` (sends, files, edits, deletes, callback answers); the webhook's methods are in
``webhook``."""

from __future__ import annotations

from bot.devtools.simulator.api_chats import ChatMethods
from bot.devtools.simulator.api_checks import NOT_MODIFIED, QUERY_TOO_OLD
from bot.devtools.simulator.api_commands import CommandMethods
from bot.devtools.simulator.api_messages import MessageMethods
from bot.devtools.simulator.api_updates import UpdateMethods

__all__ = ["NOT_MODIFIED", "QUERY_TOO_OLD", "BotApiMethods"]


class BotApiMethods(UpdateMethods, CommandMethods, ChatMethods, MessageMethods):
    """The Bot API methods (``api_getMe`` ... ``api_answerCallbackQuery``) and their shared checks."""
