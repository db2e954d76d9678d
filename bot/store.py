"""The bot's database helpers over ``storage.models`` (users, chats, tables, seats, live
messages, selections) and the match operations (start, load, apply) with a version check.

Each action is one transaction: load, check the version, apply on the engine, append the
``ActionRecord`` (unique per match and sequence number, and per dedupe key), commit.  A double
press or a replayed update cannot apply an action twice: the version moved on, or the dedupe
key is already there.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update

from engine.errors import RuleError
from engine.options import options_to_dict
from storage import service
from storage.models import (
    Chat,
    GameTable,
    Match,
    MessageRef,
    Selection,
    TableSeat,
    User,
)

# --- users and chats --------------------------------------------------------------------------

async def upsert_user(db: Any, tg_user: Any, *, started: bool | None = None) -> User:
    async with db.session() as s:
        user = await s.get(User, tg_user.id)
        if user is None:
            user = User(id=tg_user.id, first_name=tg_user.first_name or "", username=tg_user.username,
                        language_code=tg_user.language_code, started_bot=bool(started))
            s.add(user)
        else:
            user.first_name = tg_user.first_name or user.first_name
            user.username = tg_user.username
            if tg_user.language_code:
                user.language_code = tg_user.language_code
            if started:
                user.started_bot = True
                user.blocked_bot = False
        await s.commit()
        return user


async def get_user(db: Any, user_id: int) -> User | None:
    async with db.session() as s:
        return await s.get(User, user_id)


async def get_users(db: Any, ids: list[int]) -> dict[int, User]:
    if not ids:
        return {}
    async with db.session() as s:
        rows = (await s.execute(select(User).where(User.id.in_(ids)))).scalars().all()
        return {u.id: u for u in rows}


async def set_user_lang(db: Any, user_id: int, lang: str | None) -> None:
    async with db.session() as s:
        await s.execute(update(User).where(User.id == user_id).values(lang_override=lang))
        await s.commit()


async def set_user_blocked(db: Any, user_id: int, blocked: bool = True) -> None:
    async with db.session() as s:
        await s.execute(update(User).where(User.id == user_id).values(blocked_bot=blocked))
        await s.commit()


async def upsert_chat(db: Any, tg_chat: Any) -> None:
    async with db.session() as s:
        chat = await s.get(Chat, tg_chat.id)
        if chat is None:
            s.add(Chat(id=tg_chat.id, kind=tg_chat.type, title=getattr(tg_chat, "title", None)))
        else:
            chat.title = getattr(tg_chat, "title", None) or chat.title
        await s.commit()


async def get_chat(db: Any, chat_id: int) -> Chat | None:
    async with db.session() as s:
        return await s.get(Chat, chat_id)


async def set_chat_language(db: Any, chat_id: int, lang: str | None) -> None:
    async with db.session() as s:
        chat = await s.get(Chat, chat_id)
        if chat is None:
            s.add(Chat(id=chat_id, kind="group", title=None, language=lang))
        else:
            chat.language = lang
        await s.commit()


# --- tables -----------------------------------------------------------------------------------

async def create_table(db: Any, chat_id: int, preset_id: str, game: str, options: Any, created_by: int | None,
                       computer_seats: list[int]) -> GameTable:
    async with db.session() as s:
        table = GameTable(chat_id=chat_id, preset_id=preset_id, game=game, options_json=options_to_dict(options),
                          status="open", created_by=created_by)
        s.add(table)
        await s.flush()
        for seat in range(4):
            s.add(TableSeat(table_id=table.id, seat=seat, user_id=None, is_computer=seat in computer_seats))
        await s.commit()
        return table


async def get_table(db: Any, table_id: int) -> GameTable | None:
    async with db.session() as s:
        return await s.get(GameTable, table_id)


async def open_table_in_chat(db: Any, chat_id: int) -> GameTable | None:
    async with db.session() as s:
        q = select(GameTable).where(GameTable.chat_id == chat_id, GameTable.status.in_(("open", "playing", "paused")))
        return (await s.execute(q.order_by(GameTable.id.desc()))).scalars().first()


async def live_tables(db: Any) -> list[GameTable]:
    async with db.session() as s:
        q = select(GameTable).where(GameTable.status.in_(("open", "playing", "paused")))
        return list((await s.execute(q)).scalars().all())


async def set_table(db: Any, table_id: int, **values: Any) -> None:
    async with db.session() as s:
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(**values))
        await s.commit()


async def seats(db: Any, table_id: int) -> list[TableSeat]:
    async with db.session() as s:
        q = select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat)
        return list((await s.execute(q)).scalars().all())


async def take_seat(db: Any, table_id: int, seat: int, user_id: int) -> None:
    """Seat ``user_id`` (RuleError seat_taken / already_seated)."""
    async with db.session() as s:
        rows = (await s.execute(select(TableSeat).where(TableSeat.table_id == table_id))).scalars().all()
        by_seat = {r.seat: r for r in rows}
        if any(r.user_id == user_id for r in rows):
            raise RuleError("already_seated", "You already have a seat at this table")
        row = by_seat.get(seat)
        if row is None or row.user_id is not None or row.is_computer:
            raise RuleError("seat_taken", "That seat is taken")
        row.user_id = user_id
        await s.commit()


async def leave_seat(db: Any, table_id: int, user_id: int) -> int | None:
    async with db.session() as s:
        rows = (await s.execute(select(TableSeat).where(TableSeat.table_id == table_id,
                                                        TableSeat.user_id == user_id))).scalars().all()
        seat = None
        for r in rows:
            seat = r.seat
            r.user_id = None
        await s.commit()
        return seat


async def fill_computers(db: Any, table_id: int) -> None:
    async with db.session() as s:
        rows = (await s.execute(select(TableSeat).where(TableSeat.table_id == table_id))).scalars().all()
        for r in rows:
            if r.user_id is None:
                r.is_computer = True
        await s.commit()


# --- matches (storage.service owns the transaction) ----------------------------------------------

StaleVersion = service.StaleVersion


async def start_match(db: Any, table: GameTable, seed: int | None = None) -> Match:
    state = await service.start_match(db, table.id, seed)
    row = await get_match_row(db, state.match_id)
    assert row is not None
    return row


async def get_match_row(db: Any, match_id: int) -> Match | None:
    async with db.session() as s:
        return await s.get(Match, match_id)


async def match_of_table(db: Any, table_id: int) -> Match | None:
    async with db.session() as s:
        q = select(Match).where(Match.table_id == table_id).order_by(Match.id.desc())
        return (await s.execute(q)).scalars().first()


async def playing_matches(db: Any) -> list[Match]:
    async with db.session() as s:
        return list((await s.execute(select(Match).where(Match.status.in_(("playing", "paused"))))).scalars().all())


async def load_match(db: Any, match_id: int) -> tuple[Match, Any]:
    """The match row and its engine match at the stored version."""
    m, version = await service.load_match(db, match_id)
    row = await get_match_row(db, match_id)
    assert row is not None
    if row.version != version:  # moved on between the two reads: read again
        m, version = await service.load_match(db, match_id)
        row = await get_match_row(db, match_id)
        assert row is not None
    return row, m


async def apply_action(db: Any, match_id: int, action: str, *, expected_version: int | None = None,
                       actor_user_id: int | None = None, dedupe_key: str | None = None) -> Any:
    """One action in one transaction (storage.service.apply_action): RuleError or StaleVersion."""
    return await service.apply_action(db, match_id, action, expected_version=expected_version,
                                      actor_user_id=actor_user_id, dedupe_key=dedupe_key)


async def set_match_status(db: Any, match_id: int, status: str) -> None:
    async with db.session() as s:
        await s.execute(update(Match).where(Match.id == match_id).values(status=status))
        await s.commit()


# --- live messages and selections ---------------------------------------------------------------

async def message_ref(db: Any, *, purpose: str, table_id: int | None = None, match_id: int | None = None,
                      seat: int | None = None) -> MessageRef | None:
    async with db.session() as s:
        q = select(MessageRef).where(MessageRef.purpose == purpose)
        if table_id is not None:
            q = q.where(MessageRef.table_id == table_id)
        if match_id is not None:
            q = q.where(MessageRef.match_id == match_id)
        if seat is not None:
            q = q.where(MessageRef.seat == seat)
        return (await s.execute(q.order_by(MessageRef.id.desc()))).scalars().first()


async def all_refs(db: Any, match_id: int | None = None, table_id: int | None = None) -> list[MessageRef]:
    async with db.session() as s:
        q = select(MessageRef)
        if match_id is not None:
            q = q.where(MessageRef.match_id == match_id)
        if table_id is not None:
            q = q.where(MessageRef.table_id == table_id)
        return list((await s.execute(q)).scalars().all())


async def save_ref(db: Any, *, chat_id: int, message_id: int, purpose: str, table_id: int | None = None,
                   match_id: int | None = None, seat: int | None = None, deal_no: int | None = None,
                   digest: str | None = None) -> None:
    async with db.session() as s:
        s.add(MessageRef(chat_id=chat_id, message_id=message_id, purpose=purpose, table_id=table_id,
                         match_id=match_id, seat=seat, deal_no=deal_no, last_text_hash=digest))
        await s.commit()


async def find_ref(db: Any, chat_id: int, message_id: int) -> MessageRef | None:
    async with db.session() as s:
        q = select(MessageRef).where(MessageRef.chat_id == chat_id, MessageRef.message_id == message_id)
        return (await s.execute(q.order_by(MessageRef.id.desc()))).scalars().first()


async def delete_ref(db: Any, ref_id: int) -> None:
    async with db.session() as s:
        ref = await s.get(MessageRef, ref_id)
        if ref is not None:
            await s.delete(ref)
            await s.commit()


async def set_ref_hash(db: Any, chat_id: int, message_id: int, digest: str) -> None:
    async with db.session() as s:
        await s.execute(update(MessageRef).where(MessageRef.chat_id == chat_id, MessageRef.message_id == message_id)
                        .values(last_text_hash=digest))
        await s.commit()


async def get_selection(db: Any, match_id: int, seat: int) -> tuple[str, int | None]:
    async with db.session() as s:
        q = select(Selection).where(Selection.match_id == match_id, Selection.seat == seat)
        row = (await s.execute(q)).scalars().first()
        return (row.cards_text, row.deal_no) if row else ("", None)


async def set_selection(db: Any, match_id: int, seat: int, cards_text: str, deal_no: int | None) -> None:
    async with db.session() as s:
        q = select(Selection).where(Selection.match_id == match_id, Selection.seat == seat)
        row = (await s.execute(q)).scalars().first()
        if row is None:
            s.add(Selection(match_id=match_id, seat=seat, cards_text=cards_text, deal_no=deal_no))
        else:
            row.cards_text = cards_text
            row.deal_no = deal_no
        await s.commit()
