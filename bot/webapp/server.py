"""The table page's web server (aiohttp): the page, its WebSocket, a JSON state endpoint and, when
configured, the bot's webhook.

* ``GET /`` the page (``?m=<match>``; inside Telegram the match may also come as ``start_param``
  ``m<match>``, or be the user's current match); ``GET /static/…`` its script and style.
* ``GET /ws`` the WebSocket.  The page says ``{"type": "hello", "init": <initData>, "match": N}``;
  the server checks ``initData`` (``bot.webapp.auth``), answers ``hello`` (seat or spectator,
  language, texts) and the current ``state`` frame, then a ``state`` frame at every new version.
  ``{"type": "act", "id": <request id>, "version": V, "op": "play", "cards": ["♠10"], "arg": …}``
  is answered ``{"type": "ack", "id", "ok", "error"?, "readings"?}``.
* ``GET /api/state?m=N`` with ``Authorization: tma <initData>``: the same frame as JSON.
* Dev mode (``WEBAPP_DEV``, local play without Telegram; refused when the bot talks to the real
  Telegram): ``initData`` is signed with a secret generated at start-up, not the bot token, and
  ``GET /dev`` lists a link per seat and one for a spectator.  The page shows a DEV badge.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
from collections.abc import MutableMapping
from pathlib import Path
from typing import Protocol, TypeVar, cast
from urllib.parse import parse_qsl, quote

from aiohttp import WSMsgType, web
from aiohttp.typedefs import Handler
from sqlalchemy.exc import SQLAlchemyError

from bot.presentation.i18n import catalogue, normalize, rule_error, t
from bot.webapp import frames, public_page
from bot.webapp.auth import InitDataError, WebAppUser, sign_init_data, validate_init_data
from bot.webapp.frames import Frame
from bot.webapp.hub import Hub, PageBridge, Send, Viewer
from bot.webapp.relay import RedisRelay
from engine.errors import RuleError
from storage import match_repo, table_repo
from storage.action_repo import ApplyResult
from storage.errors import StaleVersion

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
TEXT_PREFIXES = ("web.", "turn.", "gd.", "btn.", "reason.", "table.", "page.", "err.select_first")
# Telegram's web clients frame the page (its apps open it in a web view, unframed); nothing else may
TELEGRAM_FRAMERS = "https://web.telegram.org https://webk.telegram.org https://webz.telegram.org"
CSP = (
    "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; "
    f"frame-ancestors {TELEGRAM_FRAMERS}"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
OPS = {"play", "bury", "bid", "overturn", "pass_bid", "pass", "tribute", "ask_counts", "choose"}
REQUEST_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
MAX_FRAME = 16 * 1024
BUSY_CLOSE = 1013  # "try again later": a hello the database could not answer; the page reconnects by itself
T = TypeVar("T")


class HasBotData(Protocol):
    """The bot's Application as this package reads it: its ``bot_data`` (python-telegram-bot's plain dict)."""

    @property
    def bot_data(self) -> MutableMapping[str, object]: ...


def running_server(app: HasBotData | None) -> WebAppServer | None:
    """The table page's server started for ``app`` (``bot_data["webapp"]``, set by ``bot.webapp.start_for``)."""
    server = app.bot_data.get("webapp") if app is not None else None
    return cast("WebAppServer | None", server)


def page_texts(lang: str) -> dict[str, str]:
    """The translations the page uses (from the bot's catalogues)."""
    cat = dict(catalogue("zh"))
    cat.update(catalogue(lang))
    return {k: v for k, v in cat.items() if k.startswith(TEXT_PREFIXES)}


def _guess_lang(init_data: object, default: str) -> str:
    """The language an ``initData`` claims (only to word a refusal; nothing is trusted from it)."""
    if isinstance(init_data, str):
        try:
            user = json.loads(dict(parse_qsl(init_data)).get("user", "{}"))
            return normalize(user.get("language_code"), default)
        except (ValueError, AttributeError):
            pass
    return normalize(None, default)


@web.middleware
async def security_headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The page's headers on every answer (the page, its script and style, the JSON endpoint)."""
    response: web.StreamResponse = await handler(request)
    if not response.prepared:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
    return response


def localised_error(lang: str, err: RuleError) -> str:
    """A rule error in ``lang`` with its combination names in ``lang`` too ("does not beat Pair J")."""
    params = {
        k: frames.combo_label(lang, v) if k == "table" and isinstance(v, str) else v
        for k, v in err.params.items()
    }
    return rule_error(lang, RuleError(err.code, err.template, **params))


class WebAppServer:
    """One aiohttp application serving the page for a running bot (``bridge``: ``RuntimeBridge``)."""

    def __init__(
        self,
        bridge: PageBridge,
        *,
        bot_token: str,
        default_lang: str = "zh",
        dev: bool = False,
        dev_secret: str | None = None,
        max_age: int = 24 * 3600,
        webhook: tuple[str, Handler] | None = None,
    ) -> None:
        self.bridge = bridge
        self.hub = Hub(bridge)
        self.dev = dev
        # dev mode signs with its own secret: a link made here is worthless against the real bot
        self.signing_token = (dev_secret or secrets.token_urlsafe(32)) if dev else bot_token
        self.default_lang = normalize(default_lang)
        self.max_age = max_age
        self.webhook = webhook  # (path, handler) of the bot's webhook, or None
        self.app = self._build()
        self.runner: web.AppRunner | None = None
        self.port: int | None = None
        self.host: str = "127.0.0.1"
        self.relay: RedisRelay | None = None  # between processes

    # --- set-up ---------------------------------------------------------------------------------

    def _build(self) -> web.Application:
        app = web.Application(client_max_size=1024 * 1024, middlewares=[security_headers])
        app.router.add_get("/", self.page)
        app.router.add_get("/ws", self.websocket)
        app.router.add_get("/api/state", self.api_state)
        app.router.add_static("/static/", STATIC, show_index=False)
        public_page.register(app, lambda: self.bridge.db)  # /t/<id>: the public tournament page (issue 20)
        if self.dev:
            app.router.add_get("/dev", self.dev_index)
        if self.webhook is not None:
            path, handler = self.webhook
            app.router.add_post(path, handler)
        return app

    async def start(self, host: str = "127.0.0.1", port: int = 8080) -> int:
        """Listen on ``host:port`` (0: any free port); returns the port."""
        self.runner = web.AppRunner(self.app, access_log=None)
        await self.runner.setup()
        site = web.TCPSite(self.runner, host, port, reuse_address=True)
        await site.start()
        server = site._server  # the asyncio server: its socket tells the port chosen for 0
        self.host = host
        sockets = getattr(server, "sockets", None)
        self.port = int(sockets[0].getsockname()[1]) if sockets else port
        if self.dev:
            log.warning(
                "table page in DEV mode (local initData signing, not for production): %s/dev", self.base_url
            )
        return self.port

    async def stop(self) -> None:
        await self.hub.close()
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def version_listener(self, match_id: int, version: int) -> None:
        self.hub.local_version(match_id, version)

    # --- dev links --------------------------------------------------------------------------------

    def dev_init_data(
        self, user_id: int, first_name: str, language_code: str | None = None, auth_date: int | None = None
    ) -> str:
        user: dict[str, object] = {"id": user_id, "first_name": first_name}
        if language_code:
            user["language_code"] = language_code
        return sign_init_data(self.signing_token, user, auth_date=auth_date)

    def dev_link(self, match_id: int, user_id: int, first_name: str, language_code: str | None = None) -> str:
        init = self.dev_init_data(user_id, first_name, language_code)
        return f"{self.base_url}/?m={match_id}#tgWebAppData={quote(init, safe='')}"

    async def dev_index(self, request: web.Request) -> web.Response:
        rows = []
        for match in await match_repo.active_matches(self.bridge.db):
            seats = await table_repo.get_seats(self.bridge.db, match.table_id)
            for s in seats:
                if s.user_id is not None:
                    rows.append(
                        (
                            f"match {match.id} seat {s.seat}",
                            self.dev_link(match.id, s.user_id, f"user{s.user_id}"),
                        )
                    )
            rows.append((f"match {match.id} spectator", self.dev_link(match.id, 999_999_999, "spectator")))
        items = "".join(f'<li><a href="{url}">{label}</a></li>' for label, url in rows)
        body = (
            f"<!doctype html><meta charset=utf-8><title>DEV</title><h1>DEV: local links</h1><ul>{items}</ul>"
        )
        return web.Response(text=body, content_type="text/html")

    # --- HTTP ------------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.StreamResponse:
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        html = html.replace("__DEV__", "true" if self.dev else "false")
        return web.Response(
            text=html, content_type="text/html", headers={"Cache-Control": "no-store", **SECURITY_HEADERS}
        )

    def authenticate(self, init_data: object) -> WebAppUser:
        return validate_init_data(
            init_data if isinstance(init_data, str) else "", self.signing_token, max_age=self.max_age
        )

    async def api_state(self, request: web.Request) -> web.Response:
        header = request.headers.get("Authorization", "")
        init = header[4:] if header.lower().startswith("tma ") else ""
        lang = _guess_lang(init, self.default_lang)
        try:
            user = self.authenticate(init)
        except InitDataError as err:
            return web.json_response({"error": t(lang, f"web.auth_{err.code}")}, status=401)
        lang = await self.bridge.user_lang(user.id, user.language_code)
        match_id = await self.resolve_match(user, request.query.get("m"))
        if match_id is None:
            return web.json_response({"error": t(lang, "web.no_match")}, status=404)
        seat = await self.seat_of(match_id, user.id)
        if seat is None and not await self.may_watch(match_id, user.id):
            return web.json_response({"error": await self.watch_refusal(match_id, lang)}, status=403)
        return web.json_response(await self.hub.frame_for(match_id, seat, lang))

    async def may_watch(self, match_id: int, user_id: int) -> bool:
        """Whether someone not seated may watch (the tournament organiser's ``page_watch``)."""
        allowed: bool = await self._bridge_call("may_watch", True, match_id, user_id)
        return allowed

    async def watch_refusal(self, match_id: int, lang: str) -> str:
        """The one line a refused watcher reads: who may watch this table."""
        policy = await self.hub.policy(match_id)
        return t(lang, f"page.watch_only_{policy.watch}")

    async def resolve_match(self, user: WebAppUser, requested: object) -> int | None:
        """The match a page asked for (``m``), else its start parameter ``m<id>``, else the user's own."""
        for raw in (
            requested,
            (user.start_param or "")[1:] if (user.start_param or "").startswith("m") else None,
        ):
            if isinstance(raw, int) or (isinstance(raw, str) and raw.isdigit()):
                match_id = int(raw)
                return (
                    match_id if await match_repo.get_match_row(self.bridge.db, match_id) is not None else None
                )
        found: int | None = await self.bridge.user_match(user.id)
        return found

    async def seat_of(self, match_id: int, user_id: int) -> int | None:
        row = await match_repo.get_match_row(self.bridge.db, match_id)
        return None if row is None else await table_repo.seat_of_user(self.bridge.db, row.table_id, user_id)

    # --- the WebSocket ----------------------------------------------------------------------------

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=25, max_msg_size=MAX_FRAME)
        await ws.prepare(request)
        lock = asyncio.Lock()

        async def send(frame: Frame) -> None:
            async with lock:
                await ws.send_str(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))

        viewer: Viewer | None = None
        lang = self.default_lang
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.ERROR:
                        break
                    await send({"type": "error", "code": "bad_frame", "message": t(lang, "web.bad_frame")})
                    continue
                try:
                    data = json.loads(msg.data)
                except ValueError:
                    data = None
                if not isinstance(data, dict) or not isinstance(data.get("type"), str):
                    await send({"type": "error", "code": "bad_frame", "message": t(lang, "web.bad_frame")})
                    continue
                kind = data["type"]
                if kind not in ("ping", "hello", "act", "tables"):
                    await send({"type": "error", "code": "bad_frame", "message": t(lang, "web.bad_frame")})
                elif kind == "ping":
                    await send({"type": "pong"})
                elif kind == "hello":
                    if viewer is not None:
                        self.hub.remove(viewer)
                        viewer = None
                    try:
                        viewer, lang = await self._hello(ws, send, data, lang)
                    except Exception as exc:  # the database busy (a pool timeout) or a fault: logged, refused
                        self._log_failure("hello", data.get("match"), exc)
                        lang = _guess_lang(data.get("init"), self.default_lang)
                        await send({"type": "error", "code": "busy", "message": t(lang, "web.busy")})
                        await ws.close(code=BUSY_CLOSE, message=b"busy")  # the page says hello again
                        break
                    if viewer is None:
                        break
                elif viewer is None:
                    await send(
                        {"type": "error", "code": "hello_first", "message": t(lang, "web.hello_first")}
                    )
                elif kind == "tables":
                    try:
                        await send({"type": "tables", "tables": await self.tables_for(viewer)})
                    except Exception as exc:  # the list comes again at the page's next ask
                        self._log_failure("tables", viewer.match_id, exc)
                else:
                    await self._act(viewer, send, data)
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            if viewer is not None:
                self.hub.remove(viewer)
            if not ws.closed:
                await ws.close()
        return ws

    async def _hello(
        self, ws: web.WebSocketResponse, send: Send, data: Frame, lang: str
    ) -> tuple[Viewer | None, str]:
        lang = _guess_lang(data.get("init"), self.default_lang)
        try:
            user = self.authenticate(data.get("init"))
        except InitDataError as err:
            await send(
                {"type": "error", "code": "auth", "fatal": True, "message": t(lang, f"web.auth_{err.code}")}
            )
            await ws.close(code=4001, message=b"auth")
            return None, lang
        lang = await self.bridge.user_lang(user.id, user.language_code)
        match_id = await self.resolve_match(user, data.get("match"))
        if match_id is None:
            await send(
                {"type": "error", "code": "no_match", "fatal": True, "message": t(lang, "web.no_match")}
            )
            await ws.close(code=4004, message=b"no match")
            return None, lang
        seat = await self.seat_of(match_id, user.id)
        if seat is None and not await self.may_watch(match_id, user.id):
            # no table data at all: one translated line, and the socket closes
            text = await self.watch_refusal(match_id, lang)
            await send({"type": "error", "code": "watch", "fatal": True, "message": text})
            await ws.close(code=4003, message=b"watch")
            return None, lang
        referee = seat is None and await self._bridge_call("is_referee", False, match_id, user.id)
        viewer = Viewer(user_id=user.id, match_id=match_id, seat=seat, lang=lang, send=send, referee=referee)
        hello: Frame = {
            "type": "hello",
            "match": match_id,
            "seat": seat,
            "lang": lang,
            "dev": self.dev,
            "referee": referee,
            "user": {"id": user.id, "name": user.first_name},
            "texts": page_texts(lang),
            "tables": await self.tables_for(viewer),
        }
        if data.get("frame") != "inline":  # a client of the first protocol: hello, then the state frame
            await send(hello)
            self.hub.add(viewer)
            await self.hub.send(viewer, await self.hub.frame_for(match_id, seat, lang, referee=referee))
            return viewer, lang
        # the table page: its first frame inside the hello (the seat's own frame, made as every push's is: the
        # hand of that seat only), so the page draws the table from the one message
        frame = await self.hub.frame_for(match_id, seat, lang, referee=referee)
        await send({**hello, "state": frame})
        viewer.sent = (int(frame["version"]), str(frame["status"]))
        self.hub.add(viewer)  # only now: no push reaches the page before its hello
        row = await match_repo.get_match_row(self.bridge.db, match_id)
        if row is not None and row.version != frame["version"]:  # a version committed meanwhile
            await self.hub.send(viewer, await self.hub.frame_for(match_id, seat, lang, referee=referee))
        return viewer, lang

    @staticmethod
    def _log_failure(what: str, match_id: int | None, exc: Exception) -> None:
        """A page's request the server could not answer: a busy database (a pool timeout, a lost connection)
        is a warning, anything else an error with its traceback (the page gets one translated line)."""
        if isinstance(exc, SQLAlchemyError):
            log.warning("page %s (match %s) refused, the database is busy: %s", what, match_id, exc)
        else:
            log.exception("page %s (match %s) failed", what, match_id)

    async def _bridge_call(self, name: str, default: T, *args: object) -> T:
        """A bridge method a test's stand-in bridge may not have (then ``default``)."""
        method = getattr(self.bridge, name, None)
        if method is None:
            return default
        found: T = await method(*args)
        return found

    async def tables_for(self, viewer: Viewer) -> list[Frame]:
        """The running tables of the viewer's tournament, for someone not seated (a player gets none)."""
        if viewer.seat is not None:
            return []
        found: list[Frame] = await self._bridge_call("tournament_tables", [], viewer.match_id)
        return found

    async def _applied(self, match_id: int, dedupe_key: str) -> bool:
        """Was a request with this dedupe key applied already (a page resending after a reconnect)?"""
        return await match_repo.action_applied(self.bridge.db, match_id, dedupe_key)

    async def _act(self, viewer: Viewer, send: Send, data: Frame) -> None:
        """A page's action, answered by one ack.  A request the server could not carry out (the database's
        pool timing out under load, or a fault) is refused with one translated line and logged, the socket
        stays open; once the ok ack went out the action stands, and a failure after it is only logged."""
        lang = viewer.lang
        rid = data.get("id")
        if not isinstance(rid, str) or not REQUEST_ID.match(rid):
            await send({"type": "ack", "id": None, "ok": False, "error": t(lang, "web.bad_frame")})
            return
        answered: list[bool] = []  # the ok ack was sent (the action is committed)
        try:
            await self._request(viewer, send, data, rid, answered)
        except Exception as exc:
            self._log_failure(f"action {data.get('op')!r}", viewer.match_id, exc)
            if not answered:
                await send({"type": "ack", "id": rid, "ok": False, "error": t(lang, "web.busy")})

    async def _request(self, viewer: Viewer, send: Send, data: Frame, rid: str, answered: list[bool]) -> None:
        lang = viewer.lang

        async def refuse(text: str, **extra: object) -> None:
            await send({"type": "ack", "id": rid, "ok": False, "error": text, **extra})

        if viewer.seat is None:
            await refuse(t(lang, "web.spectator"))
            return
        if "seat" in data and data["seat"] != viewer.seat:
            await refuse(t(lang, "web.not_your_seat"))
            return
        version, op, arg = data.get("version"), data.get("op"), data.get("arg")
        if (
            not isinstance(version, int)
            or isinstance(version, bool)
            or op not in OPS
            or (arg is not None and (not isinstance(arg, str) or len(arg) > 24))
        ):
            await refuse(t(lang, "web.bad_frame"))
            return
        try:
            cards = frames.parse_request_cards(data.get("cards", []))
        except RuleError as err:
            await refuse(localised_error(lang, err))
            return
        cached = self.bridge.db.match_cache.get(viewer.match_id)
        if (
            cached is not None
            and cached[0] > version
            and not await self._applied(viewer.match_id, f"web:{viewer.user_id}:{rid}")
        ):
            # the table moved on (and this is no resent request): refused at once, not after the match's queue
            await refuse(t(lang, "web.stale"))
            await self.hub.send(
                viewer, await self.hub.frame_for(viewer.match_id, viewer.seat, lang), again=True
            )
            return
        if cached is not None and cached[0] == version:  # the engine state the page saw, no database read
            game, m, current = str(cached[1].game), cached[1], version
        else:
            row, m = await match_repo.load_match_row(self.bridge.db, viewer.match_id)
            game, current = row.game, row.version
        # what the seat may do now, only where the request's engine action depends on it (a pass_bid, a tribute)
        me = frames.seat_part(game, m, viewer.seat) if op in frames.OPS_READING_ACTIONS else {}
        if op == "play" and not arg and version == current:  # (Shengji reads a play one way only)
            options = frames.readings(m, viewer.seat, cards)
            if len(options) > 1:
                await refuse(t(lang, "web.choose_reading"), readings=options)
                return
        action = frames.action_text(game, viewer.seat, me, op, cards, arg)
        if action is None:
            await refuse(t(lang, "web.bad_frame"))
            return

        async def committed(applied: ApplyResult) -> None:  # answered at once; the chat messages follow
            answered.append(True)  # committed: whatever fails after this, the action stands
            try:
                await send(
                    {
                        "type": "ack",
                        "id": rid,
                        "ok": True,
                        "version": applied.version,
                        "duplicate": bool(applied.duplicate),
                    }
                )
            except Exception as exc:  # the page went away: the action stands, the page learns it on reconnect
                log.info("could not answer a page: %s", exc)

        try:
            await self.bridge.submit(
                viewer.match_id,
                viewer.seat,
                action,
                expected_version=version,
                user_id=viewer.user_id,
                dedupe_key=f"web:{viewer.user_id}:{rid}",
                on_committed=committed,
            )
        except StaleVersion:
            await refuse(t(lang, "web.stale"))
            await self.hub.send(
                viewer, await self.hub.frame_for(viewer.match_id, viewer.seat, lang), again=True
            )
            return
        except RuleError as err:
            await refuse(localised_error(lang, err))
