"""Fakes of the ports the table logic receives (bot/tables/ports.py): the running bot's shared parts,
the live messages and the driver, each recording what it was asked."""

from __future__ import annotations

import asyncio
from collections.abc import Collection, Coroutine, Mapping
from datetime import UTC, datetime
from types import SimpleNamespace

from bot.boot.metrics import NULL
from bot.tables.ports import Markup, MatchOverHook, MessageKey, Stored
from bot.tables.seats import SeatIndex
from engine.events import Event
from scheduler.deadlines import DeadlineData
from storage.action_repo import ApplyResult
from storage.db import Database


class FakeOutbox:
    """Edits are recorded (none stays queued); what a message shows is forgotten at once."""

    def __init__(self) -> None:
        self.edits: list[tuple[int, int, str]] = []
        self.dropped: list[tuple[int, int]] = []

    def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        delay: float | None = 0.0,
        urgent: bool = False,
        version: int | None = None,
    ) -> None:
        self.edits.append((chat_id, message_id, text))

    def has_pending_edit(self, chat_id: int, message_id: int) -> bool:
        return False

    def drop_edit(self, chat_id: int, message_id: int) -> bool:
        self.dropped.append((chat_id, message_id))
        return False

    def forget(self, chat_id: int, message_id: int) -> None:
        return None

    def known_hash(self, chat_id: int, message_id: int) -> str | None:
        return None

    def take_changed_hashes(self) -> dict[tuple[int, int], str]:
        return {}

    def clock(self) -> float:
        return 0.0


class FakeDeadlines:
    def __init__(self) -> None:
        self.scheduled: list[tuple[str, str, datetime]] = []
        self.cancelled: list[tuple[str, str]] = []

    def now(self) -> datetime:
        return datetime(2026, 1, 1, tzinfo=UTC)

    async def schedule(
        self,
        db: Database,
        kind: str,
        ref: str,
        due_at: datetime,
        payload: Mapping[str, object] | None = None,
        *,
        replace: bool = False,
    ) -> int:
        self.scheduled.append((kind, ref, due_at))
        return len(self.scheduled)

    async def cancel(self, db: Database, kind: str, ref: str) -> int:
        self.cancelled.append((kind, ref))
        return 1

    async def pending(
        self, db: Database, kind: str | None = None, ref: str | None = None
    ) -> list[DeadlineData]:
        return []


class FakeMessages:
    """The shared parts' sends: recorded on the FakeShared, delivered as message 1000, 1001, ..."""

    def __init__(self, shared: FakeShared) -> None:
        self.shared = shared

    def send(
        self, chat_id: int, text: str, markup: Markup | None = None, *, record: bool = True
    ) -> asyncio.Future[int | None]:
        self.shared.sent.append((chat_id, text))
        self.shared.markups.append(markup)
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        fut.set_result(999 + len(self.shared.sent))
        return fut


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
        self.markups: list[Markup | None] = []  # the keyboard of each message sent
        self.locks: dict[int, asyncio.Lock] = {}
        self.messages = FakeMessages(self)

    async def chat_lang(self, chat_id: int) -> str:
        return "en"

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        return "en"

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


class FakeRunning(FakeShared):
    """The shared parts plus the running bot's life: one process, its tasks kept to be awaited."""

    def __init__(self, db: Database, admin_ids: Collection[int] = ()) -> None:
        super().__init__(db, admin_ids)
        self.stopping = False
        self.claims: object | None = None
        self.metrics = NULL  # the Prometheus hooks, off (bot/boot/metrics.py)
        self.tasks: list[asyncio.Task[object]] = []

    def spawn(self, coro: Coroutine[object, object, object]) -> None:
        self.tasks.append(asyncio.get_running_loop().create_task(coro))


class FakePace:
    deal_delay = 0.0
    ai_delay = 0.0
    DEAL_BATCH = 25


class FakeNames:
    async def player_names(self, table_id: int, lang: str) -> list[str]:
        return ["North", "East", "South", "West"]


class FakeMatchShows:
    """Records what the driver asked, in order: ("render", match) / ("announce", match, event kinds)."""

    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    async def render_match(
        self, match_id: int, *, everything: bool = False, applied: ApplyResult | None = None
    ) -> None:
        self.calls.append(("render", match_id))

    async def announce(
        self,
        match_id: int,
        events: list[Event],
        *,
        source: str,
        seat: int | None = None,
        applied: ApplyResult | None = None,
    ) -> None:
        self.calls.append(("announce", match_id, tuple(ev.kind for ev in events)))

    def drop_queued_hand(self, match_id: int, seat: int) -> None:
        self.calls.append(("drop_hand", match_id, seat))

    def note_autoplay(self, match_id: int, line: str) -> None:
        self.calls.append(("autoplay", match_id, line))

    def remembers(self, match_id: int) -> bool:
        return False

    def forget_match(self, match_id: int) -> None:
        self.calls.append(("forget", match_id))


class FakeSettings:
    TELEGRAM_RATE_SCALE = 1.0
    WEBAPP_TABLE_EDIT_SECONDS = 30.0
    WEBAPP_URL: str | None = None
    WEBAPP_SHORT_NAME: str | None = None


class FakeLive(FakeRunning):
    """What the live messages read of the running bot: the above, its settings, the match-over hooks."""

    def __init__(self, db: Database) -> None:
        super().__init__(db)
        self.settings = FakeSettings()
        self.claims: FakeClaims | None = None
        self.match_over_hooks: list[MatchOverHook] = []
        self.seen_users: set[tuple[object, ...]] = set()

    async def settle(self) -> None:
        """Wait for every task spawned so far (and those they spawn)."""
        while self.tasks:
            task = self.tasks.pop(0)
            await task


class FakeClaims:
    async def create_hand(
        self, live: object, key: MessageKey, chat_id: int, text: str, markup: Markup | None, stored: Stored
    ) -> None:
        return None


class FakePages:
    """The table pages open now: (match, user) pairs."""

    def __init__(self) -> None:
        self.open: set[tuple[int, int]] = set()

    def page_open(self, match_id: int, user_id: int) -> bool:
        return (match_id, user_id) in self.open


class FakeLobbyLost:
    def __init__(self) -> None:
        self.tables: list[int] = []

    async def __call__(self, table_id: int) -> None:
        self.tables.append(table_id)
