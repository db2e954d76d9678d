"""The simulator's world: users, chats, messages (with their edit history), callback queries."""

from __future__ import annotations

import copy
import time
from dataclasses import dataclass, field
from typing import Any

JSON = dict[str, Any]


@dataclass
class SimUser:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started: bool = False  # has the user started the bot (private chat open)?
    blocked: bool = False  # has the user blocked the bot?

    def to_api(self) -> JSON:
        data: JSON = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            data["last_name"] = self.last_name
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    @property
    def display_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name


@dataclass
class SimChat:
    id: int
    type: str  # "private", "group" or "supergroup"
    title: str | None = None
    user_id: int | None = None  # the user of a private chat
    members: set[int] = field(default_factory=set)
    admins: set[int] = field(default_factory=set)
    owner_id: int | None = None
    bot_is_member: bool = True
    bot_is_admin: bool = False
    next_message_id: int = 1
    messages: dict[int, SimMessage] = field(default_factory=dict)
    menu_button: JSON = field(default_factory=lambda: {"type": "commands"})
    pinned: list[int] = field(default_factory=list)  # pinned message ids, most recent last

    @property
    def is_group(self) -> bool:
        return self.type in ("group", "supergroup")

    def to_api(self, users: dict[int, SimUser]) -> JSON:
        data: JSON = {"id": self.id, "type": self.type}
        if self.is_group:
            data["title"] = self.title or str(self.id)
        elif self.user_id is not None and self.user_id in users:
            user = users[self.user_id]
            data["first_name"] = user.first_name
            if user.last_name:
                data["last_name"] = user.last_name
            if user.username:
                data["username"] = user.username
        return data


@dataclass
class MessageVersion:
    """One state of a message: the original, then one per successful edit."""

    text: str | None
    entities: list[JSON]
    reply_markup: JSON | None
    date: int
    caption: str | None = None
    method: str = "sendMessage"
    at: float = field(
        default_factory=time.time
    )  # wall-clock seconds when this version appeared (load harness)


@dataclass
class SimMessage:
    chat_id: int
    message_id: int
    from_id: int  # user id, or the bot's id
    from_bot: bool
    date: int
    versions: list[MessageVersion]
    seq: int = 0  # global order of creation across chats
    reply_to_message_id: int | None = None
    photo: JSON | None = None  # {"file_id", "bytes", "filename", "width", "height"}
    document: JSON | None = None  # {"file_id", "bytes", "filename", "mime_type"}
    deleted: bool = False
    edit_date: int | None = None

    @property
    def current(self) -> MessageVersion:
        return self.versions[-1]

    @property
    def text(self) -> str | None:
        return self.current.text

    @property
    def caption(self) -> str | None:
        return self.current.caption

    @property
    def reply_markup(self) -> JSON | None:
        return self.current.reply_markup

    @property
    def edit_count(self) -> int:
        return len(self.versions) - 1

    @property
    def inline_keyboard(self) -> list[list[JSON]]:
        markup = self.reply_markup or {}
        rows = markup.get("inline_keyboard")
        return rows if isinstance(rows, list) else []

    def buttons(self) -> list[JSON]:
        return [button for row in self.inline_keyboard for button in row]

    def button_texts(self) -> list[str]:
        return [str(button.get("text", "")) for button in self.buttons()]

    def callback_data(self) -> list[str]:
        return [str(b["callback_data"]) for b in self.buttons() if "callback_data" in b]

    def button(self, text: str) -> JSON:
        """The current button whose text equals (or, failing that, contains) ``text``."""
        buttons = self.buttons()
        for b in buttons:
            if b.get("text") == text:
                return b
        for b in buttons:
            if text in str(b.get("text", "")):
                return b
        raise LookupError(
            f"no button {text!r} on message {self.message_id} in chat {self.chat_id}: {self.button_texts()}"
        )

    def to_api(self, chat: JSON, sender: JSON, reply_to: JSON | None = None) -> JSON:
        v = self.current
        data: JSON = {"message_id": self.message_id, "date": self.date, "chat": chat, "from": sender}
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if v.text is not None:
            data["text"] = v.text
            if v.entities:
                data["entities"] = copy.deepcopy(v.entities)
        if v.caption is not None:
            data["caption"] = v.caption
            if v.entities:
                data["caption_entities"] = copy.deepcopy(v.entities)
        if self.photo is not None:
            p = self.photo
            data["photo"] = [
                {
                    "file_id": p["file_id"],
                    "file_unique_id": p["file_unique_id"],
                    "width": p.get("width", 0),
                    "height": p.get("height", 0),
                    "file_size": len(p.get("bytes", b"")),
                }
            ]
        if self.document is not None:
            d = self.document
            doc: JSON = {
                "file_id": d["file_id"],
                "file_unique_id": d["file_unique_id"],
                "file_size": len(d.get("bytes", b"")),
            }
            if d.get("filename"):
                doc["file_name"] = d["filename"]
            if d.get("mime_type"):
                doc["mime_type"] = d["mime_type"]
            data["document"] = doc
        if v.reply_markup and "inline_keyboard" in v.reply_markup:
            data["reply_markup"] = copy.deepcopy(v.reply_markup)
        if reply_to is not None:
            data["reply_to_message"] = reply_to
        return data


@dataclass
class CallbackQueryRecord:
    id: str
    user_id: int
    chat_id: int
    message_id: int
    data: str
    created: float  # the simulator's clock (query expiry)
    answered: bool = False
    delivered_at: float | None = None  # time.monotonic() when getUpdates first handed it to the bot
    answered_at: float | None = None  # time.monotonic() of answerCallbackQuery
    text: str | None = None
    show_alert: bool = False
    url: str | None = None


@dataclass(frozen=True)
class CallbackAnswer:
    text: str | None
    show_alert: bool
    url: str | None


@dataclass
class Event:
    """One thing that happened, for transcripts (chronological)."""

    seq: int
    kind: str  # "send", "edit", "delete", "press", "answer", "block", "start"
    chat_id: int
    message_id: int | None = None
    user_id: int | None = None
    text: str | None = None
    data: JSON = field(default_factory=dict)


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    content: bytes
    filename: str | None
    mime_type: str | None
    path: str
