"""python -m bot without a token prints one clear line and exits non-zero (issue 4, Bot)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_missing_token_prints_one_line_and_exits_nonzero(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "TELEGRAM_BOT_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode != 0
    lines = [x for x in (proc.stderr + proc.stdout).splitlines() if x.strip()]
    assert len(lines) == 1 and "@BotFather" in lines[0]


def test_admin_ids_and_defaults(monkeypatch):
    from bot.boot.settings import Settings

    monkeypatch.setenv("BOT_ADMIN_IDS", "1, 2 3")
    s = Settings(_env_file=None)
    assert s.BOT_ADMIN_IDS == [1, 2, 3]
    assert s.DATABASE_URL == "sqlite+aiosqlite:///data/bot.db"
    assert s.BOT_LANGUAGE == "zh-CN"
