"""Real bot processes (``python -m bot``, settings as environment variables) in webhook mode against the Bot API
simulator, optionally two of them behind a round-robin splitter, on a fresh database.

* ``Splitter``: the TLS proxy's job in production (Caddy ``reverse_proxy a:8080 b:8080`` with
  ``lb_policy round_robin``): each POST to ``/telegram/webhook`` goes to the next process in turn (mode
  ``"round_robin"``), or to every process (mode ``"both"``: the same update delivered twice, to test that it is
  applied once).  The backend's status goes back to the simulator, so a failed delivery is retried.
* ``bots(...)``: the simulator, the fresh database, the splitter and the processes, started and stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import secrets
import socket
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.loadtest.botprocess import BotProcess
from bot.loadtest.database import fresh_database
from bot.simulator import BotApiSimulator
from bot.webapp.webhook import SECRET_HEADER, WEBHOOK_PATH

REDIS = "redis://127.0.0.1:6379/0"
DEV_SECRET = "two-processes-dev-secret"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Splitter:
    """An aiohttp proxy in front of the bot processes' webhooks."""

    def __init__(self, backends: list[str], mode: str = "round_robin") -> None:
        self.backends = backends
        self.mode = mode
        self.port = free_port()
        self.handled: dict[int, list[int]] = {}  # update_id -> the processes (indexes) that answered 2xx
        self.bodies: dict[int, dict[str, Any]] = {}  # update_id -> the update
        self.statuses: Counter[int] = Counter()
        self._next = itertools.cycle(range(len(backends)))
        self.secret = ""
        self.pin: int | None = None  # every POST to this process (round robin when None)
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def count_by_process(self) -> Counter[int]:
        return Counter(i for handled in self.handled.values() for i in handled)

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        app = web.Application()
        app.router.add_post(WEBHOOK_PATH, self._forward)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._session is not None:
            await self._session.close()

    async def post(self, index: int, update: dict[str, Any]) -> int:
        """POST ``update`` straight to process ``index`` (as Telegram or a proxy repeating it would)."""
        return await self._post(index, json.dumps(update).encode(), self.secret)

    async def _post(self, index: int, body: bytes, secret: str) -> int:
        assert self._session is not None
        try:
            async with self._session.post(self.backends[index] + WEBHOOK_PATH, data=body,
                                          headers={SECRET_HEADER: secret,
                                                   "Content-Type": "application/json"}) as response:
                await response.read()
                return response.status
        except (aiohttp.ClientError, TimeoutError):
            return 502

    async def _forward(self, request: web.Request) -> web.Response:
        body = await request.read()
        secret = self.secret = request.headers.get(SECRET_HEADER, "")
        update = await request.json()
        update_id = int(update["update_id"])
        self.bodies[update_id] = update
        if self.mode == "both":
            targets = list(range(len(self.backends)))
        elif self.pin is not None:
            targets = [self.pin]
        else:
            targets = [next(self._next)]
        statuses = await asyncio.gather(*(self._post(i, body, secret) for i in targets))
        ok = [i for i, status in zip(targets, statuses, strict=True) if 200 <= status < 300]
        if ok:
            self.handled.setdefault(update_id, []).extend(ok)
        status = 200 if ok else max(statuses)
        self.statuses[status] += 1
        return web.Response(status=status)


@dataclass
class Bots:
    sim: BotApiSimulator
    database_url: str
    processes: list[BotProcess]
    ports: list[int]
    splitter: Splitter | None
    folder: Path
    settings: dict[str, Any] = field(default_factory=dict)

    def page_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}"

    def errors(self) -> list[str]:
        return [line for p in self.processes for line in p.errors_logged()]

    def log(self, index: int) -> str:
        return (self.folder / f"bot{index}.log").read_text(errors="replace")

    async def settle(self, quiet: float = 1.0, timeout: float = 60.0) -> None:
        """Until the bot processes made no Bot API call for ``quiet`` seconds (their outboxes are empty)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            calls = self.sim.stats.total_calls
            await asyncio.sleep(quiet)
            if self.sim.stats.total_calls == calls:
                return
        raise TimeoutError(f"the bot processes were still calling Telegram after {timeout} s")

    async def restart(self, index: int) -> None:
        """Stop process ``index`` (Ctrl-C: a clean shutdown) and start it again with the same settings."""
        old = self.processes[index]
        await old.stop()
        (self.folder / f"bot{index}.log").rename(self.folder / f"bot{index}.{time.monotonic_ns()}.log")
        new = BotProcess(old.settings, self.folder / f"bot{index}.log")
        self.processes[index] = new
        await new.start()
        await wait_listening(new, self.ports[index])


async def wait_listening(process: BotProcess, port: int, timeout: float = 90.0) -> None:
    """Until the process's web server (page and webhook) accepts connections."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        if not process.running():
            raise RuntimeError("a bot process exited at start:\n" + process.log_path.read_text(errors="replace")[-3000:])
        with contextlib.suppress(OSError):
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        if loop.time() > deadline:
            raise TimeoutError(f"the bot process did not listen on {port} within {timeout} s")
        await asyncio.sleep(0.2)


@contextlib.asynccontextmanager
async def bots(count: int = 1, *, db: str = "postgres", mode: str = "round_robin", rate_scale: float = 20.0,
               start: bool = True, **settings: Any) -> AsyncIterator[Bots]:
    """``count`` bot processes in webhook mode on one fresh database (PostgreSQL of TEST_DATABASE_URL, or an
    SQLite file), behind a splitter when there are two, against one simulator."""
    with tempfile.TemporaryDirectory(prefix="multiproc-") as tmp:
        folder = Path(tmp)
        # a token of its own: what the processes keep in Redis (updates taken, message claims, send slots) is per bot
        token = f"{random.randint(10**9, 10**10 - 1)}:multiproc-{secrets.token_hex(8)}"
        async with fresh_database(db, folder) as url, BotApiSimulator(token, rate_scale=rate_scale) as sim:
            ports = [free_port() for _ in range(count)]
            backends = [f"http://127.0.0.1:{port}" for port in ports]
            splitter = Splitter(backends, mode) if count > 1 else None
            public = splitter.url if splitter is not None else backends[0]
            common: dict[str, Any] = {
                "TELEGRAM_BOT_TOKEN": sim.token, "TELEGRAM_API_BASE_URL": sim.base_url,
                "TELEGRAM_API_FILE_URL": sim.base_file_url, "DATABASE_URL": url,
                "TELEGRAM_RATE_SCALE": rate_scale, "BOT_LANGUAGE": "zh-CN", "TELEGRAM_WEBHOOK": "1",
                "WEBAPP_URL": public, "WEBAPP_HOST": "127.0.0.1", "WEBAPP_DEV": "1", "WEBAPP_DEV_SECRET": DEV_SECRET,
                "AI_DELAY": 0.05, "DEAL_BATCH_DELAY": 0.02, "DEAL_BATCH": 100, "TAP_EDIT_DELAY": 0.05,
                "RATE_LIMIT_PER_SECOND": 0, "POLL_TIMEOUT": 1,
            }
            if count > 1:  # what two processes need (docs/webapp.md, "Two processes")
                common["WEBAPP_RELAY_URL"] = REDIS
                common["TELEGRAM_LIMITS_URL"] = REDIS
            common.update(settings)
            processes = [BotProcess({**common, "WEBAPP_PORT": port}, folder / f"bot{i}.log")
                         for i, port in enumerate(ports)]
            group = Bots(sim, url, processes, ports, splitter, folder, common)
            try:
                if splitter is not None:
                    await splitter.start()
                if start:
                    await start_all(group)
                yield group
            finally:
                await asyncio.gather(*(p.stop() for p in processes), return_exceptions=True)
                if splitter is not None:
                    await splitter.stop()


async def start_all(group: Bots) -> None:
    for process in group.processes:
        await process.start()
    for process, port in zip(group.processes, group.ports, strict=True):
        await wait_listening(process, port)
    await group.sim.wait_for(lambda: group.sim.webhook_url, timeout=30, message="no setWebhook")
