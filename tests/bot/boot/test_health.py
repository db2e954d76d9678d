"""``python -m bot.boot.health`` (the container HEALTHCHECK): healthy only while the bot beats and the database answers.

The last test runs the real ``python -m bot`` against the local Bot API simulator and checks that the
health check turns healthy once the bot polls; the others feed it a fresh, stale, missing or garbled
heartbeat and a reachable or unreachable database.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bot.boot.health import beat, heartbeat_problem

ROOT = Path(__file__).resolve().parents[3]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "BOT_HEARTBEAT_FILE")}
    env.update(
        PYTHONPATH=str(ROOT),
        BOT_HEARTBEAT_FILE=str(tmp_path / "hb"),
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/bot.db",
    )
    env.update(extra)
    return env


def _health(tmp_path: Path, **extra: str) -> tuple[int, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.boot.health"],
        cwd=tmp_path,
        env=_env(tmp_path, **extra),
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, [x for x in (proc.stdout + proc.stderr).splitlines() if x.strip()]


def test_a_fresh_heartbeat_is_healthy_a_stale_or_missing_one_is_not(tmp_path):
    path = tmp_path / "hb"
    assert "no heartbeat" in (heartbeat_problem(path) or "")
    beat(path, now=1000.0)
    assert heartbeat_problem(path, now=1000.0 + 60) is None
    problem = heartbeat_problem(path, now=1000.0 + 121)
    assert problem is not None and "121 s old" in problem
    path.write_text("garbage", encoding="utf-8")
    assert "unreadable heartbeat" in (heartbeat_problem(path) or "")


def test_two_bots_beating_into_one_file_never_fail_and_leave_no_temporary_files(tmp_path):
    """Bot processes on one host share the default heartbeat file; a beat of one must not rename the other's
    half-written beat away (it raised FileNotFoundError in the other's job: "error while handling an update")."""
    path = tmp_path / "hb"
    errors: list[BaseException] = []

    def beats() -> None:
        for _ in range(2000):
            try:
                beat(path)
            except BaseException as exc:  # noqa: BLE001 - counted, the test fails on any
                errors.append(exc)

    writers = [threading.Thread(target=beats) for _ in range(2)]
    for w in writers:
        w.start()
    for w in writers:
        w.join()
    assert errors == []
    assert heartbeat_problem(path) is None
    assert [p.name for p in tmp_path.iterdir()] == ["hb"]


def test_python_m_bot_health_says_ok_with_a_fresh_beat_and_a_database(tmp_path):
    beat(tmp_path / "hb")
    rc, lines = _health(tmp_path)
    assert (rc, lines) == (0, ["ok"])


def test_python_m_bot_health_fails_in_one_line_without_a_beat(tmp_path):
    rc, lines = _health(tmp_path)
    assert rc == 1 and len(lines) == 1 and lines[0].startswith("unhealthy: no heartbeat")


def test_python_m_bot_health_fails_when_the_database_is_unreachable(tmp_path):
    beat(tmp_path / "hb")
    port = _closed_port()
    rc, lines = _health(tmp_path, DATABASE_URL=f"postgresql+asyncpg://bot:pw@127.0.0.1:{port}/bot")
    assert rc == 1 and len(lines) == 1
    assert lines[0].startswith("unhealthy: Cannot reach the database") and "pw@" not in lines[0]


@pytest.mark.e2e
def test_the_running_bot_beats_and_the_health_check_turns_healthy(tmp_path):
    sim = subprocess.Popen(
        [sys.executable, "-m", "bot.devtools.simulator", "--port", "0", "--no-rate-limits"],
        cwd=tmp_path,
        env=_env(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    bot = None
    try:
        assert sim.stdout is not None
        first = sim.stdout.readline()
        base_url = first.split("base_url for the bot: ")[1].split(")")[0]
        bot = subprocess.Popen(
            [sys.executable, "-m", "bot"],
            cwd=tmp_path,
            env=_env(
                tmp_path,
                TELEGRAM_BOT_TOKEN="123456:health-test",
                TELEGRAM_API_BASE_URL=base_url,
                LANG="en_US.UTF-8",
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while not (tmp_path / "hb").exists() and bot.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert bot.poll() is None, bot.stderr.read() if bot.stderr else ""
        assert (tmp_path / "hb").exists(), "the bot wrote no heartbeat within 60 s"
        rc, lines = _health(tmp_path)
        assert (rc, lines) == (0, ["ok"])
    finally:
        for proc in (bot, sim):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
