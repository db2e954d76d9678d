"""Benchmark (``make bench``; issue 21): back up and restore a database of 1,000 matches, then open it.

One SQLite database gets 1,000 matches in play: one is played by the engine's computers through the storage
layer (dealt, bid, some tricks: its whole action log and deals stored as the bot stores them), the other 999
are copies of its rows at other tables.  Timed in wall seconds: ``python -m bot.backup`` 's backup, its
restore into a new file, and opening the restored database the way the bot starts (migrations checked, every
match in play listed and its log replayed).  ``BENCH_RESTORE_DB=postgres`` does the same on a new database of
the server of ``TEST_DATABASE_URL`` (pg_dump / pg_restore).  Figures only; nothing here asserts a time.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from sqlalchemy import insert, select

from bot.backup import backup, restore
from bot.devtools.loadtest.database import fresh_database
from engine.ai.levels import player_for
from engine.registry import match_from_stored
from storage import action_repo, match_repo, table_repo
from storage.db import open_database
from storage.models import ActionRecord, Deal, GameTable, MatchRecord, TableSeat
from tests.perf.machine import describe

MATCHES = int(os.environ.get("BENCH_RESTORE_MATCHES", "1000"))
TEMPLATE_ACTIONS = 400


async def template_match(db) -> int:
    table = await table_repo.create_table(db, -4000000000, "shengji-17-deals", {"bid_window_seconds": 0})
    state = await match_repo.start_match(db, table.id, seed=11, fill_computers=True)
    match_id = state.match_id
    rng = random.Random(5)
    for _ in range(TEMPLATE_ACTIONS):
        _, m = await match_repo.load_match_row(db, match_id)
        if m.finished:
            break
        # as the driver does: the computers first (a required turn, or a bid they want), then the table's step
        action = next((a for t in m.turns() if (a := player_for(m.game, "normal")(m, t.seat, rng))), None)
        action = action or m.system_step()
        if action is None and m.turns():  # the bidding window (bid_window_seconds=0): the driver closes it
            action = "sys close_bidding"
        if action is None:
            break
        await action_repo.apply_action(db, match_id, action)
    return int(match_id)


def _copy(row, **changes):
    values = {c.name: getattr(row, c.key) for c in row.__table__.columns if c.name != "id"}
    values.update(changes)
    return values


async def copies(db, match_id: int, n: int) -> None:
    """``n`` more matches in play: the template's table, seats, match, deals and actions at new tables."""
    async with db.session() as s:
        match = await s.get(MatchRecord, match_id)
        table = await s.get(GameTable, match.table_id)
        seats = (await s.execute(select(TableSeat).where(TableSeat.table_id == table.id))).scalars().all()
        deals = (await s.execute(select(Deal).where(Deal.match_id == match_id))).scalars().all()
        actions = (
            (await s.execute(select(ActionRecord).where(ActionRecord.match_id == match_id))).scalars().all()
        )
        for i in range(n):
            new_table = (
                await s.execute(
                    insert(GameTable)
                    .values(_copy(table, chat_id=table.chat_id - 1 - i))
                    .returning(GameTable.id)
                )
            ).scalar_one()
            await s.execute(insert(TableSeat), [_copy(x, table_id=new_table) for x in seats])
            new_match = (
                await s.execute(
                    insert(MatchRecord).values(_copy(match, table_id=new_table)).returning(MatchRecord.id)
                )
            ).scalar_one()
            if deals:
                await s.execute(insert(Deal), [_copy(x, match_id=new_match) for x in deals])
            await s.execute(insert(ActionRecord), [_copy(x, match_id=new_match) for x in actions])
        await s.commit()


async def reopen(url: str) -> tuple[int, int]:
    """What the bot's start-up reads: migrations, the matches in play, each one's log replayed."""
    db = await open_database(url)
    try:
        rows = await match_repo.active_matches(db)
        replayed = 0
        for row in rows:
            m = match_from_stored(row.game, row.options_json, row.seed)
            for record in await match_repo.action_log(db, row.id):
                m.apply(record.action)
                replayed += 1
        return len(rows), replayed
    finally:
        await db.dispose()


@asynccontextmanager
async def new_database(kind: str, folder: Path) -> AsyncIterator[str]:
    """``fresh_database`` (the load test's), one second apart: its PostgreSQL names carry the time in seconds."""
    async with fresh_database(kind, folder) as url:
        if kind != "sqlite":
            await asyncio.sleep(1.1)
        yield url


async def run(kind: str, folder: Path) -> None:
    async with (
        new_database(kind, folder / "live") as url,
        new_database(kind, folder / "restored") as target,
    ):
        db = await open_database(url)
        try:
            template = await template_match(db)
            await copies(db, template, MATCHES - 1)
            actions = len(await match_repo.action_log(db, template))
            _, m = await match_repo.load_match_row(db, template)
            tricks = len(m.tricks)
        finally:
            await db.dispose()
        t0 = time.perf_counter()
        made = backup(url, folder / "backups")
        t1 = time.perf_counter()
        restore(made, target)
        t2 = time.perf_counter()
        matches, replayed = await reopen(target)
        t3 = time.perf_counter()
        print(describe())
        print(
            f"restore bench ({kind}): {matches} matches in play, {actions} actions each ({tricks} tricks played; "
            f"{replayed} replayed), "
            f"backup file {made.stat().st_size / 1e6:.1f} MB"
        )
        print(
            f"  backup {t1 - t0:.2f} s | restore {t2 - t1:.2f} s | open + replay every match {t3 - t2:.2f} s"
        )


def test_restore_of_a_thousand_matches(tmp_path: Path) -> None:
    for folder in ("live", "restored"):
        (tmp_path / folder).mkdir()
    kind = os.environ.get("BENCH_RESTORE_DB", "sqlite")
    asyncio.run(run(kind, tmp_path))


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        test_restore_of_a_thousand_matches(Path(tmp))
