"""Who makes the outbox's calls: the ``Sender`` protocol (a ``telegram.Bot`` adapter, or a fake in tests), the
file calls, the send slots shared with other processes, and ``BotSender`` over a ``telegram.Bot``."""

from __future__ import annotations

import warnings
from typing import Protocol

from telegram import Bot

from bot.delivery.calls import Markup, markup_json
from bot.delivery.keyboards import to_telegram


class Sender(Protocol):
    """The calls the outbox makes (a telegram.Bot adapter, or a fake in tests)."""

    async def send_message(self, chat_id: int, text: str, reply_markup: Markup | None) -> int: ...

    async def edit_message_text(
        self, chat_id: int, message_id: int, text: str, reply_markup: Markup | None
    ) -> None: ...


class FileSender(Protocol):
    """The file calls (``send_document`` / ``send_photo`` ops need a sender that has them)."""

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str | None, reply_markup: Markup | None
    ) -> int: ...

    async def send_photo(
        self, chat_id: int, data: bytes, caption: str | None, reply_markup: Markup | None
    ) -> int: ...


class SendSlots(Protocol):
    """Waits for a send slot shared with other processes (``bot.delivery.shared_limits.SharedLimits``); False:
    an edit showing ``version`` is not to be sent (another process showed a newer version in that message)."""

    async def wait_turn(
        self, chat_id: int, message_id: int | None = None, version: int | None = None
    ) -> bool: ...


class BotSender:
    """The outbox's sender over a telegram.Bot.  Texts go through ``do_api_request`` with the keyboard in
    its Bot API form and the answer left as JSON (PTB would build a Message, keyboard and all, from
    every answer: milliseconds of CPU per call that nobody reads).

    A send waits ``send_timeout`` seconds for Telegram's answer (PTB's 5 s read timeout stays for edits): a send
    with no answer is not repeated (it may have been made), so a slow Telegram is waited out rather than given
    up on."""

    def __init__(self, bot: Bot, send_timeout: float = 60.0) -> None:
        self.bot = bot
        self.send_timeout = send_timeout
        warnings.filterwarnings("ignore", message=r"Please use 'Bot\.(send_message|edit_message_text)'")

    async def send_message(self, chat_id: int, text: str, reply_markup: Markup | None) -> int:
        kwargs: dict[str, object] = {"chat_id": chat_id, "text": text}
        if reply_markup is not None:
            kwargs["reply_markup"] = markup_json(reply_markup)
        result = await self.bot.do_api_request(
            "send_message", api_kwargs=kwargs, read_timeout=self.send_timeout
        )
        return int(result["message_id"])

    async def edit_message_text(
        self, chat_id: int, message_id: int, text: str, reply_markup: Markup | None
    ) -> None:
        kwargs: dict[str, object] = {"chat_id": chat_id, "message_id": message_id, "text": text}
        if reply_markup is not None:
            kwargs["reply_markup"] = markup_json(reply_markup)
        await self.bot.do_api_request("edit_message_text", api_kwargs=kwargs)

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str | None, reply_markup: Markup | None
    ) -> int:
        msg = await self.bot.send_document(
            chat_id=chat_id,
            document=data,
            filename=filename,
            caption=caption,
            reply_markup=to_telegram(reply_markup),
            read_timeout=self.send_timeout,
        )
        return int(msg.message_id)

    async def send_photo(
        self, chat_id: int, data: bytes, caption: str | None, reply_markup: Markup | None
    ) -> int:
        msg = await self.bot.send_photo(
            chat_id=chat_id,
            photo=data,
            caption=caption,
            reply_markup=to_telegram(reply_markup),
            read_timeout=self.send_timeout,
        )
        return int(msg.message_id)
