"""Backups of the bot's database that restore (docs/deploy.md "Backups").

* ``backup(url, folder)``: SQLite through SQLite's online backup API (a consistent copy while the bot writes);
  PostgreSQL through ``pg_dump --format=custom``.  The file is named ``bot-<UTC time>.<sqlite3|dump>`` and
  written under a temporary name first, so a half-written backup never looks like one.
* ``restore(path, url)``: into a new (empty) database: SQLite copies the file back with the same API;
  PostgreSQL runs ``pg_restore --no-owner`` into the database of ``url`` (create it first).  The bot applies
  any newer migrations when it starts on it.
* ``prune(folder, keep)``: retention, the ``keep`` newest backups stay.
* ``BackupJob``: the periodic backup of a running bot (``BACKUP_DIR``, ``BACKUP_EVERY_HOURS``,
  ``BACKUP_KEEP``), armed on the deadline scheduler's periodic jobs (``scheduler/deadlines.py``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import sqlite3
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Protocol

from sqlalchemy.engine import URL, make_url

log = logging.getLogger(__name__)

PREFIX = "bot-"
SUFFIXES = (".sqlite3", ".dump")

__all__ = ["BackupError", "BackupJob", "backup", "backups_in", "prune", "restore"]


class BackupError(RuntimeError):
    """A backup or a restore could not be made (one line saying why)."""


def _sqlite_path(url: URL) -> Path:
    if not url.database or url.database == ":memory:":
        raise BackupError("an in-memory SQLite database cannot be backed up")
    return Path(url.database).expanduser()


def _libpq(url: URL) -> tuple[str, dict[str, str]]:
    """A libpq connection string for pg_dump / pg_restore (the password in PGPASSWORD, never in argv)."""
    env = dict(os.environ)
    if url.password:
        env["PGPASSWORD"] = str(url.password)
    plain = url.set(drivername="postgresql", password=None)
    return plain.render_as_string(hide_password=False), env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not installed (Debian: apt-get install postgresql-client)")
    return found


def _stamp(now: datetime | None = None) -> str:
    return (now or datetime.now(UTC)).strftime("%Y%m%dT%H%M%S.%fZ")


def backup(url: str, folder: Path, *, now: datetime | None = None) -> Path:
    """Back up the database of ``url`` into ``folder``; returns the new file."""
    parsed = make_url(url)
    folder.mkdir(parents=True, exist_ok=True)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        target = folder / f"{PREFIX}{_stamp(now)}.sqlite3"
        source = _sqlite_path(parsed)
        if not source.exists():
            raise BackupError(f"no SQLite database at {source}")
        partial = target.with_suffix(".partial")
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(partial)
            try:
                src.backup(dst)  # the online backup API: a consistent copy while others write
            finally:
                dst.close()
        finally:
            src.close()
        os.replace(partial, target)
        return target
    if backend == "postgresql":
        target = folder / f"{PREFIX}{_stamp(now)}.dump"
        partial = target.with_suffix(".partial")
        conninfo, env = _libpq(parsed)
        _run(
            [_tool("pg_dump"), "--format=custom", "--no-owner", f"--file={partial}", f"--dbname={conninfo}"],
            env,
        )
        os.replace(partial, target)
        return target
    raise BackupError(f"no backup for {backend} databases (SQLite and PostgreSQL only)")


def restore(path: Path, url: str) -> None:
    """Restore the backup ``path`` into the (new, empty) database of ``url``."""
    parsed = make_url(url)
    if not path.exists():
        raise BackupError(f"no backup at {path}")
    backend = parsed.get_backend_name()
    if backend == "sqlite" and path.suffix == ".sqlite3":
        target = _sqlite_path(parsed)
        if target.exists() and target.stat().st_size > 0:
            raise BackupError(f"{target} exists: restore into a new database (move the old one away first)")
        target.parent.mkdir(parents=True, exist_ok=True)
        src = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(target)
            try:
                src.backup(dst)
            finally:
                dst.close()
        finally:
            src.close()
        return
    if backend == "postgresql" and path.suffix == ".dump":
        conninfo, env = _libpq(parsed)
        _run([_tool("pg_restore"), "--no-owner", "--exit-on-error", f"--dbname={conninfo}", str(path)], env)
        return
    raise BackupError(f"{path.name} is not a backup of a {backend} database")


def _run(argv: list[str], env: dict[str, str]) -> None:
    import subprocess

    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        first = (done.stderr.strip().splitlines() or ["exit status " + str(done.returncode)])[0]
        raise BackupError(f"{Path(argv[0]).name} failed: {first}")


def backups_in(folder: Path) -> list[Path]:
    """The backups in ``folder``, oldest first (their names sort by time)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if p.name.startswith(PREFIX) and p.suffix in SUFFIXES)


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete all but the ``keep`` newest backups; returns the deleted files."""
    old = backups_in(folder)[: -keep or None] if keep > 0 else []
    for path in old:
        path.unlink(missing_ok=True)
    return old


class BackupSettings(Protocol):
    """The settings of the backups (``bot.boot.settings.Settings``)."""

    @property
    def DATABASE_URL(self) -> str: ...  # noqa: N802 (the settings' names)

    @property
    def BACKUP_DIR(self) -> str | None: ...  # noqa: N802

    @property
    def BACKUP_EVERY_HOURS(self) -> float: ...  # noqa: N802

    @property
    def BACKUP_KEEP(self) -> int: ...  # noqa: N802


class BackupJob:
    """The running bot's periodic backup: one backup (in a thread: SQLite's copy and pg_dump block), then
    the retention."""

    def __init__(self, url: str, folder: Path, keep: int) -> None:
        self.url = url
        self.folder = folder
        self.keep = keep
        self.made: list[Path] = []

    async def __call__(self) -> None:
        started = time.monotonic()
        try:
            path = await asyncio.to_thread(backup, self.url, self.folder)
        except Exception as exc:  # logged, never raised into the scheduler
            log.error("backup failed: %s", exc)
            return
        self.made.append(path)
        pruned = prune(self.folder, self.keep)
        log.info(
            "backup %s (%.1f s, %d kept, %d removed)",
            path.name,
            time.monotonic() - started,
            len(backups_in(self.folder)),
            len(pruned),
        )

    @classmethod
    def of(cls, settings: BackupSettings) -> BackupJob | None:
        """The job when ``BACKUP_DIR`` and ``BACKUP_EVERY_HOURS`` are set, else None."""
        if not settings.BACKUP_DIR or not settings.BACKUP_EVERY_HOURS:
            return None
        return cls(settings.DATABASE_URL, Path(settings.BACKUP_DIR), settings.BACKUP_KEEP)
