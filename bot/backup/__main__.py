"""``python -m bot.backup``: back up the bot's database, or restore a backup into a new database.

    python -m bot.backup                       # DATABASE_URL into BACKUP_DIR (default ./backups)
    python -m bot.backup --to /srv/backups --keep 14
    python -m bot.backup restore backups/bot-20261201T020000.000000Z.sqlite3 --database sqlite+aiosqlite:///new.db

Prints the file made (or restored) and the time it took; exit 0, or 1 with one line saying why.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.backup import BackupError, backup, backups_in, prune, restore


class BackupSettings(BaseSettings):
    """The settings this command reads (the bot's own, bot/boot/settings.py: same names, same defaults;
    not imported from there, as the runtime imports this package)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")
    DATABASE_URL: str = "sqlite+aiosqlite:///data/bot.db"
    BACKUP_DIR: str | None = None
    BACKUP_KEEP: int = 7


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot.backup", description=__doc__.split("\n\n")[0].strip("`"))
    sub = ap.add_subparsers(dest="command")
    ap.add_argument(
        "--to", type=Path, default=None, help="the backup folder (default: BACKUP_DIR, or ./backups)"
    )
    ap.add_argument("--keep", type=int, default=None, help="keep the N newest backups (default: BACKUP_KEEP)")
    ap.add_argument("--database", default=None, help="the database URL (default: DATABASE_URL)")
    rest = sub.add_parser("restore", help="restore a backup into a new database")
    rest.add_argument("file", type=Path)
    rest.add_argument("--database", default=None, help="the new database's URL (default: DATABASE_URL)")
    sub.add_parser("list", help="list the backups of the folder")
    try:
        args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:
        return 0 if stop.code in (0, None) else 2
    settings = BackupSettings()
    url = args.database or settings.DATABASE_URL
    folder = args.to or Path(settings.BACKUP_DIR or "backups")
    started = time.monotonic()
    try:
        if args.command == "restore":
            restore(args.file, url)
            print(f"restored {args.file} into {_shown(url)} in {time.monotonic() - started:.2f} s")
        elif args.command == "list":
            for path in backups_in(folder):
                print(f"{path}  {path.stat().st_size / 1e6:.1f} MB")
        else:
            path = backup(url, folder)
            keep = settings.BACKUP_KEEP if args.keep is None else args.keep
            removed = prune(folder, keep)
            print(
                f"{path} ({path.stat().st_size / 1e6:.1f} MB, {time.monotonic() - started:.2f} s; {len(removed)} old removed)"
            )
    except BackupError as exc:
        print(f"backup: {exc}", file=sys.stderr)
        return 1
    return 0


def _shown(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


if __name__ == "__main__":
    sys.exit(main())
