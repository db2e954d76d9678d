"""End-to-end harness: the Bot API simulator + the REAL bot Application on a temporary SQLite database.

Typical use (fixtures in tests/e2e/conftest.py)::

    async def test_something(harness: E2EHarness) -> None:
        alice, bob = harness.players[:2]
        alice.say(harness.group_id, "/newtable shengji-17-deals bots=2")
        table = await harness.sim.wait_for_message(harness.group_id, "入座")
        answer = await alice.tap(harness.group_id, "入座")   # newest message with that button
        await harness.restart()  # same database, new Application

    async def test_custom(harness_factory) -> None:
        async with harness_factory(rate_scale=5, players_started=False, AI_DELAY=0) as h:
            ...

Settings overrides are given by the Settings field name (``AI_DELAY=0``), case-insensitively.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.devtools.simulator import BotApiSimulator, SimUserHandle, format_chat
from bot.devtools.simulator.runner import RealBot, make_settings

__all__ = ["E2EHarness", "HarnessFactory", "e2e_harness", "make_settings"]

log = logging.getLogger(__name__)

GROUP_ID = -1001000000001
GROUP_TITLE = "工会双升掼蛋赛 · 1号桌"
# (id, first name, username, language_code): four Chinese-speaking players, then spares.
PLAYERS: list[tuple[int, str, str, str]] = [
    (1001, "张伟", "zhangwei", "zh-hans"),
    (1002, "王芳", "wangfang", "zh-hans"),
    (1003, "李娜", "lina", "zh-hans"),
    (1004, "刘洋", "liuyang", "zh-hans"),
]
ENGLISH_USER = (1005, "Emma", "emma", "en")
STRANGER = (1006, "陈静", "chenjing", "zh-hans")  # in the group, never starts the bot unless a test says so
ORGANISER_ID = PLAYERS[0][0]  # group owner/admin
DEFAULT_RATE_SCALE = 20.0

# Fast pacing for tests; overridden by keyword arguments of the factory.
FAST_SETTINGS: dict[str, Any] = {
    "AI_DELAY": 0.0,
    "DEAL_BATCH_DELAY": 0.0,
    "DEMO_PACE": 0.0,
    "POLL_TIMEOUT": 1,
}


class _ErrorCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class E2EHarness:
    """A running simulator, the simulated people, and the real bot Application."""

    sim: BotApiSimulator
    tmp_path: Path
    settings_values: dict[str, Any]
    group_id: int = GROUP_ID
    players: list[SimUserHandle] = field(default_factory=list)
    english_user: SimUserHandle | None = None
    stranger: SimUserHandle | None = None
    errors: _ErrorCollector = field(default_factory=_ErrorCollector)
    real_bot: RealBot = field(init=False)

    def __post_init__(self) -> None:
        values = dict(self.settings_values)
        database_url = values.pop("DATABASE_URL")
        self.real_bot = RealBot(self.sim, database_url=database_url, **values)
        self.settings_values = self.real_bot.settings_values  # one dict: changes apply at the next start

    # ------------------------------------------------------------ bot lifecycle

    @property
    def database_url(self) -> str:
        return str(self.settings_values["DATABASE_URL"])

    @property
    def app(self) -> Any:
        """The running Application (None while stopped)."""
        return self.real_bot.app

    @property
    def starts(self) -> int:
        """How many Applications were started (1 + restarts)."""
        return self.real_bot.starts

    def settings(self) -> Any:
        return self.real_bot.settings()

    async def start_bot(self) -> Any:
        """Build and start a new Application (PTB manual mode), polling the simulator."""
        return await self.real_bot.start()

    async def stop_bot(self) -> None:
        """Stop the Application completely (updater, application, shutdown): like a process exit."""
        await self.real_bot.stop()

    async def restart(self) -> Any:
        """Stop the Application and start a new one on the same database."""
        return await self.real_bot.restart()

    # ------------------------------------------------------------ people

    def player(self, index_or_name: int | str) -> SimUserHandle:
        if isinstance(index_or_name, int):
            return self.players[index_or_name]
        for handle in self.players:
            if self.sim.users[handle.user_id].first_name == index_or_name:
                return handle
        raise LookupError(index_or_name)

    def handle(self, user_id: int) -> SimUserHandle:
        return SimUserHandle(self.sim, user_id)

    def name(self, user_id: int) -> str:
        return self.sim.users[user_id].first_name

    async def start_players(self, handles: list[SimUserHandle] | None = None, timeout: float = 15.0) -> None:
        """Each player sends /start in their private chat; wait for the bot's answer there."""
        for handle in handles if handles is not None else self.players:
            before = self.sim.last_bot_message(handle.user_id)
            handle.start()
            await self.sim.wait_for_message(handle.user_id, after=before, timeout=timeout)

    # ------------------------------------------------------------ waiting and reading

    async def settle(self, quiet: float = 0.3, timeout: float = 30.0) -> None:
        """Wait until every update sent so far was handled (``handled``: its handlers returned, however long
        they took) and then the bot made no Bot API call for ``quiet`` seconds.

        A quiet moment says nothing about what goes on without calls: the table's own steps (the dealing), a
        timer's handler, a background task.  To read such a state, wait for it (``test_play.match_at_turn``,
        ``support.eventually``), never for a quiet moment or a fixed sleep."""
        if self.app is not None:
            await self.handled(timeout)
        await self.sim.wait_quiet(quiet=quiet, timeout=timeout)

    async def handled(self, timeout: float = 30.0) -> None:
        """Wait until every pending update was fetched and its handlers returned (PTB's update queue joined):
        whatever the bot answered is queued in its outbox by then, sent or not (no quiet moment needed)."""
        await self.sim.wait_updates_consumed(timeout=timeout)
        await asyncio.wait_for(self.app.update_queue.join(), timeout)

    def group_messages(self) -> list[Any]:
        return self.sim.bot_messages(self.group_id)

    def transcript(self, private_of: int | None = None, mode: str = "final", lang: str = "en") -> str:
        """The group (and one player's private chat) as they saw it."""
        parts = [format_chat(self.sim, self.group_id, mode=mode, lang=lang)]
        if private_of is not None and private_of in self.sim.chats:
            parts.append(format_chat(self.sim, private_of, mode=mode, lang=lang))
        return "\n\n".join(parts)

    def calls_report(self, cards_played: int | None = None) -> dict[str, Any]:
        """Telegram calls made by the bot (getUpdates excluded) and, given the cards played, per card."""
        stats = self.sim.stats
        report: dict[str, Any] = {
            "calls": stats.calls_excluding_polling(),
            "message_calls": stats.message_calls,
            "by_method": {k: v for k, v in sorted(stats.calls.items()) if k != "getUpdates"},
            "rate_limited_429": stats.rate_limited,
            "client_errors_4xx": stats.client_errors,
            "callback_answer_p50_s": stats.callback_latency(0.5),
            "callback_answer_p99_s": stats.callback_latency(0.99),
        }
        if cards_played:
            report["calls_per_card"] = round(report["calls"] / cards_played, 3)
            report["message_calls_per_card"] = round(stats.message_calls / cards_played, 3)
        return report

    def logged_errors(self) -> list[str]:
        """ERROR log records emitted while the harness ran (unhandled handler exceptions land here)."""
        return [f"{r.name}: {r.getMessage()}" for r in self.errors.records]

    def assert_no_errors(self) -> None:
        errors = self.logged_errors()
        assert not errors, "errors were logged:\n" + "\n".join(errors)


@asynccontextmanager
async def e2e_harness(
    tmp_path: Path,
    *,
    rate_scale: float = DEFAULT_RATE_SCALE,
    players_started: bool = True,
    start_bot: bool = True,
    enforce_rate_limits: bool = True,
    **settings: Any,
) -> AsyncIterator[E2EHarness]:
    """Simulator + users + group + the real bot. ``settings`` override Settings fields by name."""
    async with BotApiSimulator(rate_scale=rate_scale, enforce_rate_limits=enforce_rate_limits) as sim:
        players = []
        for uid, name, username, lang in PLAYERS:
            sim.add_user(uid, name, username=username, language_code=lang)
            players.append(SimUserHandle(sim, uid))
        for uid, name, username, lang in (ENGLISH_USER, STRANGER):
            sim.add_user(uid, name, username=username, language_code=lang)
        member_ids = [p[0] for p in PLAYERS] + [ENGLISH_USER[0], STRANGER[0]]
        sim.add_group(GROUP_ID, GROUP_TITLE, member_ids, [ORGANISER_ID])

        values: dict[str, Any] = {
            "TELEGRAM_BOT_TOKEN": sim.token,
            "TELEGRAM_API_BASE_URL": sim.base_url,
            "TELEGRAM_API_FILE_URL": sim.base_file_url,
            "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
            "BOT_LANGUAGE": "zh-CN",
            "BOT_ADMIN_IDS": [ORGANISER_ID],
            "TELEGRAM_RATE_SCALE": rate_scale,
            **FAST_SETTINGS,
        }
        values.update(settings)
        harness = E2EHarness(
            sim=sim,
            tmp_path=tmp_path,
            settings_values=values,
            players=players,
            english_user=SimUserHandle(sim, ENGLISH_USER[0]),
            stranger=SimUserHandle(sim, STRANGER[0]),
        )
        root = logging.getLogger()
        root.addHandler(harness.errors)
        try:
            if start_bot:
                await harness.start_bot()
                if players_started:
                    await harness.start_players()
            yield harness
        finally:
            try:
                await harness.stop_bot()
            finally:
                root.removeHandler(harness.errors)


HarnessFactory = Callable[..., AbstractAsyncContextManager[E2EHarness]]
