"""``python -m bot`` with a bad setting prints one translated line (no traceback) and exits non-zero.

Each test starts the real ``python -m bot`` as a subprocess with one thing wrong: a token Telegram
refuses (a local HTTP server answering 401, as the Bot API does), no network (a closed local port as the
Bot API), an unreachable database (a closed local port), no usable CJK font, no token. Chinese is the
default language of these lines; ``LANG=en…`` gives English. Nothing here leaves this machine.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
TOKEN = "123456:ABC-this-token-is-refused"


def _closed_port() -> int:
    """A local port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class _Refuses(BaseHTTPRequestHandler):
    """Answers every Bot API call the way Telegram answers a revoked token."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"ok": False, "error_code": 401, "description": "Unauthorized"}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def refusing_api() -> Iterator[str]:
    server = HTTPServer(("127.0.0.1", 0), _Refuses)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/bot"
    finally:
        server.shutdown()
        server.server_close()


def _start_bot(tmp_path: Path, lang: str, **settings: str) -> tuple[int, list[str]]:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("TELEGRAM_BOT_TOKEN", "LC_ALL", "LC_MESSAGES", "LANG", "BOT_CJK_FONT", "DATABASE_URL")
    }
    env.update(
        PYTHONPATH=str(ROOT),
        LANG=lang,
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_API_BASE_URL=f"http://127.0.0.1:{_closed_port()}/bot",
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path}/bot.db",
    )
    env.update(settings)
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=90
    )
    lines = [x for x in (proc.stderr + proc.stdout).splitlines() if x.strip()]
    return proc.returncode, lines


def _one_line(lines: list[str]) -> str:
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0]
    return lines[0]


def test_a_refused_token_is_one_line_in_chinese_without_the_token(tmp_path, refusing_api):
    rc, lines = _start_bot(tmp_path, "C.UTF-8", TELEGRAM_API_BASE_URL=refusing_api)
    line = _one_line(lines)
    assert rc == 3
    assert "Telegram 不接受这个 TELEGRAM_BOT_TOKEN" in line and "@BotFather" in line
    assert TOKEN not in line and "ABC-this" not in line


def test_a_refused_token_in_english_with_lang_en(tmp_path, refusing_api):
    rc, lines = _start_bot(tmp_path, "en_GB.UTF-8", TELEGRAM_API_BASE_URL=refusing_api)
    line = _one_line(lines)
    assert rc == 3
    assert line.startswith("Telegram refused TELEGRAM_BOT_TOKEN") and TOKEN not in line


def test_no_network_names_the_address_it_could_not_reach(tmp_path):
    port = _closed_port()
    rc, lines = _start_bot(tmp_path, "zh_CN.UTF-8", TELEGRAM_API_BASE_URL=f"http://127.0.0.1:{port}/bot")
    line = _one_line(lines)
    assert rc == 3
    assert line.startswith("连不上 Telegram") and f"127.0.0.1:{port}" in line


def test_no_network_in_english(tmp_path):
    rc, lines = _start_bot(tmp_path, "en_US.UTF-8")
    line = _one_line(lines)
    assert rc == 3 and line.startswith("Cannot reach Telegram at http://127.0.0.1:")


def test_an_unreachable_database_is_one_line_that_hides_the_password(tmp_path):
    port = _closed_port()
    rc, lines = _start_bot(
        tmp_path, "C.UTF-8", DATABASE_URL=f"postgresql+asyncpg://bot:s3cret@127.0.0.1:{port}/bot"
    )
    line = _one_line(lines)
    assert rc == 3
    assert line.startswith("连不上数据库") and f"127.0.0.1:{port}/bot" in line and "DATABASE_URL" in line
    assert "s3cret" not in line


def test_an_unreachable_database_in_english(tmp_path):
    port = _closed_port()
    rc, lines = _start_bot(
        tmp_path, "en_US.UTF-8", DATABASE_URL=f"postgresql+asyncpg://bot@127.0.0.1:{port}/bot"
    )
    line = _one_line(lines)
    assert rc == 3 and line.startswith("Cannot reach the database postgresql+asyncpg://bot@127.0.0.1:")


def test_a_font_that_is_no_font_is_one_line_in_both_languages(tmp_path):
    not_a_font = tmp_path / "font.otf"
    not_a_font.write_text("this is not a font", encoding="utf-8")
    rc, lines = _start_bot(tmp_path, "C.UTF-8", BOT_CJK_FONT=str(not_a_font))
    line = _one_line(lines)
    assert rc == 3 and line.startswith(f"BOT_CJK_FONT={not_a_font} 不是能显示中文的字体文件")
    rc, lines = _start_bot(tmp_path, "en_US.UTF-8", BOT_CJK_FONT=str(not_a_font))
    line = _one_line(lines)
    assert rc == 3 and "is not a font that draws Chinese" in line and "noto-cjk-sans-otc" in line


def test_a_missing_token_is_one_line_in_chinese_by_default(tmp_path):
    rc, lines = _start_bot(tmp_path, "C.UTF-8", TELEGRAM_BOT_TOKEN="")
    line = _one_line(lines)
    assert rc == 2 and line.startswith("没有设置 TELEGRAM_BOT_TOKEN") and "@BotFather" in line


@pytest.mark.parametrize(
    "env, lang",
    [
        ({}, "zh"),
        ({"LANG": "C.UTF-8"}, "zh"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LC_ALL": "en_GB.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_TW", "LANG": "en_US"}, "zh"),
    ],
)
def test_the_console_language_follows_the_locale_variables(env, lang):
    from bot.boot.startup import console_language

    assert console_language(env) == lang
