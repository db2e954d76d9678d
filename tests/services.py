"""The services some tests need: PostgreSQL (``TEST_DATABASE_URL``) and Redis (``TEST_REDIS_URL``).

A test marked ``postgres`` runs only when ``TEST_DATABASE_URL`` is set, one marked ``redis`` only when
``TEST_REDIS_URL`` is set; without the variable it is skipped, and the run ends with one line saying how many
were skipped and why (tests/conftest.py). With the variable set and the server unreachable the test fails.

``python -m tests.services`` is what ``make test`` runs first: for each variable that is not set it asks the
local server (PostgreSQL at 127.0.0.1:5432, Redis at 127.0.0.1:6379) and prints a shell assignment for the
ones that answer (stdout, for ``eval``) and one line per service saying what the run will do (stderr).
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from urllib.parse import urlsplit

LOCAL_POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
LOCAL_REDIS = "redis://127.0.0.1:6379/0"

PG_URL = os.environ.get("TEST_DATABASE_URL") or None
REDIS_URL = os.environ.get("TEST_REDIS_URL") or None

SKIP_REASON = {
    "postgres": "TEST_DATABASE_URL is not set: the PostgreSQL tests are skipped",
    "redis": "TEST_REDIS_URL is not set: the Redis tests are skipped",
}


def missing(marker: str) -> bool:
    """Whether the service behind ``marker`` ("postgres" or "redis") was not given to this run."""
    return not (PG_URL if marker == "postgres" else REDIS_URL)


async def postgres_answers(url: str, timeout: float = 3.0) -> bool:
    import asyncpg  # type: ignore[import-untyped]
    from sqlalchemy.engine import make_url

    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    try:
        connection = await asyncpg.connect(dsn, timeout=timeout)
    except (TimeoutError, OSError, asyncpg.PostgresError):
        return False
    await connection.close()
    return True


async def redis_answers(url: str, timeout: float = 2.0) -> bool:
    import redis.asyncio as redis
    from redis.exceptions import RedisError

    client = redis.Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
    try:
        return bool(await client.ping())
    except (OSError, RedisError):
        return False
    finally:
        await client.aclose()


async def local_services() -> tuple[list[str], list[str]]:
    """(shell assignments, lines for the person) for the variables this run does not set."""
    exports: list[str] = []
    lines: list[str] = []
    for name, url, probe, what in (
        ("TEST_DATABASE_URL", LOCAL_POSTGRES, postgres_answers, "PostgreSQL"),
        ("TEST_REDIS_URL", LOCAL_REDIS, redis_answers, "Redis"),
    ):
        if os.environ.get(name):
            continue
        where = urlsplit(url).netloc.rpartition("@")[2]
        if await probe(url):
            exports.append(f"export {name}={shlex.quote(url)}")
            lines.append(f"make: {what} answers at {where}, so {name}={url} (its tests run)")
        else:
            lines.append(
                f"make: no {what} answers at {where} and {name} is not set: the {what} tests are skipped"
            )
    return exports, lines


def main() -> None:
    exports, lines = asyncio.run(local_services())
    for line in lines:
        print(line, file=sys.stderr)
    print("\n".join(exports))


if __name__ == "__main__":
    main()
