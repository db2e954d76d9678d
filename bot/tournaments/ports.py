"""What the tournament side needs of the rest of the bot, as narrow typed Protocols passed in by
constructor (bot/tournaments/wiring.py): the play side's languages, messages and tables, and the
tournament's keyboards.  The edge (bot/edge/tournament/play_side.py, keyboards.py) implements them;
a unit test implements them with fakes.  Nothing here imports Telegram: a keyboard is an opaque
``Markup`` the edge built and the outbox carries.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Collection
from typing import Protocol

from engine.game import Match
from scheduler.deadlines import DeadlineScheduler
from storage.db import Database
from storage.models import GameTable, TableSeat

Markup = object  # a keyboard built by the edge; the logic only passes it on
MatchOverHook = Callable[[int, dict[str, object]], Awaitable[None]]
DealGate = Callable[[int, Match, GameTable | None], Awaitable[bool]]


class Languages(Protocol):
    def group_lang(self) -> str:
        """The language of groups (``BOT_LANGUAGE``)."""

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        """A user's language (their choice, else Telegram's, else the groups')."""


class Messages(Protocol):
    """Every message goes through the outbox (its pace, RetryAfter, refusals)."""

    @property
    def ready(self) -> bool:
        """Whether the outbox runs (before start-up and after shut-down nothing can be sent)."""

    def send(self, chat_id: int, text: str, markup: Markup | None = None) -> asyncio.Future[int | None]:
        """Queue a text; the future gives its message id (None: not delivered)."""

    def edit(self, chat_id: int, message_id: int, text: str, markup: Markup | None) -> None:
        """Queue an edit (an unchanged message costs nothing)."""

    async def send_document(self, chat_id: int, data: bytes, filename: str, caption: str) -> int | None:
        """Send a file after the texts queued before it; its message id, or None (refused, no outbox)."""

    async def send_photo(self, chat_id: int, data: bytes, caption: str) -> int | None:
        """Send a picture after the texts queued before it; its message id, or None."""


class PlayTables(Protocol):
    """The play side's tables, as the tournament side opens, starts and watches them."""

    def match_lock(self, match_id: int) -> asyncio.Lock:
        """The lock that serialises everything done to one game match."""

    async def render_lobby(self, table_id: int) -> None:
        """Post or edit a table's lobby message."""

    async def start_table(self, table_id: int, seed: int | None = None) -> str | None:
        """Start a table whose seats are filled (``seed``: the match seed to use, else the table's own);
        an error text, or None."""

    def kick(self, match_id: int) -> None:
        """Let a game match's next step run now (after its clocks were resumed)."""

    async def user_match(self, user_id: int) -> tuple[int, int] | None:
        """The live game match and seat of a user, if any."""

    def index_seats(self, match_id: int, table_id: int, seats: list[TableSeat]) -> None:
        """Who sits where in a live match changed: the seat index is brought up to date."""

    async def show_match_again(self, match_id: int) -> None:
        """Forget a match's in-memory message refs and show every message of it again."""

    def on_match_over(self, hook: MatchOverHook) -> None:
        """Call ``hook(match_id, result)`` when a game match ends (once per hook)."""

    def deal_gate(self, gate: DealGate, poll_seconds: float) -> None:
        """Ask ``gate(match_id, match, table)`` before a table deals its next deal; when it says no, the
        table asks again after ``poll_seconds`` (duplicate deals: bot/tournaments/duplicate.py)."""


class PlaySide(Languages, Messages, PlayTables, Protocol):
    """Everything the tournament side uses of the play side."""

    @property
    def db(self) -> Database: ...

    @property
    def deadlines(self) -> DeadlineScheduler: ...

    @property
    def bot_username(self) -> str: ...

    @property
    def admin_ids(self) -> Collection[int]: ...

    @property
    def public_base(self) -> str | None:
        """The bot's web server's public base URL (``WEBAPP_URL``), or None when it has none."""
        ...


class TournamentKeyboards(Protocol):
    """The tournament side's buttons (the edge encodes them with the one callback codec)."""

    def checkin(self, lang: str, tid: int, key: str) -> Markup: ...

    def dashboard(self, lang: str, tid: int, live: bool) -> Markup: ...
