"""A local Telegram Bot API server for tests and the offline demo.

python-telegram-bot talks to it through ``base_url`` (``Bot(token, base_url=sim.base_url)``);
tests act as users through the Python API (:meth:`BotApiSimulator.user_sends_text`,
:meth:`BotApiSimulator.press_button`, ...). Answers, object shapes and error descriptions follow
the Bot API. See docs/simulator.md.

The class is assembled from one module per job: ``world`` (shared state), ``bot_api`` (the Bot API
methods), ``people`` (simulated users and groups), ``observing`` (views and waits), ``control``
(HTTP control endpoints); this module is the HTTP server and its lifecycle.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import logging
import re
import time
from collections.abc import Callable
from typing import Any

from aiohttp import web

from bot.devtools.simulator.bot_api import BotApiMethods
from bot.devtools.simulator.control import add_control_routes
from bot.devtools.simulator.errors import ApiError, SimulatorError
from bot.devtools.simulator.faults import Faults
from bot.devtools.simulator.observing import ChatViews
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.people import SimulatedPeople
from bot.devtools.simulator.state import JSON
from bot.devtools.simulator.stats import SimStats
from bot.devtools.simulator.webhook import WebhookDelivery
from bot.devtools.simulator.world import DEFAULT_TOKEN

__all__ = ["DEFAULT_TOKEN", "ApiError", "BotApiSimulator", "SimStats", "SimulatorError"]

log = logging.getLogger(__name__)
_TOKEN_RE = re.compile(r"^\d+:[A-Za-z0-9_-]+$")


class BotApiSimulator(WebhookDelivery, BotApiMethods, SimulatedPeople, ChatViews):
    """The fake Bot API: an aiohttp server on 127.0.0.1 plus a Python API to act as users.

    ``rtt_ms`` adds a simulated network round trip to every Bot API call (half before the call is
    handled, half before its answer leaves): a bot far from Telegram. Other options are those of
    :class:`bot.devtools.simulator.world.SimWorld` (``rate_scale``, ``limits``, ``enforce_rate_limits``, ``clock`` ...).
    """

    def __init__(self, token: str | None = DEFAULT_TOKEN, *, rtt_ms: float = 0.0, **options: Any) -> None:
        super().__init__(token, **options)
        self._webhook_init()
        if rtt_ms < 0:
            raise ValueError("rtt_ms must be >= 0")
        self.faults = (
            Faults()
        )  # errors and stalls it was told to answer with (bot/devtools/simulator/faults.py)
        self.rtt_ms = rtt_ms  # simulated network round trip added to every Bot API call (half each way)
        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self.app = self._build_app()
        self._methods: dict[str, Callable[[Params], Any]] = {}
        for name in dir(self):
            if name.startswith("api_"):
                self._methods[name[4:].lower()] = getattr(self, name)

    # ------------------------------------------------------------------ lifecycle

    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_route("GET", "/file/bot{token}/{path:.+}", self._handle_file)
        add_control_routes(app, self, self)
        return app

    async def start(self) -> BotApiSimulator:
        self._runner = web.AppRunner(self.app, access_log=None, handler_cancellation=True)
        await self._runner.setup()
        self._site = web.TCPSite(self._runner, self.host, self.port)
        await self._site.start()
        server: Any = self._site._server
        if server is not None and getattr(server, "sockets", None):
            self.port = int(server.sockets[0].getsockname()[1])
        return self

    async def stop(self) -> None:
        await self._stop_webhook_delivery()
        self._poll_generation += 1
        self._bump()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> BotApiSimulator:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """What python-telegram-bot needs as ``base_url`` (it appends ``<token>/<method>``)."""
        return f"{self.url}/bot"

    @property
    def base_file_url(self) -> str:
        return f"{self.url}/file/bot"

    # ------------------------------------------------------------------ HTTP layer

    def _check_token(self, token: str) -> bool:
        if self.token is not None:
            return token == self.token
        return bool(_TOKEN_RE.match(token))

    async def _read_params(self, request: web.Request) -> Params:
        values: dict[str, Any] = {k: v for k, v in request.query.items()}
        files: dict[str, tuple[bytes, str | None, str | None]] = {}
        if request.method == "POST" and request.can_read_body:
            ctype = request.content_type
            if ctype == "application/json":
                try:
                    body = await request.json()
                except ValueError:
                    raise ApiError(400, "Bad Request: can't parse JSON body") from None
                if isinstance(body, dict):
                    values.update(body)
            elif ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
                form = await request.post()
                for key, value in form.items():
                    if isinstance(value, web.FileField):
                        files[key] = (value.file.read(), value.filename, value.content_type)
                    else:
                        values[key] = value
        return Params(values, files)

    def _error(self, method: str, exc: ApiError) -> web.Response:
        self.stats.statuses[exc.code] += 1
        self.stats.errors.append((method, exc.code, exc.description))
        body: JSON = {"ok": False, "error_code": exc.code, "description": exc.description}
        if exc.parameters:
            body["parameters"] = exc.parameters
            if "retry_after" in exc.parameters:
                self.stats.retry_after.append(int(exc.parameters["retry_after"]))
        return web.json_response(body, status=exc.code)

    async def _handle_api(self, request: web.Request) -> web.Response:
        """One Bot API call; with ``rtt_ms`` each way of the round trip takes half of it."""
        half_trip = self.rtt_ms / 2000.0
        if half_trip > 0:
            await asyncio.sleep(half_trip)  # the request travelling to Telegram
        response = await self._answer_api(request)
        if half_trip > 0:
            await asyncio.sleep(half_trip)  # the answer travelling back
        return response

    def _chat_kind(self, params: Params) -> str:
        """ "private", "group" (groups and supergroups) or "none" (no chat, or one the simulator does not know)."""
        value = params.raw("chat_id")
        try:
            chat = self.chats.get(int(value)) if value not in (None, "") else None
        except (TypeError, ValueError):
            chat = None
        if chat is None:
            return "none"
        return "group" if chat.is_group else "private"

    async def _answer_api(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        method = request.match_info["method"]
        if not self._check_token(token):
            return self._error(method, ApiError(401, "Unauthorized"))
        handler = self._methods.get(method.lower())
        name = handler.__name__[4:] if handler is not None else method
        self.stats.calls[name] += 1
        if name != "getUpdates":
            self._last_bot_call = time.monotonic()
        if handler is None:
            return self._error(method, ApiError(404, "Not Found"))
        kind = "none"
        try:
            params = await self._read_params(request)
            kind = self._chat_kind(params)
            call = self._call(name, kind, handler, params)
            if self.faults.pending:
                # Telegram completes a request it received, even when the client gave up waiting (a stall past
                # the bot's read timeout): the call runs on though aiohttp cancels this handler
                task = asyncio.ensure_future(call)
                task.add_done_callback(lambda t: t.cancelled() or t.exception())  # retrieved: never logged
                result = await asyncio.shield(task)
            else:
                result = await call
        except ApiError as exc:
            if exc.code == 429:
                self.stats.rate_limited_by_chat_kind[kind] += 1
            return self._error(name, exc)
        self.stats.statuses[200] += 1
        if name != "getUpdates":
            self._last_bot_call = time.monotonic()
        return web.json_response(
            {"ok": True, "result": result}, dumps=lambda o: json.dumps(o, ensure_ascii=False)
        )

    async def _call(self, name: str, kind: str, handler: Any, params: Any) -> Any:
        await self.faults.apply(name, params.raw("chat_id"))  # told to answer 429 / 502 or stall (faults.py)
        self.stats.calls_by_chat_kind[(name, kind)] += 1
        result = handler(params)
        if inspect.isawaitable(result):
            result = await result
        return result

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if not self._check_token(request.match_info["token"]):
            return web.json_response(
                {"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401
            )
        path = request.match_info["path"]
        for stored in self.files.values():
            if stored.path == path:
                return web.Response(
                    body=stored.content, content_type=stored.mime_type or "application/octet-stream"
                )
        return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)
