"""The card table as a Telegram Mini App: a page per match, served by the bot (issue 9).

* ``auth``: checking (and, for local play, signing) Telegram's ``initData``;
* ``frames``: what a page receives, from the engine's views only;
* ``hub``: connected pages and the push of each one's frame at every new version;
* ``bridge``: what the page needs from the running bot (applying an action like a button does);
* ``server``: the aiohttp server (page, WebSocket, JSON state, the bot's webhook when configured);
* ``static/``: the page itself (HTML, CSS, vanilla JavaScript; no build step, no CDN).

``start_for(app)`` starts the server for a running bot Application when ``WEBAPP_PORT`` is set.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Protocol, cast

from aiohttp import web
from aiohttp.typedefs import Handler

from bot.webapp.bridge import PlayingBot, RuntimeBridge
from bot.webapp.links import page_open
from bot.webapp.relay import RedisRelay
from bot.webapp.server import HasBotData, WebAppServer
from engine.game import Match
from storage import match_repo
from storage.models import MatchRecord

log = logging.getLogger(__name__)


class WebAppConfigError(RuntimeError):
    """The page's settings do not fit together (one line saying what to change)."""


class PageSettings(Protocol):
    """The settings the page's server reads (``bot.boot.settings.Settings``)."""

    @property
    def WEBAPP_PORT(self) -> int | None: ...  # noqa: N802 (the settings' names)

    @property
    def WEBAPP_HOST(self) -> str: ...  # noqa: N802

    @property
    def WEBAPP_DEV(self) -> bool: ...  # noqa: N802

    @property
    def WEBAPP_DEV_SECRET(self) -> str | None: ...  # noqa: N802

    @property
    def WEBAPP_INIT_MAX_AGE(self) -> int: ...  # noqa: N802

    @property
    def WEBAPP_RELAY_URL(self) -> str | None: ...  # noqa: N802

    @property
    def TELEGRAM_API_BASE_URL(self) -> str | None: ...  # noqa: N802

    @property
    def TELEGRAM_BOT_TOKEN(self) -> str: ...  # noqa: N802

    @property
    def BOT_LANGUAGE(self) -> str: ...  # noqa: N802


class HandShows(Protocol):
    """The live messages (``bot.tables.live.Live``) as the page's catch-up uses them."""

    async def render_hand(self, row: MatchRecord, m: Match, seat: int, user_id: int) -> None: ...


class PageRuntime(PlayingBot, Protocol):
    """The running bot (``bot.boot.runtime.Runtime``) as the page's start, stop and catch-up use it."""

    @property
    def app(self) -> HasBotData | None: ...

    @property
    def stopping(self) -> bool: ...

    @property
    def live(self) -> HandShows: ...

    def spawn(self, coro: Coroutine[object, object, object]) -> None:
        """Run ``coro`` in a task the bot waits for at stop."""


# what the bot's Application holds for the page (``bot_data``: python-telegram-bot's plain dict, so read here
# once with the types its writers give them: bot.edge.app, bot.edge.webhook, bot.boot.probes / metrics)
def _settings(app: HasBotData) -> PageSettings:
    return cast(PageSettings, app.bot_data["settings"])


def _runtime(app: HasBotData) -> PageRuntime | None:
    return cast("PageRuntime | None", app.bot_data.get("runtime"))


def _webhook_route(app: HasBotData) -> tuple[str, Handler] | None:
    return cast("tuple[str, Handler] | None", app.bot_data.get("webhook_route"))


def _web_routes(app: HasBotData) -> Iterable[Callable[[web.Application], None]]:
    return cast("Iterable[Callable[[web.Application], None]]", app.bot_data.get("web_routes", ()))


async def start_for(app: HasBotData) -> WebAppServer | None:
    """Start the table page's server for ``app`` (after the runtime started); None when not configured."""
    settings = _settings(app)
    rt = cast(PageRuntime, app.bot_data["runtime"])
    if settings.WEBAPP_PORT is None:
        return None
    if settings.WEBAPP_DEV and not settings.TELEGRAM_API_BASE_URL:
        raise WebAppConfigError(
            "WEBAPP_DEV is for local play only (the simulator); it is refused with the real "
            "Telegram: unset WEBAPP_DEV"
        )
    server = WebAppServer(
        RuntimeBridge(rt),
        bot_token=settings.TELEGRAM_BOT_TOKEN,
        default_lang=settings.BOT_LANGUAGE,
        dev=settings.WEBAPP_DEV,
        dev_secret=settings.WEBAPP_DEV_SECRET,
        max_age=settings.WEBAPP_INIT_MAX_AGE,
        webhook=_webhook_route(app),
    )
    for add_routes in _web_routes(app):  # e.g. /healthz and /readyz (bot/boot/probes.py)
        add_routes(server.app)
    try:
        await server.start(settings.WEBAPP_HOST, settings.WEBAPP_PORT)
    except OSError as exc:  # the port is taken: the bot plays on in the chats, without the page
        if _webhook_route(app) is not None:
            raise
        log.warning(
            "the table page is not served: %s:%s: %s", settings.WEBAPP_HOST, settings.WEBAPP_PORT, exc
        )
        return None
    rt.db.version_listeners.append(server.version_listener)
    server.hub.on_seat_closed.append(
        lambda match_id, user_id, seat: rt.spawn(_catch_up(rt, match_id, user_id, seat))
    )
    if settings.WEBAPP_RELAY_URL:  # pages connected to other processes hear of this process's versions
        server.relay = RedisRelay(server.hub, settings.WEBAPP_RELAY_URL, token=settings.TELEGRAM_BOT_TOKEN)
        await server.relay.start()
    app.bot_data["webapp"] = server
    return server


CATCH_UP_AFTER = 5.0  # seconds a seat's page stays closed before its hand message catches up


async def _catch_up(rt: PageRuntime, match_id: int, user_id: int, seat: int) -> None:
    """A seat's page closed: once it has stayed closed ``CATCH_UP_AFTER`` seconds (a phone asleep for a
    moment, a reconnect: nothing to do), bring the seat's chat hand message up to date; it was neither
    edited nor, for a deal that began while the page was open, sent meanwhile: then it is sent now, a
    new hand message with the button that opens the page again (the player's door back)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + CATCH_UP_AFTER
    while loop.time() < until and not rt.stopping:  # a stop does not wait for this (a restart renders all)
        await asyncio.sleep(min(0.25, max(0.0, until - loop.time())))
    if rt.stopping or rt.db is None or page_open(rt, match_id, user_id):
        return
    async with rt.lock(match_id):
        row, m = await match_repo.load_match_row(rt.db, match_id)
        if row.status == "playing":
            await rt.live.render_hand(row, m, seat, user_id)


async def stop_for(app: HasBotData) -> None:
    server = cast("WebAppServer | None", app.bot_data.pop("webapp", None))
    if server is None:
        return
    rt = _runtime(app)
    if rt is not None and rt.db is not None and server.version_listener in rt.db.version_listeners:
        rt.db.version_listeners.remove(server.version_listener)
    if server.relay is not None:
        await server.relay.stop()
    await server.stop()
