"""A fake play side (``bot.tournaments.ports.PlaySide``) that records what the tournament side asks of it."""

from __future__ import annotations

import asyncio
from collections.abc import Collection

from bot.tournaments.ports import DealGate, Markup, MatchOverHook
from scheduler.clock import ManualClock
from scheduler.deadlines import DeadlineScheduler
from storage.db import Database
from storage.models import TableSeat


class FakePlay:
    def __init__(
        self,
        db: Database | None = None,
        *,
        ready: bool = True,
        admins: Collection[int] = (),
        public_base: str | None = None,
    ) -> None:
        self._public_base = public_base
        self._db = db
        self._ready = ready
        self.admins = admins
        self.scheduler = DeadlineScheduler(ManualClock(), poll_interval=None)
        self.sent: list[tuple[int, str, Markup | None]] = []
        self.edits: list[tuple[int, int, str, Markup | None]] = []
        self.files: list[tuple[str, int, str, str]] = []  # (document | photo, chat, filename, caption)
        self.hooks: list[MatchOverHook] = []
        self.gate: DealGate | None = None
        self.locks: dict[int, asyncio.Lock] = {}

    @property
    def db(self) -> Database:
        assert self._db is not None
        return self._db

    @property
    def deadlines(self) -> DeadlineScheduler:
        return self.scheduler

    @property
    def bot_username(self) -> str:
        return "cup_bot"

    @property
    def admin_ids(self) -> Collection[int]:
        return self.admins

    @property
    def public_base(self) -> str | None:
        return self._public_base

    def group_lang(self) -> str:
        return "zh"

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        return "en" if tg_code == "en" else "zh"

    @property
    def ready(self) -> bool:
        return self._ready

    def send(self, chat_id: int, text: str, markup: Markup | None = None) -> asyncio.Future[int | None]:
        self.sent.append((chat_id, text, markup))
        done: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        done.set_result(len(self.sent))
        return done

    def edit(self, chat_id: int, message_id: int, text: str, markup: Markup | None) -> None:
        self.edits.append((chat_id, message_id, text, markup))

    async def send_document(self, chat_id: int, data: bytes, filename: str, caption: str) -> int | None:
        self.files.append(("document", chat_id, filename, caption))
        return len(self.files)

    async def send_photo(self, chat_id: int, data: bytes, caption: str) -> int | None:
        self.files.append(("photo", chat_id, "", caption))
        return len(self.files)

    def match_lock(self, match_id: int) -> asyncio.Lock:
        return self.locks.setdefault(match_id, asyncio.Lock())

    async def render_lobby(self, table_id: int) -> None:
        pass

    async def start_table(self, table_id: int, seed: int | None = None) -> str | None:
        return None

    def kick(self, match_id: int) -> None:
        pass

    async def user_match(self, user_id: int) -> tuple[int, int] | None:
        return None

    def index_seats(self, match_id: int, table_id: int, seats: list[TableSeat]) -> None:
        pass

    async def show_match_again(self, match_id: int) -> None:
        pass

    def on_match_over(self, hook: MatchOverHook) -> None:
        if hook not in self.hooks:
            self.hooks.append(hook)

    def deal_gate(self, gate: DealGate, poll_seconds: float) -> None:
        self.gate = gate


class FakeKeyboards:
    """Keyboards as plain tuples, so a test can read which buttons the logic asked for."""

    def checkin(self, lang: str, tid: int, key: str) -> Markup:
        return ("checkin", lang, tid, key)

    def dashboard(self, lang: str, tid: int, live: bool) -> Markup:
        return ("dashboard", lang, tid, live)
