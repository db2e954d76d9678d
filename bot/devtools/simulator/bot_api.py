"""The Bot API surface of the simulator: every method python-telegram-bot calls, with Telegram's checks,
answers and error descriptions (``api_<method>``; the HTTP layer in ``server`` dispatches to them)."""

from __future__ import annotations

import asyncio
import copy
import io
import json
import re
import time
from typing import Any
from urllib.parse import urlparse

from bot.devtools.simulator.errors import ApiError, SimulatorError
from bot.devtools.simulator.formatting import ParseError, parse_text, utf16_len
from bot.devtools.simulator.limits import (
    MAX_BUTTONS,
    MAX_BUTTONS_PER_ROW,
    MAX_CALLBACK_ANSWER_LENGTH,
    MAX_CALLBACK_DATA_BYTES,
    MAX_CAPTION_LENGTH,
    MAX_COMMANDS,
    MAX_TEXT_LENGTH,
)
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.state import JSON, MessageVersion, SimChat, SimMessage, StoredFile
from bot.devtools.simulator.world import SimWorld, member_object

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "callback_game",
    "pay",
    "web_app",
    "copy_text",
)


class BotApiMethods(SimWorld):
    """The Bot API methods (``api_getMe`` ... ``api_answerCallbackQuery``) and their shared checks."""

    # ------------------------------------------------------------------ checks shared by the methods

    def _chat_for_bot(self, chat_id: int | None) -> SimChat:
        """The chat the bot addresses, with Telegram's checks (exists, started, not blocked, member)."""
        if chat_id is None:
            raise ApiError(400, "Bad Request: chat_id is empty")
        chat = self.chats.get(chat_id)
        if chat is None and chat_id in self.users:
            chat = self._private_chat(chat_id)  # a known user: Telegram answers 403 below, not "not found"
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.type == "private":
            user = self.users[chat.user_id] if chat.user_id is not None else None
            if user is None:
                raise ApiError(400, "Bad Request: chat not found")
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif not chat.bot_is_member:
            if chat.type == "supergroup":
                raise ApiError(403, "Forbidden: bot is not a member of the supergroup chat")
            raise ApiError(403, "Forbidden: bot is not a member of the group chat")
        return chat

    def _chat_id_param(self, p: Params) -> int | None:
        value = p.raw("chat_id")
        if value in (None, ""):
            return None
        if isinstance(value, str) and value.startswith("@"):
            raise ApiError(400, "Bad Request: chat not found")
        return p.integer("chat_id")

    def _rate_check(self, chat: SimChat) -> None:
        retry = self.limiter.check(chat.id, chat.is_group)
        if retry is not None:
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})

    def _validate_markup(self, markup: Any) -> JSON | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" in markup:
            rows = markup["inline_keyboard"]
            if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
                raise ApiError(
                    400,
                    'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays',
                )
            total = sum(len(row) for row in rows)
            if total > MAX_BUTTONS or any(len(row) > MAX_BUTTONS_PER_ROW for row in rows):
                raise ApiError(400, "Bad Request: reply markup is too long")
            for row in rows:
                for button in row:
                    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                        raise ApiError(
                            400, "Bad Request: can't parse inline keyboard button: Text must be a String"
                        )
                    if not button["text"]:
                        raise ApiError(400, "Bad Request: BUTTON_TEXT_INVALID")
                    if "callback_data" in button:
                        data = button["callback_data"]
                        size = len(str(data).encode("utf-8"))
                        if not isinstance(data, str) or size < 1 or size > MAX_CALLBACK_DATA_BYTES:
                            raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                    elif "url" in button:
                        scheme = urlparse(str(button["url"])).scheme
                        if scheme not in ("http", "https", "tg"):
                            raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
                    elif not any(action in button for action in _BUTTON_ACTIONS):
                        raise ApiError(400, "Bad Request: text buttons are unallowed in the inline keyboard")
            return {"inline_keyboard": copy.deepcopy(rows)}
        if "keyboard" in markup:
            rows = markup["keyboard"]
            if not isinstance(rows, list) or sum(len(r) for r in rows) > 300:
                raise ApiError(400, "Bad Request: reply markup is too long")
        return copy.deepcopy(markup)

    def _parse(
        self, text: str, parse_mode: str | None, limit: int, too_long: str, entities: Any = None
    ) -> tuple[str, list[JSON]]:
        try:
            plain, parsed = parse_text(text, parse_mode)
        except ParseError as exc:
            raise ApiError(400, str(exc)) from None
        if entities and not parse_mode and isinstance(entities, list):
            parsed = copy.deepcopy(entities)
        if len(plain.strip()) == 0:
            return plain, parsed
        if utf16_len(plain) > limit:
            raise ApiError(400, too_long)
        return plain, parsed

    def _reply_to(self, p: Params, chat: SimChat) -> int | None:
        reply_to = p.integer("reply_to_message_id")
        parameters = p.obj("reply_parameters")
        if isinstance(parameters, dict) and parameters.get("message_id") is not None:
            reply_to = int(parameters["message_id"])
            allow = bool(parameters.get("allow_sending_without_reply"))
        else:
            allow = p.flag("allow_sending_without_reply")
        if reply_to is not None and (reply_to not in chat.messages or chat.messages[reply_to].deleted):
            if allow:
                return None
            raise ApiError(400, "Bad Request: message to be replied not found")
        return reply_to

    def _bot_message(self, p: Params, *, for_edit: bool) -> tuple[SimChat, SimMessage]:
        if p.has("inline_message_id"):
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        chat = self._chat_for_bot(self._chat_id_param(p))
        message_id = p.integer("message_id")
        if message_id is None:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(
                400,
                "Bad Request: message to edit not found"
                if for_edit
                else "Bad Request: message to delete not found",
            )
        return chat, message

    # ------------------------------------------------------------------ Bot API methods

    def api_getMe(self, p: Params) -> JSON:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def api_logOut(self, p: Params) -> bool:
        return True

    def api_close(self, p: Params) -> bool:
        return True

    # setWebhook, deleteWebhook, getWebhookInfo: bot/devtools/simulator/webhook.py (delivery by POST)

    def _mark_delivered(self, updates: list[JSON]) -> None:
        now = time.monotonic()
        for update in updates:
            query = update.get("callback_query")
            if query is not None:
                record = self.callback_queries.get(query["id"])
                if record is not None and record.delivered_at is None:
                    record.delivered_at = now

    def _available_updates(self, limit: int) -> list[JSON]:
        return self._updates[:limit]

    async def api_getUpdates(self, p: Params) -> list[JSON]:
        if self.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
            )
        offset = p.integer("offset", 0) or 0
        limit = max(1, min(100, p.integer("limit", 100) or 100))
        timeout = max(0.0, p.number("timeout", 0.0))
        allowed = p.obj("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = [str(a) for a in allowed] or None
            if self._allowed_updates:
                kept = [u for u in self._updates if _update_kind(u) in self._allowed_updates]
                if len(kept) != len(self._updates):
                    self._updates = kept
                    self._bump()
        # Confirm: every update with an id below offset is forgotten; a negative offset keeps the last -offset.
        if offset > 0:
            before = len(self._updates)
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if len(self._updates) != before:
                self._bump()
        elif offset < 0:
            self._updates = self._updates[offset:]
            self._bump()
        self._poll_generation += 1
        generation = self._poll_generation
        self._bump()  # wakes an older long poll, which answers 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            updates = self._available_updates(limit)
            if updates:
                self._mark_delivered(updates)
                return copy.deepcopy(updates)
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return []
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
                )

    # commands -------------------------------------------------------------

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

    # chats ----------------------------------------------------------------

    def api_getChat(self, p: Params) -> JSON:
        chat_id = self._chat_id_param(p)
        chat = self.chats.get(chat_id) if chat_id is not None else None
        if chat is None or (chat.type == "private" and not self.users[chat.user_id or 0].started):
            raise ApiError(400, "Bad Request: chat not found")
        data = self._chat_api(chat)
        data.update(
            {
                "accent_color_id": 0,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        if chat.type == "private":
            data["bio"] = ""
        if chat.pinned:
            data["pinned_message"] = self.message_api(chat.messages[chat.pinned[-1]], with_reply=False)
        return data

    def _member_api(self, chat: SimChat, user_id: int) -> JSON:
        if user_id == self.bot_id:
            user = self.bot_user
            status = "administrator" if chat.bot_is_admin else ("member" if chat.bot_is_member else "left")
        else:
            sim_user = self.users.get(user_id)
            if sim_user is None:
                raise ApiError(400, "Bad Request: user not found")
            user = sim_user.to_api()
            if chat.type == "private":
                status = "member" if chat.user_id == user_id else "left"
            elif user_id == chat.owner_id:
                status = "creator"
            elif user_id in chat.admins:
                status = "administrator"
            elif user_id in chat.members:
                status = "member"
            else:
                status = "left"
        return member_object(user, status)

    def api_getChatMember(self, p: Params) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        user_id = p.integer("user_id")
        if user_id is None:
            raise ApiError(400, "Bad Request: user_id is empty")
        return self._member_api(chat, user_id)

    def api_getChatAdministrators(self, p: Params) -> list[JSON]:
        chat = self._chat_for_bot(self._chat_id_param(p))
        if not chat.is_group:
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        ids = ([chat.owner_id] if chat.owner_id is not None else []) + sorted(chat.admins - {chat.owner_id})
        result = [self._member_api(chat, uid) for uid in ids]
        if chat.bot_is_admin:
            result.append(self._member_api(chat, self.bot_id))
        return result

    def api_getChatMemberCount(self, p: Params) -> int:
        chat = self._chat_for_bot(self._chat_id_param(p))
        return len(chat.members) + (1 if chat.bot_is_member else 0) if chat.is_group else 2

    def _can_pin(self, chat: SimChat) -> None:
        if chat.is_group and not chat.bot_is_admin:
            raise ApiError(400, "Bad Request: not enough rights to manage pinned messages in the chat")

    def api_pinChatMessage(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        message_id = p.integer("message_id")
        if message_id is None or message_id not in chat.messages or chat.messages[message_id].deleted:
            raise ApiError(400, "Bad Request: message to pin not found")
        self._can_pin(chat)
        if message_id in chat.pinned:
            chat.pinned.remove(message_id)
        chat.pinned.append(message_id)
        self._event("pin", chat.id, message_id=message_id)
        self._bump()
        return True

    def api_unpinChatMessage(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        self._can_pin(chat)
        message_id = p.integer("message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif message_id in chat.pinned:
            chat.pinned.remove(message_id)
        else:
            raise ApiError(400, "Bad Request: message to unpin not found")
        self._bump()
        return True

    def api_unpinAllChatMessages(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        self._can_pin(chat)
        chat.pinned.clear()
        self._bump()
        return True

    def api_leaveChat(self, p: Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        if not chat.is_group:
            raise ApiError(400, "Bad Request: chat member status can't be changed in private chats")
        chat.bot_is_member = False
        chat.bot_is_admin = False
        self._bump()
        return True

    def api_setMyName(self, p: Params) -> bool:
        return True

    def api_setMyDescription(self, p: Params) -> bool:
        return True

    def api_setMyShortDescription(self, p: Params) -> bool:
        return True

    def api_sendChatAction(self, p: Params) -> bool:
        self._chat_for_bot(self._chat_id_param(p))
        if not p.text("action"):
            raise ApiError(400, "Bad Request: action is empty")
        return True

    # messages -------------------------------------------------------------

    def api_sendMessage(self, p: Params) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        raw = p.text("text")
        if raw is None or raw == "":
            raise ApiError(400, "Bad Request: message text is empty")
        text, entities = self._parse(
            raw, p.text("parse_mode"), MAX_TEXT_LENGTH, "Bad Request: message is too long", p.obj("entities")
        )
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        reply_to = self._reply_to(p, chat)
        self._rate_check(chat)
        version = MessageVersion(text=text, entities=entities, reply_markup=markup, date=self._now())
        message = self._store(
            chat,
            self._new_message(chat, from_id=self.bot_id, from_bot=True, version=version, reply_to=reply_to),
        )
        self._event("send", chat.id, message_id=message.message_id, text=text)
        self._bump()
        self._notify_bot_message(message)
        return self.message_api(message)

    def _upload(self, p: Params, field_name: str, default_name: str, default_mime: str | None) -> StoredFile:
        value = p.raw(field_name)
        if isinstance(value, str) and value.startswith("attach://"):
            upload = p.files.get(value[len("attach://") :])
        else:
            upload = p.files.get(field_name)
        if upload is not None:
            content, filename, mime = upload
            number = next(self._file_ids)
            stored = StoredFile(
                file_id=f"SIMFILE{number:06d}-{field_name}",
                file_unique_id=f"SIMU{number:06d}",
                content=content,
                filename=filename or default_name,
                mime_type=mime if mime and mime != "application/octet-stream" else default_mime or mime,
                path=f"{field_name}s/file_{number}_{filename or default_name}",
            )
            self.files[stored.file_id] = stored
            return stored
        if isinstance(value, str) and value:
            if value in self.files:
                return self.files[value]
            if value.startswith(("http://", "https://")):
                raise ApiError(400, "Bad Request: failed to get HTTP URL content")
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        raise ApiError(400, f"Bad Request: there is no {field_name} in the request")

    def _send_media(self, p: Params, kind: str) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        stored = self._upload(
            p, kind, "photo.jpg" if kind == "photo" else "file", "image/jpeg" if kind == "photo" else None
        )
        caption_raw = p.text("caption")
        caption: str | None = None
        entities: list[JSON] = []
        if caption_raw:
            caption, entities = self._parse(
                caption_raw,
                p.text("parse_mode"),
                MAX_CAPTION_LENGTH,
                "Bad Request: message caption is too long",
                p.obj("caption_entities"),
            )
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        reply_to = self._reply_to(p, chat)
        self._rate_check(chat)
        version = MessageVersion(
            text=None,
            entities=entities,
            reply_markup=markup,
            date=self._now(),
            caption=caption,
            method="sendPhoto" if kind == "photo" else "sendDocument",
        )
        message = self._new_message(
            chat, from_id=self.bot_id, from_bot=True, version=version, reply_to=reply_to
        )
        info: JSON = {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "bytes": stored.content,
            "filename": stored.filename,
            "mime_type": stored.mime_type,
        }
        if kind == "photo":
            info["width"], info["height"] = _image_size(stored.content)
            message.photo = info
        else:
            message.document = info
        self._store(chat, message)
        self._event(
            "send",
            chat.id,
            message_id=message.message_id,
            text=caption,
            data={"media": kind, "filename": stored.filename},
        )
        self._bump()
        self._notify_bot_message(message)
        return self.message_api(message)

    def api_sendPhoto(self, p: Params) -> JSON:
        return self._send_media(p, "photo")

    def api_sendDocument(self, p: Params) -> JSON:
        return self._send_media(p, "document")

    def api_getFile(self, p: Params) -> JSON:
        stored = self.files.get(p.text("file_id") or "")
        if stored is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        return {
            "file_id": stored.file_id,
            "file_unique_id": stored.file_unique_id,
            "file_size": len(stored.content),
            "file_path": stored.path,
        }

    def api_editMessageText(self, p: Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        raw = p.text("text")
        if raw is None or raw == "":
            raise ApiError(400, "Bad Request: message text is empty")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text, entities = self._parse(
            raw, p.text("parse_mode"), MAX_TEXT_LENGTH, "Bad Request: message is too long", p.obj("entities")
        )
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        # As on Telegram: an edit without reply_markup removes the inline keyboard.
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if (
            text == current.text
            and entities == current.entities
            and _same_markup(markup, current.reply_markup)
        ):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(
            message,
            MessageVersion(
                text=text, entities=entities, reply_markup=markup, date=self._now(), method="editMessageText"
            ),
        )

    def api_editMessageCaption(self, p: Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.photo is None and message.document is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption_raw = p.text("caption") or ""
        caption, entities = self._parse(
            caption_raw,
            p.text("parse_mode"),
            MAX_CAPTION_LENGTH,
            "Bad Request: message caption is too long",
            p.obj("caption_entities"),
        )
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if (
            (caption or None) == current.caption
            and entities == current.entities
            and _same_markup(markup, current.reply_markup)
        ):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(
            message,
            MessageVersion(
                text=None,
                entities=entities,
                reply_markup=markup,
                date=self._now(),
                caption=caption or None,
                method="editMessageCaption",
            ),
        )

    def api_editMessageReplyMarkup(self, p: Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if _same_markup(markup, current.reply_markup):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(
            message,
            MessageVersion(
                text=current.text,
                entities=current.entities,
                reply_markup=markup,
                date=self._now(),
                caption=current.caption,
                method="editMessageReplyMarkup",
            ),
        )

    def _apply_edit(self, message: SimMessage, version: MessageVersion) -> JSON:
        message.versions.append(version)
        message.edit_date = version.date
        self._event(
            "edit",
            message.chat_id,
            message_id=message.message_id,
            text=version.text or version.caption,
            data={"method": version.method, "version": len(message.versions) - 1},
        )
        self._bump()
        self._notify_bot_message(message)
        return self.message_api(message)

    def api_deleteMessage(self, p: Params) -> bool:
        chat, message = self._bot_message(p, for_edit=False)
        if not message.from_bot and chat.is_group and not chat.bot_is_admin:
            raise ApiError(400, "Bad Request: message can't be deleted")
        self._rate_check(chat)  # deletes count against the chat's, the group's and the token's limits
        message.deleted = True
        self._event("delete", chat.id, message_id=message.message_id)
        self._bump()
        return True

    def api_answerCallbackQuery(self, p: Params) -> bool:
        query_id = p.text("callback_query_id") or ""
        record = self.callback_queries.get(query_id)
        if record is None or record.answered or self.clock() - record.created > self.callback_query_timeout:
            raise ApiError(400, QUERY_TOO_OLD)
        text = p.text("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        record.answered = True
        record.answered_at = time.monotonic()
        if record.delivered_at is not None:
            self.stats.callback_latencies.append(record.answered_at - record.delivered_at)
        record.text = text or None
        record.show_alert = p.flag("show_alert")
        record.url = p.text("url")
        self._event(
            "answer",
            record.chat_id,
            message_id=record.message_id,
            user_id=record.user_id,
            text=record.text,
            data={"show_alert": record.show_alert, "query_id": record.id},
        )
        self._bump()
        return True


def _update_kind(update: JSON) -> str:
    return next(k for k in update if k != "update_id")


def _same_markup(a: JSON | None, b: JSON | None) -> bool:
    empty: tuple[Any, ...] = ({}, {"inline_keyboard": []}, None)
    if a in empty and b in empty:
        return True
    return a == b


def _image_size(content: bytes) -> tuple[int, int]:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(content)) as image:
            return int(image.width), int(image.height)
    except Exception:  # not an image: Telegram would refuse, the simulator just reports 0x0
        return 0, 0
