"""A missing CJK font is a clear start-up error, not tofu boxes in the bracket image (issue 5, outputs).

``python -m bot`` itself with a bad font: tests/bot/boot/test_startup_errors.py."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


def test_application_start_up_refuses_to_build_without_a_font(monkeypatch):
    from bot.boot.settings import Settings
    from bot.edge import app as bot_app
    from bot.presentation.tournament import fonts

    def nothing_found():
        raise fonts.FontMissing(f"No CJK font found for the bracket image: {fonts.INSTALL_HINT}")

    monkeypatch.setattr(fonts, "cjk_font_path", nothing_found)
    with pytest.raises(bot_app.StartupError, match="noto-cjk-sans-otc"):
        bot_app.build_application(Settings(_env_file=None, TELEGRAM_BOT_TOKEN="123456:test-token"))
