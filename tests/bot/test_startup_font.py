"""A missing CJK font is a clear start-up error, not tofu boxes in the bracket image (issue 5, outputs)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_python_m_bot_without_a_cjk_font_prints_what_to_install_and_exits_nonzero(tmp_path):
    not_a_font = tmp_path / "font.otf"
    not_a_font.write_text("this is not a font", encoding="utf-8")
    env = dict(os.environ)
    env.update(PYTHONPATH=str(ROOT), TELEGRAM_BOT_TOKEN="123456:test-token", BOT_CJK_FONT=str(not_a_font),
               # never reach Telegram if the check were missing: a closed local port
               TELEGRAM_API_BASE_URL="http://127.0.0.1:9/bot", DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/b.db")
    proc = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode != 0
    lines = [x for x in (proc.stderr + proc.stdout).splitlines() if x.strip()]
    assert len(lines) == 1, lines
    assert "CJK font" in lines[0] and "noto-cjk-sans-otc" in lines[0] and "BOT_CJK_FONT" in lines[0]


def test_application_start_up_refuses_to_build_without_a_font(monkeypatch):
    from bot import app as bot_app
    from bot.settings import Settings
    from bot.tournament_render import fonts

    def nothing_found():
        raise fonts.FontMissing(f"No CJK font found for the bracket image: {fonts.INSTALL_HINT}")

    monkeypatch.setattr(fonts, "cjk_font_path", nothing_found)
    with pytest.raises(bot_app.StartupError, match="noto-cjk-sans-otc"):
        bot_app.build_application(Settings(_env_file=None, TELEGRAM_BOT_TOKEN="123456:test-token"))
