"""Backups that restore (bot/backup): a database with a live tournament and matches in play, backed up while
the bot runs, restored into a new database, the bot started on it: every match resumes from the same state."""

from __future__ import annotations

import asyncio
import shutil
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import create_async_engine

from bot.backup import BackupError, backup, backups_in, prune, restore
from bot.backup.__main__ import BackupSettings
from bot.backup.__main__ import main as backup_main
from bot.boot.settings import Settings
from engine.game import state_fingerprint
from engine.registry import match_from_stored
from storage import match_repo, table_repo
from storage import tournaments as ts
from storage.db import open_database
from tests import services

GROUPS = (-1003000000001, -1003000000002, -1003000000003)
ORG = 1001
NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)


def rt(h):
    return h.app.bot_data["runtime"]


@asynccontextmanager
async def database(backend: str, tmp_path: Path, name: str) -> AsyncIterator[str]:
    """A new empty database's URL: an SQLite file, or a PostgreSQL database dropped afterwards."""
    if backend == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / name}.db"
        return
    assert services.PG_URL, "marked postgres: skipped without TEST_DATABASE_URL"
    db_name = f"ops_{name}_{uuid.uuid4().hex[:10]}"
    admin = create_async_engine(services.PG_URL, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{db_name}"'))
        yield make_url(services.PG_URL).set(database=db_name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)'))
        await admin.dispose()


async def live_tournament(db) -> int:
    row = await ts.create_tournament(
        db,
        name="工会积分赛",
        preset_id="shengji-timed-2h",
        created_by=ORG,
        settings_overrides={"format": "swiss", "swiss_rounds": 2, "swiss_top": 2},
        registration_deadline=NOW + timedelta(days=1),
        first_round_at=NOW + timedelta(days=2),
    )
    await ts.add_table_group(db, row.id, ORG, -500, "一号桌")
    for i in range(5):
        inv = await ts.create_invite(db, row.id, 1001 + 2 * i, "", NOW)
        await ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW)
    await ts.freeze(db, row.id, bytes(range(32)))
    await ts.hold_draw(db, row.id)
    await ts.schedule_ready(db, row.id, NOW)
    return int(row.id)


async def computers_at_tables(h) -> list[int]:
    """A computers' table in each group, each match past its first trick."""
    ids = []
    for n, gid in enumerate(GROUPS):
        h.sim.add_group(gid, f"测试桌{n + 1}", [p.user_id for p in h.players], [ORG])
        last = h.sim.last_bot_message(gid)
        h.players[0].say(gid, f"/newtable shengji-17-deals bid_window_seconds=0 bots=4 seed={n + 3}")
        await h.sim.wait_for_message(gid, lambda m: "轮到" in (m.text or ""), after=last, timeout=60)
        table = await table_repo.open_table_in_chat(rt(h).db, gid)
        row = await match_repo.current_match(rt(h).db, table.id)
        ids.append(int(row.id))
    return ids


async def fingerprints(db, upto: dict[int, int] | None = None) -> dict[int, tuple[int, str]]:
    """(actions, the fingerprint of the stored log replayed) of each match in play, or of the matches of
    ``upto``, each replayed up to that many actions."""
    ids = list(upto) if upto is not None else [r.id for r in await match_repo.active_matches(db)]
    out = {}
    for match_id in ids:
        row = await match_repo.get_match_row(db, match_id)
        m = match_from_stored(row.game, row.options_json, row.seed)
        log = [r.action for r in await match_repo.action_log(db, match_id)]
        n = len(log) if upto is None else upto[match_id]
        assert n <= len(log), f"match {match_id} lost actions"
        for action in log[:n]:
            m.apply(action)
        out[int(match_id)] = (n, state_fingerprint(m))
    return out


async def wait_until(condition, timeout: float = 60.0) -> None:
    async def poll() -> None:
        while not await condition():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def test_a_backup_taken_during_play_restores_into_a_bot_that_resumes_every_match(
    harness_factory, tmp_path, backend
):
    if backend == "postgresql" and not (shutil.which("pg_dump") and shutil.which("pg_restore")):
        pytest.skip(
            "pg_dump / pg_restore are not installed (apt-get install postgresql-client): PostgreSQL drill skipped"
        )
    async with (
        database(backend, tmp_path, "live") as live_url,
        database(backend, tmp_path, "restored") as restored_url,
        harness_factory(DATABASE_URL=live_url, AI_DELAY=0.05) as h,
    ):
        tid = await live_tournament(rt(h).db)
        matches = await computers_at_tables(h)
        made = await asyncio.to_thread(backup, live_url, tmp_path / "backups")  # the bot plays on meanwhile
        await h.stop_bot()
        restore(made, restored_url)

        restored = await open_database(restored_url)
        try:
            at_backup = await fingerprints(restored)
            tournament = await ts.get_tournament(restored, tid)
        finally:
            await restored.dispose()
        assert sorted(at_backup) == sorted(matches)
        counts = {m: n for m, (n, _) in at_backup.items()}
        live = await open_database(live_url)
        try:  # the same states as the live database had after as many actions: one consistent moment
            assert await fingerprints(live, counts) == at_backup
            assert tournament.status == (await ts.get_tournament(live, tid)).status
        finally:
            await live.dispose()

        h.settings_values["DATABASE_URL"] = restored_url
        await h.start_bot()

        async def all_resumed() -> bool:
            rows = {r.id: r for r in await match_repo.active_matches(rt(h).db)}
            done = [await match_repo.get_match_row(rt(h).db, m) for m in matches]
            return all(
                (r.id in rows and r.version > at_backup[r.id][0]) or r.status == "finished" for r in done if r
            )

        await wait_until(all_resumed, timeout=120)
        # the restored history goes on from where the backup was: nothing lost, nothing applied twice
        assert await fingerprints(rt(h).db, counts) == at_backup
        assert (await ts.get_tournament(rt(h).db, tid)).status == tournament.status
        h.assert_no_errors()


def test_retention_keeps_the_newest(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    import sqlite3

    sqlite3.connect(tmp_path / "bot.db").execute("CREATE TABLE t (x)").connection.commit()
    made = [backup(url, tmp_path / "b", now=NOW + timedelta(hours=i)) for i in range(5)]
    assert prune(tmp_path / "b", 2) == made[:3]
    assert backups_in(tmp_path / "b") == made[3:]


def test_restore_refuses_an_existing_database(tmp_path):
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    import sqlite3

    sqlite3.connect(tmp_path / "bot.db").execute("CREATE TABLE t (x)").connection.commit()
    made = backup(url, tmp_path / "b")
    with pytest.raises(BackupError, match="exists"):
        restore(made, url)


def test_the_command_backs_up_and_restores(tmp_path, capsys, monkeypatch):
    import sqlite3

    sqlite3.connect(tmp_path / "bot.db").execute("CREATE TABLE t (x)").connection.commit()
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    assert backup_main(["--to", str(tmp_path / "b")]) == 0
    (made,) = backups_in(tmp_path / "b")
    assert (
        backup_main(["restore", str(made), "--database", f"sqlite+aiosqlite:///{tmp_path / 'new.db'}"]) == 0
    )
    assert sqlite3.connect(tmp_path / "new.db").execute("SELECT name FROM sqlite_master").fetchall() == [
        ("t",)
    ]
    assert backup_main(["restore", str(tmp_path / "none.sqlite3")]) == 1
    assert "no backup at" in capsys.readouterr().err
    assert backup_main(["--help"]) == 0


def test_the_command_reads_the_bot_s_settings_and_defaults():
    assert BackupSettings().DATABASE_URL == Settings().DATABASE_URL
    assert BackupSettings().BACKUP_KEEP == Settings().BACKUP_KEEP


async def test_the_scheduled_backup_runs_and_keeps_the_newest(tmp_path):
    from bot.backup import BackupJob
    from scheduler.deadlines import DeadlineScheduler

    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    db = await open_database(url)
    settings = Settings(DATABASE_URL=url, BACKUP_DIR=str(tmp_path / "b"), BACKUP_EVERY_HOURS=1, BACKUP_KEEP=2)
    job = BackupJob.of(settings)
    assert job is not None and BackupJob.of(Settings(DATABASE_URL=url)) is None
    scheduler = DeadlineScheduler(poll_interval=None)
    await scheduler.start(db)
    try:
        scheduler.every("backup", 0.05, job)

        async def three_made() -> bool:
            return len(job.made) >= 3

        await wait_until(three_made, timeout=60)
    finally:
        await scheduler.shutdown(timeout=2)
        await db.dispose()
    assert backups_in(tmp_path / "b") == job.made[-2:], str(
        ([p.name[11:] for p in backups_in(tmp_path / "b")], [p.name[11:] for p in job.made])
    )
