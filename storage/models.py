"""The database tables (SQLAlchemy 2, typed ``Mapped[...]``); every datetime is UTC.

A game is stored as its event log: ``MatchRecord`` (game, options, seed, version) plus the ordered
``ActionRecord`` rows (one canonical action text each).  Replaying the log rebuilds the state.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
    text,
)
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Autoincrement keys: BIGINT on PostgreSQL, INTEGER on SQLite (only INTEGER PRIMARY KEY autoincrements there).
IdType = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime on every backend (SQLite keeps no zone: we attach UTC on the way out)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to the database; use UTC-aware datetimes")
        value = value.astimezone(UTC)
        if dialect.name == "sqlite":
            return value.replace(tzinfo=None)
        return value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


class Base(DeclarativeBase):
    type_annotation_map = {datetime: UTCDateTime, dict[str, Any]: JSON, list[Any]: JSON}


# --- people and chats ----------------------------------------------------------------------


class User(Base):
    __tablename__ = "users"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)  # Telegram user id
    first_name: Mapped[str] = mapped_column(String(256), default="")
    username: Mapped[str | None] = mapped_column(String(64))
    language_code: Mapped[str | None] = mapped_column(String(16))  # from Telegram
    lang_override: Mapped[str | None] = mapped_column(String(16))  # set by /lang
    started_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    blocked_bot: Mapped[bool] = mapped_column(Boolean, default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Chat(Base):
    __tablename__ = "chats"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)  # Telegram chat id
    kind: Mapped[str] = mapped_column(String(16))  # private | group | supergroup
    title: Mapped[str | None] = mapped_column(String(256))
    language: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


# --- tables and matches ----------------------------------------------------------------------

LIVE_TABLE_SQL = "status IN ('open', 'playing', 'paused') AND tournament_ref IS NULL"


class GameTable(Base):
    __tablename__ = "game_tables"
    __table_args__ = (
        Index("ix_game_tables_chat_status", "chat_id", "status"),
        # one live /newtable table per chat (migration 0005); tournament tables are exempt
        Index(
            "uq_game_tables_one_live_per_chat",
            "chat_id",
            unique=True,
            sqlite_where=text(LIVE_TABLE_SQL),
            postgresql_where=text(LIVE_TABLE_SQL),
        ),
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    preset_id: Mapped[str] = mapped_column(String(64))
    game: Mapped[str] = mapped_column(String(16))
    options_json: Mapped[dict[str, Any]] = mapped_column(JSON)  # every option value after the overrides
    status: Mapped[str] = mapped_column(String(16), default="open")  # open|playing|paused|finished|aborted
    created_by: Mapped[int | None] = mapped_column(BigInteger)
    table_message_id: Mapped[int | None] = mapped_column(BigInteger)
    tournament_ref: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # ``seed=`` of /newtable (a bot admin's, or a practice table's): the match uses it (else a random seed)
    fixed_seed: Mapped[int | None] = mapped_column(BigInteger)
    practice: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    # tournament tables (docs/fairness.md): the server seed committed in the lobby, and the words the seated
    # players mixed in with /mix before the start; the match seed is mixed_match_seed(server_seed, mix)
    server_seed: Mapped[int | None] = mapped_column(BigInteger)
    mix_words: Mapped[list[Any] | None] = mapped_column(JSON)


class TableSeat(Base):
    __tablename__ = "table_seats"
    __table_args__ = (UniqueConstraint("table_id", "seat", name="uq_table_seats_table_seat"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)  # 0..3
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    is_computer: Mapped[bool] = mapped_column(Boolean, default=False)


class MatchRecord(Base):
    __tablename__ = "matches"
    __table_args__ = (Index("ix_matches_table", "table_id"), Index("ix_matches_status", "status"))

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("game_tables.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(16))
    options_json: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0)  # number of applied actions
    # engine.game.RULES_VERSION when the match started: its log replays only under that version's rules
    rules_version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")
    status: Mapped[str] = mapped_column(String(16), default="playing")  # playing|paused|finished
    result_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column()


class Deal(Base):
    """One row per deal, kept by ``apply_action`` from the engine's deal events: its summary (the
    ``deal_over`` event data) and the range ``first_seq..last_seq`` of the match's ``ActionRecord`` log
    (replaying the log up to ``last_seq`` rebuilds the state at the end of that deal)."""

    __tablename__ = "deals"
    __table_args__ = (UniqueConstraint("match_id", "deal_no", name="uq_deals_match_deal"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    deal_no: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column()
    summary_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    first_seq: Mapped[int | None] = mapped_column(Integer)
    last_seq: Mapped[int | None] = mapped_column(Integer)


class ActionRecord(Base):
    """One applied action: seq 1..n per match, the engine's canonical action text and its events."""

    __tablename__ = "action_records"
    __table_args__ = (
        UniqueConstraint("match_id", "seq", name="uq_action_records_match_seq"),
        UniqueConstraint("match_id", "dedupe_key", name="uq_action_records_match_dedupe"),
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(Text)
    actor_user_id: Mapped[int | None] = mapped_column(BigInteger)
    events_json: Mapped[list[Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    dedupe_key: Mapped[str | None] = mapped_column(String(128))


# --- live messages and hand keyboards ----------------------------------------------------------


class MessageRef(Base):
    """A message the bot keeps editing (the table message, each seat's hand message, ...)."""

    __tablename__ = "message_refs"
    __table_args__ = (
        Index("ix_message_refs_match_purpose", "match_id", "purpose", "seat"),
        Index("ix_message_refs_table_purpose", "table_id", "purpose"),
        Index("ix_message_refs_chat_message", "chat_id", "message_id"),
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)
    purpose: Mapped[str] = mapped_column(String(32))  # table | hand | summary | result | ...
    table_id: Mapped[int | None] = mapped_column(BigInteger)
    match_id: Mapped[int | None] = mapped_column(BigInteger)
    seat: Mapped[int | None] = mapped_column(Integer)
    deal_no: Mapped[int | None] = mapped_column(Integer)
    last_text_hash: Mapped[str | None] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


class Selection(Base):
    """The cards a player has tapped on their hand keyboard (survives restarts)."""

    __tablename__ = "selections"
    __table_args__ = (UniqueConstraint("match_id", "seat", name="uq_selections_match_seat"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    cards_text: Mapped[str] = mapped_column(Text, default="")
    deal_no: Mapped[int | None] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, onupdate=utcnow)


# --- timers ------------------------------------------------------------------------------------


class Deadline(Base):
    """A timer as a row: the scheduler arms a job for each pending row and marks it fired once."""

    __tablename__ = "deadlines"
    __table_args__ = (
        Index("ix_deadlines_status_due", "status", "due_at"),
        Index("ix_deadlines_kind_ref", "kind", "ref"),
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    kind: Mapped[str] = mapped_column(
        String(32)
    )  # move_clock | bid_window | deal_step | registration_close | ...
    ref: Mapped[str] = mapped_column(String(64))  # e.g. "match:12"
    due_at: Mapped[datetime] = mapped_column()
    payload_json: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending|fired|cancelled
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    fired_at: Mapped[datetime | None] = mapped_column()


# --- the outbox across a restart ----------------------------------------------------------------


class PendingMessage(Base):
    """A send of record the outbox could not deliver before a clean stop; queued again at start-up."""

    __tablename__ = "pending_messages"

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    kind: Mapped[str] = mapped_column(String(16))  # send | document | photo
    text: Mapped[str] = mapped_column(Text)  # the text, or a file's caption
    markup_json: Mapped[Any | None] = mapped_column(JSON)  # the keyboard in its Bot API form
    data: Mapped[bytes | None] = mapped_column(LargeBinary)  # a file's bytes
    filename: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
