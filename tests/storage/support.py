"""Test support shared by tests/storage and tests/scheduler: database targets and a tiny fake game.

SQLite always; PostgreSQL when TEST_DATABASE_URL is set (each test gets a fresh schema, dropped after).
"""

from __future__ import annotations

import itertools
import random
import uuid
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from engine.errors import RuleError
from engine.game import Event, Turn
from storage.db import Database, open_database
from tests import services

PG_URL = services.PG_URL

# "postgresql" is skipped when TEST_DATABASE_URL is not set (tests/conftest.py)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]


class Target:
    """Where a test's database lives; ``open()`` can be called again to "restart" on the same data."""

    def __init__(self, backend: str, tmp_path: Any) -> None:
        self.backend = backend
        self.schema: str | None = None
        if backend == "sqlite":
            self.url = f"sqlite+aiosqlite:///{tmp_path}/data/bot.db"
        else:
            assert PG_URL
            self.url = PG_URL
            self.schema = "t_" + uuid.uuid4().hex[:16]
        self.opened: list[Database] = []

    async def setup(self) -> None:
        if self.schema:
            engine = create_async_engine(self.url)
            try:
                async with engine.begin() as conn:
                    await conn.execute(text(f'CREATE SCHEMA "{self.schema}"'))
            except OSError as err:
                pytest.fail(f"TEST_DATABASE_URL={self.url} is set but PostgreSQL is unreachable: {err}")
            finally:
                await engine.dispose()

    async def open(self) -> Database:
        db = await open_database(self.url, schema=self.schema)
        self.opened.append(db)
        return db

    async def cleanup(self) -> None:
        for db in self.opened:
            await db.dispose()
        if self.schema:
            engine = create_async_engine(self.url)
            async with engine.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA IF EXISTS "{self.schema}" CASCADE'))
            await engine.dispose()


# --- a tiny game implementing engine.game.Match (a test double) -------------------------------------


class CountingGame:
    """Seats 0..3 in turn add 1..3 to a total; the seat that brings it to ``target`` wins for its side.

    With option ``deal_every=N`` every N moves make a "deal" (``deal_started`` / ``deal_over`` events).
    Action texts: ``"<seat> add <n>"`` (``"2 add 03"`` is stored as ``"2 add 3"``), ``"sys note"``
    (always allowed, changes nothing but the log), ``"sys spoil"`` (refused, but adds 100 to the total
    first: a buggy refusal).  Each seat has a private "secret" in its view.
    """

    game = "counting"

    def __init__(self, options: dict[str, Any], seed: int) -> None:
        self.options = dict(options)
        self.seed = seed
        self.log: list[str] = []
        self.total = 0
        self.turn = 0
        self.winner: int | None = None
        rng = random.Random(seed)
        self.secrets = [rng.randrange(1000) for _ in range(4)]

    @property
    def target(self) -> int:
        return int(self.options.get("target", 10))

    def apply(self, action: str) -> list[Event]:
        parts = action.split()
        if parts == ["sys", "note"]:
            self.log.append("sys note")
            return [Event("note")]
        if parts == ["sys", "spoil"]:  # a refusal that breaks the engine's promise: it changes the state
            self.total += 100
            raise RuleError("spoiled", "Refused after changing the total")
        if len(parts) != 3 or parts[1] != "add" or not parts[0].isdigit() or not parts[2].isdigit():
            raise RuleError("bad_action", "Cannot read {action}", action=action)
        if self.winner is not None:
            raise RuleError("match_over", "The match is over")
        seat, amount = int(parts[0]), int(parts[2])
        if seat != self.turn:
            raise RuleError("not_your_turn", "It is seat {seat}'s turn", seat=self.turn)
        if not 1 <= amount <= 3:
            raise RuleError("bad_amount", "Add 1, 2 or 3, not {amount}", amount=amount)
        every = int(self.options.get("deal_every", 0))
        moves = sum(1 for a in self.log if a != "sys note")
        events = []
        if every and moves and moves % every == 0:
            events.append(Event("deal_started", {"deal_no": moves // every + 1}))
        self.total += amount
        events.append(Event("added", {"seat": seat, "amount": amount, "total": self.total}))
        if every and (moves + 1) % every == 0:
            events.append(Event("deal_over", {"deal_no": (moves + 1) // every, "total": self.total}))
        if self.total >= self.target:
            self.winner = seat % 2
            events.append(Event("won", {"side": self.winner}))
        self.turn = (self.turn + 1) % 4
        self.log.append(f"{seat} add {amount}")
        return events

    def turns(self) -> list[Turn]:
        return [] if self.winner is not None else [Turn(self.turn, "play", "lead_clock")]

    def system_step(self) -> str | None:
        return None

    def auto_action(self, seat: int) -> str:
        return f"{seat} add 1"

    def timeout_action(self, seat: int) -> str:
        return self.auto_action(seat)

    def clock_seconds(self, clock: str | None) -> int:
        return int(self.options.get(clock, 0)) if clock else 0

    def readings_for(self, seat: int, cards: Sequence[int]) -> list[Any]:
        return []

    @property
    def deal_no(self) -> int:
        every = int(self.options.get("deal_every", 0))
        moves = sum(1 for a in self.log if a != "sys note")
        return moves // every + 1 if every else 1

    redeal_no = 0

    @property
    def history(self) -> list[dict[str, Any]]:
        return []

    def ai_action(self, seat: int, rng: random.Random) -> str | None:
        return f"{seat} add {rng.randint(1, 3)}" if seat == self.turn and self.winner is None else None

    def seat_view(self, seat: int) -> dict[str, Any]:
        return {**self.public_view(), "seat": seat, "secret": self.secrets[seat]}

    def public_view(self) -> dict[str, Any]:
        return {"total": self.total, "turn": self.turn, "moves": len(self.log)}

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def result(self) -> dict[str, Any] | None:
        return None if self.winner is None else {"winner": self.winner, "total": self.total}


_CHATS = itertools.count(-100, -1)


async def counting_match(db: Database, target: int = 10, seed: int = 7, **options: Any) -> int:
    """A started match of the fake game between four computer seats (needs the ``counting_game`` fixture),
    each in a chat of its own (a chat has one live table)."""
    from storage import match_repo, table_repo

    table = await table_repo.insert_table(
        db, next(_CHATS), "test", "counting", {"target": target, **options}, created_by=1
    )
    await table_repo.fill_computer_seats(db, table.id)
    state = await match_repo.start_match(db, table.id, seed=seed)
    return state.match_id
