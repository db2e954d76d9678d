"""The simulated world every part of the simulator shares: users, chats, messages, pending updates.

``SimWorld`` holds the state and the plumbing (events for transcripts, the update queue, change
notification, Bot API objects of stored messages). The Bot API surface (``bot_api``), the simulated
people (``people``) and the read-only views (``observing``) are built on it; ``server`` puts them
together behind HTTP.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.devtools.simulator.errors import SimulatorError
from bot.devtools.simulator.limits import CALLBACK_QUERY_TIMEOUT, RateLimiter, RateLimits
from bot.devtools.simulator.state import (
    JSON,
    CallbackQueryRecord,
    Event,
    MessageVersion,
    SimChat,
    SimMessage,
    SimUser,
    StoredFile,
)
from bot.devtools.simulator.stats import SimStats

T = TypeVar("T")
DEFAULT_TOKEN = "123456789:SIMULATOR-token_for-tests"


class SimWorld:
    """State of the simulated Telegram: ``rate_scale`` divides every rate-limit time window
    (``rate_scale=20``: 20 messages per second per chat instead of 1). ``clock`` (monotonic seconds)
    may be injected to make rate-limit tests deterministic.
    """

    def __init__(
        self,
        token: str | None = DEFAULT_TOKEN,
        *,
        bot_username: str = "ShengjiSimBot",
        bot_first_name: str = "双升掼蛋 Bot",
        bot_id: int | None = None,
        rate_scale: float = 1.0,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: RateLimits | None = None,
        enforce_rate_limits: bool = True,
        privacy_mode: bool = True,
        clock: Callable[[], float] = time.monotonic,
        callback_query_timeout: float = CALLBACK_QUERY_TIMEOUT,
    ) -> None:
        if rate_scale <= 0:
            raise ValueError("rate_scale must be positive")
        self.token = token
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        if bot_id is None:
            prefix = (token or "").split(":", 1)[0]
            bot_id = int(prefix) if prefix.isdigit() else 123456789
        self.bot_id = bot_id
        self.rate_scale = rate_scale
        self.host = host
        self.port = port
        self.privacy_mode = privacy_mode
        self.clock = clock
        self.callback_query_timeout = callback_query_timeout
        self.limiter = RateLimiter(
            rate_scale=rate_scale, limits=limits or RateLimits(), clock=clock, enabled=enforce_rate_limits
        )
        self.stats = SimStats()

        self.users: dict[int, SimUser] = {}
        self.chats: dict[int, SimChat] = {}
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.events: list[Event] = []
        self.files: dict[str, StoredFile] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.webhook_url: str = ""
        self.default_menu_button: JSON = {"type": "commands"}

        self._updates: list[JSON] = []
        self._next_update_id = 1
        self._allowed_updates: list[str] | None = None
        self._poll_generation = 0
        self._seq = itertools.count(1)
        self._query_ids = itertools.count(4_000_000_000_000_001)
        self._file_ids = itertools.count(1)
        self._changed = asyncio.Event()
        self._version = 0
        self._last_bot_call = 0.0
        # Called with each message the bot sends or edits, right after the change (load harness, observers).
        self.bot_message_listeners: list[Callable[[SimMessage], None]] = []

    @property
    def bot_user(self) -> JSON:
        return {
            "id": self.bot_id,
            "is_bot": True,
            "first_name": self.bot_first_name,
            "username": self.bot_username,
        }

    # ------------------------------------------------------------------ notification / waiting

    def _bump(self) -> None:
        self._version += 1
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_for(
        self,
        predicate: Callable[[], T | None | Awaitable[T | None]],
        timeout: float = 10.0,
        message: str | None = None,
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every state change); return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(message or f"simulator: condition not met within {timeout} s")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.2))

    # ------------------------------------------------------------------ plumbing

    def _notify_bot_message(self, message: SimMessage) -> None:
        for listener in self.bot_message_listeners:
            listener(message)

    def _now(self) -> int:
        return int(time.time())

    def _event(self, kind: str, chat_id: int, **kwargs: Any) -> None:
        self.events.append(Event(seq=next(self._seq), kind=kind, chat_id=chat_id, **kwargs))

    def _enqueue(self, kind: str, payload: JSON) -> JSON:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        if self._allowed_updates and kind not in self._allowed_updates:
            self._bump()  # as on Telegram: an update type the bot did not ask for is dropped
            return update
        self._updates.append(update)
        self._bump()
        return update

    def _chat_api(self, chat: SimChat) -> JSON:
        return chat.to_api(self.users)

    def _sender_api(self, message: SimMessage) -> JSON:
        if message.from_bot:
            return self.bot_user
        return self.users[message.from_id].to_api()

    def message_api(self, message: SimMessage, with_reply: bool = True) -> JSON:
        """The Bot API ``Message`` object of a stored message."""
        chat = self.chats[message.chat_id]
        reply = None
        if with_reply and message.reply_to_message_id is not None:
            original = chat.messages.get(message.reply_to_message_id)
            if original is not None and not original.deleted:
                reply = self.message_api(original, with_reply=False)
        return message.to_api(self._chat_api(chat), self._sender_api(message), reply)

    def _store(self, chat: SimChat, message: SimMessage) -> SimMessage:
        chat.messages[message.message_id] = message
        chat.next_message_id = message.message_id + 1
        return message

    def _new_message(
        self,
        chat: SimChat,
        *,
        from_id: int,
        from_bot: bool,
        version: MessageVersion,
        reply_to: int | None = None,
    ) -> SimMessage:
        return SimMessage(
            chat_id=chat.id,
            message_id=chat.next_message_id,
            from_id=from_id,
            from_bot=from_bot,
            date=version.date,
            versions=[version],
            seq=next(self._seq),
            reply_to_message_id=reply_to,
        )

    def chat(self, chat_id: int) -> SimChat:
        chat = self.chats.get(chat_id)
        if chat is None:
            raise SimulatorError(f"no chat {chat_id}")
        return chat

    def _private_chat(self, user_id: int) -> SimChat:
        chat = self.chats.get(user_id)
        if chat is None:
            chat = SimChat(id=user_id, type="private", user_id=user_id)
            self.chats[user_id] = chat
        return chat

    def _group(self, chat_id: int) -> SimChat:
        chat = self.chats.get(chat_id)
        if chat is None or not chat.is_group:
            raise SimulatorError(f"no group {chat_id}")
        return chat

    def _user(self, user_id: int) -> SimUser:
        user = self.users.get(user_id)
        if user is None:
            raise SimulatorError(f"unknown user {user_id}: add_user first")
        return user


def member_object(user: JSON, status: str) -> JSON:
    """A ChatMember object of the given status, with the fields PTB requires."""
    if status == "creator":
        return {"status": "creator", "user": user, "is_anonymous": False}
    if status == "administrator":
        rights = dict.fromkeys(
            (
                "can_be_edited",
                "is_anonymous",
                "can_post_stories",
                "can_edit_stories",
                "can_delete_stories",
                "can_promote_members",
            ),
            False,
        )
        rights.update(
            dict.fromkeys(
                (
                    "can_manage_chat",
                    "can_delete_messages",
                    "can_manage_video_chats",
                    "can_restrict_members",
                    "can_change_info",
                    "can_invite_users",
                    "can_pin_messages",
                ),
                True,
            )
        )
        return {"status": "administrator", "user": user, **rights}
    if status == "kicked":
        return {"status": "kicked", "user": user, "until_date": 0}
    return {"status": status, "user": user}
