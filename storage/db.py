"""Opening the database: engine, sessions, and Alembic migrations to head (run at start-up).

``DATABASE_URL`` chooses the database; the default is an SQLite file under ``data/``.
PostgreSQL works through ``postgresql+asyncpg://user@host/db``.  The application never
needs ``alembic.ini``: ``open_database`` runs the migrations programmatically.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from alembic import command
from alembic.config import Config
from sqlalchemy import event, text
from sqlalchemy.engine import Connection, Dialect, make_url
from sqlalchemy.exc import DisconnectionError, OperationalError
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker, create_async_engine
from sqlalchemy.pool import StaticPool

if TYPE_CHECKING:
    from engine.game import Match as EngineMatch

DEFAULT_URL = "sqlite+aiosqlite:///data/bot.db"
SQLITE_BUSY_TIMEOUT_MS = 30_000
DEFAULT_POOL_SIZE = 10  # a server database (PostgreSQL): connections kept open per process ...
DEFAULT_MAX_OVERFLOW = 20  # ... and opened beyond them while busy (see ``pool_limits``)
IDLE_PING_SECONDS = 30.0  # a server connection idle in the pool this long is pinged before use
_MIGRATION_LOCK_ID = 7_263_510_042  # PostgreSQL advisory lock: one process migrates at a time


def database_url(url: str | None = None) -> str:
    """``url``, else ``DATABASE_URL`` from the environment, else the default SQLite file."""
    return url or os.environ.get("DATABASE_URL") or DEFAULT_URL


class Database:
    """An open database: ``engine``, ``session()``, ``dispose()``; also the in-process match cache."""

    def __init__(self, engine: AsyncEngine, url: str) -> None:
        self.engine = engine
        self.url = url
        self._sessions = async_sessionmaker(engine, expire_on_commit=False)
        # match_id -> (version, engine match at that version); owned by storage.match_cache
        self.match_cache: dict[int, tuple[int, EngineMatch]] = {}
        # True when this process is the only one writing to the database (no Redis relay): then
        # storage also keeps the committed match rows, the users and the tapped-card selections
        # in memory (every write to them goes through it); False (several processes): read every time
        self.sole_writer = False
        # CASUAL_RATINGS (set at start-up): finished casual matches count in the ratings (storage/ratings_casual.py)
        self.casual_ratings = False
        self.row_epoch = 0  # bumped by every write to them: a read begun before is not kept
        self.match_rows: dict[int, Any] = {}  # match_id -> storage.match_cache.MatchRow (committed)
        self.user_rows: dict[int, Any] = {}  # user id -> User row as last read or written
        self.selections: dict[
            tuple[int, int], tuple[str, int | None] | None
        ] = {}  # (match, seat) -> (cards, deal)
        self._match_locks: dict[int, asyncio.Lock] = {}
        # called as listener(match_id, version) after a new version of a match is committed in this
        # process (the table page's live hub); a listener must not block and must not raise
        self.version_listeners: list[Callable[[int, int], None]] = []

    @property
    def dialect(self) -> str:
        """ "sqlite" or "postgresql"."""
        return self.engine.dialect.name

    @asynccontextmanager
    async def session(self) -> AsyncIterator[AsyncSession]:
        """An AsyncSession; commit explicitly (``await s.commit()``), anything else is rolled back."""
        async with self._sessions() as s:
            yield s

    def match_lock(self, match_id: int) -> asyncio.Lock:
        """Serialises actions on one match inside this process (other processes: the version check)."""
        lock = self._match_locks.get(match_id)
        if lock is None:
            lock = self._match_locks[match_id] = asyncio.Lock()
        return lock

    async def dispose(self) -> None:
        self.match_cache.clear()
        self.match_rows.clear()
        self.user_rows.clear()
        self.selections.clear()
        await self.engine.dispose()


def _sqlite_on_connect(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys = ON")
    cursor.execute("PRAGMA synchronous = NORMAL")
    cursor.close()


def create_engine_for(url: str, *, schema: str | None = None, echo: bool = False) -> AsyncEngine:
    """An async engine for ``url`` with the SQLite pragmas (foreign keys, busy timeout) set on each connection.

    ``schema`` (PostgreSQL only) puts the tables in that schema through ``search_path``
    (the tests use a fresh schema per test).
    """
    parsed = make_url(url)
    kwargs: dict[str, Any] = {"echo": echo}
    if parsed.get_backend_name() == "sqlite":
        memory = parsed.database in (None, "", ":memory:")
        if not memory:
            Path(parsed.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
        kwargs["connect_args"] = {"timeout": SQLITE_BUSY_TIMEOUT_MS / 1000}
        if memory:
            kwargs["poolclass"] = StaticPool
    else:
        kwargs["pool_size"], kwargs["max_overflow"] = pool_limits()
        if schema:
            kwargs["connect_args"] = {"server_settings": {"search_path": schema}}
    engine = create_async_engine(parsed, **kwargs)
    if parsed.get_backend_name() == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_on_connect)
    else:  # a server restarted meanwhile: a dead pooled connection is replaced (``_live_check``)
        event.listen(engine.sync_engine, "connect", _mark_idle)
        event.listen(engine.sync_engine, "checkin", _mark_idle)
        event.listen(engine.sync_engine, "checkout", _live_check(engine.sync_engine.dialect))
    return engine


def _mark_idle(_dbapi_conn: Any, record: Any, *_: Any) -> None:
    """A server connection opened or given back to the pool: idle from now (``_live_check``)."""
    record.info["idle_since"] = time.monotonic()


def _live_check(dialect: Dialect) -> Callable[[Any, Any, Any], None]:
    """The pool's check of a server connection before use, in place of SQLAlchemy's ``pool_pre_ping``.

    A connection the server closed (a restart, an idle timeout, ``pg_terminate_backend``) is known to the
    driver without asking: asyncpg saw its socket close (``is_closed``).  Only a connection idle in the pool for
    ``IDLE_PING_SECONDS`` is pinged (a network path that dropped it silently).  ``pool_pre_ping`` pinged at every
    checkout, and asyncpg's ping is three round trips (BEGIN, an empty query, ROLLBACK): a table page's move
    (two sessions then) made about 15 round trips, 6 of them pings.  ``DisconnectionError`` makes the pool drop
    the connection and open another (SQLAlchemy's "custom pessimistic ping" pattern)."""

    def check(dbapi_conn: Any, record: Any, _proxy: Any) -> None:
        driver = getattr(dbapi_conn, "driver_connection", None)
        closed = getattr(driver, "is_closed", None)
        if callable(closed) and closed():
            raise DisconnectionError("the server closed this connection")
        idle_since = record.info.get("idle_since")
        if idle_since is None or time.monotonic() - idle_since >= IDLE_PING_SECONDS:
            try:
                dialect.do_ping(dbapi_conn)
            except Exception as exc:
                raise DisconnectionError("the connection did not answer a ping") from exc

    return check


def pool_limits() -> tuple[int, int]:
    """Connections a process keeps open to a server database, and how many more it may open at a busy moment.

    SQLAlchemy's default (5 + 10) made a busy bot queue for connections: every update in flight (up to 16 at
    once), every table's own step and the scheduler each hold one while their statements wait for the event
    loop, and 32-64 tables pressing Start together emptied the pool (docs/performance.md, "Start, timed on its
    own").  ``DATABASE_POOL_SIZE`` / ``DATABASE_MAX_OVERFLOW`` change it; several processes on one server
    should stay under its ``max_connections`` (PostgreSQL: 100 by default) together.
    """
    return (
        int(os.environ.get("DATABASE_POOL_SIZE") or DEFAULT_POOL_SIZE),
        int(os.environ.get("DATABASE_MAX_OVERFLOW") or DEFAULT_MAX_OVERFLOW),
    )


def _is_sqlite_file(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:")


async def use_wal(engine: AsyncEngine) -> None:
    """Put an SQLite file in WAL mode (it stays so in the file); retried while another process does the same.

    Switching a fresh file to WAL reads its header under a shared lock and then needs the write lock.
    SQLite never runs the busy handler for that upgrade (waiting could deadlock), so when two processes
    start together on a new file the loser gets "database is locked" at once, whatever the busy timeout.
    Once the winner is done the file is WAL and the retry has nothing left to do.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SQLITE_BUSY_TIMEOUT_MS / 1000
    delay = 0.01
    while True:
        try:
            async with engine.connect() as conn:
                await conn.exec_driver_sql("PRAGMA journal_mode = WAL")
            return
        except OperationalError as err:
            if "locked" not in str(err.orig) or loop.time() >= deadline:
                raise
        await asyncio.sleep(delay)
        delay = min(delay * 2, 0.2)


def load_all_models() -> Any:
    """Import every model module of the package (``storage.models`` and any ``storage.*_models``, e.g.
    the tournament tables) and return the shared ``MetaData`` they are declared on."""
    import importlib
    import pkgutil

    import storage
    from storage.models import Base

    for info in pkgutil.iter_modules(storage.__path__):
        if info.name == "models" or info.name.endswith("_models"):
            importlib.import_module(f"storage.{info.name}")
    return Base.metadata


def alembic_config(connection: Connection | None = None) -> Config:
    """The Alembic configuration of this package (no ini file needed)."""
    cfg = Config()
    cfg.set_main_option("script_location", "storage:migrations")
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def _run_alembic(connection: Connection, revision: str, downgrade: bool) -> None:
    (command.downgrade if downgrade else command.upgrade)(alembic_config(connection), revision)


async def migrate(engine: AsyncEngine, revision: str = "head", *, downgrade: bool = False) -> None:
    """Run the Alembic migrations up (or down) to ``revision``; one process at a time on PostgreSQL."""
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK_ID})
        elif conn.dialect.name == "sqlite":  # take the write lock first: DDL in the transaction, one migrator
            await conn.exec_driver_sql("BEGIN IMMEDIATE")
        await conn.run_sync(_run_alembic, revision, downgrade)


async def open_database(
    url: str | None = None, *, schema: str | None = None, migrate_to: str | None = "head", echo: bool = False
) -> Database:
    """Open ``url`` (None: ``DATABASE_URL`` or the default), switch an SQLite file to WAL, migrate to head,
    return the Database.  Several processes may open the same database at once: one migrates, the others wait."""
    resolved = database_url(url)
    engine = create_engine_for(resolved, schema=schema, echo=echo)
    try:
        if _is_sqlite_file(engine):
            await use_wal(engine)
        if migrate_to is not None:
            await migrate(engine, migrate_to)
    except BaseException:
        await engine.dispose()
        raise
    return Database(engine, resolved)
