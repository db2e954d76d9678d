"""``python -m bot.boot.health``: is the running bot healthy? (the Dockerfile's HEALTHCHECK, compose's too)

Healthy when both hold:

* the bot's event loop is alive: ``python -m bot`` writes a heartbeat file every
  ``HEARTBEAT_EVERY`` seconds from a job of its application (so a hung loop stops the beats),
  and the newest beat is at most ``STALE_AFTER`` seconds old;
* the database of ``DATABASE_URL`` answers ``SELECT 1``.

Prints one line (``ok`` or what is wrong) and exits 0 (healthy) or 1 (``--help``: 0, an unknown option: 2). The heartbeat file is
``BOT_HEARTBEAT_FILE``, default ``<temp dir>/shengji-guandan-bot.heartbeat``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

from bot.boot.settings import Settings
from bot.boot.startup import StartupError, check_database

log = logging.getLogger(__name__)

HEARTBEAT_ENV = "BOT_HEARTBEAT_FILE"
HEARTBEAT_EVERY = 30.0
STALE_AFTER = 120.0
DATABASE_TIMEOUT = 5.0


def heartbeat_path() -> Path:
    override = os.environ.get(HEARTBEAT_ENV, "").strip()
    return Path(override) if override else Path(tempfile.gettempdir()) / "shengji-guandan-bot.heartbeat"


def beat(path: Path | None = None, now: float | None = None) -> None:
    """Write the heartbeat (the time as text), replacing the file in one step.

    The text goes first to a temporary file of this writer's own, so several processes beating into one file
    (bot processes on one host with the default path) never rename each other's temporary file away."""
    target = path or heartbeat_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(f"{time.time() if now is None else now:.3f}\n")
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


async def heartbeat_job(_context: object) -> None:
    """A job of the bot's application (``JobQueue.run_repeating``): one beat.  A beat that cannot be written
    is logged, never raised: the next one tries again, and the health check reports a stale beat."""
    try:
        beat()
    except OSError as exc:
        log.warning("heartbeat not written: %s", exc)


def heartbeat_problem(
    path: Path | None = None, now: float | None = None, stale_after: float = STALE_AFTER
) -> str | None:
    """None when the newest beat is fresh; else what is wrong, in one line."""
    target = path or heartbeat_path()
    try:
        written = float(target.read_text(encoding="utf-8").strip())
    except FileNotFoundError:
        return f"no heartbeat at {target} (the bot is not running, or still starting)"
    except (OSError, ValueError) as exc:
        return f"unreadable heartbeat {target}: {exc}"
    age = (time.time() if now is None else now) - written
    if age > stale_after:
        return f"the last heartbeat is {age:.0f} s old (more than {stale_after:.0f} s): the bot is stuck or stopped"
    return None


async def database_problem(url: str | None = None) -> str | None:
    """None when the database answers; else the start-up check's English line."""
    try:
        await check_database(url or Settings().DATABASE_URL, timeout=DATABASE_TIMEOUT)
    except StartupError as exc:
        return str(exc)
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bot.boot.health",
        description=__doc__.split("\n\n")[0].strip("`"),
        epilog="Settings: BOT_HEARTBEAT_FILE, DATABASE_URL (docs/deploy.md).",
    )
    ap.add_argument(
        "--ready",
        metavar="URL",
        help="ask the running bot's /readyz instead (e.g. "
        "http://127.0.0.1:8080/readyz: database, Redis when configured, scheduler; bot/boot/probes.py)",
    )
    try:
        ns = ap.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return 0 if stop.code in (0, None) else 2
    if ns.ready:
        return ready(ns.ready)
    problems = [p for p in (heartbeat_problem(), asyncio.run(database_problem())) if p]
    if problems:
        print("unhealthy: " + "; ".join(problems), file=sys.stderr)
        return 1
    print("ok")
    return 0


def ready(url: str, timeout: float = 10.0) -> int:
    """``--ready URL``: 0 when the bot's /readyz answers 200; else 1 and what it said (or why it did not)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:  # noqa: S310 - a URL the operator gives
            print("ok")
            return 0 if answer.status == 200 else 1
    except urllib.error.HTTPError as err:
        try:
            checks = json.loads(err.read().decode("utf-8")).get("checks", {})
            said = "; ".join(f"{k}: {v}" for k, v in checks.items() if v != "ok")
        except (ValueError, AttributeError):
            said = ""
        print(f"not ready: {said or err}", file=sys.stderr)
    except (OSError, ValueError) as exc:
        print(f"not ready: {url} does not answer ({exc})", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
