"""A server database's pooled connections: one the server closed is replaced before use, and a connection taken
from the pool is not pinged first unless it sat idle (``storage.db._live_check``)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine
from sqlalchemy.pool import NullPool

from storage import db as storage_db
from storage.db import Database
from tests.storage.support import Target

pytestmark = pytest.mark.postgres


@pytest.fixture
async def pg(tmp_path: Any) -> Any:
    target = Target("postgresql", tmp_path)
    await target.setup()
    try:
        yield target
    finally:
        await target.cleanup()


async def _backend_pid(db: Database) -> int:
    async with db.session() as s:
        return int((await s.execute(text("SELECT pg_backend_pid()"))).scalar_one())


def _count_pings(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    dialect = db.engine.sync_engine.dialect
    pings: list[int] = []
    ping = dialect.do_ping

    def counted(dbapi_conn: Any) -> bool:
        pings.append(1)
        return bool(ping(dbapi_conn))

    monkeypatch.setattr(dialect, "do_ping", counted)
    return pings


async def test_a_connection_the_server_closed_is_replaced_before_use(pg: Target) -> None:
    db = await pg.open()
    pid = await _backend_pid(db)
    # as a server restart does: the server ends the session and closes the socket of the pooled connection
    other = create_async_engine(pg.url, poolclass=NullPool)
    try:
        async with other.connect() as conn:
            # with a timeout: returns once the session's process has ended (its socket closed), not when signalled
            # (without, a loaded server could still be ending it when the pool is asked again)
            assert (await conn.execute(text(f"SELECT pg_terminate_backend({pid}, 10000)"))).scalar_one()
    finally:
        await other.dispose()
    # the event loop reads the socket's end at its next turn (the socket closed already: the wait returned)
    await asyncio.sleep(0.1)
    assert await _backend_pid(db) != pid  # a new connection, and the session did not fail


async def test_a_pooled_connection_is_pinged_only_after_sitting_idle(
    pg: Target, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = await pg.open()
    pings = _count_pings(db, monkeypatch)
    first = await _backend_pid(db)
    assert await _backend_pid(db) == first  # the same pooled connection, taken again at once
    assert pings == []  # ... without a ping (asyncpg's is three round trips)
    monkeypatch.setattr(storage_db, "IDLE_PING_SECONDS", 0.0)
    assert await _backend_pid(db) == first
    assert pings == [1]  # idle long enough: pinged, and answered
