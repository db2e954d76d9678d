"""The messages of record: which Telegram message shows a table, a hand, ... (``MessageRef``) and the
hash of the text it shows (so an unchanged edit costs no call)."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, bindparam, delete, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from storage.db import Database
from storage.models import (
    MessageRef,
    utcnow,
)
from storage.table_repo import set_table_message_id

_MESSAGE_REFS: Table = MessageRef.__table__  # type: ignore[assignment]
_SET_HASH = (
    update(_MESSAGE_REFS)
    .where(_MESSAGE_REFS.c.chat_id == bindparam("chat"), _MESSAGE_REFS.c.message_id == bindparam("msg"))
    .values(last_text_hash=bindparam("hash"), updated_at=bindparam("at"))
)


def _ref_filter(purpose: str, table_id: int | None, match_id: int | None, seat: int | None) -> list[Any]:
    def eq(column: Any, value: Any) -> Any:
        return column.is_(None) if value is None else column == value

    return [
        MessageRef.purpose == purpose,
        eq(MessageRef.table_id, table_id),
        eq(MessageRef.match_id, match_id),
        eq(MessageRef.seat, seat),
    ]


async def set_live_message(
    db: Database,
    purpose: str,
    chat_id: int,
    message_id: int,
    *,
    table_id: int | None = None,
    match_id: int | None = None,
    seat: int | None = None,
    deal_no: int | None = None,
    text_hash: str | None = None,
) -> MessageRef:
    """Remember the one live message for (purpose, table_id, match_id, seat), replacing an older one."""
    async with db.session() as s:
        await s.execute(delete(MessageRef).where(*_ref_filter(purpose, table_id, match_id, seat)))
        return await _add_ref(s, purpose, chat_id, message_id, table_id, match_id, seat, deal_no, text_hash)


async def get_live_message(
    db: Database,
    purpose: str,
    *,
    table_id: int | None = None,
    match_id: int | None = None,
    seat: int | None = None,
) -> MessageRef | None:
    async with db.session() as s:
        rows = await s.execute(
            select(MessageRef)
            .where(*_ref_filter(purpose, table_id, match_id, seat))
            .order_by(MessageRef.id.desc())
            .limit(1)
        )
        return rows.scalars().first()


async def add_message_ref(
    db: Database,
    purpose: str,
    chat_id: int,
    message_id: int,
    *,
    table_id: int | None = None,
    match_id: int | None = None,
    seat: int | None = None,
    deal_no: int | None = None,
    text_hash: str | None = None,
) -> MessageRef:
    """Record a message that is not unique per purpose (deal summaries, results)."""
    async with db.session() as s:
        return await _add_ref(s, purpose, chat_id, message_id, table_id, match_id, seat, deal_no, text_hash)


async def _add_ref(
    s: AsyncSession,
    purpose: str,
    chat_id: int,
    message_id: int,
    table_id: int | None,
    match_id: int | None,
    seat: int | None,
    deal_no: int | None,
    text_hash: str | None,
) -> MessageRef:
    """Add one message reference in ``s`` and commit."""
    now = utcnow()
    ref = MessageRef(
        chat_id=chat_id,
        message_id=message_id,
        purpose=purpose,
        table_id=table_id,
        match_id=match_id,
        seat=seat,
        deal_no=deal_no,
        last_text_hash=text_hash,
        created_at=now,
        updated_at=now,
    )
    s.add(ref)
    await s.commit()
    return ref


async def list_message_refs(
    db: Database, *, purpose: str | None = None, table_id: int | None = None, match_id: int | None = None
) -> list[MessageRef]:
    async with db.session() as s:
        query = select(MessageRef)
        if purpose is not None:
            query = query.where(MessageRef.purpose == purpose)
        if table_id is not None:
            query = query.where(MessageRef.table_id == table_id)
        if match_id is not None:
            query = query.where(MessageRef.match_id == match_id)
        return list((await s.execute(query.order_by(MessageRef.id))).scalars().all())


async def find_message_ref(db: Database, chat_id: int, message_id: int) -> MessageRef | None:
    """Which live message a callback came from."""
    async with db.session() as s:
        rows = await s.execute(
            select(MessageRef)
            .where(MessageRef.chat_id == chat_id, MessageRef.message_id == message_id)
            .order_by(MessageRef.id.desc())
            .limit(1)
        )
        return rows.scalars().first()


async def set_message_hash_of(db: Database, chat_id: int, message_id: int, text_hash: str | None) -> None:
    """``set_message_hash`` by the Telegram message (the outbox knows the chat and message, not the row)."""
    async with db.session() as s:
        await s.execute(
            update(MessageRef)
            .where(MessageRef.chat_id == chat_id, MessageRef.message_id == message_id)
            .values(last_text_hash=text_hash, updated_at=utcnow())
        )
        await s.commit()


async def set_message_hashes(db: Database, hashes: dict[tuple[int, int], str]) -> None:
    """``set_message_hash_of`` for many messages in one transaction (the outbox's changes, now and then)."""
    if not hashes:
        return
    now = utcnow()
    async with db.session() as s:  # one statement run for every message (executemany)
        await s.execute(
            _SET_HASH,
            [
                {"chat": chat_id, "msg": message_id, "hash": text_hash, "at": now}
                for (chat_id, message_id), text_hash in hashes.items()
            ],
        )
        await s.commit()


async def delete_message_ref(db: Database, ref_id: int) -> None:
    """Forget one message row (the message was deleted in Telegram)."""
    async with db.session() as s:
        await s.execute(delete(MessageRef).where(MessageRef.id == ref_id))
        await s.commit()


async def set_message_hash(db: Database, ref_id: int, text_hash: str | None) -> None:
    """Remember the hash of the text last sent to that message (so an unchanged edit is skipped)."""
    async with db.session() as s:
        await s.execute(
            update(MessageRef)
            .where(MessageRef.id == ref_id)
            .values(last_text_hash=text_hash, updated_at=utcnow())
        )
        await s.commit()


async def delete_message_refs(
    db: Database, *, table_id: int | None = None, match_id: int | None = None, purpose: str | None = None
) -> int:
    if table_id is None and match_id is None and purpose is None:
        raise ValueError("delete_message_refs needs a filter")
    async with db.session() as s:
        query = delete(MessageRef)
        if purpose is not None:
            query = query.where(MessageRef.purpose == purpose)
        if table_id is not None:
            query = query.where(MessageRef.table_id == table_id)
        if match_id is not None:
            query = query.where(MessageRef.match_id == match_id)
        result = await s.execute(query)
        await s.commit()
        return int(result.rowcount)  # type: ignore[attr-defined]


async def get_table_message(db: Database, table_id: int) -> MessageRef | None:
    """The live table message in the group."""
    return await get_live_message(db, "table", table_id=table_id)


async def set_table_message(
    db: Database, table_id: int, chat_id: int, message_id: int, *, text_hash: str | None = None
) -> MessageRef:
    """Remember the live table message (also stored as ``GameTable.table_message_id``)."""
    await set_table_message_id(db, table_id, message_id)
    return await set_live_message(db, "table", chat_id, message_id, table_id=table_id, text_hash=text_hash)


async def get_hand_message(db: Database, match_id: int, seat: int) -> MessageRef | None:
    """The seat's hand message in its private chat."""
    return await get_live_message(db, "hand", match_id=match_id, seat=seat)


async def set_hand_message(
    db: Database,
    match_id: int,
    seat: int,
    chat_id: int,
    message_id: int,
    *,
    deal_no: int | None = None,
    text_hash: str | None = None,
) -> MessageRef:
    return await set_live_message(
        db, "hand", chat_id, message_id, match_id=match_id, seat=seat, deal_no=deal_no, text_hash=text_hash
    )
