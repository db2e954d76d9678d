"""One queued call to Telegram (``Call``), what a message shows (``content_hash`` of its text and keyboard),
the sends of record kept across a restart (``PendingSend``) and the outbox's counters."""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Protocol

from telegram import InlineKeyboardMarkup, TelegramObject

from bot.presentation.markup import Keyboard

MAX_TEXT = 4096
MAX_CAPTION = 1024

# a message's keyboard: presentation's neutral one, one of python-telegram-bot's (the edge builds them), or
# the Bot API (JSON) form (a stored one)
Markup = Keyboard | TelegramObject | Mapping[str, object]
MarkupJson = Mapping[str, object]


def markup_json(markup: Markup | None) -> MarkupJson | None:
    """The Bot API form of a keyboard (an inline keyboard of text / callback / url buttons is converted
    directly: PTB's generic ``to_dict`` costs about a millisecond for a hand keyboard)."""
    if markup is None:
        return None
    if isinstance(markup, Keyboard):
        return markup.to_json()
    if isinstance(markup, InlineKeyboardMarkup):
        out_rows = []
        for row in markup.inline_keyboard:
            out: list[object] = []
            for b in row:
                if b.callback_data is not None and isinstance(b.callback_data, str) and b.url is None:
                    out.append({"text": b.text, "callback_data": b.callback_data})
                elif b.url is not None and b.callback_data is None:
                    out.append({"text": b.text, "url": b.url})
                else:
                    out.append(b.to_dict())
            out_rows.append(out)
        return {"inline_keyboard": out_rows}
    if isinstance(markup, TelegramObject):
        return markup.to_dict()
    return markup


def markup_from_json(markup: Markup | None) -> Markup | None:
    """A stored keyboard (Bot API form) as a PTB keyboard again."""
    if isinstance(markup, Mapping) and "inline_keyboard" in markup:
        return InlineKeyboardMarkup.de_json(dict(markup), None)
    return markup


def content_hash(text: str, markup: Markup | None) -> str:
    """A short hash of what a message shows (text and keyboard)."""
    blob = json.dumps([text, markup_json(markup)], ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


def clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass
class Call:
    kind: str  # "send" | "edit" | "document" | "photo" (text: the caption)
    chat_id: int
    text: str
    markup: Markup | None
    message_id: int | None = None
    data: bytes | None = None
    filename: str | None = None
    future: asyncio.Future[int | None] | None = None
    tries: int = 0
    not_before: float = 0.0  # a delayed edit waits until then (clock time)
    digest: str | None = None  # content_hash(text, markup), computed once
    record: bool = True  # a send of record is never dropped (and kept across a clean stop)
    seq: int = 0  # enqueue order (the oldest droppable call goes first)
    urgent: bool = False  # an edit that tells its reader to act: first in the token's pacing
    queued_at: float = 0.0  # clock time it was queued (a call waiting PRIORITY_AGE goes first too)
    version: int | None = None  # an edit: the match version it shows (shared limits: never older than shown)
    fold: Hashable | None = None  # a note: a queued note with the same key takes this one's text instead

    def content(self) -> str:
        """``content_hash`` of what the call shows (computed once)."""
        if self.digest is None:
            self.digest = content_hash(self.text, self.markup)
        return self.digest


@dataclass(frozen=True)
class PendingSend:
    """A send of record still queued at ``stop()``: the owner persists it and gives it to ``restore``."""

    kind: str  # "send" | "document" | "photo"
    chat_id: int
    text: str
    markup: MarkupJson | None  # the Bot API (JSON) form of the keyboard
    data: bytes | None = None
    filename: str | None = None

    @classmethod
    def of(cls, call: Call) -> PendingSend:
        return cls(call.kind, call.chat_id, call.text, markup_json(call.markup), call.data, call.filename)


class StoredSend(Protocol):
    """A send of record as the owner stored it (a ``PendingSend``, or its row in storage.pending_send_repo)."""

    @property
    def kind(self) -> str: ...
    @property
    def chat_id(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def markup(self) -> MarkupJson | None: ...
    @property
    def data(self) -> bytes | None: ...
    @property
    def filename(self) -> str | None: ...


@dataclass
class OutboxStats:
    calls: int = 0
    sends: int = 0
    edits: int = 0
    files: int = 0  # documents and photos sent
    skipped_edits: int = 0
    coalesced_edits: int = 0
    retry_after: int = 0
    errors: int = 0
    dropped_edits: int = 0
    dropped_notes: int = 0  # non-record sends dropped over a queue bound or at stop
    folded_notes: int = 0  # notes folded into one still queued (``fold``)
    over_bound_records: int = 0  # record sends queued although over a bound (never dropped)
    unconfirmed: int = (
        0  # sends with no answer within their read timeout: not sent again (Refusal.UNCONFIRMED)
    )
    max_in_flight: int = 0
