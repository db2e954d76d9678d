"""Fakes of the ports the table logic receives (bot/tables/ports.py): the running bot's shared parts,
the live messages and the driver, each recording what it was asked."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Mapping
from datetime import UTC, datetime
from types import SimpleNamespace

from bot.tables.ports import Markup, MessageKey, Stored
from bot.tables.seats import SeatIndex
from storage.db import Database


class FakeOutbox:
    def __init__(self) -> None:
        self.edits: list[tuple[int, int, str]] = []

    def edit(self, chat_id: int, message_id: int, text: str, markup: Markup | None = None) -> None:
        self.edits.append((chat_id, message_id, text))


class FakeDeadlines:
    def __init__(self) -> None:
        self.scheduled: list[tuple[str, str, datetime]] = []
        self.cancelled: list[tuple[str, str]] = []

    def now(self) -> datetime:
        return datetime(2026, 1, 1, tzinfo=UTC)

    async def schedule(self, db: Database, kind: str, ref: str, due_at: datetime,
                       payload: Mapping[str, object] | None = None) -> int:
        self.scheduled.append((kind, ref, due_at))
        return len(self.scheduled)

    async def cancel(self, db: Database, kind: str, ref: str) -> int:
        self.cancelled.append((kind, ref))
        return 1


class FakeShared:
    """Every text in English; sends are recorded (and delivered as message 1000, 1001, ...)."""

    def __init__(self, db: Database, admin_ids: Collection[int] = ()) -> None:
        self.db = db
        self.outbox: FakeOutbox | None = FakeOutbox()
        self.scheduler = FakeDeadlines()
        self.seats = SeatIndex()
        self.bot_username: str | None = "testbot"
        self.admin_ids = admin_ids
        self.sent: list[tuple[int, str]] = []
        self.locks: dict[int, asyncio.Lock] = {}

    async def chat_lang(self, chat_id: int) -> str:
        return "en"

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        return "en"

    def send(self, chat_id: int, text: str, markup: Markup | None = None, *,
             record: bool = True) -> asyncio.Future[int | None]:
        self.sent.append((chat_id, text))
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        fut.set_result(999 + len(self.sent))
        return fut

    def lock(self, match_id: int) -> asyncio.Lock:
        return self.locks.setdefault(match_id, asyncio.Lock())


class FakeShows:
    def __init__(self, shared: FakeShared) -> None:
        self.shared = shared
        self.created: list[tuple[MessageKey, int, str]] = []
        self.rendered: list[tuple[int, bool, bool]] = []  # (match, everything, under the match's lock)

    def create(self, key: MessageKey, chat_id: int, text: str, markup: Markup | None, stored: Stored) -> None:
        self.created.append((key, chat_id, text))

    def table_created(self, table_id: int) -> Stored:
        async def stored(mid: int) -> None:
            return None
        return stored

    async def render_match(self, match_id: int, *, everything: bool = False) -> None:
        self.rendered.append((match_id, everything, self.shared.lock(match_id).locked()))


class FakeSteps:
    def __init__(self) -> None:
        self.kicks: list[tuple[int, float]] = []
        self.forgotten: list[int] = []
        self.cancelled: list[int] = []

    def kick(self, match_id: int, delay: float = 0.0) -> None:
        self.kicks.append((match_id, delay))

    def cancel_kick(self, match_id: int) -> None:
        self.cancelled.append(match_id)

    def forget(self, match_id: int) -> None:
        self.forgotten.append(match_id)


def person(user_id: int, language_code: str | None = "en") -> SimpleNamespace:
    """A Telegram user as the lobby reads one (id, language code)."""
    return SimpleNamespace(id=user_id, language_code=language_code)
