"""Fixtures: a migrated database (SQLite; PostgreSQL too when TEST_DATABASE_URL is set) with a few users."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import user_repo
from storage.db import Database
from tests.storage.support import BACKENDS, Target

USERS = [(1001 + i, f"P{i + 1}") for i in range(24)]


@pytest.fixture(params=BACKENDS)
async def target(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Target]:
    t = Target(request.param, tmp_path)
    await t.setup()
    try:
        yield t
    finally:
        await t.cleanup()


@pytest.fixture
async def db(target: Target) -> Database:
    database = await target.open()
    for uid, name in USERS:
        await user_repo.upsert_user(database, uid, name)
        await user_repo.set_started(database, uid)
    await user_repo.upsert_user(database, 999, "Never")  # never started the bot
    return database
