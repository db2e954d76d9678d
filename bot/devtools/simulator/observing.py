"""Reading the simulated chats as their people saw them, and waiting for the bot (tests, demo, harness)."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Callable
from typing import Any

from bot.devtools.simulator.errors import SimulatorError
from bot.devtools.simulator.state import JSON, MessageVersion, SimMessage
from bot.devtools.simulator.stats import SimStats
from bot.devtools.simulator.transcript import format_chat
from bot.devtools.simulator.world import SimWorld


class ChatViews(SimWorld):
    """What the chats show (messages, buttons, edit histories) and waits on the bot's progress."""

    async def wait_for_message(
        self,
        chat_id: int,
        predicate: Callable[[SimMessage], bool] | str | None = None,
        *,
        timeout: float = 10.0,
        after: SimMessage | int | None = None,
        include_edits: bool = True,
    ) -> SimMessage:
        """Wait for a bot message in ``chat_id`` matching ``predicate`` (a callable or a substring).

        ``after``: only messages with a higher message_id (a message or an id). With
        ``include_edits`` the current text of edited messages counts too.
        """
        after_id = after.message_id if isinstance(after, SimMessage) else (after or 0)
        check: Callable[[SimMessage], bool]
        if isinstance(predicate, str):
            needle = predicate

            def check(m: SimMessage) -> bool:
                return needle in (m.text or m.caption or "")
        else:
            check = predicate or (lambda m: True)

        def find() -> SimMessage | None:
            for m in reversed(self.messages(chat_id)):
                if (
                    m.from_bot
                    and m.message_id > after_id
                    and (include_edits or m.edit_count == 0)
                    and check(m)
                ):
                    return m
            return None

        return await self.wait_for(
            find, timeout, f"no bot message matching {predicate!r} in chat {chat_id} within {timeout} s"
        )

    async def wait_updates_consumed(self, timeout: float = 10.0) -> None:
        """Wait until the bot has fetched and confirmed every pending update."""
        await self.wait_for(lambda: not self._updates, timeout, "the bot did not fetch the pending updates")

    async def wait_quiet(self, quiet: float = 0.3, timeout: float = 30.0) -> None:
        """Wait until no update is pending and the bot made no call (getUpdates aside) for ``quiet`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            idle = time.monotonic() - self._last_bot_call
            if not self._updates and idle >= quiet:
                return
            await asyncio.sleep(max(0.02, min(quiet - idle, 0.1)))
        raise TimeoutError(f"the bot kept calling the API for {timeout} s")

    def messages(
        self, chat_id: int, *, include_deleted: bool = False, from_bot: bool | None = None
    ) -> list[SimMessage]:
        """Messages of a chat in order (bot's and users'); ``from_bot`` filters by sender."""
        chat = self.chats.get(chat_id)
        if chat is None:
            return []
        return [
            m
            for _, m in sorted(chat.messages.items())
            if (include_deleted or not m.deleted) and (from_bot is None or m.from_bot == from_bot)
        ]

    def bot_messages(self, chat_id: int, **kwargs: Any) -> list[SimMessage]:
        return self.messages(chat_id, from_bot=True, **kwargs)

    def last_message(self, chat_id: int, *, from_bot: bool | None = None) -> SimMessage | None:
        found = self.messages(chat_id, from_bot=from_bot)
        return found[-1] if found else None

    def last_bot_message(self, chat_id: int) -> SimMessage | None:
        return self.last_message(chat_id, from_bot=True)

    def message(self, chat_id: int, message_id: int) -> SimMessage:
        message = self.chat(chat_id).messages.get(message_id)
        if message is None:
            raise SimulatorError(f"no message {message_id} in chat {chat_id}")
        return message

    def find_button(self, chat_id: int, text: str) -> tuple[SimMessage, JSON]:
        """The newest bot message in the chat with a button labelled ``text`` (exactly, else containing it)."""
        for exact in (True, False):
            for message in reversed(self.bot_messages(chat_id)):
                for button in message.buttons():
                    label = str(button.get("text", ""))
                    if label == text if exact else text in label:
                        return message, button
        raise SimulatorError(f"no button {text!r} on any bot message in chat {chat_id}")

    def history(self, chat_id: int, message_id: int) -> list[MessageVersion]:
        """Every state the message went through: the original first, then each edit."""
        return list(self.message(chat_id, message_id).versions)

    def seen_texts(self, chat_id: int) -> list[str]:
        """Every text (and caption and button label) the bot ever showed in a chat, edits included."""
        seen: list[str] = []
        for message in self.messages(chat_id, include_deleted=True, from_bot=True):
            for version in message.versions:
                if version.text:
                    seen.append(version.text)
                if version.caption:
                    seen.append(version.caption)
                for row in (version.reply_markup or {}).get("inline_keyboard", []):
                    seen.extend(str(b.get("text", "")) for b in row)
        return seen

    def pending_updates(self) -> list[JSON]:
        return copy.deepcopy(self._updates)

    def transcript(self, chat_id: int, **kwargs: Any) -> str:
        return format_chat(self, chat_id, **kwargs)

    def reset_stats(self) -> None:
        self.stats = SimStats()
