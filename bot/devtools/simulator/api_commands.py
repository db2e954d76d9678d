"""The simulator's Bot API methods of the bot's commands, menu button and profile: setMyCommands (checked as
Telegram does), getMyCommands, deleteMyCommands, the menu a client shows (``commands_for``, resolved by scope
and language), setChatMenuButton / getChatMenuButton, setMyName / setMyDescription / setMyShortDescription."""

from __future__ import annotations

import copy
import json
import re

from bot.devtools.simulator.api_checks import ApiChecks
from bot.devtools.simulator.errors import ApiError, SimulatorError
from bot.devtools.simulator.limits import MAX_COMMANDS
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.state import JSON


class CommandMethods(ApiChecks):
    """The command menu, the menu button and the bot's profile texts."""

    def _command_key(self, p: Params) -> tuple[str, str]:
        scope = p.obj("scope", "scope") or {"type": "default"}
        if not isinstance(scope, dict) or "type" not in scope:
            raise ApiError(400, "Bad Request: can't parse BotCommandScope JSON object")
        return json.dumps(scope, sort_keys=True), p.text("language_code") or ""

    def api_setMyCommands(self, p: Params) -> bool:
        commands = p.obj("commands", "commands")
        if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
            raise ApiError(
                400,
                "Bad Request: BOT_COMMANDS_TOO_MUCH"
                if isinstance(commands, list)
                else "Bad Request: can't parse commands JSON object",
            )
        cleaned = []
        for command in commands:
            if not isinstance(command, dict):
                raise ApiError(400, "Bad Request: can't parse BotCommand JSON object")
            name = str(command.get("command", ""))
            description = str(command.get("description", ""))
            if not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(description) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
            cleaned.append({"command": name, "description": description})
        key = self._command_key(p)
        if cleaned:
            self.commands[key] = cleaned
        else:
            self.commands.pop(key, None)
        return True

    def api_getMyCommands(self, p: Params) -> list[JSON]:
        return copy.deepcopy(self.commands.get(self._command_key(p), []))

    def commands_for(self, chat_id: int, user_id: int) -> list[JSON]:
        """The command menu ``user_id``'s client shows in ``chat_id``, resolved as Telegram does: the
        first scope with commands of chat member, chat administrators, chat, all chat administrators,
        all group chats / all private chats, default; each first in the user's language, then without."""
        chat = self.chats.get(chat_id)
        if chat is None:
            raise SimulatorError(f"no chat {chat_id}")
        user = self.users.get(user_id)
        lang = (user.language_code or "")[:2] if user is not None else ""
        admin = chat.is_group and (user_id == chat.owner_id or user_id in chat.admins)
        scopes: list[JSON] = []
        if chat.is_group:
            scopes.append({"type": "chat_member", "chat_id": chat_id, "user_id": user_id})
            if admin:
                scopes.append({"type": "chat_administrators", "chat_id": chat_id})
        scopes.append({"type": "chat", "chat_id": chat_id})
        if admin:
            scopes.append({"type": "all_chat_administrators"})
        scopes.append({"type": "all_group_chats"} if chat.is_group else {"type": "all_private_chats"})
        scopes.append({"type": "default"})
        for scope in scopes:
            key = json.dumps(scope, sort_keys=True)
            for code in (lang, "") if lang else ("",):
                found = self.commands.get((key, code))
                if found:
                    return copy.deepcopy(found)
        return []

    def api_deleteMyCommands(self, p: Params) -> bool:
        self.commands.pop(self._command_key(p), None)
        return True

    def api_setChatMenuButton(self, p: Params) -> bool:
        button = p.obj("menu_button", "menu_button") or {"type": "default"}
        chat_id = self._chat_id_param(p)
        if chat_id is None:
            self.default_menu_button = button
        else:
            self._chat_for_bot(chat_id).menu_button = button
        return True

    def api_getChatMenuButton(self, p: Params) -> JSON:
        chat_id = self._chat_id_param(p)
        if chat_id is None:
            return dict(self.default_menu_button)
        return dict(self._chat_for_bot(chat_id).menu_button)

    def api_setMyName(self, p: Params) -> bool:
        return True

    def api_setMyDescription(self, p: Params) -> bool:
        return True

    def api_setMyShortDescription(self, p: Params) -> bool:
        return True
