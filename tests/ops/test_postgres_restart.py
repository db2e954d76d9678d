"""PostgreSQL restarted mid-deal (issue 21, "Faults survived"): on a PRIVATE server (initdb into a temporary
folder, its own port; the shared server other tests use is never touched), computers play a table, the server
is restarted with ``pg_ctl restart``; the bot carries on by itself, nothing lost, nothing applied twice.

Skipped, with one line, when the PostgreSQL server binaries are not installed (CI has them)."""

from __future__ import annotations

import asyncio
import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from engine.registry import match_from_stored
from storage import match_repo, table_repo
from storage.db import open_database

BIN = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
SERVER = Path(BIN[-1]) if BIN and Path(BIN[-1], "initdb").exists() else None


def _as_postgres(argv: list[str]) -> list[str]:
    """Root may not run the server: as the postgres user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *argv]
    return argv


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class PrivatePostgres:
    def __init__(self, folder: Path) -> None:
        assert SERVER is not None
        self.folder = folder
        self.data = folder / "data"
        self.port = _free_port()
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def run(self, *args: str) -> None:
        done = subprocess.run(
            _as_postgres([str(SERVER / args[0]), *args[1:]]), capture_output=True, text=True
        )
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, args[0], done.stdout, done.stderr)

    def pg_ctl(self, *args: str) -> None:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self.run(
            "pg_ctl", "-D", str(self.data), "-o", options, "-l", str(self.folder / "server.log"), "-w", *args
        )

    def start(self) -> None:
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync")
        self.pg_ctl("start")

    def stop(self) -> None:
        self.pg_ctl("stop", "-m", "immediate")


@pytest.fixture
def private_postgres():
    if SERVER is None:
        pytest.skip(
            "PostgreSQL server binaries (/usr/lib/postgresql/*/bin) are not installed: restart test skipped"
        )
    folder = Path(tempfile.mkdtemp(prefix="ops-pg-"))  # in /tmp: the postgres user can reach it
    server = PrivatePostgres(folder)
    try:
        server.start()
        yield server
    finally:
        with contextlib.suppress(subprocess.CalledProcessError):
            server.stop()
        shutil.rmtree(folder, ignore_errors=True)


def rt(h):
    return h.app.bot_data["runtime"]


async def version_of(h, match_id: int) -> int:
    while True:
        try:
            row = await match_repo.get_match_row(rt(h).db, match_id)
            return int(row.version)
        except Exception:  # the server is restarting
            await asyncio.sleep(0.1)


async def test_postgres_restarted_mid_deal_the_table_plays_on(harness_factory, private_postgres):
    async with harness_factory(DATABASE_URL=private_postgres.url, AI_DELAY=0.05) as h:
        last = h.sim.last_bot_message(h.group_id)
        h.players[0].say(h.group_id, "/newtable shengji-17-deals bid_window_seconds=0 bots=4 seed=7")
        await h.sim.wait_for_message(h.group_id, lambda m: "轮到" in (m.text or ""), after=last, timeout=60)
        table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
        match_id = int((await match_repo.current_match(rt(h).db, table.id)).id)
        before = await version_of(h, match_id)
        await asyncio.to_thread(private_postgres.pg_ctl, "restart", "-m", "fast")
        restarted = time.monotonic()
        while await version_of(h, match_id) < before + 20:  # the computers play on by themselves
            assert time.monotonic() - restarted < 120, "the table did not resume after the restart"
            await asyncio.sleep(0.1)
        print(f"recovery: 20 more actions {time.monotonic() - restarted:.1f} s after the restart")
        await h.stop_bot()
    # nothing lost, nothing applied twice: the stored log is one unbroken sequence that replays to the version
    db = await open_database(private_postgres.url)
    try:
        log = await match_repo.action_log(db, match_id)
        row = await match_repo.get_match_row(db, match_id)
    finally:
        await db.dispose()
    assert [r.seq for r in log] == list(range(1, len(log) + 1)) and len(log) == row.version
    m = match_from_stored(row.game, row.options_json, row.seed)
    for r in log:
        m.apply(r.action)
