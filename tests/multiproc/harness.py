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
import re
import secrets
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bot.devtools.loadtest.botprocess import BotProcess
from bot.devtools.loadtest.database import fresh_database
from bot.devtools.simulator import BotApiSimulator
from bot.edge.webhook import SECRET_HEADER, WEBHOOK_PATH
from tests import services

REDIS = services.REDIS_URL or services.LOCAL_REDIS
DEV_SECRET = "two-processes-dev-secret"


class Splitter:
    """An aiohttp proxy in front of the bot processes' webhooks."""

    def __init__(self, count: int, mode: str = "round_robin") -> None:
        self.backends: list[str | None] = [None] * count  # each process's address, once it listens
        self.mode = mode
        self.port = 0
        self.handled: dict[int, list[int]] = {}  # update_id -> the processes (indexes) that answered 2xx
        self.bodies: dict[int, dict[str, Any]] = {}  # update_id -> the update
        self.statuses: Counter[int] = Counter()
        self._next = itertools.cycle(range(count))
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
        site = web.TCPSite(self._runner, "127.0.0.1", 0)  # a free port, chosen by the kernel while binding
        await site.start()
        server: Any = site._server
        self.port = int(server.sockets[0].getsockname()[1])

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
        backend = self.backends[index]
        if backend is None:  # not listening yet: Telegram posts the update again
            return 503
        try:
            async with self._session.post(
                backend + WEBHOOK_PATH,
                data=body,
                headers={SECRET_HEADER: secret, "Content-Type": "application/json"},
            ) as response:
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
    splitter: Splitter
    folder: Path
    settings: dict[str, Any] = field(default_factory=dict)

    def page_url(self, index: int) -> str:
        return f"http://127.0.0.1:{self.ports[index]}"

    async def listen(self, index: int) -> None:
        """Until process ``index`` listens; the splitter then sends it its share."""
        self.ports[index] = await listening_port(self.processes[index])
        self.splitter.backends[index] = self.page_url(index)

    def errors(self) -> list[str]:
        return [line for p in self.processes for line in p.errors_logged()]

    def log(self, index: int) -> str:
        return (self.folder / f"bot{index}.log").read_text(errors="replace")

    def state(self) -> str:
        """What a failed test prints: the webhook's delivery and the calls the processes made."""
        info = self.sim.api_getWebhookInfo(None)  # type: ignore[arg-type]
        return (
            f"webhook {info}, {self.sim.webhook_stats}, splitter {dict(self.splitter.statuses)} "
            f"{dict(self.splitter.count_by_process())}, processes running "
            f"{[p.running() for p in self.processes]}, calls {dict(self.sim.stats.calls)}"
        )

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
        self.splitter.backends[index] = None
        new = BotProcess(old.settings, self.folder / f"bot{index}.log")
        self.processes[index] = new
        await new.start()
        await self.listen(index)


LISTENING = re.compile(r"table page in DEV mode [^\n]*: http://127\.0\.0\.1:(\d+)/dev")


async def listening_port(process: BotProcess, timeout: float = 90.0) -> int:
    """The port the process's web server (page and webhook) listens on: it binds port 0 and logs the address it
    got (dev mode), so two harnesses running at once never pick the same port."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        text = process.log_path.read_text(errors="replace") if process.log_path.exists() else ""
        found = LISTENING.search(text)
        if found is not None:
            return int(found.group(1))
        if not process.running():
            raise RuntimeError("a bot process exited at start:\n" + text[-3000:])
        if loop.time() > deadline:
            raise TimeoutError(f"the bot process did not listen within {timeout} s")
        await asyncio.sleep(0.2)


@contextlib.asynccontextmanager
async def bots(
    count: int = 1,
    *,
    db: str = "postgres",
    mode: str = "round_robin",
    rate_scale: float = 20.0,
    start: bool = True,
    **settings: Any,
) -> AsyncIterator[Bots]:
    """``count`` bot processes in webhook mode on one fresh database (PostgreSQL of TEST_DATABASE_URL, or an
    SQLite file), behind the splitter (Telegram's webhook URL), against one simulator."""
    with tempfile.TemporaryDirectory(prefix="multiproc-") as tmp:
        folder = Path(tmp)
        # a token of its own: what the processes keep in Redis (updates taken, message claims, send slots) is per bot
        token = f"{random.randint(10**9, 10**10 - 1)}:multiproc-{secrets.token_hex(8)}"
        async with fresh_database(db, folder) as url, BotApiSimulator(token, rate_scale=rate_scale) as sim:
            splitter = Splitter(count, mode)
            await splitter.start()
            common: dict[str, Any] = {
                "TELEGRAM_BOT_TOKEN": sim.token,
                "TELEGRAM_API_BASE_URL": sim.base_url,
                "TELEGRAM_API_FILE_URL": sim.base_file_url,
                "DATABASE_URL": url,
                "TELEGRAM_RATE_SCALE": rate_scale,
                "BOT_LANGUAGE": "zh-CN",
                "TELEGRAM_WEBHOOK": "1",
                "WEBAPP_URL": splitter.url,
                "WEBAPP_HOST": "127.0.0.1",
                "WEBAPP_PORT": 0,
                "WEBAPP_DEV": "1",
                "WEBAPP_DEV_SECRET": DEV_SECRET,
                "AI_DELAY": 0.05,
                "DEAL_BATCH_DELAY": 0.02,
                "DEAL_BATCH": 100,
                "TAP_EDIT_DELAY": 0.05,
                "RATE_LIMIT_PER_SECOND": 0,
                "POLL_TIMEOUT": 1,
            }
            if count > 1:  # what two processes need (docs/webapp.md, "Two processes")
                common["WEBAPP_RELAY_URL"] = REDIS
                common["TELEGRAM_LIMITS_URL"] = REDIS
            common.update(settings)
            processes = [BotProcess(common, folder / f"bot{i}.log") for i in range(count)]
            group = Bots(sim, url, processes, [0] * count, splitter, folder, common)
            try:
                if start:
                    await start_all(group)
                yield group
            except BaseException:
                keep_logs(folder, token)
                raise
            finally:
                await asyncio.gather(*(p.stop() for p in group.processes), return_exceptions=True)
                await splitter.stop()


def keep_logs(folder: Path, token: str) -> None:
    """A failed test: its processes' logs are kept (the temporary folder goes) and their place printed."""
    kept = Path(tempfile.gettempdir()) / f"multiproc-{token.split(':', 1)[0]}"
    with contextlib.suppress(OSError):
        shutil.copytree(folder, kept, dirs_exist_ok=True)
        print(f"the bot processes' logs: {kept}")


async def start_all(group: Bots) -> None:
    for process in group.processes:
        await process.start()
    for index in range(len(group.processes)):
        await group.listen(index)
    await group.sim.wait_for(lambda: group.sim.webhook_url, timeout=30, message="no setWebhook")
