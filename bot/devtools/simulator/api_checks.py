"""The checks every Bot API method of the simulator shares: the chat the bot addresses (exists, started, not
blocked, member), the rate limits, reply markup, text and caption parsing, the message replied to or edited."""

from __future__ import annotations

import copy
import io
from typing import Any
from urllib.parse import urlparse

from bot.devtools.simulator.errors import ApiError
from bot.devtools.simulator.formatting import ParseError, parse_text, utf16_len
from bot.devtools.simulator.limits import MAX_BUTTONS, MAX_BUTTONS_PER_ROW, MAX_CALLBACK_DATA_BYTES
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.state import JSON, SimChat, SimMessage
from bot.devtools.simulator.world import SimWorld

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


class ApiChecks(SimWorld):
    """The checks shared by the ``api_<method>`` mixins (``api_updates``, ``api_commands``, ``api_chats``,
    ``api_messages``)."""

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


def same_markup(a: JSON | None, b: JSON | None) -> bool:
    empty: tuple[Any, ...] = ({}, {"inline_keyboard": []}, None)
    if a in empty and b in empty:
        return True
    return a == b


def image_size(content: bytes) -> tuple[int, int]:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(content)) as image:
            return int(image.width), int(image.height)
    except Exception:  # not an image: Telegram would refuse, the simulator just reports 0x0
        return 0, 0
