"""A migration applied to a database holding a live match (issue 21, "Faults survived"): a computers' table plays
at the previous Alembic revision (the bot stopped, the database taken down one revision, as a database made by
the release before this one is), the bot of this release starts on it (it migrates at start-up), and the match
plays on from where it was: the stored log replays to the same fingerprint, nothing lost, nothing applied twice.
SQLite, and PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from engine.game import state_fingerprint
from engine.registry import match_from_stored
from storage import match_repo, table_repo
from storage.db import alembic_config, migrate, open_database
from tests import services


def rt(h):
    return h.app.bot_data["runtime"]


@asynccontextmanager
async def database(backend: str, tmp_path: Path) -> AsyncIterator[str]:
    """A new empty database's URL: an SQLite file, or a PostgreSQL database dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'live.db'}"
        return
    assert services.PG_URL, "marked postgres: skipped without TEST_DATABASE_URL"
    name = f"ops_migrate_{uuid.uuid4().hex[:10]}"
    admin = create_async_engine(services.PG_URL, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(services.PG_URL).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


async def revision_of(url: str) -> str:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            return str((await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one())
    finally:
        await engine.dispose()


async def replayed(db, match_id: int, upto: int | None = None) -> tuple[int, str]:
    """(actions, fingerprint) of the stored log replayed (up to ``upto`` actions); the log is one unbroken
    sequence whose length is the match's version."""
    row = await match_repo.get_match_row(db, match_id)
    log = await match_repo.action_log(db, match_id)
    assert [r.seq for r in log] == list(range(1, len(log) + 1)) and len(log) == row.version
    m = match_from_stored(row.game, row.options_json, row.seed)
    n = len(log) if upto is None else upto
    for r in log[:n]:
        m.apply(r.action)
    return n, state_fingerprint(m)


async def played_more(h, match_id: int, actions: int, timeout: float = 120) -> float:
    started = time.monotonic()
    target = (await match_repo.get_match_row(rt(h).db, match_id)).version + actions
    while True:
        row = await match_repo.get_match_row(rt(h).db, match_id)
        if row.version >= target or row.status == "finished":
            return time.monotonic() - started
        assert time.monotonic() - started < timeout, "the match did not play on after the migration"
        await asyncio.sleep(0.05)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def test_a_migration_applied_under_a_live_match_keeps_it_playable(harness_factory, tmp_path, backend):
    script = ScriptDirectory.from_config(alembic_config())
    head = script.get_current_head()
    assert head is not None
    previous = script.get_revision(head).down_revision
    assert isinstance(previous, str), "the newest migration has one parent"
    async with database(backend, tmp_path) as url, harness_factory(DATABASE_URL=url, AI_DELAY=0.05) as h:
        last = h.sim.last_bot_message(h.group_id)
        h.players[0].say(h.group_id, "/newtable shengji-17-deals bid_window_seconds=0 bots=4 seed=11")
        await h.sim.wait_for_message(h.group_id, lambda m: "轮到" in (m.text or ""), after=last, timeout=60)
        table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
        match_id = int((await match_repo.current_match(rt(h).db, table.id)).id)
        await played_more(h, match_id, 5)
        await h.stop_bot()

        # the database as the previous release left it: one revision down, the match in play
        engine = create_async_engine(url)
        try:
            await migrate(engine, previous, downgrade=True)
        finally:
            await engine.dispose()
        assert await revision_of(url) == previous
        db = await open_database(url, migrate_to=None)
        try:
            before = await replayed(db, match_id)
            assert (await match_repo.get_match_row(db, match_id)).status == "playing"
        finally:
            await db.dispose()

        started = time.monotonic()
        await h.start_bot()  # this release: it upgrades the database at start-up, then resumes the match
        upgraded = time.monotonic() - started
        assert await revision_of(url) == head
        more = await played_more(h, match_id, 20)
        print(
            f"migration {previous} -> {head} under a live match ({backend}): the bot up in {upgraded:.1f} s, "
            f"20 more actions {more:.1f} s later"
        )
        await h.stop_bot()  # a still log to read (the computers would add actions between two queries)
        h.assert_no_errors()
        db = await open_database(url, migrate_to=None)
        try:  # the history goes on from where it was: the same state after as many actions, then further
            assert await replayed(db, match_id, before[0]) == before
            assert (await replayed(db, match_id))[0] >= before[0] + 20
        finally:
            await db.dispose()
