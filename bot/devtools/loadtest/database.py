"""A fresh database for each load-test run: an SQLite file in a temporary folder, or a new PostgreSQL database
(dropped afterwards) on the server of ``TEST_DATABASE_URL`` (default: postgresql+asyncpg://postgres@127.0.0.1:5432/test)."""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy.engine import make_url

DEFAULT_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"


@asynccontextmanager
async def fresh_database(kind: str, folder: Path) -> AsyncIterator[str]:
    """The URL of an empty database of ``kind`` ("sqlite" or "postgres") for one run."""
    if kind == "sqlite":
        yield f"sqlite+aiosqlite:///{folder / 'loadtest.db'}"
        return
    if kind != "postgres":
        raise ValueError(f"unknown database kind {kind!r}: sqlite or postgres")
    import asyncpg  # type: ignore[import-untyped]

    server = make_url(os.environ.get("TEST_DATABASE_URL") or DEFAULT_POSTGRES)
    name = f"loadtest_{os.getpid()}_{int(time.time())}"
    admin = server.set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(admin)
    try:
        await connection.execute(f'CREATE DATABASE "{name}"')
    finally:
        await connection.close()
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        connection = await asyncpg.connect(admin)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await connection.close()
