"""A local Telegram Bot API server for tests and the offline demo.

python-telegram-bot talks to it through ``base_url`` (``Bot(token, base_url=sim.base_url)``);
tests act as users through the Python API (:meth:`BotApiSimulator.user_sends_text`,
:meth:`BotApiSimulator.press_button`, ...). Answers, object shapes and error descriptions follow
the Bot API. See docs/simulator.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import inspect
import io
import itertools
import json
import logging
import math
import mimetypes
import re
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar
from urllib.parse import parse_qs, urlparse

from aiohttp import web

from bot.simulator.formatting import ParseError, command_entities, parse_text, utf16_len
from bot.simulator.limits import (
    CALLBACK_QUERY_TIMEOUT,
    MAX_BUTTONS,
    MAX_BUTTONS_PER_ROW,
    MAX_CALLBACK_ANSWER_LENGTH,
    MAX_CALLBACK_DATA_BYTES,
    MAX_CAPTION_LENGTH,
    MAX_COMMANDS,
    MAX_TEXT_LENGTH,
    RATE_LIMITED_METHODS,
    RateLimiter,
    RateLimits,
)
from bot.simulator.state import (
    JSON,
    CallbackAnswer,
    CallbackQueryRecord,
    Event,
    MessageVersion,
    SimChat,
    SimMessage,
    SimUser,
    StoredFile,
)

log = logging.getLogger(__name__)
T = TypeVar("T")

DEFAULT_TOKEN = "123456789:SIMULATOR-token_for-tests"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
_TOKEN_RE = re.compile(r"^\d+:[A-Za-z0-9_-]+$")
_BUTTON_ACTIONS = (
    "callback_data",
    "url",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "callback_game",
    "pay",
    "web_app",
    "copy_text",
)


class ApiError(Exception):
    """An error answer of the Bot API: ``{"ok": false, "error_code": code, "description": ...}``."""

    def __init__(self, code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters


class SimulatorError(RuntimeError):
    """A test asked a simulated user to do something a real Telegram client could not do."""


@dataclass
class SimStats:
    """Every Bot API call the bot made, by method, and every error answer."""

    calls: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[tuple[str, int, str]] = field(default_factory=list)  # (method, code, description)
    retry_after: list[int] = field(default_factory=list)
    # Seconds from getUpdates handing a callback query to the bot to the bot's answerCallbackQuery.
    callback_latencies: list[float] = field(default_factory=list)

    def callback_latency(self, quantile: float) -> float | None:
        """A quantile (0.5 = median, 0.99) of the callback answer latencies, in seconds."""
        if not self.callback_latencies:
            return None
        ordered = sorted(self.callback_latencies)
        index = min(len(ordered) - 1, max(0, math.ceil(quantile * len(ordered)) - 1))
        return ordered[index]

    @property
    def rate_limited(self) -> int:
        """Number of 429 answers."""
        return self.statuses[429]

    @property
    def client_errors(self) -> int:
        """Number of 4xx answers (429 included)."""
        return sum(n for code, n in self.statuses.items() if 400 <= code < 500)

    @property
    def message_calls(self) -> int:
        """Calls that send or edit a message (the ones the rate limits count)."""
        return sum(n for method, n in self.calls.items() if method in RATE_LIMITED_METHODS)

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    def calls_excluding_polling(self) -> int:
        return self.total_calls - self.calls["getUpdates"]

    def snapshot(self) -> JSON:
        return {
            "calls": dict(sorted(self.calls.items())),
            "total_calls": self.total_calls,
            "calls_excluding_getUpdates": self.calls_excluding_polling(),
            "message_calls": self.message_calls,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "rate_limited": self.rate_limited,
            "client_errors": self.client_errors,
            "errors": [list(e) for e in self.errors[-50:]],
            "callback_answers": len(self.callback_latencies),
            "callback_latency_p50_s": self.callback_latency(0.5),
            "callback_latency_p99_s": self.callback_latency(0.99),
        }


class _Params:
    """Request parameters from a query string, JSON body, urlencoded or multipart form.

    Values from forms are strings (python-telegram-bot JSON-encodes non-string values).
    """

    def __init__(self, values: dict[str, Any], files: dict[str, tuple[bytes, str | None, str | None]]) -> None:
        self.values = values
        self.files = files

    def has(self, name: str) -> bool:
        return self.values.get(name) not in (None, "") or name in self.files

    def raw(self, name: str) -> Any:
        return self.values.get(name)

    def text(self, name: str, default: str | None = None) -> str | None:
        value = self.values.get(name)
        if value is None:
            return default
        return value if isinstance(value, str) else json.dumps(value)

    def integer(self, name: str, default: int | None = None) -> int | None:
        value = self.values.get(name)
        if value in (None, ""):
            return default
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def number(self, name: str, default: float = 0.0) -> float:
        value = self.values.get(name)
        if value in (None, ""):
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.values.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        return str(value).lower() in ("true", "1", "yes")

    def obj(self, name: str, what: str | None = None) -> Any:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise ApiError(400, f"Bad Request: can't parse {what or name} JSON object") from None
        return value


class BotApiSimulator:
    """The fake Bot API: an aiohttp server on 127.0.0.1 plus a Python API to act as users.

    ``rate_scale`` divides every rate-limit time window (``rate_scale=20``: 20 messages per second
    per chat instead of 1). ``clock`` (monotonic seconds) may be injected to make rate-limit tests
    deterministic.
    """

    def __init__(
        self,
        token: str | None = DEFAULT_TOKEN,
        *,
        bot_username: str = "ShengjiSimBot",
        bot_first_name: str = "双升掼蛋 Bot",
        bot_id: int | None = None,
        rate_scale: float = 1.0,
        host: str = "127.0.0.1",
        port: int = 0,
        limits: RateLimits | None = None,
        enforce_rate_limits: bool = True,
        privacy_mode: bool = True,
        clock: Callable[[], float] = time.monotonic,
        callback_query_timeout: float = CALLBACK_QUERY_TIMEOUT,
    ) -> None:
        if rate_scale <= 0:
            raise ValueError("rate_scale must be positive")
        self.token = token
        self.bot_username = bot_username
        self.bot_first_name = bot_first_name
        if bot_id is None:
            prefix = (token or "").split(":", 1)[0]
            bot_id = int(prefix) if prefix.isdigit() else 123456789
        self.bot_id = bot_id
        self.rate_scale = rate_scale
        self.host = host
        self.port = port
        self.privacy_mode = privacy_mode
        self.clock = clock
        self.callback_query_timeout = callback_query_timeout
        self.limiter = RateLimiter(rate_scale=rate_scale, limits=limits or RateLimits(), clock=clock,
                                   enabled=enforce_rate_limits)
        self.stats = SimStats()

        self.users: dict[int, SimUser] = {}
        self.chats: dict[int, SimChat] = {}
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.events: list[Event] = []
        self.files: dict[str, StoredFile] = {}
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.webhook_url: str = ""
        self.default_menu_button: JSON = {"type": "commands"}

        self._updates: list[JSON] = []
        self._next_update_id = 1
        self._allowed_updates: list[str] | None = None
        self._poll_generation = 0
        self._seq = itertools.count(1)
        self._query_ids = itertools.count(4_000_000_000_000_001)
        self._file_ids = itertools.count(1)
        self._changed = asyncio.Event()
        self._version = 0
        self._last_bot_call = 0.0

        self._runner: web.AppRunner | None = None
        self._site: web.TCPSite | None = None
        self.app = self._build_app()
        self._methods: dict[str, Callable[[_Params], Any]] = {}
        for name in dir(self):
            if name.startswith("api_"):
                self._methods[name[4:].lower()] = getattr(self, name)

    # ------------------------------------------------------------------ lifecycle

    def _build_app(self) -> web.Application:
        app = web.Application(client_max_size=60 * 1024 * 1024)
        app.router.add_route("*", "/bot{token}/{method}", self._handle_api)
        app.router.add_route("GET", "/file/bot{token}/{path:.+}", self._handle_file)
        from bot.simulator.control import add_control_routes

        add_control_routes(app, self)
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

    @property
    def bot_user(self) -> JSON:
        return {"id": self.bot_id, "is_bot": True, "first_name": self.bot_first_name, "username": self.bot_username}

    # ------------------------------------------------------------------ notification / waiting

    def _bump(self) -> None:
        self._version += 1
        event, self._changed = self._changed, asyncio.Event()
        event.set()

    async def wait_for(self, predicate: Callable[[], T | None | Awaitable[T | None]], timeout: float = 10.0,
                       message: str | None = None) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every state change); return its value."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if inspect.isawaitable(value):
                value = await value
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(message or f"simulator: condition not met within {timeout} s")
            event = self._changed
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, 0.2))

    async def wait_for_message(self, chat_id: int, predicate: Callable[[SimMessage], bool] | str | None = None,
                               *, timeout: float = 10.0, after: SimMessage | int | None = None,
                               include_edits: bool = True) -> SimMessage:
        """Wait for a bot message in ``chat_id`` matching ``predicate`` (a callable or a substring).

        ``after``: only messages with a higher message_id (a message or an id). With
        ``include_edits`` the current text of edited messages counts too.
        """
        after_id = after.message_id if isinstance(after, SimMessage) else (after or 0)
        check: Callable[[SimMessage], bool]
        if isinstance(predicate, str):
            needle = predicate

            def check(m: SimMessage) -> bool:
                return needle in (m.text or m.caption or "")
        else:
            check = predicate or (lambda m: True)

        def find() -> SimMessage | None:
            for m in reversed(self.messages(chat_id)):
                if m.from_bot and m.message_id > after_id and (include_edits or m.edit_count == 0) and check(m):
                    return m
            return None

        return await self.wait_for(find, timeout, f"no bot message matching {predicate!r} in chat {chat_id} within {timeout} s")

    async def wait_updates_consumed(self, timeout: float = 10.0) -> None:
        """Wait until the bot has fetched and confirmed every pending update."""
        await self.wait_for(lambda: not self._updates, timeout, "the bot did not fetch the pending updates")

    async def wait_quiet(self, quiet: float = 0.3, timeout: float = 30.0) -> None:
        """Wait until no update is pending and the bot made no call (getUpdates aside) for ``quiet`` s."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            idle = time.monotonic() - self._last_bot_call
            if not self._updates and idle >= quiet:
                return
            await asyncio.sleep(max(0.02, min(quiet - idle, 0.1)))
        raise TimeoutError(f"the bot kept calling the API for {timeout} s")

    # ------------------------------------------------------------------ HTTP layer

    def _check_token(self, token: str) -> bool:
        if self.token is not None:
            return token == self.token
        return bool(_TOKEN_RE.match(token))

    async def _read_params(self, request: web.Request) -> _Params:
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
        return _Params(values, files)

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
        try:
            params = await self._read_params(request)
            result = handler(params)
            if inspect.isawaitable(result):
                result = await result
        except ApiError as exc:
            return self._error(name, exc)
        self.stats.statuses[200] += 1
        if name != "getUpdates":
            self._last_bot_call = time.monotonic()
        return web.json_response({"ok": True, "result": result}, dumps=lambda o: json.dumps(o, ensure_ascii=False))

    async def _handle_file(self, request: web.Request) -> web.StreamResponse:
        if not self._check_token(request.match_info["token"]):
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        path = request.match_info["path"]
        for stored in self.files.values():
            if stored.path == path:
                return web.Response(body=stored.content, content_type=stored.mime_type or "application/octet-stream")
        return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)

    # ------------------------------------------------------------------ helpers

    def _now(self) -> int:
        return int(time.time())

    def _event(self, kind: str, chat_id: int, **kwargs: Any) -> None:
        self.events.append(Event(seq=next(self._seq), kind=kind, chat_id=chat_id, **kwargs))

    def _enqueue(self, kind: str, payload: JSON) -> JSON:
        update = {"update_id": self._next_update_id, kind: payload}
        self._next_update_id += 1
        if self._allowed_updates and kind not in self._allowed_updates:
            self._bump()  # as on Telegram: an update type the bot did not ask for is dropped
            return update
        self._updates.append(update)
        self._bump()
        return update

    def _chat_api(self, chat: SimChat) -> JSON:
        return chat.to_api(self.users)

    def _sender_api(self, message: SimMessage) -> JSON:
        if message.from_bot:
            return self.bot_user
        return self.users[message.from_id].to_api()

    def message_api(self, message: SimMessage, with_reply: bool = True) -> JSON:
        """The Bot API ``Message`` object of a stored message."""
        chat = self.chats[message.chat_id]
        reply = None
        if with_reply and message.reply_to_message_id is not None:
            original = chat.messages.get(message.reply_to_message_id)
            if original is not None and not original.deleted:
                reply = self.message_api(original, with_reply=False)
        return message.to_api(self._chat_api(chat), self._sender_api(message), reply)

    def _chat_for_bot(self, chat_id: int | None) -> SimChat:
        """The chat the bot addresses, with Telegram's checks (exists, started, not blocked, member)."""
        if chat_id is None:
            raise ApiError(400, "Bad Request: chat_id is empty")
        chat = self.chats.get(chat_id)
        if chat is None and chat_id in self.users:
            chat = self._private_chat(chat_id)  # a known user: Telegram answers 403 below, not "not found"
        if chat is None:
            raise ApiError(400, "Bad Request: chat not found")
        if chat.type == "private":
            user = self.users[chat.user_id] if chat.user_id is not None else None
            if user is None:
                raise ApiError(400, "Bad Request: chat not found")
            if user.blocked:
                raise ApiError(403, "Forbidden: bot was blocked by the user")
            if not user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
        elif not chat.bot_is_member:
            if chat.type == "supergroup":
                raise ApiError(403, "Forbidden: bot is not a member of the supergroup chat")
            raise ApiError(403, "Forbidden: bot is not a member of the group chat")
        return chat

    def _chat_id_param(self, p: _Params) -> int | None:
        value = p.raw("chat_id")
        if value in (None, ""):
            return None
        if isinstance(value, str) and value.startswith("@"):
            raise ApiError(400, "Bad Request: chat not found")
        return p.integer("chat_id")

    def _rate_check(self, chat: SimChat) -> None:
        retry = self.limiter.check(chat.id, chat.is_group)
        if retry is not None:
            raise ApiError(429, f"Too Many Requests: retry after {retry}", {"retry_after": retry})

    def _validate_markup(self, markup: Any) -> JSON | None:
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, "Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" in markup:
            rows = markup["inline_keyboard"]
            if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
                raise ApiError(400, 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup should be an Array of Arrays')
            total = sum(len(row) for row in rows)
            if total > MAX_BUTTONS or any(len(row) > MAX_BUTTONS_PER_ROW for row in rows):
                raise ApiError(400, "Bad Request: reply markup is too long")
            for row in rows:
                for button in row:
                    if not isinstance(button, dict) or not isinstance(button.get("text"), str):
                        raise ApiError(400, "Bad Request: can't parse inline keyboard button: Text must be a String")
                    if not button["text"]:
                        raise ApiError(400, "Bad Request: BUTTON_TEXT_INVALID")
                    if "callback_data" in button:
                        data = button["callback_data"]
                        size = len(str(data).encode("utf-8"))
                        if not isinstance(data, str) or size < 1 or size > MAX_CALLBACK_DATA_BYTES:
                            raise ApiError(400, "Bad Request: BUTTON_DATA_INVALID")
                    elif "url" in button:
                        scheme = urlparse(str(button["url"])).scheme
                        if scheme not in ("http", "https", "tg"):
                            raise ApiError(400, "Bad Request: BUTTON_URL_INVALID")
                    elif not any(action in button for action in _BUTTON_ACTIONS):
                        raise ApiError(400, "Bad Request: text buttons are unallowed in the inline keyboard")
            return {"inline_keyboard": copy.deepcopy(rows)}
        if "keyboard" in markup:
            rows = markup["keyboard"]
            if not isinstance(rows, list) or sum(len(r) for r in rows) > 300:
                raise ApiError(400, "Bad Request: reply markup is too long")
        return copy.deepcopy(markup)

    def _parse(self, text: str, parse_mode: str | None, limit: int, too_long: str, entities: Any = None) -> tuple[str, list[JSON]]:
        try:
            plain, parsed = parse_text(text, parse_mode)
        except ParseError as exc:
            raise ApiError(400, str(exc)) from None
        if entities and not parse_mode and isinstance(entities, list):
            parsed = copy.deepcopy(entities)
        if len(plain.strip()) == 0:
            return plain, parsed
        if utf16_len(plain) > limit:
            raise ApiError(400, too_long)
        return plain, parsed

    def _reply_to(self, p: _Params, chat: SimChat) -> int | None:
        reply_to = p.integer("reply_to_message_id")
        parameters = p.obj("reply_parameters")
        if isinstance(parameters, dict) and parameters.get("message_id") is not None:
            reply_to = int(parameters["message_id"])
            allow = bool(parameters.get("allow_sending_without_reply"))
        else:
            allow = p.flag("allow_sending_without_reply")
        if reply_to is not None and (reply_to not in chat.messages or chat.messages[reply_to].deleted):
            if allow:
                return None
            raise ApiError(400, "Bad Request: message to be replied not found")
        return reply_to

    def _store(self, chat: SimChat, message: SimMessage) -> SimMessage:
        chat.messages[message.message_id] = message
        chat.next_message_id = message.message_id + 1
        return message

    def _new_message(self, chat: SimChat, *, from_id: int, from_bot: bool, version: MessageVersion,
                     reply_to: int | None = None) -> SimMessage:
        return SimMessage(
            chat_id=chat.id,
            message_id=chat.next_message_id,
            from_id=from_id,
            from_bot=from_bot,
            date=version.date,
            versions=[version],
            seq=next(self._seq),
            reply_to_message_id=reply_to,
        )

    def _bot_message(self, p: _Params, *, for_edit: bool) -> tuple[SimChat, SimMessage]:
        if p.has("inline_message_id"):
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        chat = self._chat_for_bot(self._chat_id_param(p))
        message_id = p.integer("message_id")
        if message_id is None:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise ApiError(400, "Bad Request: message to edit not found" if for_edit else "Bad Request: message to delete not found")
        return chat, message

    # ------------------------------------------------------------------ Bot API methods

    def api_getMe(self, p: _Params) -> JSON:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def api_logOut(self, p: _Params) -> bool:
        return True

    def api_close(self, p: _Params) -> bool:
        return True

    def api_setWebhook(self, p: _Params) -> bool:
        url = p.text("url") or ""
        self.webhook_url = url
        if p.flag("drop_pending_updates"):
            self._updates.clear()
        return True

    def api_deleteWebhook(self, p: _Params) -> bool:
        self.webhook_url = ""
        if p.flag("drop_pending_updates"):
            self._updates.clear()
            self._bump()
        return True

    def api_getWebhookInfo(self, p: _Params) -> JSON:
        return {"url": self.webhook_url, "has_custom_certificate": False, "pending_update_count": len(self._updates)}

    def _mark_delivered(self, updates: list[JSON]) -> None:
        now = time.monotonic()
        for update in updates:
            query = update.get("callback_query")
            if query is not None:
                record = self.callback_queries.get(query["id"])
                if record is not None and record.delivered_at is None:
                    record.delivered_at = now

    def _available_updates(self, limit: int) -> list[JSON]:
        return self._updates[:limit]

    async def api_getUpdates(self, p: _Params) -> list[JSON]:
        if self.webhook_url:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first")
        offset = p.integer("offset", 0) or 0
        limit = max(1, min(100, p.integer("limit", 100) or 100))
        timeout = max(0.0, p.number("timeout", 0.0))
        allowed = p.obj("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = [str(a) for a in allowed] or None
            if self._allowed_updates:
                kept = [u for u in self._updates if _update_kind(u) in self._allowed_updates]
                if len(kept) != len(self._updates):
                    self._updates = kept
                    self._bump()
        # Confirm: every update with an id below offset is forgotten; a negative offset keeps the last -offset.
        if offset > 0:
            before = len(self._updates)
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if len(self._updates) != before:
                self._bump()
        elif offset < 0:
            self._updates = self._updates[offset:]
            self._bump()
        self._poll_generation += 1
        generation = self._poll_generation
        self._bump()  # wakes an older long poll, which answers 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            updates = self._available_updates(limit)
            if updates:
                self._mark_delivered(updates)
                return copy.deepcopy(updates)
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return []
            if generation != self._poll_generation:
                raise ApiError(409, "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running")

    # commands -------------------------------------------------------------

    def _command_key(self, p: _Params) -> tuple[str, str]:
        scope = p.obj("scope", "scope") or {"type": "default"}
        if not isinstance(scope, dict) or "type" not in scope:
            raise ApiError(400, "Bad Request: can't parse BotCommandScope JSON object")
        return json.dumps(scope, sort_keys=True), p.text("language_code") or ""

    def api_setMyCommands(self, p: _Params) -> bool:
        commands = p.obj("commands", "commands")
        if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
            raise ApiError(400, "Bad Request: BOT_COMMANDS_TOO_MUCH" if isinstance(commands, list) else "Bad Request: can't parse commands JSON object")
        cleaned = []
        for command in commands:
            if not isinstance(command, dict):
                raise ApiError(400, "Bad Request: can't parse BotCommand JSON object")
            name = str(command.get("command", ""))
            description = str(command.get("description", ""))
            if not re.fullmatch(r"[a-z0-9_]{1,32}", name):
                raise ApiError(400, "Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(description) <= 256:
                raise ApiError(400, "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
            cleaned.append({"command": name, "description": description})
        key = self._command_key(p)
        if cleaned:
            self.commands[key] = cleaned
        else:
            self.commands.pop(key, None)
        return True

    def api_getMyCommands(self, p: _Params) -> list[JSON]:
        return copy.deepcopy(self.commands.get(self._command_key(p), []))

    def api_deleteMyCommands(self, p: _Params) -> bool:
        self.commands.pop(self._command_key(p), None)
        return True

    def api_setChatMenuButton(self, p: _Params) -> bool:
        button = p.obj("menu_button", "menu_button") or {"type": "default"}
        chat_id = self._chat_id_param(p)
        if chat_id is None:
            self.default_menu_button = button
        else:
            self._chat_for_bot(chat_id).menu_button = button
        return True

    def api_getChatMenuButton(self, p: _Params) -> JSON:
        chat_id = self._chat_id_param(p)
        if chat_id is None:
            return dict(self.default_menu_button)
        return dict(self._chat_for_bot(chat_id).menu_button)

    # chats ----------------------------------------------------------------

    def api_getChat(self, p: _Params) -> JSON:
        chat_id = self._chat_id_param(p)
        chat = self.chats.get(chat_id) if chat_id is not None else None
        if chat is None or (chat.type == "private" and not self.users[chat.user_id or 0].started):
            raise ApiError(400, "Bad Request: chat not found")
        data = self._chat_api(chat)
        data.update({"accent_color_id": 0, "max_reaction_count": 11, "accepted_gift_types": {
            "unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False, "premium_subscription": False,
            "gifts_from_channels": False}})
        if chat.type == "private":
            data["bio"] = ""
        if chat.pinned:
            data["pinned_message"] = self.message_api(chat.messages[chat.pinned[-1]], with_reply=False)
        return data

    def _member_api(self, chat: SimChat, user_id: int) -> JSON:
        if user_id == self.bot_id:
            user = self.bot_user
            status = "administrator" if chat.bot_is_admin else ("member" if chat.bot_is_member else "left")
        else:
            sim_user = self.users.get(user_id)
            if sim_user is None:
                raise ApiError(400, "Bad Request: user not found")
            user = sim_user.to_api()
            if chat.type == "private":
                status = "member" if chat.user_id == user_id else "left"
            elif user_id == chat.owner_id:
                status = "creator"
            elif user_id in chat.admins:
                status = "administrator"
            elif user_id in chat.members:
                status = "member"
            else:
                status = "left"
        return _member_object(user, status)

    def api_getChatMember(self, p: _Params) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        user_id = p.integer("user_id")
        if user_id is None:
            raise ApiError(400, "Bad Request: user_id is empty")
        return self._member_api(chat, user_id)

    def api_getChatAdministrators(self, p: _Params) -> list[JSON]:
        chat = self._chat_for_bot(self._chat_id_param(p))
        if not chat.is_group:
            raise ApiError(400, "Bad Request: there are no administrators in the private chat")
        ids = ([chat.owner_id] if chat.owner_id is not None else []) + sorted(chat.admins - {chat.owner_id})
        result = [self._member_api(chat, uid) for uid in ids]
        if chat.bot_is_admin:
            result.append(self._member_api(chat, self.bot_id))
        return result

    def api_getChatMemberCount(self, p: _Params) -> int:
        chat = self._chat_for_bot(self._chat_id_param(p))
        return len(chat.members) + (1 if chat.bot_is_member else 0) if chat.is_group else 2

    def _can_pin(self, chat: SimChat) -> None:
        if chat.is_group and not chat.bot_is_admin:
            raise ApiError(400, "Bad Request: not enough rights to manage pinned messages in the chat")

    def api_pinChatMessage(self, p: _Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        message_id = p.integer("message_id")
        if message_id is None or message_id not in chat.messages or chat.messages[message_id].deleted:
            raise ApiError(400, "Bad Request: message to pin not found")
        self._can_pin(chat)
        if message_id in chat.pinned:
            chat.pinned.remove(message_id)
        chat.pinned.append(message_id)
        self._event("pin", chat.id, message_id=message_id)
        self._bump()
        return True

    def api_unpinChatMessage(self, p: _Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        self._can_pin(chat)
        message_id = p.integer("message_id")
        if message_id is None:
            if chat.pinned:
                chat.pinned.pop()
        elif message_id in chat.pinned:
            chat.pinned.remove(message_id)
        else:
            raise ApiError(400, "Bad Request: message to unpin not found")
        self._bump()
        return True

    def api_unpinAllChatMessages(self, p: _Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        self._can_pin(chat)
        chat.pinned.clear()
        self._bump()
        return True

    def api_leaveChat(self, p: _Params) -> bool:
        chat = self._chat_for_bot(self._chat_id_param(p))
        if not chat.is_group:
            raise ApiError(400, "Bad Request: chat member status can't be changed in private chats")
        chat.bot_is_member = False
        chat.bot_is_admin = False
        self._bump()
        return True

    def api_setMyName(self, p: _Params) -> bool:
        return True

    def api_setMyDescription(self, p: _Params) -> bool:
        return True

    def api_setMyShortDescription(self, p: _Params) -> bool:
        return True

    def api_sendChatAction(self, p: _Params) -> bool:
        self._chat_for_bot(self._chat_id_param(p))
        if not p.text("action"):
            raise ApiError(400, "Bad Request: action is empty")
        return True

    # messages -------------------------------------------------------------

    def api_sendMessage(self, p: _Params) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        raw = p.text("text")
        if raw is None or raw == "":
            raise ApiError(400, "Bad Request: message text is empty")
        text, entities = self._parse(raw, p.text("parse_mode"), MAX_TEXT_LENGTH, "Bad Request: message is too long",
                                     p.obj("entities"))
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        reply_to = self._reply_to(p, chat)
        self._rate_check(chat)
        version = MessageVersion(text=text, entities=entities, reply_markup=markup, date=self._now())
        message = self._store(chat, self._new_message(chat, from_id=self.bot_id, from_bot=True, version=version,
                                                      reply_to=reply_to))
        self._event("send", chat.id, message_id=message.message_id, text=text)
        self._bump()
        return self.message_api(message)

    def _upload(self, p: _Params, field_name: str, default_name: str, default_mime: str | None) -> StoredFile:
        value = p.raw(field_name)
        if isinstance(value, str) and value.startswith("attach://"):
            upload = p.files.get(value[len("attach://"):])
        else:
            upload = p.files.get(field_name)
        if upload is not None:
            content, filename, mime = upload
            number = next(self._file_ids)
            stored = StoredFile(
                file_id=f"SIMFILE{number:06d}-{field_name}",
                file_unique_id=f"SIMU{number:06d}",
                content=content,
                filename=filename or default_name,
                mime_type=mime if mime and mime != "application/octet-stream" else default_mime or mime,
                path=f"{field_name}s/file_{number}_{filename or default_name}",
            )
            self.files[stored.file_id] = stored
            return stored
        if isinstance(value, str) and value:
            if value in self.files:
                return self.files[value]
            if value.startswith(("http://", "https://")):
                raise ApiError(400, "Bad Request: failed to get HTTP URL content")
            raise ApiError(400, "Bad Request: wrong file identifier/HTTP URL specified")
        raise ApiError(400, f"Bad Request: there is no {field_name} in the request")

    def _send_media(self, p: _Params, kind: str) -> JSON:
        chat = self._chat_for_bot(self._chat_id_param(p))
        stored = self._upload(p, kind, "photo.jpg" if kind == "photo" else "file", "image/jpeg" if kind == "photo" else None)
        caption_raw = p.text("caption")
        caption: str | None = None
        entities: list[JSON] = []
        if caption_raw:
            caption, entities = self._parse(caption_raw, p.text("parse_mode"), MAX_CAPTION_LENGTH,
                                            "Bad Request: message caption is too long", p.obj("caption_entities"))
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        reply_to = self._reply_to(p, chat)
        self._rate_check(chat)
        version = MessageVersion(text=None, entities=entities, reply_markup=markup, date=self._now(), caption=caption,
                                 method="sendPhoto" if kind == "photo" else "sendDocument")
        message = self._new_message(chat, from_id=self.bot_id, from_bot=True, version=version, reply_to=reply_to)
        info: JSON = {"file_id": stored.file_id, "file_unique_id": stored.file_unique_id, "bytes": stored.content,
                      "filename": stored.filename, "mime_type": stored.mime_type}
        if kind == "photo":
            info["width"], info["height"] = _image_size(stored.content)
            message.photo = info
        else:
            message.document = info
        self._store(chat, message)
        self._event("send", chat.id, message_id=message.message_id, text=caption, data={"media": kind, "filename": stored.filename})
        self._bump()
        return self.message_api(message)

    def api_sendPhoto(self, p: _Params) -> JSON:
        return self._send_media(p, "photo")

    def api_sendDocument(self, p: _Params) -> JSON:
        return self._send_media(p, "document")

    def api_getFile(self, p: _Params) -> JSON:
        stored = self.files.get(p.text("file_id") or "")
        if stored is None:
            raise ApiError(400, "Bad Request: invalid file_id")
        return {"file_id": stored.file_id, "file_unique_id": stored.file_unique_id, "file_size": len(stored.content),
                "file_path": stored.path}

    def api_editMessageText(self, p: _Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        raw = p.text("text")
        if raw is None or raw == "":
            raise ApiError(400, "Bad Request: message text is empty")
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.text is None:
            raise ApiError(400, "Bad Request: there is no text in the message to edit")
        text, entities = self._parse(raw, p.text("parse_mode"), MAX_TEXT_LENGTH, "Bad Request: message is too long",
                                     p.obj("entities"))
        if not text.strip():
            raise ApiError(400, "Bad Request: message text is empty")
        # As on Telegram: an edit without reply_markup removes the inline keyboard.
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if text == current.text and entities == current.entities and _same_markup(markup, current.reply_markup):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(message, MessageVersion(text=text, entities=entities, reply_markup=markup,
                                                        date=self._now(), method="editMessageText"))

    def api_editMessageCaption(self, p: _Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        if message.photo is None and message.document is None:
            raise ApiError(400, "Bad Request: there is no caption in the message to edit")
        caption_raw = p.text("caption") or ""
        caption, entities = self._parse(caption_raw, p.text("parse_mode"), MAX_CAPTION_LENGTH,
                                        "Bad Request: message caption is too long", p.obj("caption_entities"))
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if (caption or None) == current.caption and entities == current.entities and _same_markup(markup, current.reply_markup):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(message, MessageVersion(text=None, entities=entities, reply_markup=markup,
                                                        date=self._now(), caption=caption or None,
                                                        method="editMessageCaption"))

    def api_editMessageReplyMarkup(self, p: _Params) -> JSON:
        chat, message = self._bot_message(p, for_edit=True)
        if not message.from_bot:
            raise ApiError(400, "Bad Request: message can't be edited")
        markup = self._validate_markup(p.obj("reply_markup", "reply keyboard markup"))
        current = message.current
        if _same_markup(markup, current.reply_markup):
            raise ApiError(400, NOT_MODIFIED)
        self._rate_check(chat)
        return self._apply_edit(message, MessageVersion(text=current.text, entities=current.entities, reply_markup=markup,
                                                        date=self._now(), caption=current.caption,
                                                        method="editMessageReplyMarkup"))

    def _apply_edit(self, message: SimMessage, version: MessageVersion) -> JSON:
        message.versions.append(version)
        message.edit_date = version.date
        self._event("edit", message.chat_id, message_id=message.message_id, text=version.text or version.caption,
                    data={"method": version.method, "version": len(message.versions) - 1})
        self._bump()
        return self.message_api(message)

    def api_deleteMessage(self, p: _Params) -> bool:
        chat, message = self._bot_message(p, for_edit=False)
        if not message.from_bot and chat.is_group and not chat.bot_is_admin:
            raise ApiError(400, "Bad Request: message can't be deleted")
        message.deleted = True
        self._event("delete", chat.id, message_id=message.message_id)
        self._bump()
        return True

    def api_answerCallbackQuery(self, p: _Params) -> bool:
        query_id = p.text("callback_query_id") or ""
        record = self.callback_queries.get(query_id)
        if record is None or record.answered or self.clock() - record.created > self.callback_query_timeout:
            raise ApiError(400, QUERY_TOO_OLD)
        text = p.text("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
        record.answered = True
        record.answered_at = time.monotonic()
        if record.delivered_at is not None:
            self.stats.callback_latencies.append(record.answered_at - record.delivered_at)
        record.text = text or None
        record.show_alert = p.flag("show_alert")
        record.url = p.text("url")
        self._event("answer", record.chat_id, message_id=record.message_id, user_id=record.user_id, text=record.text,
                    data={"show_alert": record.show_alert, "query_id": record.id})
        self._bump()
        return True

    # ------------------------------------------------------------------ acting as users (Python API)

    def add_user(self, user_id: int, first_name: str | None = None, *, username: str | None = None,
                 language_code: str | None = None, last_name: str | None = None, started: bool = False) -> SimUser:
        """Create a Telegram user. ``started=True`` opens the private chat silently (no /start update)."""
        if user_id <= 0:
            raise ValueError("user ids are positive")
        user = SimUser(id=user_id, first_name=first_name or f"User{user_id}", last_name=last_name, username=username,
                       language_code=language_code)
        self.users[user_id] = user
        if started:
            user.started = True
            self._private_chat(user_id)
        self._bump()
        return user

    def _private_chat(self, user_id: int) -> SimChat:
        chat = self.chats.get(user_id)
        if chat is None:
            chat = SimChat(id=user_id, type="private", user_id=user_id)
            self.chats[user_id] = chat
        return chat

    def add_group(self, chat_id: int, title: str, member_ids: Iterable[int] = (), admin_ids: Iterable[int] = (), *,
                  owner_id: int | None = None, bot_is_admin: bool = False, chat_type: str | None = None) -> SimChat:
        """Create a group with the bot in it. Admins are members too; the owner (default: first admin) is "creator"."""
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        admins = list(admin_ids)
        for uid in [*member_ids, *admins]:
            if uid not in self.users:
                raise SimulatorError(f"unknown user {uid}: add_user first")
        chat = SimChat(
            id=chat_id,
            type=chat_type or ("supergroup" if chat_id <= -1_000_000_000_000 else "group"),
            title=title,
            members=set(member_ids) | set(admins),
            admins=set(admins),
            owner_id=owner_id if owner_id is not None else (admins[0] if admins else None),
            bot_is_admin=bot_is_admin,
        )
        if chat.owner_id is not None:
            chat.members.add(chat.owner_id)
            chat.admins.add(chat.owner_id)
        self.chats[chat_id] = chat
        self._bump()
        return chat

    def add_member(self, chat_id: int, user_id: int, *, admin: bool = False) -> None:
        chat = self._group(chat_id)
        chat.members.add(user_id)
        if admin:
            chat.admins.add(user_id)

    def remove_bot_from_group(self, chat_id: int, by_user_id: int | None = None) -> None:
        """An admin removes the bot from the group: sends there now fail with 403; a my_chat_member update."""
        chat = self._group(chat_id)
        if not chat.bot_is_member:
            return
        chat.bot_is_member = False
        chat.bot_is_admin = False
        actor = self._user(by_user_id if by_user_id is not None else (chat.owner_id or next(iter(chat.members))))
        self._my_chat_member(chat, actor, "member", "left")

    def add_bot_to_group(self, chat_id: int, by_user_id: int | None = None, *, admin: bool = False) -> None:
        chat = self._group(chat_id)
        was_member = chat.bot_is_member
        chat.bot_is_member = True
        chat.bot_is_admin = admin
        if not was_member:
            actor = self._user(by_user_id if by_user_id is not None else (chat.owner_id or next(iter(chat.members))))
            self._my_chat_member(chat, actor, "left", "administrator" if admin else "member")

    def remove_member(self, chat_id: int, user_id: int) -> None:
        chat = self._group(chat_id)
        chat.members.discard(user_id)
        chat.admins.discard(user_id)

    def _group(self, chat_id: int) -> SimChat:
        chat = self.chats.get(chat_id)
        if chat is None or not chat.is_group:
            raise SimulatorError(f"no group {chat_id}")
        return chat

    def _user(self, user_id: int) -> SimUser:
        user = self.users.get(user_id)
        if user is None:
            raise SimulatorError(f"unknown user {user_id}: add_user first")
        return user

    def _delivered_to_bot(self, chat: SimChat, text: str, entities: list[JSON], reply_to: int | None) -> bool:
        if chat.type == "private" or not self.privacy_mode:
            return True
        if reply_to is not None:
            original = chat.messages.get(reply_to)
            if original is not None and original.from_bot:
                return True
        if entities and entities[0]["type"] == "bot_command" and entities[0]["offset"] == 0:
            command = text[: entities[0]["length"]]
            if "@" not in command:
                return True
            return command.split("@", 1)[1].lower() == self.bot_username.lower()
        return False

    def user_sends_text(self, user_id: int, chat_id: int, text: str, *, reply_to_message_id: int | None = None) -> SimMessage:
        """The user types ``text`` in ``chat_id`` (their private chat with the bot is ``chat_id == user_id``).

        Commands (``/cmd``, ``/cmd@botname``) get ``bot_command`` entities. In groups, with privacy mode on
        (the default, as for real bots), the bot only receives commands and replies to its own messages.
        """
        user = self._user(user_id)
        if not text:
            raise SimulatorError("empty message")
        chat = self._chat_user_writes_in(user, chat_id, reply_to_message_id)
        entities = command_entities(text)
        version = MessageVersion(text=text, entities=entities, reply_markup=None, date=self._now(), method="user")
        message = self._store(chat, self._new_message(chat, from_id=user_id, from_bot=False, version=version,
                                                      reply_to=reply_to_message_id))
        self._event("user_text", chat.id, message_id=message.message_id, user_id=user_id, text=text)
        if self._delivered_to_bot(chat, text, entities, reply_to_message_id):
            self._enqueue("message", self.message_api(message))
        else:
            self._bump()
        return message

    def _chat_user_writes_in(self, user: SimUser, chat_id: int, reply_to_message_id: int | None) -> SimChat:
        """The chat ``user`` may write in (their private chat with the bot, or a group they belong to)."""
        user_id = user.id
        if chat_id == user_id:
            if user.blocked:
                raise SimulatorError(f"user {user_id} blocked the bot: user_starts_bot() unblocks it")
            chat = self._private_chat(user_id)
            user.started = True
        else:
            group = self.chats.get(chat_id)
            if group is None or not group.is_group:
                raise SimulatorError(f"no chat {chat_id} the user can write in (private chat id = user id)")
            chat = group
            if user_id not in chat.members:
                raise SimulatorError(f"user {user_id} is not a member of group {chat_id}")
        if reply_to_message_id is not None and reply_to_message_id not in chat.messages:
            raise SimulatorError(f"no message {reply_to_message_id} in chat {chat_id}")
        return chat

    def user_sends_document(self, user_id: int, chat_id: int, content: bytes | str, file_name: str, *,
                            mime_type: str | None = None, caption: str | None = None,
                            reply_to_message_id: int | None = None) -> SimMessage:
        """The user sends a file (a ``Message`` with ``document``) in ``chat_id`` (private chat: ``user_id``).

        The file is stored like the bot's uploads: ``getFile`` gives its ``file_path`` and the bot downloads it
        from ``/file/bot<token>/<file_path>`` (PTB: ``base_file_url``). ``str`` content is sent as UTF-8.
        A caption starting with a command gets ``bot_command`` entities; in groups with privacy mode on the
        bot receives the document only when its caption is a command for it or it replies to the bot.
        """
        user = self._user(user_id)
        data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
        if not data:
            raise SimulatorError("empty file")  # Telegram refuses to send an empty file
        if not file_name:
            raise SimulatorError("a document needs a file name")
        chat = self._chat_user_writes_in(user, chat_id, reply_to_message_id)
        if mime_type is None:
            mime_type = mimetypes.guess_type(file_name)[0] or "application/octet-stream"
        number = next(self._file_ids)
        safe_name = re.sub(r"[^A-Za-z0-9._-]", "_", file_name)
        stored = StoredFile(file_id=f"SIMFILE{number:06d}-user-document", file_unique_id=f"SIMU{number:06d}",
                            content=data, filename=file_name, mime_type=mime_type,
                            path=f"documents/user_{number}_{safe_name}")
        self.files[stored.file_id] = stored
        entities = command_entities(caption) if caption else []
        version = MessageVersion(text=None, entities=entities, reply_markup=None, date=self._now(), caption=caption,
                                 method="user")
        message = self._new_message(chat, from_id=user_id, from_bot=False, version=version,
                                    reply_to=reply_to_message_id)
        message.document = {"file_id": stored.file_id, "file_unique_id": stored.file_unique_id, "bytes": data,
                            "filename": file_name, "mime_type": mime_type}
        self._store(chat, message)
        self._event("user_document", chat.id, message_id=message.message_id, user_id=user_id, text=caption,
                    data={"filename": file_name, "size": len(data)})
        if self._delivered_to_bot(chat, caption or "", entities, reply_to_message_id):
            self._enqueue("message", self.message_api(message))
        else:
            self._bump()
        return message

    def user_starts_bot(self, user_id: int, payload: str | None = None) -> SimMessage:
        """The user presses START (or opens a ``t.me/<bot>?start=<payload>`` link): "/start [payload]"."""
        user = self._user(user_id)
        was_blocked = user.blocked
        user.blocked = False
        user.started = True
        chat = self._private_chat(user_id)
        if was_blocked:
            self._my_chat_member(chat, user, "kicked", "member")
        self._event("start", chat.id, user_id=user_id, text=payload)
        return self.user_sends_text(user_id, user_id, "/start" + (f" {payload}" if payload else ""))

    def follow_link(self, user_id: int, url: str) -> SimMessage:
        """The user opens a deep link ``https://t.me/<bot>?start=<payload>``."""
        parsed = urlparse(url)
        if parsed.netloc not in ("t.me", "telegram.me") or parsed.path.strip("/").lower() != self.bot_username.lower():
            raise SimulatorError(f"{url!r} is not a link to @{self.bot_username}")
        payload = parse_qs(parsed.query).get("start", [None])[0]
        return self.user_starts_bot(user_id, payload)

    def block_bot(self, user_id: int) -> None:
        """The user blocks the bot: sends to their private chat now fail with 403."""
        user = self._user(user_id)
        if user.blocked:
            return
        user.blocked = True
        chat = self._private_chat(user_id)
        self._event("block", chat.id, user_id=user_id)
        self._my_chat_member(chat, user, "member", "kicked")

    def unblock_bot(self, user_id: int) -> SimMessage:
        return self.user_starts_bot(user_id)

    def _my_chat_member(self, chat: SimChat, user: SimUser, old: str, new: str) -> None:
        old_member = _member_object(self.bot_user, old)
        new_member = _member_object(self.bot_user, new)
        self._enqueue("my_chat_member", {"chat": self._chat_api(chat), "from": user.to_api(), "date": self._now(),
                                         "old_chat_member": old_member, "new_chat_member": new_member})

    def press_button(self, user_id: int, chat_id: int, message_id: int, callback_data: str | None = None, *,
                     text: str | None = None) -> str:
        """The user taps an inline button (given by ``callback_data`` or its ``text``); returns the query id.

        Like a real client, only a button on the message's *current* keyboard can be pressed.
        """
        user = self._user(user_id)
        chat = self.chats.get(chat_id)
        if chat is None:
            raise SimulatorError(f"no chat {chat_id}")
        if chat.type == "private" and chat.user_id != user_id:
            raise SimulatorError(f"user {user_id} cannot see the private chat {chat_id}")
        if chat.is_group and user_id not in chat.members:
            raise SimulatorError(f"user {user_id} is not a member of group {chat_id}")
        message = chat.messages.get(message_id)
        if message is None or message.deleted:
            raise SimulatorError(f"no message {message_id} in chat {chat_id}")
        if text is not None:
            button = message.button(text)
            if "callback_data" not in button:
                raise SimulatorError(f"button {text!r} has no callback data: {button}")
            callback_data = str(button["callback_data"])
        if callback_data is None or callback_data not in message.callback_data():
            raise SimulatorError(
                f"message {message_id} in chat {chat_id} has no button with data {callback_data!r}; "
                f"current buttons: {[(b.get('text'), b.get('callback_data')) for b in message.buttons()]}"
            )
        query_id = str(next(self._query_ids))
        self.callback_queries[query_id] = CallbackQueryRecord(
            id=query_id, user_id=user_id, chat_id=chat_id, message_id=message_id, data=callback_data,
            created=self.clock())
        label = next((b.get("text") for b in message.buttons() if b.get("callback_data") == callback_data), callback_data)
        self._event("press", chat_id, message_id=message_id, user_id=user_id, text=str(label),
                    data={"callback_data": callback_data, "query_id": query_id})
        self._enqueue("callback_query", {
            "id": query_id,
            "from": user.to_api(),
            "message": self.message_api(message),
            "chat_instance": str(abs(chat_id) * 7919 + self.bot_id),
            "data": callback_data,
        })
        return query_id

    def callback_answer(self, query_id: str) -> CallbackAnswer | None:
        """What the user saw after pressing (toast or alert text), or None while the bot has not answered."""
        record = self.callback_queries.get(query_id)
        if record is None:
            raise SimulatorError(f"unknown callback query {query_id}")
        if not record.answered:
            return None
        return CallbackAnswer(text=record.text, show_alert=record.show_alert, url=record.url)

    async def wait_callback_answer(self, query_id: str, timeout: float = 10.0) -> CallbackAnswer:
        return await self.wait_for(lambda: self.callback_answer(query_id), timeout,
                                   f"callback query {query_id} not answered within {timeout} s")

    async def press_and_wait(self, user_id: int, chat_id: int, message_id: int, callback_data: str | None = None, *,
                             text: str | None = None, timeout: float = 10.0) -> CallbackAnswer:
        query_id = self.press_button(user_id, chat_id, message_id, callback_data, text=text)
        return await self.wait_callback_answer(query_id, timeout)

    # ------------------------------------------------------------------ views

    def chat(self, chat_id: int) -> SimChat:
        chat = self.chats.get(chat_id)
        if chat is None:
            raise SimulatorError(f"no chat {chat_id}")
        return chat

    def messages(self, chat_id: int, *, include_deleted: bool = False, from_bot: bool | None = None) -> list[SimMessage]:
        """Messages of a chat in order (bot's and users'); ``from_bot`` filters by sender."""
        chat = self.chats.get(chat_id)
        if chat is None:
            return []
        return [m for _, m in sorted(chat.messages.items())
                if (include_deleted or not m.deleted) and (from_bot is None or m.from_bot == from_bot)]

    def bot_messages(self, chat_id: int, **kwargs: Any) -> list[SimMessage]:
        return self.messages(chat_id, from_bot=True, **kwargs)

    def last_message(self, chat_id: int, *, from_bot: bool | None = None) -> SimMessage | None:
        found = self.messages(chat_id, from_bot=from_bot)
        return found[-1] if found else None

    def last_bot_message(self, chat_id: int) -> SimMessage | None:
        return self.last_message(chat_id, from_bot=True)

    def message(self, chat_id: int, message_id: int) -> SimMessage:
        message = self.chat(chat_id).messages.get(message_id)
        if message is None:
            raise SimulatorError(f"no message {message_id} in chat {chat_id}")
        return message

    def find_button(self, chat_id: int, text: str) -> tuple[SimMessage, JSON]:
        """The newest bot message in the chat with a button labelled ``text`` (exactly, else containing it)."""
        for exact in (True, False):
            for message in reversed(self.bot_messages(chat_id)):
                for button in message.buttons():
                    label = str(button.get("text", ""))
                    if label == text if exact else text in label:
                        return message, button
        raise SimulatorError(f"no button {text!r} on any bot message in chat {chat_id}")

    def history(self, chat_id: int, message_id: int) -> list[MessageVersion]:
        """Every state the message went through: the original first, then each edit."""
        return list(self.message(chat_id, message_id).versions)

    def seen_texts(self, chat_id: int) -> list[str]:
        """Every text (and caption and button label) the bot ever showed in a chat, edits included."""
        seen: list[str] = []
        for message in self.messages(chat_id, include_deleted=True, from_bot=True):
            for version in message.versions:
                if version.text:
                    seen.append(version.text)
                if version.caption:
                    seen.append(version.caption)
                for row in (version.reply_markup or {}).get("inline_keyboard", []):
                    seen.extend(str(b.get("text", "")) for b in row)
        return seen

    def pending_updates(self) -> list[JSON]:
        return copy.deepcopy(self._updates)

    def transcript(self, chat_id: int, **kwargs: Any) -> str:
        from bot.simulator.transcript import format_chat

        return format_chat(self, chat_id, **kwargs)

    def reset_stats(self) -> None:
        self.stats = SimStats()


def _member_object(user: JSON, status: str) -> JSON:
    """A ChatMember object of the given status, with the fields PTB requires."""
    if status == "creator":
        return {"status": "creator", "user": user, "is_anonymous": False}
    if status == "administrator":
        rights = dict.fromkeys(
            ("can_be_edited", "is_anonymous", "can_post_stories", "can_edit_stories", "can_delete_stories",
             "can_promote_members"), False)
        rights.update(dict.fromkeys(
            ("can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members",
             "can_change_info", "can_invite_users", "can_pin_messages"), True))
        return {"status": "administrator", "user": user, **rights}
    if status == "kicked":
        return {"status": "kicked", "user": user, "until_date": 0}
    return {"status": status, "user": user}


def _update_kind(update: JSON) -> str:
    return next(k for k in update if k != "update_id")


def _same_markup(a: JSON | None, b: JSON | None) -> bool:
    empty: tuple[Any, ...] = ({}, {"inline_keyboard": []}, None)
    if a in empty and b in empty:
        return True
    return a == b


def _image_size(content: bytes) -> tuple[int, int]:
    try:
        from PIL import Image

        with Image.open(io.BytesIO(content)) as image:
            return int(image.width), int(image.height)
    except Exception:  # not an image: Telegram would refuse, the simulator just reports 0x0
        return 0, 0
