"""Alembic environment: used programmatically by storage.db (a connection is passed in), or from the CLI.

CLI (optional, for writing new revisions): ``.venv/bin/alembic revision -m "..."`` with the
repository's alembic.ini; the database URL comes from ``DATABASE_URL`` (default: the SQLite file).
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from storage.db import load_all_models

config = context.config
target_metadata = load_all_models()


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_cli() -> None:
    from storage.db import create_engine_for, database_url

    engine = create_engine_for(config.get_main_option("sqlalchemy.url") or database_url())
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_run)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    from storage.db import database_url

    context.configure(
        url=config.get_main_option("sqlalchemy.url") or database_url(),
        target_metadata=target_metadata,
        literal_binds=True,
    )
    with context.begin_transaction():
        context.run_migrations()
else:
    given = config.attributes.get("connection")
    if given is not None:
        _run(given)
    else:
        asyncio.run(_run_cli())
