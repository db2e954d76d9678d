"""Run the REAL bot Application against a simulator (used by the end-to-end harness and the demo).

    async with BotApiSimulator(rate_scale=20) as sim, RealBot(sim, database_url=url, AI_DELAY=0) as real:
        ...
        await real.restart()   # stop the Application completely, start a new one on the same database

Settings are given by ``bot.boot.settings.Settings`` field name, case-insensitively; unknown names are ignored.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from bot.boot.settings import Settings
from bot.devtools.simulator.server import BotApiSimulator
from bot.edge.app import build_application

log = logging.getLogger(__name__)


def make_settings(**values: Any) -> Any:
    """``bot.boot.settings.Settings`` from field names (case-insensitive), without reading ``.env``."""
    fields = {name.lower(): name for name in Settings.model_fields}
    kwargs = {fields[k.lower()]: v for k, v in values.items() if k.lower() in fields}
    try:
        return Settings(_env_file=None, **kwargs)  # type: ignore[call-arg]
    except TypeError:
        return Settings(**kwargs)


class RealBot:
    """The bot's Application (``bot.edge.app.build_application``) in PTB's manual mode, polling ``sim``."""

    def __init__(
        self, sim: BotApiSimulator, *, database_url: str, poll_timeout: int = 1, **settings: Any
    ) -> None:
        self.sim = sim
        self.poll_timeout = poll_timeout
        self.settings_values: dict[str, Any] = {
            "TELEGRAM_BOT_TOKEN": sim.token or "123456789:simulator",
            "TELEGRAM_API_BASE_URL": sim.base_url,
            "TELEGRAM_API_FILE_URL": sim.base_file_url,
            "DATABASE_URL": database_url,
            "TELEGRAM_RATE_SCALE": sim.rate_scale,
            "POLL_TIMEOUT": poll_timeout,
            **settings,
        }
        self.app: Any = None
        self.starts = 0
        # Called with each new Application before it is initialised (e.g. to register more handlers).
        self.prepare: Callable[[Any], None] | None = None

    def settings(self) -> Any:
        return make_settings(**self.settings_values)

    @property
    def running(self) -> bool:
        return self.app is not None

    async def start(self) -> Any:
        """Build a new Application and start it: initialize, start, start_polling."""
        if self.app is not None:
            raise RuntimeError("the bot is already running: stop() or restart()")
        app = build_application(self.settings())
        if self.prepare is not None:
            self.prepare(app)
        await app.initialize()
        try:
            await app.start()
            assert app.updater is not None  # the builder's default: long polling
            await app.updater.start_polling(poll_interval=0.0, timeout=self.poll_timeout)
        except BaseException:
            await self._stop(app)
            raise
        self.app = app
        self.starts += 1
        return app

    async def stop(self) -> None:
        """Stop the Application completely (updater, application, shutdown), like a process exit."""
        app, self.app = self.app, None
        if app is not None:
            await self._stop(app)

    @staticmethod
    async def _stop(app: Any) -> None:
        try:
            if app.updater is not None and app.updater.running:
                await app.updater.stop()
        finally:
            try:
                if app.running:
                    await app.stop()
            finally:
                await app.shutdown()

    async def restart(self) -> Any:
        """Stop the Application and start a new one on the same database."""
        await self.stop()
        return await self.start()

    async def __aenter__(self) -> RealBot:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()
