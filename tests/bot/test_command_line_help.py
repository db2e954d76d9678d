"""The commands a person runs by hand (the checkers, the health probe, the bot) answer ``--help`` with their
usage and exit 0; bad usage or a file that cannot be read is one line and exit 2, never a traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECKERS = ["bot.verify_deal", "bot.verify_draw"]
COMMANDS = [*CHECKERS, "bot.boot.health", "bot"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("module", COMMANDS)
def test_help_prints_the_usage_and_exits_0(module: str) -> None:
    done = run(module, "--help")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith(f"usage: python -m {module}") and "--help" in done.stdout
    if module.startswith("bot.boot") or module == "bot":  # the settings are named, not guessed
        assert "docs/deploy.md" in done.stdout


@pytest.mark.parametrize("module", CHECKERS)
def test_a_missing_file_or_an_unknown_option_is_one_line_and_exit_2(module: str, tmp_path: Path) -> None:
    missing = run(module, str(tmp_path / "missing.json"))
    assert missing.returncode == 2
    assert "Traceback" not in missing.stdout + missing.stderr
    assert "missing.json" in missing.stdout and len(missing.stdout.strip().splitlines()) == 1
    wrong = run(module, "--no-such-option")
    assert wrong.returncode == 2 and "Traceback" not in wrong.stderr
    assert f"python -m {module}: error:" in wrong.stderr


def test_a_draw_file_that_is_not_json_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "draw.json"
    bad.write_text("{not json", encoding="utf-8")
    done = run("bot.verify_draw", str(bad))
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert f"{bad} is not JSON" in done.stdout
