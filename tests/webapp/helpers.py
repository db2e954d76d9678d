"""Shared by the table page tests: a local bot with the page in DEV mode, a table, page clients."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bot.devtools.webapp_local import local_bot, open_local_table
from storage import match_repo

FAST = {"AI_DELAY": 0.0, "DEAL_BATCH": 25, "DEAL_BATCH_DELAY": 0.0, "DEMO_PACE": 0.0, "POLL_TIMEOUT": 1}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.name}: {record.getMessage()}")


@dataclass
class LocalTable:
    sim: Any
    real: Any
    user_id: int
    match_id: int
    port: int

    @property
    def rt(self) -> Any:
        return self.real.app.bot_data["runtime"]

    @property
    def server(self) -> Any:
        return self.real.app.bot_data["webapp"]

    def init_data(
        self,
        user_id: int | None = None,
        name: str = "你",
        lang: str = "zh-hans",
        auth_date: int | None = None,
    ) -> str:
        return self.server.dev_init_data(self.user_id if user_id is None else user_id, name, lang, auth_date)

    def link(self, user_id: int | None = None, name: str = "你", lang: str = "zh-hans") -> str:
        return self.server.dev_link(self.match_id, self.user_id if user_id is None else user_id, name, lang)

    async def version(self) -> int:
        row = await match_repo.get_match_row(self.rt.db, self.match_id)
        return int(row.version)

    async def actions(self) -> list[Any]:
        return await match_repo.action_log(self.rt.db, self.match_id)


@contextlib.asynccontextmanager
async def local_table(
    tmp_path: Path, command: str, *, lang: str = "zh", **settings: Any
) -> AsyncIterator[LocalTable]:
    errors = ErrorLog()
    logging.getLogger().addHandler(errors)
    port = free_port()
    try:
        async with local_bot(str(tmp_path), port=port, lang=lang, **{**FAST, **settings}) as (
            sim,
            real,
            _srv,
            uid,
        ):
            match_id = await open_local_table(sim, real, command, uid, lang=lang)
            yield LocalTable(sim, real, uid, match_id, port)
    finally:
        logging.getLogger().removeHandler(errors)
    assert not errors.records, "errors were logged:\n" + "\n".join(errors.records)


class PageClient:
    """A page's WebSocket without a browser: hello, then frames; ``act`` answers the ack."""

    def __init__(self, session: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.session, self.ws = session, ws
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        self.counter = 0

    @classmethod
    async def open(cls, table: LocalTable) -> PageClient:
        session = aiohttp.ClientSession()
        ws = await session.ws_connect(f"http://127.0.0.1:{table.port}/ws")
        return cls(session, ws)

    async def close(self) -> None:
        await self.ws.close()
        await self.session.close()

    async def send(self, obj: Any) -> None:
        await self.ws.send_str(obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False))

    async def receive(self, timeout: float = 10.0) -> dict[str, Any] | None:
        msg = await self.ws.receive(timeout=timeout)
        if msg.type != aiohttp.WSMsgType.TEXT:
            return None
        frame = json.loads(msg.data)
        self.frames.append(frame)
        if frame.get("type") == "state":
            self.state = frame
        if frame.get("type") == "hello" and "state" in frame:  # the first frame inside the hello
            self.state = frame["state"]
        return frame

    async def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no frame matched in {timeout}s; last: {str(self.frames[-1:])[:400]}")
            frame = await self.receive(timeout=left)
            if frame is None:
                raise AssertionError("the connection closed")
            if predicate(frame):
                return frame

    async def hello(self, init: str, match: int | None, *, inline: bool = False) -> dict[str, Any]:
        """``inline``: as the table page says it, the first state frame inside the server's hello."""
        await self.send(
            {"type": "hello", "init": init, "match": match, **({"frame": "inline"} if inline else {})}
        )
        return await self.until(lambda f: f.get("type") in ("hello", "error"))

    async def act(
        self,
        op: str,
        cards: list[str] | None = None,
        *,
        version: int | None = None,
        rid: str | None = None,
        **extra: Any,
    ) -> dict[str, Any]:
        self.counter += 1
        rid = rid or f"t{self.counter}"
        assert self.state is not None
        await self.send(
            {
                "type": "act",
                "id": rid,
                "op": op,
                "cards": cards or [],
                "version": self.state["version"] if version is None else version,
                **extra,
            }
        )
        return await self.until(lambda f: f.get("type") == "ack" and f.get("id") == rid)


def my_turn(frame: dict[str, Any]) -> bool:
    return (
        frame.get("type") == "state"
        and frame.get("status") == "playing"
        and bool((frame.get("me") or {}).get("actions", {}).get("turns"))
    )


async def wait_until(check: Callable[[], Any], timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = await check() if asyncio.iscoroutinefunction(check) else check()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError("condition not met in time")
