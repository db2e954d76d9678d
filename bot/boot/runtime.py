"""The running bot: database, outbox, deadline scheduler, and the three parts of play.

* ``bot.tables.lobby.Lobby``: tables before play (create, seat, leave, start, stop; the lobby message);
* ``bot.tables.driver.Driver``: a match in play (apply actions, computer seats, dealing, clocks, pacing);
* ``bot.tables.live.Live``: what a match shows (group table message, private hand messages, announcements).

``Runtime`` owns what the three share (settings, database, outbox, scheduler, per-match locks,
background tasks, chat languages); it keeps no facade: the handlers call ``runtime.lobby``,
``runtime.driver`` and ``runtime.live`` themselves, the tournament side and the page reach them through
their own ports (bot/edge/tournament/play_side.py, bot/webapp/bridge.py).  Start-up opens the database (migrations), starts the outbox and the scheduler and resumes
live tables (``resume_all``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections.abc import Coroutine
from datetime import datetime
from typing import Any

from bot.backup import BackupJob
from bot.boot.alerts import Alerts
from bot.boot.metrics import Metrics, for_settings
from bot.boot.settings import Settings
from bot.delivery.command_menu import set_commands
from bot.delivery.message_claims import MessageClaims
from bot.delivery.outbox import BotSender, Outbox
from bot.delivery.sending import Sending
from bot.delivery.shared_limits import SharedLimits
from bot.presentation.i18n import normalize
from bot.tables.driver import Driver
from bot.tables.live import Live
from bot.tables.lobby import Lobby
from bot.tables.names import TableNames
from bot.tables.ports import MatchOverHook
from bot.tables.seats import SeatIndex, load_seats
from bot.tables.thinking import THINKER
from bot.webapp import links
from scheduler.deadlines import DeadlineScheduler
from storage import match_repo, message_repo, pending_send_repo, privacy_repo, table_repo, user_repo
from storage.db import open_database

log = logging.getLogger(__name__)

PURGE_EVERY = 3600.0  # seconds between two retention purges (CASUAL_RETENTION_DAYS)
CACHE_MAX = 10_000  # entries of an in-memory cache (languages, users seen) before it is emptied and refilled
HASH_PERSIST_SECONDS = 5.0

__all__ = ["Runtime"]


class OpenPages:
    """The table pages open on this process (the page's server registered in the application)."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime

    def page_open(self, match_id: int, user_id: int) -> bool:
        return links.page_open(self.runtime, match_id, user_id)


class Runtime:
    def __init__(self, app: Any, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.db: Any = None
        self.outbox: Outbox | None = None
        self.messages = Sending()  # new messages go to the outbox running now (bot/delivery/sending.py)
        self.scheduler: Any = None
        self.shared_limits: SharedLimits | None = None  # when TELEGRAM_LIMITS_URL is set
        self.claims: Any = (
            None  # bot/delivery/message_claims.py when WEBAPP_RELAY_URL is set (several processes)
        )
        self.started = False
        self.stopping = False
        self.bot_username: str | None = None
        # a lock lives while someone holds or waits on it (weak values): the map never outgrows the live matches
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[object]] = set()
        self._chat_langs: dict[int, str] = {}
        self._user_langs: dict[tuple[int, str | None], str] = {}
        self._persist_task: asyncio.Task[None] | None = None
        self._persist_stop = asyncio.Event()  # set at shutdown: the hash task ends between two writes
        self.seen_users: set[tuple[object, ...]] = (
            set()
        )  # users stored since start-up (handlers skip the write)
        # called with (match_id, match_over event data) once a match's result is committed and announced
        # (in a task of their own, one after the other; a hook that raises is logged and the next one runs)
        self.match_over_hooks: list[MatchOverHook] = []
        self.seats = SeatIndex()  # who sits where in the live matches (rebuilt at start-up)
        # the composition root: each service receives the narrow ports it uses (bot/tables/ports.py)
        self.thinker = THINKER  # strong computer players and the /review coach, in worker processes
        self.alerts: Alerts | None = None  # the admins told of 429s, late clocks, ... (bot/boot/alerts.py)
        self.metrics = for_settings(settings)  # Prometheus hooks, no-ops unless METRICS_ENABLED
        self.names = TableNames(self)
        clocks: dict[int, datetime] = {}  # match -> when its move clock runs out: the driver's, shown by live
        self.live = Live(
            self,
            self.names,
            OpenPages(self),
            clocks,
            lobby_lost=lambda table_id: self.lobby.render_lobby(table_id),
        )
        self.driver = Driver(self, settings, names=self.names, shows=self.live, deadlines=clocks)
        self.lobby = Lobby(self, names=self.names, shows=self.live, steps=self.driver)

    @property
    def admin_ids(self) -> frozenset[int]:
        """The bot's administrators (``BOT_ADMIN_IDS``)."""
        return frozenset(self.settings.BOT_ADMIN_IDS)

    # --- life cycle -------------------------------------------------------------------------

    async def startup(self) -> None:
        self.stopping = False
        self.db = await open_database(self.settings.DATABASE_URL)
        # one process (no Redis relay or shared limits): every write goes through this process, which may then
        # keep the committed match rows, the users and the selections in memory (storage.match_cache, user_repo, selection_repo)
        self.db.sole_writer = not (self.settings.WEBAPP_RELAY_URL or self.settings.TELEGRAM_LIMITS_URL)
        self.db.casual_ratings = (
            self.settings.CASUAL_RATINGS
        )  # casual matches rated (storage/ratings_casual.py)
        if self.settings.TELEGRAM_LIMITS_URL:  # several processes: Telegram's limits shared through Redis
            self.shared_limits = SharedLimits(
                self.settings.TELEGRAM_LIMITS_URL,
                self.settings.TELEGRAM_BOT_TOKEN,
                rate_scale=self.settings.TELEGRAM_RATE_SCALE,
            )
            await self.shared_limits.start()
        if self.settings.WEBAPP_RELAY_URL:  # several processes: one of them sends each new hand message
            self.claims = MessageClaims(self.settings.WEBAPP_RELAY_URL, self.settings.TELEGRAM_BOT_TOKEN)
            await self.claims.start()
        self.outbox = Outbox(
            self.metrics.sender(BotSender(self.app.bot, self.settings.TELEGRAM_SEND_TIMEOUT)),
            rate_scale=self.settings.TELEGRAM_RATE_SCALE,
            on_error=self.live.send_refused,
            on_missing=self.live.message_gone,
            limits=self.shared_limits,
        )
        self.outbox.start()
        self.messages.attach(self.outbox)
        left = await pending_send_repo.take_pending_messages(
            self.db
        )  # sends of record the last stop could not deliver
        if left:
            log.info("outbox: %d sends of record left by the last stop queued again", len(left))
            self.outbox.restore(left)
        self._persist_stop.clear()
        self._persist_task = asyncio.get_running_loop().create_task(self._persist_hashes(), name="hashes")
        for ref in await message_repo.list_message_refs(self.db):
            self.outbox.remember(ref.chat_id, ref.message_id, ref.last_text_hash)
        try:
            self.bot_username = self.app.bot.username
        except Exception:
            self.bot_username = None
        await set_commands(self.app.bot, tournaments="tournaments" in self.app.bot_data)
        self.scheduler = DeadlineScheduler()
        self.driver.register_deadlines(self.scheduler)
        await self.scheduler.start(self.db)
        self.seats = await load_seats(self.db)
        self.metrics.watch(self)
        self.alerts = Alerts(self)
        self.alerts.watch()
        self.backups = BackupJob.of(self.settings)  # BACKUP_DIR + BACKUP_EVERY_HOURS (bot/backup)
        if self.backups is not None:
            self.scheduler.every("backup", self.settings.BACKUP_EVERY_HOURS * 3600, self.backups)
        if self.settings.CASUAL_RETENTION_DAYS > 0:  # finished casual matches older than that are deleted
            self.scheduler.every("casual_purge", PURGE_EVERY, self.purge_casual)
        if isinstance(self.metrics, Metrics):  # GET /metrics on the web server (started after this)
            self.app.bot_data.setdefault("web_routes", []).append(
                self.metrics.routes(self.settings.METRICS_TOKEN)
            )
        self.started = True
        await self.resume_all()

    async def purge_casual(self) -> int:
        """The retention purge: finished casual matches older than ``CASUAL_RETENTION_DAYS`` (storage/privacy_repo)."""
        n = await privacy_repo.purge_casual(self.db, self.settings.CASUAL_RETENTION_DAYS)
        if n:
            log.info("retention: %s finished casual matches deleted", n)
        return n

    async def stop(self) -> None:
        self.stopping = True
        self.driver.stop()
        # let steps in flight finish (a cancelled database call would be logged as an error)
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=10)
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task

    async def shutdown(self) -> None:
        await self.stop()
        if self.alerts is not None:
            await self.alerts.stop()
        if self.scheduler is not None:
            with contextlib.suppress(Exception):
                await self.scheduler.shutdown(timeout=2)
        if self._persist_task is not None:
            # never cancelled: a write cancelled half-way leaves its SQLite connection holding the write
            # lock (the next write waits for it and fails with "database is locked") and loses the hashes
            self._persist_stop.set()
            with contextlib.suppress(Exception):
                await self._persist_task
            self._persist_task = None
        if self.outbox is not None:
            left = await self.outbox.stop(drain=True, timeout=5)
            if left and self.db is not None:
                await pending_send_repo.save_pending_messages(
                    self.db, left
                )  # queued again at the next start-up
            await self.live.persist_hashes()
        if self.db is not None:
            await self.db.dispose()
        if self.shared_limits is not None:
            await self.shared_limits.stop()
            self.shared_limits = None
        if self.claims is not None:
            await self.claims.stop()
            self.claims = None
        self.started = False

    async def _persist_hashes(self) -> None:
        """Every few seconds, store what the live messages show (off the outbox's path)."""
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._persist_stop.wait(), HASH_PERSIST_SECONDS)
            if self._persist_stop.is_set():
                return  # shutdown stores the last ones itself, after the outbox has stopped
            await self.live.persist_hashes()
            if self.claims is not None:  # several processes: a /lang answered by another one shows here too
                self._chat_langs.clear()
                self._user_langs.clear()

    async def resume_all(self) -> None:
        """After a restart: re-render live tables and continue their next step."""
        for row in await match_repo.active_matches(self.db):
            table = await table_repo.get_table(self.db, row.table_id)
            if table is None or table.status != "playing":
                continue
            try:
                async with self.lock(row.id):
                    _, m = await match_repo.load_match_row(self.db, row.id)
                    await self.live.render_match(row.id, everything=True)
                self.driver.schedule_next(row.id, m)
            except Exception:
                log.exception("could not resume match %s", row.id)

    # --- shared helpers ---------------------------------------------------------------------

    def group_lang(self) -> str:
        """The default language of groups (``BOT_LANGUAGE``)."""
        return normalize(self.settings.BOT_LANGUAGE)

    async def chat_lang(self, chat_id: int) -> str:
        """A group's language: set by an admin's ``/lang`` there, else ``BOT_LANGUAGE``."""
        if chat_id not in self._chat_langs:
            if len(self._chat_langs) >= CACHE_MAX:
                self._chat_langs.clear()
            chat = await user_repo.get_chat(self.db, chat_id) if self.db is not None else None
            self._chat_langs[chat_id] = normalize(
                chat.language if chat is not None and chat.language else None, self.settings.BOT_LANGUAGE
            )
        return self._chat_langs[chat_id]

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        await user_repo.set_chat_language(self.db, chat_id, lang)
        self._chat_langs[chat_id] = lang

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        """A user's language: their ``/lang`` choice, else Telegram's, else ``BOT_LANGUAGE`` (kept in memory
        until the handlers store the user again: ``forget_user_lang``)."""
        if user_id is not None and self.db is not None:
            key = (user_id, tg_code)
            cached = self._user_langs.get(key)
            if cached is not None:
                return cached
            user = await user_repo.get_user(self.db, user_id)
            if user is not None:
                lang = normalize(
                    user.lang_override or user.language_code or tg_code, self.settings.BOT_LANGUAGE
                )
                if len(self._user_langs) >= CACHE_MAX:
                    self._user_langs.clear()
                self._user_langs[key] = lang
                return lang
        return normalize(tg_code, self.settings.BOT_LANGUAGE)

    def forget_user_lang(self, user_id: int) -> None:
        for key in [k for k in self._user_langs if k[0] == user_id]:
            del self._user_langs[key]

    def lock(self, match_id: int) -> asyncio.Lock:
        """The lock that serialises everything done to one match (actions, steps, rendering)."""
        lk = self._locks.get(match_id)
        if lk is None:
            lk = self._locks[match_id] = asyncio.Lock()
        return lk

    def spawn(self, coro: Coroutine[object, object, object]) -> None:
        """Run ``coro`` in a task the runtime waits for at stop."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
