"""Users and chats: who they are, whether they started the bot, their language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from storage.db import Database
from storage.match_cache import bound_cache
from storage.models import (
    Chat,
    User,
    utcnow,
)


async def upsert_user(
    db: Database,
    user_id: int,
    first_name: str = "",
    username: str | None = None,
    language_code: str | None = None,
    *,
    started_bot: bool | None = None,
) -> User:
    """Create or refresh a user from a Telegram update (``started_bot=True`` on /start in private)."""
    for _ in range(2):
        async with db.session() as s:
            user = await s.get(User, user_id)
            if user is None:
                user = User(
                    id=user_id,
                    first_name=first_name or "",
                    username=username,
                    language_code=language_code,
                    started_bot=bool(started_bot),
                    blocked_bot=False,
                    created_at=utcnow(),
                )
                s.add(user)
            else:
                user.first_name = first_name or user.first_name
                user.username = username
                if language_code:
                    user.language_code = language_code
                if started_bot is not None:
                    user.started_bot = started_bot
                    if started_bot:
                        user.blocked_bot = False
            try:
                await s.commit()
            except IntegrityError:  # inserted concurrently: update it instead
                await s.rollback()
                continue
            finally:
                _forget_user(db, user_id)
            return user
    raise RuntimeError("upsert_user failed twice")


async def get_user(db: Database, user_id: int) -> User | None:
    async with db.session() as s:
        return await s.get(User, user_id)


async def get_users(db: Database, user_ids: Sequence[int]) -> dict[int, User]:
    """The stored users among ``user_ids`` (a sole writer keeps them in memory: every change goes through here)."""
    if not user_ids:
        return {}
    known = db.user_rows
    if db.sole_writer and all(uid in known for uid in user_ids):
        return {uid: known[uid] for uid in user_ids if known[uid] is not None}
    epoch = db.row_epoch
    async with db.session() as s:
        rows = (await s.execute(select(User).where(User.id.in_(list(user_ids))))).scalars().all()
    found = {u.id: u for u in rows}
    if db.sole_writer and epoch == db.row_epoch:  # no user written meanwhile
        bound_cache(known, 10_000)
        for uid in user_ids:
            known[uid] = found.get(uid)
    return found


def _forget_user(db: Database, user_id: int) -> None:
    db.row_epoch += 1  # a read begun before this write is not kept
    db.user_rows.pop(user_id, None)


async def _update_user(db: Database, user_id: int, **values: Any) -> None:
    _forget_user(db, user_id)
    async with db.session() as s:
        result = await s.execute(update(User).where(User.id == user_id).values(**values))
        if result.rowcount == 0:  # type: ignore[attr-defined]
            s.add(User(id=user_id, first_name="", started_bot=False, blocked_bot=False, created_at=utcnow()))
            await s.flush()
            await s.execute(update(User).where(User.id == user_id).values(**values))
        await s.commit()
    _forget_user(db, user_id)


async def set_started(db: Database, user_id: int, started: bool = True) -> None:
    """The user started (or stopped) the bot in a private chat; starting clears ``blocked_bot``."""
    values: dict[str, Any] = {"started_bot": started}
    if started:
        values["blocked_bot"] = False
    await _update_user(db, user_id, **values)


async def set_blocked(db: Database, user_id: int, blocked: bool = True) -> None:
    """Telegram said 403 (the user blocked the bot) or the user came back."""
    await _update_user(db, user_id, blocked_bot=blocked)


async def set_lang_override(db: Database, user_id: int, lang: str | None) -> None:
    """/lang: ``lang`` ("zh-CN", "en") or None to follow the Telegram language again."""
    await _update_user(db, user_id, lang_override=lang)


async def user_language(db: Database, user_id: int) -> str | None:
    """The /lang override, else the Telegram language code, else None (the bot maps it to a catalogue)."""
    user = await get_user(db, user_id)
    if user is None:
        return None
    return user.lang_override or user.language_code


async def upsert_chat(db: Database, chat_id: int, kind: str, title: str | None = None) -> Chat:
    """Create or refresh a chat from a Telegram update, in one statement: the first updates of a new group
    arrive together (several handlers store the same new chat at once), and an insert that another one
    beat is an update of the row it stored, not an error."""
    now = utcnow()
    values: dict[str, Any] = {"id": chat_id, "kind": kind, "title": title, "created_at": now}
    async with db.session() as s:
        await s.execute(_upsert_chat(db.dialect, with_title=title is not None), values)
        await s.commit()
        chat = await s.get(Chat, chat_id, populate_existing=True)
    assert chat is not None
    return chat


_CHAT_UPSERTS: dict[tuple[str, bool], Any] = {}


def _upsert_chat(dialect: str, *, with_title: bool) -> Any:
    """INSERT ... ON CONFLICT (id) DO UPDATE (SQLite and PostgreSQL): the kind, and the title when given."""
    statement = _CHAT_UPSERTS.get((dialect, with_title))
    if statement is None:
        from sqlalchemy.dialects import postgresql, sqlite

        table: Any = Chat.__table__
        values: Any = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(table)
        changes = {"kind": values.excluded.kind}
        if with_title:
            changes["title"] = values.excluded.title
        statement = _CHAT_UPSERTS[(dialect, with_title)] = values.on_conflict_do_update(
            index_elements=[table.c.id], set_=changes
        )
    return statement


async def get_chat(db: Database, chat_id: int) -> Chat | None:
    async with db.session() as s:
        return await s.get(Chat, chat_id)


async def set_chat_language(db: Database, chat_id: int, language: str | None) -> None:
    """A group's language (``/lang`` by one of its admins); a chat not stored yet is stored as a group."""
    async with db.session() as s:
        result = await s.execute(update(Chat).where(Chat.id == chat_id).values(language=language))
        if result.rowcount == 0:  # type: ignore[attr-defined]
            s.add(Chat(id=chat_id, kind="group", title=None, language=language, created_at=utcnow()))
        try:
            await s.commit()
        except IntegrityError:  # stored concurrently: set it on that row
            await s.rollback()
            await s.execute(update(Chat).where(Chat.id == chat_id).values(language=language))
            await s.commit()
