"""Settings from the environment (pydantic-settings).

``TELEGRAM_BOT_TOKEN`` is required for ``python -m bot``; everything else has a default.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

TOKEN_HELP = (
    "TELEGRAM_BOT_TOKEN is not set: talk to @BotFather in Telegram (/newbot), copy the token it gives you, "
    "then run: TELEGRAM_BOT_TOKEN=<token> make run   (no token? try `make demo`)"
)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    TELEGRAM_BOT_TOKEN: str = ""
    TELEGRAM_API_BASE_URL: str | None = None  # e.g. "http://127.0.0.1:8081/bot"
    TELEGRAM_API_FILE_URL: str | None = None
    DATABASE_URL: str = "sqlite+aiosqlite:///data/bot.db"
    BOT_LANGUAGE: str = "zh-CN"
    BOT_ADMIN_IDS: Annotated[list[int], NoDecode] = []
    # Divides the outbox's rate windows (an accelerated simulator uses e.g. 20).
    TELEGRAM_RATE_SCALE: float = 1.0
    # Seconds a computer player waits before acting, and between dealing batches.
    AI_DELAY: float = 1.0
    DEAL_BATCH_DELAY: float = 1.0
    # Cards dealt per batch while dealing (one "sys deal" is one card).
    DEAL_BATCH: int = 25
    # Seconds a card tap waits before the hand message shows it (the tap's answer says it at once; a Play
    # pressed meanwhile makes the edit unneeded: one Telegram call saved per card played by buttons).
    TAP_EDIT_DELAY: float = 1.0
    # Multiplies every pacing delay (demo: DEMO_PACE=0.2 plays faster).
    DEMO_PACE: float = 1.0
    # Long-polling timeout passed to getUpdates.
    POLL_TIMEOUT: int = 10
    # Seconds a send (a new message, a file) waits for Telegram's answer; with none by then it is not sent again:
    # Telegram may have made it (bot/delivery/refusals.py, Refusal.UNCONFIRMED).  Edits keep PTB's 5 s and retry.
    TELEGRAM_SEND_TIMEOUT: float = 60.0
    # Per-user limit on commands, typed plays and presses (bot/edge/ratelimit.py): RATE_LIMIT_BURST at once, then
    # RATE_LIMIT_PER_SECOND (times TELEGRAM_RATE_SCALE, the simulator's accelerated clock); 0 turns it off.
    RATE_LIMIT_PER_SECOND: float = 2.0
    # the log's format (bot/boot/logs.py): "text", or "json" (one object a line, with update / match / table ids)
    LOG_FORMAT: Literal["text", "json"] = "text"
    RATE_LIMIT_BURST: int = 12
    # The table page (Mini App, bot/webapp): its local port (None: no page; `python -m bot` uses 8080),
    # its public HTTPS base URL behind a TLS proxy (None: no web_app buttons in Telegram), dev mode
    # (local play without Telegram: initData signed with a generated secret; refused with the real Telegram).
    WEBAPP_PORT: int | None = None
    WEBAPP_HOST: str = "127.0.0.1"
    WEBAPP_URL: str | None = None
    WEBAPP_SHORT_NAME: str | None = None  # the Mini App's short name at @BotFather: t.me/<bot>/<name> links
    WEBAPP_DEV: bool = False
    WEBAPP_DEV_SECRET: str | None = None  # dev mode's signing secret (None: a new one at each start)
    WEBAPP_INIT_MAX_AGE: int = 24 * 3600  # seconds an initData stays valid
    # Mini App mode (every person seated has the page open): the group's table message follows completed
    # tricks at most once per this many seconds (a deal's stage changes still show at once).
    WEBAPP_TABLE_EDIT_SECONDS: float = 30.0
    # Live updates between bot processes sharing one database: redis://host:6379/0 (None: one process).
    WEBAPP_RELAY_URL: str | None = None
    # Telegram's per-token limits shared by several bot processes: redis://host:6379/0 (None: each process
    # paces itself alone, bot/delivery/outbox.py). bot/delivery/shared_limits.py.
    TELEGRAM_LIMITS_URL: str | None = None
    # Webhook instead of long polling: Telegram posts updates to WEBAPP_URL/telegram/webhook (same server).
    TELEGRAM_WEBHOOK: bool = False
    TELEGRAM_WEBHOOK_SECRET: str | None = None  # default: derived from the token
    # Prometheus metrics at GET /metrics on the web server (bot/boot/metrics.py): off by default; with a token a
    # scrape sends "Authorization: Bearer <token>", without one only this machine is answered.
    METRICS_ENABLED: bool = False
    METRICS_TOKEN: str | None = None
    # Periodic backups (bot/backup): into BACKUP_DIR every BACKUP_EVERY_HOURS (0: none), the BACKUP_KEEP newest kept.
    BACKUP_DIR: str | None = None
    BACKUP_EVERY_HOURS: float = 0.0
    BACKUP_KEEP: int = 7
    # Retention (storage/privacy_repo.purge_casual): finished casual matches older than this many days are
    # deleted every hour; 0 (the default): kept.  Tournament matches are always kept.
    CASUAL_RETENTION_DAYS: float = 0.0
    # Casual matches in the ratings (storage/ratings_casual.py): a finished /newtable match (not a practice table,
    # no fixed seed) moves its human players' ratings like a tournament table.  Off by default.
    CASUAL_RATINGS: bool = False

    @field_validator("BOT_ADMIN_IDS", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        if isinstance(value, str):
            return [int(v) for v in value.replace(",", " ").split() if v.strip()]
        if isinstance(value, int):
            return [value]
        return value

    @property
    def ai_delay(self) -> float:
        return max(0.0, self.AI_DELAY * self.DEMO_PACE)

    @property
    def deal_delay(self) -> float:
        return max(0.0, self.DEAL_BATCH_DELAY * self.DEMO_PACE)
