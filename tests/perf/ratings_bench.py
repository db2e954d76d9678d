"""How long ``player_ratings`` takes with N finished casual matches stored (docs/performance.md, "Ratings").

    .venv/bin/python -m tests.perf.ratings_bench 1000 10000

Each N: a fresh SQLite file in a temporary directory with N casual tables of four seats (200 players, a
computer at every third table) and their finished matches; then the best of three ``player_ratings``
calls with ``casual_ratings`` off and on, and the time of the read alone (``casual_games``).
"""

from __future__ import annotations

import asyncio
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta

from storage import tournaments as ts
from storage.db import Database, open_database
from storage.models import GameTable, MatchRecord, TableSeat
from storage.ratings_casual import casual_games


async def _fill(db: Database, n: int) -> None:
    rng = random.Random(1)
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    async with db.session() as s:
        for i in range(n):
            t = GameTable(
                chat_id=-(i + 1), preset_id="shengji-17-deals", game="shengji", options_json={"ai": "normal"},
                status="finished", created_at=t0,
            )  # fmt: skip
            s.add(t)
            await s.flush()
            users = rng.sample(range(1000, 1200), 4)
            for seat in range(4):
                computer = seat == 3 and i % 3 == 0
                s.add(
                    TableSeat(
                        table_id=t.id,
                        seat=seat,
                        user_id=None if computer else users[seat],
                        is_computer=computer,
                    )
                )
            s.add(
                MatchRecord(
                    table_id=t.id, game="shengji", options_json={}, seed=1, status="finished",
                    result_json={"winner": i % 2, "levels": [5, 3]}, started_at=t0, finished_at=t0 + timedelta(minutes=i),
                )
            )  # fmt: skip
        await s.commit()


async def _best(db: Database) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        await ts.player_ratings(db)
        times.append(time.perf_counter() - start)
    return min(times)


async def run(n: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = await open_database(f"sqlite+aiosqlite:///{tmp}/bench.db")
        try:
            await _fill(db, n)
            async with db.session() as s:
                start = time.perf_counter()
                await casual_games(s)
                read = time.perf_counter() - start
            for on in (False, True):
                db.casual_ratings = on
                print(
                    f"{n} casual matches, casual_ratings={on}: player_ratings {1000 * await _best(db):.0f} ms"
                )
            print(f"{n} casual matches: reading them (casual_games) {1000 * read:.0f} ms")
        finally:
            await db.dispose()


if __name__ == "__main__":
    for arg in sys.argv[1:] or ["1000"]:
        asyncio.run(run(int(arg)))
