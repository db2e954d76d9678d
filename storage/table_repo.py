"""Tables and their seats: create, read, seat and unseat, status; a tournament table's seed mix
(docs/fairness.md)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from engine.errors import RuleError
from engine.fairness import contributions_mix, mixed_match_seed
from engine.options import options_to_dict
from engine.registry import load_preset
from storage.db import Database
from storage.errors import not_found
from storage.match_cache import forget_rows
from storage.models import (
    GameTable,
    MatchRecord,
    TableSeat,
    utcnow,
)

SEATS = 4
ACTIVE_TABLE_STATUSES = ("open", "playing", "paused")
MAX_SEED = 2**62


async def create_table(
    db: Database,
    chat_id: int,
    preset_id: str,
    options: Mapping[str, object] | None = None,
    created_by: int | None = None,
    *,
    tournament_ref: str | None = None,
) -> GameTable:
    """A new open table with four empty seats; options validated (RuleError / OptionError when bad)."""
    preset = load_preset(preset_id)
    if options:
        preset = preset.with_overrides(dict(options))
    options_json = json.loads(json.dumps(options_to_dict(preset.rules)))
    return await insert_table(
        db, chat_id, preset_id, preset.game, options_json, created_by, tournament_ref=tournament_ref
    )


async def insert_table(
    db: Database,
    chat_id: int,
    preset_id: str,
    game: str,
    options_json: Mapping[str, Any],
    created_by: int | None = None,
    *,
    tournament_ref: str | None = None,
    computer_seats: Sequence[int] = (),
    fixed_seed: int | None = None,
    practice: bool = False,
) -> GameTable:
    """A table from already validated option values (``create_table`` validates; the tournament code may
    build its own); ``computer_seats`` are given to computer players from the start.

    A chat has at most one live table outside tournaments (a partial unique index, migration 0005):
    RuleError ``table_exists`` names the live one, also when several requests race."""
    async with db.session() as s:
        table = GameTable(
            chat_id=chat_id,
            preset_id=preset_id,
            game=game,
            options_json=dict(options_json),
            status="open",
            created_by=created_by,
            tournament_ref=tournament_ref,
            created_at=utcnow(),
            fixed_seed=fixed_seed,
            practice=practice,
            server_seed=(
                random.SystemRandom().randrange(MAX_SEED)
                if tournament_ref is not None and fixed_seed is None
                else None
            ),
        )
        s.add(table)
        try:
            await s.flush()
        except IntegrityError:
            await s.rollback()
            live = await open_table_in_chat(db, chat_id)
            raise RuleError(
                "table_exists",
                "This group already has a table (table {table}); /stop ends it",
                table=live.id if live is not None else "?",
            ) from None
        for seat in range(SEATS):
            s.add(TableSeat(table_id=table.id, seat=seat, user_id=None, is_computer=seat in computer_seats))
        await s.commit()
        return table


async def get_table(db: Database, table_id: int) -> GameTable | None:
    async with db.session() as s:
        return await s.get(GameTable, table_id)


async def open_table_in_chat(db: Database, chat_id: int) -> GameTable | None:
    """The chat's newest table that is open, playing or paused (the one its commands act on), or None."""
    async with db.session() as s:
        rows = await s.execute(
            select(GameTable)
            .where(GameTable.chat_id == chat_id, GameTable.status.in_(ACTIVE_TABLE_STATUSES))
            .order_by(GameTable.id.desc())
            .limit(1)
        )
        return rows.scalars().first()


async def active_tables(db: Database) -> list[GameTable]:
    """Every table that is open, playing or paused, oldest first."""
    async with db.session() as s:
        rows = await s.execute(
            select(GameTable).where(GameTable.status.in_(ACTIVE_TABLE_STATUSES)).order_by(GameTable.id)
        )
        return list(rows.scalars().all())


async def active_tables_in_chat(db: Database, chat_id: int) -> list[GameTable]:
    """Tables of a chat that are open, playing or paused, oldest first."""
    async with db.session() as s:
        rows = await s.execute(
            select(GameTable)
            .where(GameTable.chat_id == chat_id, GameTable.status.in_(ACTIVE_TABLE_STATUSES))
            .order_by(GameTable.id)
        )
        return list(rows.scalars().all())


async def get_seats(db: Database, table_id: int) -> list[TableSeat]:
    """The four seats of a table, by seat number."""
    async with db.session() as s:
        return await seat_rows(s, table_id)


async def seat_rows(s: AsyncSession, table_id: int) -> list[TableSeat]:
    rows = await s.execute(select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat))
    return list(rows.scalars().all())


async def seat_of_user(db: Database, table_id: int, user_id: int) -> int | None:
    for seat in await get_seats(db, table_id):
        if seat.user_id == user_id:
            return seat.seat
    return None


async def open_table_row(s: AsyncSession, table_id: int) -> GameTable:
    table = await s.get(GameTable, table_id)
    if table is None:
        raise not_found("table", table_id)
    if table.status != "open":
        raise RuleError("table_not_open", "Table {table} is not taking seats now", table=table_id)
    return table


async def seat_user(db: Database, table_id: int, seat: int, user_id: int) -> list[TableSeat]:
    """Put ``user_id`` on ``seat`` (moving them if they sit elsewhere at this table).

    RuleError: ``table_not_found``, ``table_not_open``, ``bad_seat``, ``seat_taken``.
    """
    if not 0 <= seat < SEATS:
        raise RuleError("bad_seat", "Seat {seat} does not exist (0-3)", seat=seat)
    async with db.session() as s:
        await open_table_row(s, table_id)
        current = next((x for x in await seat_rows(s, table_id) if x.user_id == user_id), None)
        if current is not None and current.seat == seat:
            return await seat_rows(s, table_id)
        taken = await s.execute(
            update(TableSeat)
            .where(
                TableSeat.table_id == table_id,
                TableSeat.seat == seat,
                TableSeat.user_id.is_(None),
                TableSeat.is_computer.is_(False),
            )
            .values(user_id=user_id)
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            await s.rollback()
            raise RuleError("seat_taken", "Seat {seat} is taken", seat=seat)
        if current is not None:
            await s.execute(update(TableSeat).where(TableSeat.id == current.id).values(user_id=None))
        await s.commit()
        return await seat_rows(s, table_id)


async def unseat(
    db: Database, table_id: int, *, seat: int | None = None, user_id: int | None = None
) -> list[TableSeat]:
    """Free a seat (by number, or the seat of ``user_id``); a computer seat becomes empty too."""
    async with db.session() as s:
        await open_table_row(s, table_id)
        query = update(TableSeat).where(TableSeat.table_id == table_id)
        if seat is not None:
            query = query.where(TableSeat.seat == seat)
        if user_id is not None:
            query = query.where(TableSeat.user_id == user_id)
        await s.execute(query.values(user_id=None, is_computer=False))
        await s.commit()
        return await seat_rows(s, table_id)


async def fill_computer_seats(db: Database, table_id: int, count: int | None = None) -> list[TableSeat]:
    """Give up to ``count`` empty seats (None: all of them), lowest first, to computer players."""
    async with db.session() as s:
        await open_table_row(s, table_id)
        empty = [x.seat for x in await seat_rows(s, table_id) if x.user_id is None and not x.is_computer]
        for seat in empty[: len(empty) if count is None else max(0, count)]:
            await s.execute(
                update(TableSeat)
                .where(TableSeat.table_id == table_id, TableSeat.seat == seat, TableSeat.user_id.is_(None))
                .values(is_computer=True)
            )
        await s.commit()
        return await seat_rows(s, table_id)


async def set_table_status(db: Database, table_id: int, status: str) -> None:
    async with db.session() as s:
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(status=status))
        await s.commit()


async def set_table_message_id(db: Database, table_id: int, message_id: int | None) -> None:
    """Remember the table (lobby) message id on the table row (see also ``set_live_message``)."""
    async with db.session() as s:
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(table_message_id=message_id))
        await s.commit()


async def abort_table(db: Database, table_id: int) -> None:
    """Close a table: status ``aborted``; its unfinished match (if any) is marked finished without result."""
    async with db.session() as s:
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(status="aborted"))
        await s.execute(
            update(MatchRecord)
            .where(MatchRecord.table_id == table_id, MatchRecord.status != "finished")
            .values(status="finished", finished_at=utcnow())
        )
        await s.commit()
    forget_rows(db, table_id=table_id)


MAX_MIX_WORDS = 8


def mix_values(table: GameTable, seats: Sequence[TableSeat]) -> list[str]:
    """The public values mixed into a tournament table's match seed: table id, seating, players' /mix words."""
    seating = ",".join(
        str(x.user_id if x.user_id is not None else "-") for x in sorted(seats, key=lambda x: x.seat)
    )
    return [f"table:{table.id}", f"seats:{seating}", *(str(w) for w in (table.mix_words or []))]


def mixed_seed_of(table: GameTable, seats: Sequence[TableSeat]) -> int:

    assert table.server_seed is not None
    return mixed_match_seed(table.server_seed, contributions_mix(mix_values(table, seats)))


async def add_mix_words(db: Database, table_id: int, user_id: int, words: str) -> list[str]:
    """A seated player's /mix words on an open tournament table; returns every word so far.

    RuleError: ``table_not_open``, ``not_seated``, ``no_mix`` (not a tournament table), ``mix_full``."""
    async with db.session() as s:
        table = await open_table_row(s, table_id)
        if table.server_seed is None:
            raise RuleError("no_mix", "This table has no mixed-in seed")
        if not any(x.user_id == user_id for x in await seat_rows(s, table_id)):
            raise RuleError("not_seated", "You are not seated at this table")
        current = list(table.mix_words or [])
        if len(current) >= MAX_MIX_WORDS:
            raise RuleError("mix_full", "Enough words were mixed in ({n})", n=MAX_MIX_WORDS)
        current.append(f"{user_id}:{words}")
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(mix_words=current))
        await s.commit()
        return current
