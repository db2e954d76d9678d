"""What the table logic (lobby, driver, live) needs of the rest of the bot, as narrow typed Protocols
passed in by constructor.  The composition root (bot/boot/runtime.py) hands in the running bot's
shared parts and wires the three services to each other; a unit test hands in fakes
(tests/bot/tables/fakes.py).  Nothing here imports Telegram: a keyboard is presentation's neutral ``Keyboard``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection, Coroutine, Mapping
from datetime import datetime
from typing import Protocol

from bot.presentation.markup import Keyboard
from bot.tables.seats import SeatIndex
from engine.events import Event
from scheduler.deadlines import DeadlineData
from storage.action_repo import ApplyResult
from storage.db import Database

Markup = Keyboard  # a keyboard built by presentation (neutral data); the table logic only passes it on
MessageKey = tuple[str, int] | tuple[str, int, int, int]  # ("table", table id) / ("hand", match, seat, deal)
Stored = Callable[[int], Awaitable[None]]  # records a new message's id once it is sent


class Person(Protocol):
    """Who pressed or typed (a Telegram user, as the table logic reads one)."""

    @property
    def id(self) -> int: ...

    @property
    def language_code(self) -> str | None: ...


class Chat(Protocol):
    @property
    def id(self) -> int: ...


class Outbox(Protocol):
    """The queue of calls to Telegram (bot/delivery/outbox.py)."""

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
        """Queue an edit (an unchanged message costs nothing); ``delay``: it waits that long (None: an
        edit already queued keeps its wait); ``urgent``: it tells its reader to act."""

    def has_pending_edit(self, chat_id: int, message_id: int) -> bool: ...

    def drop_edit(self, chat_id: int, message_id: int) -> bool:
        """Withdraw an edit still queued (it is no longer needed)."""

    def forget(self, chat_id: int, message_id: int) -> None:
        """Forget what a message shows (its next edit is sent even if unchanged)."""

    def known_hash(self, chat_id: int, message_id: int) -> str | None:
        """The hash of what a message shows (stored with its reference)."""

    def take_changed_hashes(self) -> dict[tuple[int, int], str]:
        """What the messages show that changed since the last call (to be stored)."""

    def clock(self) -> float:
        """The outbox's clock (seconds)."""


class Deadlines(Protocol):
    """Deadlines as rows (scheduler/deadlines.py)."""

    def now(self) -> datetime: ...

    async def schedule(
        self,
        db: Database,
        kind: str,
        ref: str,
        due_at: datetime,
        payload: Mapping[str, object] | None = None,
        *,
        replace: bool = False,
    ) -> int: ...

    async def cancel(self, db: Database, kind: str, ref: str) -> int: ...

    async def pending(
        self, db: Database, kind: str | None = None, ref: str | None = None
    ) -> list[DeadlineData]: ...


class Send(Protocol):
    """Queueing a new message on the outbox running now."""

    def send(
        self, chat_id: int, text: str, markup: Markup | None = None, *, record: bool = True
    ) -> asyncio.Future[int | None]:
        """Queue a message; the future gives its id (None: not delivered)."""


class Shared(Protocol):
    """The running bot's shared parts, as the table logic reads them: its database, languages, the
    outbox, the deadline scheduler, the seat index, the per-match locks."""

    @property
    def db(self) -> Database: ...

    @property
    def outbox(self) -> Outbox | None: ...

    @property
    def scheduler(self) -> Deadlines: ...

    @property
    def seats(self) -> SeatIndex: ...

    @property
    def bot_username(self) -> str | None: ...

    @property
    def admin_ids(self) -> Collection[int]: ...

    async def chat_lang(self, chat_id: int) -> str:
        """A group's language."""

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        """A user's language."""

    @property
    def messages(self) -> Send:
        """Where new messages are queued: the outbox running now (bot/delivery/sending.py)."""

    def lock(self, match_id: int) -> asyncio.Lock:
        """The lock that serialises everything done to one match."""


class TableShows(Protocol):
    """What the lobby asks of the live messages (bot/tables/live.py)."""

    def create(self, key: MessageKey, chat_id: int, text: str, markup: Markup | None, stored: Stored) -> None:
        """Send a new live message without waiting; ``stored(message id)`` records it."""

    def table_created(self, table_id: int) -> Stored:
        """What records a table's new message."""

    async def render_match(self, match_id: int, *, everything: bool = False) -> None:
        """Show a match (the group's table message and the hands)."""


class MatchSteps(Protocol):
    """What the lobby asks of the driver (bot/tables/driver.py)."""

    def kick(self, match_id: int, delay: float = 0.0) -> None:
        """Let a match's next step run (after ``delay`` seconds)."""

    def cancel_kick(self, match_id: int) -> None: ...

    def forget(self, match_id: int) -> None:
        """Drop what the driver keeps in memory of a match that ended."""


class PlayMetrics(Protocol):
    """The Prometheus hooks of play (bot/boot/metrics.py; no-ops when metrics are off)."""

    def action(self, outcome: str) -> None:
        """A player's action: "applied", "refused" or "stale"."""

    def turn(self, seconds: float) -> None:
        """A press or typed play received -> its action committed."""


class Running(Shared, Protocol):
    """The shared parts plus the running bot's life: whether it is stopping, its background tasks and
    whether other processes share its tables (message claims through Redis)."""

    @property
    def stopping(self) -> bool: ...

    @property
    def claims(self) -> object | None:
        """Set when several processes run the bot (another one may act on the same match)."""

    def spawn(self, coro: Coroutine[object, object, object]) -> None:
        """Run ``coro`` in a task the bot waits for at stop."""

    @property
    def metrics(self) -> PlayMetrics:
        """The Prometheus hooks (bot/boot/metrics.py; no-ops when metrics are off)."""


class Pace(Protocol):
    """The driver's pacing settings (bot/boot/settings.py)."""

    @property
    def deal_delay(self) -> float: ...

    @property
    def ai_delay(self) -> float: ...

    @property
    def DEAL_BATCH(self) -> int: ...  # noqa: N802 (the setting's name)


class Names(Protocol):
    """The names shown at a table (bot/tables/names.py)."""

    async def player_names(self, table_id: int, lang: str) -> list[str]: ...


class MatchShows(Protocol):
    """What the driver asks of the live messages (bot/tables/live.py)."""

    async def render_match(
        self, match_id: int, *, everything: bool = False, applied: ApplyResult | None = None
    ) -> None: ...

    async def announce(
        self,
        match_id: int,
        events: list[Event],
        *,
        source: str,
        seat: int | None = None,
        applied: ApplyResult | None = None,
    ) -> None: ...

    def drop_queued_hand(self, match_id: int, seat: int) -> None: ...

    def note_autoplay(self, match_id: int, line: str) -> None: ...

    def remembers(self, match_id: int) -> bool: ...

    def forget_match(self, match_id: int) -> None: ...


# --- what the live messages (bot/tables/live.py) need --------------------------------------------------

MatchOverHook = Callable[[int, dict[str, object]], Awaitable[None]]


class LiveSettings(Protocol):
    """The settings the live messages read (bot/boot/settings.py)."""

    @property
    def TELEGRAM_RATE_SCALE(self) -> float: ...  # noqa: N802 (the settings' names)

    @property
    def WEBAPP_TABLE_EDIT_SECONDS(self) -> float: ...  # noqa: N802

    @property
    def WEBAPP_URL(self) -> str | None: ...  # noqa: N802

    @property
    def WEBAPP_SHORT_NAME(self) -> str | None: ...  # noqa: N802


class HandClaims(Protocol):
    """Several processes: one of them sends each new hand message (bot/delivery/message_claims.py)."""

    async def create_hand(
        self, live: object, key: MessageKey, chat_id: int, text: str, markup: Markup | None, stored: Stored
    ) -> None: ...


class LiveShared(Running, Protocol):
    """The running bot as the live messages read it: the shared parts and its life, its settings, the
    hooks run when a match ends, the users stored since start-up (forgotten when one blocks the bot)."""

    @property
    def settings(self) -> LiveSettings: ...

    @property
    def claims(self) -> HandClaims | None: ...

    @property
    def match_over_hooks(self) -> list[MatchOverHook]: ...

    @property
    def seen_users(self) -> set[tuple[object, ...]]: ...


class Pages(Protocol):
    """The table pages open now (bot/webapp): a seat whose page is open follows the play there."""

    def page_open(self, match_id: int, user_id: int) -> bool: ...


class MoveClocks(Protocol):
    """When each match's running move clock runs out (kept by the driver, shown by the messages)."""

    def get(self, match_id: int, default: None = None) -> datetime | None: ...


LobbyLost = Callable[[int], Awaitable[None]]  # shows an open table's lobby again (its message was deleted)
