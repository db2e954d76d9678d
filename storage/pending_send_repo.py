"""The outbox's sends of record kept across a restart (``PendingMessage``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import delete, select

from storage.db import Database
from storage.models import (
    PendingMessage,
    utcnow,
)


@dataclass(frozen=True)
class StoredSend:
    """A send of record kept across a restart (the outbox's ``PendingSend`` fields)."""

    kind: str
    chat_id: int
    text: str
    markup: Any | None
    data: bytes | None = None
    filename: str | None = None


async def save_pending_messages(db: Database, items: Sequence[Any]) -> int:
    """Store the sends of record an outbox could not deliver before its stop (objects with the fields
    of ``StoredSend``), in their order."""
    if not items:
        return 0
    async with db.session() as s:
        for it in items:
            s.add(
                PendingMessage(
                    chat_id=it.chat_id,
                    kind=it.kind,
                    text=it.text,
                    markup_json=it.markup,
                    data=it.data,
                    filename=it.filename,
                    created_at=utcnow(),
                )
            )
        await s.commit()
    return len(items)


async def take_pending_messages(db: Database) -> list[StoredSend]:
    """The stored sends of record, oldest first; removed from the table in the same transaction."""
    async with db.session() as s:
        rows = (await s.execute(select(PendingMessage).order_by(PendingMessage.id))).scalars().all()
        out = [StoredSend(r.kind, r.chat_id, r.text, r.markup_json, r.data, r.filename) for r in rows]
        if rows:
            await s.execute(delete(PendingMessage).where(PendingMessage.id.in_([r.id for r in rows])))
            await s.commit()
        return out
