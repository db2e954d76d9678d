"""Tap-to-select: the cards a seat has selected in its hand message (one row per seat)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, bindparam, delete, select

from storage.db import Database
from storage.match_cache import bound_cache
from storage.models import (
    Selection,
    utcnow,
)
from storage.table_repo import SEATS

_SELECTIONS: Table = Selection.__table__  # type: ignore[assignment]
DELETE_SELECTION = delete(_SELECTIONS).where(
    _SELECTIONS.c.match_id == bindparam("mid"), _SELECTIONS.c.seat == bindparam("seat")
)


async def get_selection(db: Database, match_id: int, seat: int) -> Selection | None:
    async with db.session() as s:
        rows = await s.execute(
            select(Selection).where(Selection.match_id == match_id, Selection.seat == seat)
        )
        return rows.scalars().first()


async def selected(db: Database, match_id: int, seat: int) -> tuple[str, int | None]:
    """The seat's selection as (card text, deal number), ("", None) if none; a sole writer keeps it in memory."""
    key = (match_id, seat)
    if db.sole_writer and key in db.selections:
        known = db.selections[key]
    else:
        epoch = db.row_epoch
        sel = await get_selection(db, match_id, seat)
        known = (sel.cards_text, sel.deal_no) if sel is not None else None
        if db.sole_writer and epoch == db.row_epoch:  # no selection written meanwhile
            bound_cache(db.selections)
            db.selections[key] = known
    return known if known is not None else ("", None)


def selection_written(db: Database, key: tuple[int, int], value: tuple[str, int | None] | None) -> None:
    """A seat's selection was written (None: cleared): a read begun before is not kept, a sole writer knows it."""
    db.row_epoch += 1
    db.selections.pop(key, None)
    if db.sole_writer:
        bound_cache(db.selections)
        db.selections[key] = value


async def set_selection(
    db: Database, match_id: int, seat: int, cards_text: str, deal_no: int | None = None
) -> Selection:
    """Store the selected cards (canonical card text) of a seat's hand keyboard: one statement (an insert
    that updates the seat's row if it has one, SQLite and PostgreSQL alike)."""
    key = (match_id, seat)
    now = utcnow()
    db.selections.pop(key, None)
    async with db.session() as s:
        await s.execute(
            _upsert_selection(db.dialect),
            {
                "match_id": match_id,
                "seat": seat,
                "cards_text": cards_text,
                "deal_no": deal_no,
                "updated_at": now,
            },
        )
        await s.commit()
    selection_written(db, key, (cards_text, deal_no))
    return Selection(match_id=match_id, seat=seat, cards_text=cards_text, deal_no=deal_no, updated_at=now)


_UPSERTS: dict[str, Any] = {}


def _upsert_selection(dialect: str) -> Any:
    statement = _UPSERTS.get(dialect)
    if statement is None:
        from sqlalchemy.dialects import postgresql, sqlite

        values: Any = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(_SELECTIONS)
        statement = _UPSERTS[dialect] = values.on_conflict_do_update(
            index_elements=[_SELECTIONS.c.match_id, _SELECTIONS.c.seat],
            set_={
                "cards_text": values.excluded.cards_text,
                "deal_no": values.excluded.deal_no,
                "updated_at": values.excluded.updated_at,
            },
        )
    return statement


async def clear_selection(db: Database, match_id: int, seat: int | None = None) -> None:
    """Forget the selection of a seat (None: of every seat, e.g. at a new deal)."""
    async with db.session() as s:
        query = delete(Selection).where(Selection.match_id == match_id)
        if seat is not None:
            query = query.where(Selection.seat == seat)
        await s.execute(query)
        await s.commit()
    for one in range(SEATS) if seat is None else (seat,):
        selection_written(db, (match_id, one), None)
