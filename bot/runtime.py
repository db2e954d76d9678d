"""The running bot: database, outbox, clocks, and the table/match flow.

Handlers stay thin (parse, authorise) and call the methods here.  Flow of one action:
``act`` applies it in one transaction (version check, dedupe key), then ``_after`` renders the
table and hand messages through the outbox, announces events, re-arms the move clock and
schedules the table's next step (dealing batches, computer players, the bid window, the next
deal).  Pacing uses asyncio timers; they are derived from the stored state, so a restart
resumes them (``resume_all``).  Move clocks, bid windows and the match time limit are
stored deadlines (restart-safe, idempotent: the payload carries the version).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta
from typing import Any

from telegram import BotCommand, BotCommandScopeDefault

from bot import render
from bot.deal_proof import lobby_lines, reveal_line, table_lines
from bot.i18n import normalize, rule_error, t
from bot.outbox import BotSender, Outbox
from bot.settings import Settings
from bot.table_request import problems_message, read_request
from engine.errors import RuleError
from engine.options import load_preset, options_to_dict
from engine.rng import rng_for
from scheduler.deadlines import DeadlineData, DeadlineScheduler
from storage import service
from storage.db import open_database

log = logging.getLogger(__name__)

COMMANDS = ("start", "help", "newtable", "lang", "leave", "stop", "review", "replay")


class Metrics:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # update received -> action committed (seconds)
        self.cards_played = 0
        self.actions = 0

    def percentile(self, p: float) -> float:
        if not self.latencies:
            return 0.0
        xs = sorted(self.latencies)
        return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class Runtime:
    def __init__(self, app: Any, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.db: Any = None
        self.outbox: Outbox | None = None
        self.scheduler: Any = None
        self.started = False
        self.bot_username: str | None = None
        self.metrics = Metrics()
        self._timers: dict[int, asyncio.TimerHandle] = {}
        # a lock lives while someone holds or waits on it (weak values): the map never outgrows the live matches
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._tasks: set[asyncio.Task[Any]] = set()
        self._window_armed: dict[int, int] = {}
        self._clock_armed: dict[int, tuple[int, int]] = {}
        self._stopping = False
        self.deadlines: dict[int, datetime] = {}
        self._chat_langs: dict[int, str] = {}
        self.seen_users: set[tuple[Any, ...]] = set()  # users stored since start-up (handlers skip the write)
        # called with (match_id, match_over event data) once a match's result is committed and announced
        # (in a task of their own, one after the other; a hook that raises is logged and the next one runs)
        self.match_over_hooks: list[Callable[[int, dict[str, Any]], Awaitable[None]]] = []

    # --- life cycle -------------------------------------------------------------------------

    async def startup(self) -> None:
        self._stopping = False
        self.db = await open_database(self.settings.DATABASE_URL)
        self.outbox = Outbox(BotSender(self.app.bot), rate_scale=self.settings.TELEGRAM_RATE_SCALE,
                             on_error=self._send_refused, on_sent=self._sent, on_missing=self._message_gone)
        self.outbox.start()
        for ref in await service.list_message_refs(self.db):
            self.outbox.remember(ref.chat_id, ref.message_id, ref.last_text_hash)
        try:
            self.bot_username = self.app.bot.username
        except Exception:
            self.bot_username = None
        await self._set_commands()
        self.scheduler = DeadlineScheduler()
        self.scheduler.register("move_clock", self._on_move_clock)
        self.scheduler.register("bid_window", self._on_bid_window)
        self.scheduler.register("match_time", self._on_match_time)
        await self.scheduler.start(self.db)
        self.started = True
        await self.resume_all()

    async def stop(self) -> None:
        self._stopping = True
        for h in self._timers.values():
            h.cancel()
        self._timers.clear()
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
        if self.scheduler is not None:
            with contextlib.suppress(Exception):
                await self.scheduler.shutdown(timeout=2)
        if self.outbox is not None:
            await self.outbox.stop(drain=True, timeout=5)
        if self.db is not None:
            await self.db.dispose()
        self.started = False

    async def _set_commands(self) -> None:
        bot = self.app.bot
        try:
            for lang, code in (("zh", None), ("en", "en")):
                cmds = [BotCommand(c, t(lang, f"cmd.{c}")) for c in COMMANDS]
                if code is None:
                    await bot.set_my_commands(cmds, scope=BotCommandScopeDefault())
                else:
                    await bot.set_my_commands(cmds, scope=BotCommandScopeDefault(), language_code=code)
        except Exception as exc:  # never fatal
            log.warning("setMyCommands failed: %s", exc)

    # --- outbox hooks -----------------------------------------------------------------------

    async def _sent(self, chat_id: int, message_id: int, digest: str) -> None:
        if self.db is not None:
            await service.set_message_hash_of(self.db, chat_id, message_id, digest)

    async def _message_gone(self, chat_id: int, message_id: int) -> None:
        """A live message was deleted: forget it and send a new one (in a task: the outbox is waiting)."""
        if self.db is not None:
            self._spawn(self._replace_message(chat_id, message_id))

    async def _replace_message(self, chat_id: int, message_id: int) -> None:
        if self.db is None:
            return
        ref = await service.find_message_ref(self.db, chat_id, message_id)
        if ref is None:
            return
        await service.delete_message_ref(self.db, ref.id)
        if ref.purpose == "table" and ref.table_id is not None:
            await service.set_table_message_id(self.db, ref.table_id, None)
            table = await service.get_table(self.db, ref.table_id)
            if table is None:
                return
            if table.status == "open":
                await self.render_lobby(table.id)
            else:
                row = await service.current_match(self.db, table.id)
                if row is not None and table.status == "playing":
                    async with self.lock(row.id):
                        await self.render_match(row.id)
        elif ref.purpose == "hand" and ref.match_id is not None and ref.seat is not None:
            row = await service.get_match_row(self.db, ref.match_id)
            if row is not None and row.status == "playing":
                async with self.lock(row.id):
                    _, m = await service.load_match_row(self.db, row.id)
                    await self.render_hand(row, m, ref.seat, chat_id)

    async def _send_refused(self, chat_id: int, exc: Exception) -> None:
        """A private chat refused a message (blocked, never started): tell that user's table."""
        if chat_id < 0 or self.db is None:
            return
        before = await service.get_user(self.db, chat_id)
        if before is not None and before.blocked_bot:
            return  # reported already; nothing is sent to them until they /start again
        await service.set_blocked(self.db, chat_id, True)
        self.seen_users = {k for k in self.seen_users if k[0] != chat_id}
        for table in await service.active_tables(self.db):
            for seat in await service.get_seats(self.db, table.id):
                if seat.user_id == chat_id:
                    user = await service.get_user(self.db, chat_id)
                    name = user.first_name if user else str(chat_id)
                    lang = await self.chat_lang(table.chat_id)
                    self.send(table.chat_id, t(lang, "note.cannot_dm", name=name,
                                               seat=render.seat_name(lang, seat.seat)),
                              render.open_chat_button(lang, self.bot_username, f"t{table.id}"))

    # --- helpers ---------------------------------------------------------------------------

    def group_lang(self) -> str:
        """The default language of groups (``BOT_LANGUAGE``)."""
        return normalize(self.settings.BOT_LANGUAGE)

    async def chat_lang(self, chat_id: int) -> str:
        """A group's language: set by an admin's ``/lang`` there, else ``BOT_LANGUAGE``."""
        if chat_id not in self._chat_langs:
            chat = await service.get_chat(self.db, chat_id) if self.db is not None else None
            self._chat_langs[chat_id] = normalize(chat.language if chat is not None and chat.language else None,
                                                  self.settings.BOT_LANGUAGE)
        return self._chat_langs[chat_id]

    async def set_chat_lang(self, chat_id: int, lang: str) -> None:
        await service.set_chat_language(self.db, chat_id, lang)
        self._chat_langs[chat_id] = lang

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        if user_id is not None and self.db is not None:
            user = await service.get_user(self.db, user_id)
            if user is not None:
                return normalize(user.lang_override or user.language_code or tg_code, self.settings.BOT_LANGUAGE)
        return normalize(tg_code, self.settings.BOT_LANGUAGE)

    def send(self, chat_id: int, text: str, markup: Any = None) -> asyncio.Future[int | None]:
        assert self.outbox is not None
        return self.outbox.send_nowait(chat_id, text, markup)

    def lock(self, match_id: int) -> asyncio.Lock:
        lk = self._locks.get(match_id)
        if lk is None:
            lk = self._locks[match_id] = asyncio.Lock()
        return lk

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def kick(self, match_id: int, delay: float = 0.0) -> None:
        """Run the table's next step for ``match_id`` after ``delay`` seconds (replaces a pending one)."""
        if self._stopping:
            return
        old = self._timers.pop(match_id, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._timers[match_id] = loop.call_later(max(0.0, delay), lambda: self._spawn(self.tick(match_id)))

    # --- tables ----------------------------------------------------------------------------

    async def table_names(self, table_id: int) -> tuple[list[str | None], list[bool], list[int | None]]:
        seats = await service.get_seats(self.db, table_id)
        ids = [s.user_id for s in seats]
        users = await service.get_users(self.db, [i for i in ids if i is not None])
        names: list[str | None] = []
        for s in seats:
            if s.user_id is not None:
                u = users.get(s.user_id)
                names.append((u.first_name if u else None) or str(s.user_id))
            else:
                names.append(None)
        return names, [s.is_computer for s in seats], ids

    async def player_names(self, table_id: int, lang: str) -> list[str]:
        names, computers, _ = await self.table_names(table_id)
        out = []
        for seat in range(4):
            if computers[seat] and not names[seat]:
                out.append(t(lang, "name.computer_n", n=seat + 1))
            else:
                out.append(names[seat] or "?")
        return out

    async def render_lobby(self, table_id: int) -> None:
        table = await service.get_table(self.db, table_id)
        if table is None:
            return
        lang = await self.chat_lang(table.chat_id)
        names, computers, _ = await self.table_names(table_id)
        title = self.title(lang, table.preset_id)
        text, markup = render.lobby(lang, table_id, title, names, computers, self.bot_username)
        text = "\n".join([text, *lobby_lines(lang, table)])
        if table.table_message_id is None:
            mid = await self.send(table.chat_id, text, markup)
            if mid is not None:
                await service.set_table_message(self.db, table_id, table.chat_id, mid,
                                                text_hash=self.outbox.known_hash(table.chat_id, mid)
                                                if self.outbox else None)
        else:
            assert self.outbox is not None
            self.outbox.edit(table.chat_id, table.table_message_id, text, markup)

    def title(self, lang: str, preset_id: str) -> str:
        try:
            preset = load_preset(preset_id)
            return preset.title_zh if lang == "zh" else preset.title_en
        except RuleError:
            return preset_id

    async def new_table(self, chat: Any, user: Any, args: list[str]) -> str | None:
        """Create a table from ``/newtable`` arguments; returns an error text or None.

        Every bad option is reported in one message (``bot.table_request``); ``seed=`` only from a bot
        admin or at a practice table; one live table per group (the database refuses a second, also when
        several /newtable race)."""
        ulang = await self.user_lang(user.id, user.language_code)
        req = read_request(ulang, args, may_fix_seed=user.id in self.settings.BOT_ADMIN_IDS)
        if isinstance(req, list):
            return problems_message(ulang, req)
        existing = await service.open_table_in_chat(self.db, chat.id)
        if existing is not None:
            return t(ulang, "newtable.exists", table=existing.id)
        order = [3, 1, 2, 0]
        preset = req.preset
        try:
            table = await service.insert_table(self.db, chat.id, preset.id, preset.game,
                                               options_to_dict(preset.rules), user.id,
                                               computer_seats=sorted(order[:req.bots]), fixed_seed=req.seed,
                                               practice=req.practice)
        except RuleError as err:
            return rule_error(ulang, err)
        await self.render_lobby(table.id)
        if req.bots == 4:
            await self.start_table(table.id, None)
        return None

    async def join(self, table_id: int, seat: int, user: Any) -> str | None:
        """Seat ``user``; returns an error text (in the user's language) or None."""
        lang = await self.user_lang(user.id, getattr(user, "language_code", None))
        table = await service.get_table(self.db, table_id)
        if table is None or table.status != "open":
            return t(lang, "err.table_closed")
        u = await service.get_user(self.db, user.id)
        if u is None or not u.started_bot:
            return "need_start"
        try:
            await service.seat_user(self.db, table_id, seat, user.id)
        except RuleError as err:
            return rule_error(lang, err)
        await self.render_lobby(table_id)
        return None

    async def leave(self, table_id: int, user: Any) -> str | None:
        lang = await self.user_lang(user.id, getattr(user, "language_code", None))
        table = await service.get_table(self.db, table_id)
        if table is None or table.status != "open":
            return t(lang, "err.cannot_leave")
        seat = await service.seat_of_user(self.db, table_id, user.id)
        if seat is None:
            return t(lang, "err.not_seated")
        try:
            await service.unseat(self.db, table_id, user_id=user.id)
        except RuleError:
            return t(lang, "err.cannot_leave")
        await self.render_lobby(table_id)
        return None

    async def start_table(self, table_id: int, user: Any | None) -> str | None:
        table = await service.get_table(self.db, table_id)
        lang = await self.user_lang(user.id if user else None, getattr(user, "language_code", None))
        if table is None or table.status != "open":
            return t(lang, "err.table_closed")
        names, computers, ids = await self.table_names(table_id)
        if user is not None and user.id not in ids and user.id != table.created_by:
            return t(lang, "err.not_your_table")
        try:
            await service.fill_computer_seats(self.db, table_id)
            started = await service.start_match(self.db, table_id)
        except RuleError:  # started (or stopped) meanwhile by another press
            return t(lang, "err.table_closed")
        row = await service.get_match_row(self.db, started.match_id)
        assert row is not None
        opts = table.options_json
        if int(opts.get("time_limit_minutes") or 0) > 0:
            due = self.scheduler.now() + timedelta(minutes=int(opts["time_limit_minutes"]))
            await self.scheduler.schedule(self.db, "match_time", f"match:{row.id}:time", due, {"match_id": row.id})
        async with self.lock(row.id):
            await self.render_match(row.id)
        self.kick(row.id, 0)
        return None

    async def stop_table(self, table_id: int, user: Any, *, group_admin: bool = False) -> str | None:
        """Stop a table: its creator, a bot admin, or an admin of the table's group (``group_admin``)."""
        table = await service.get_table(self.db, table_id)
        lang = await self.user_lang(user.id, getattr(user, "language_code", None))
        if table is None:
            return t(lang, "err.table_closed")
        if user.id != table.created_by and user.id not in self.settings.BOT_ADMIN_IDS and not group_admin:
            return t(lang, "err.only_creator_or_admin")
        row = await service.current_match(self.db, table_id)
        await service.abort_table(self.db, table_id)  # the table aborted, its unfinished match finished
        if row is not None and row.status != "finished":
            await self.scheduler.cancel(self.db, "move_clock", f"match:{row.id}")
            h = self._timers.pop(row.id, None)
            if h:
                h.cancel()
        self.send(table.chat_id, t(await self.chat_lang(table.chat_id), "table.stopped", table=table_id))
        return None

    async def resume_match(self, match_id: int, user: Any) -> str | None:
        """A seated player (or the creator, or an admin) resumes a paused table."""
        lang = await self.user_lang(user.id, getattr(user, "language_code", None))
        row = await service.get_match_row(self.db, match_id)
        if row is None:
            return t(lang, "err.stale")
        table = await service.get_table(self.db, row.table_id)
        seat = await self.seat_of_user(match_id, user.id)
        if seat is None and (table is None or user.id != table.created_by) and user.id not in self.settings.BOT_ADMIN_IDS:
            return t(lang, "err.not_your_table")
        async with self.lock(match_id):
            try:
                applied = await service.apply_action(self.db, match_id, "sys resume", actor_user_id=user.id)
            except RuleError as err:
                return rule_error(lang, err)
            await self._after(match_id, applied, source="player")
        return None

    def selection_lock(self, match_id: int, seat: int) -> asyncio.Lock:
        key = -(match_id * 4 + seat) - 1
        lk = self._locks.get(key)
        if lk is None:
            lk = self._locks[key] = asyncio.Lock()
        return lk

    # --- seats of a match ------------------------------------------------------------------

    async def match_context(self, match_id: int) -> tuple[Any, Any, Any, list[Any]]:
        row, m = await service.load_match_row(self.db, match_id)
        table = await service.get_table(self.db, row.table_id)
        seats = await service.get_seats(self.db, row.table_id)
        return row, m, table, seats

    async def seat_of_user(self, match_id: int, user_id: int) -> int | None:
        row = await service.get_match_row(self.db, match_id)
        if row is None:
            return None
        for s in await service.get_seats(self.db, row.table_id):
            if s.user_id == user_id:
                return s.seat
        return None

    async def refresh_user(self, user_id: int) -> None:
        """After /start: show the user's current hand again (a new message if needed)."""
        found = await self.user_match(user_id)
        if found is None:
            return
        match_id, seat = found
        async with self.lock(match_id):
            row, m = await service.load_match_row(self.db, match_id)
            await self.render_hand(row, m, seat, user_id)

    async def user_match(self, user_id: int) -> tuple[int, int] | None:
        """The (match id, seat) the user plays in now (latest)."""
        best: tuple[int, int] | None = None
        for row in await service.active_matches(self.db):
            for s in await service.get_seats(self.db, row.table_id):
                if s.user_id == user_id and (best is None or row.id > best[0]):
                    best = (row.id, s.seat)
        return best

    # --- actions ---------------------------------------------------------------------------

    async def act(self, match_id: int, seat: int, action: str, *, user_id: int | None, dedupe: str | None,
                  lang: str, t0: float | None = None, source: str = "player") -> tuple[bool, str | None]:
        """Apply ``action`` for ``seat``; returns (applied, error text in ``lang``)."""
        async with self.lock(match_id):
            row = await service.get_match_row(self.db, match_id)
            if row is None or row.status not in ("playing", "paused"):
                return False, t(lang, "err.stale")
            try:
                applied = await service.apply_action(self.db, match_id, action, expected_version=row.version,
                                                   actor_user_id=user_id, dedupe_key=dedupe)
            except RuleError as err:
                return False, rule_error(lang, err)
            except service.StaleVersion:
                return False, t(lang, "err.stale")
            if applied.duplicate:
                return False, None
            if t0 is not None:
                self.metrics.latencies.append(time.perf_counter() - t0)
            await self._after(match_id, applied, source=source, seat=seat)
        return True, None

    async def _apply_sys(self, match_id: int, action: str) -> Any | None:
        try:
            applied = await service.apply_action(self.db, match_id, action)
        except (RuleError, service.StaleVersion) as err:
            log.info("match %s: %s not applied: %s", match_id, action, err)
            return None
        return applied

    async def _after(self, match_id: int, applied: Any, *, source: str, seat: int | None = None,
                     render_now: bool = True) -> None:
        self.metrics.actions += 1
        for ev in applied.events:
            if ev.kind == "play":
                self.metrics.cards_played += len(str(ev.data.get("cards", "")).split())
        await self.announce(match_id, applied.events, source=source, seat=seat)
        await self.arm_clock(match_id, applied.match, applied.version)
        if render_now:
            await self.render_match(match_id)
        self.schedule_next(match_id, applied.match)

    # --- pacing ----------------------------------------------------------------------------

    def schedule_next(self, match_id: int, m: Any) -> None:
        s = self.settings
        if m.finished:
            return
        step = m.system_step()
        if step == "sys deal":
            self.kick(match_id, s.deal_delay)
        elif step == "sys next_deal":
            first = not getattr(m, "history", None) and not m.log
            self.kick(match_id, 0 if first else max(s.deal_delay * 2, s.ai_delay))
        elif step is not None:
            self.kick(match_id, s.ai_delay)
        else:
            self.kick(match_id, s.ai_delay)

    async def tick(self, match_id: int) -> None:
        """One step of the table itself: computer players, dealing, windows, next deal."""
        self._timers.pop(match_id, None)
        if self._stopping:
            return
        try:
            async with self.lock(match_id):
                await self._tick(match_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tick failed for match %s", match_id)

    async def _tick(self, match_id: int) -> None:
        row, m, table, seats = await self.match_context(match_id)
        if row.status != "playing" or table is None or table.status != "playing":
            return
        if m.finished:
            return
        computers = {s.seat for s in seats if s.is_computer}
        # computer players act first (required turns, or a bid they want to make)
        for turn in m.turns():
            if turn.seat in computers:
                try:
                    action = m.ai_action(turn.seat, rng_for(row.seed, "ai", row.version, turn.seat))
                except RuleError:
                    action = None
                if action:
                    applied = await self._apply_sys(match_id, action)
                    if applied is not None:
                        await self._after(match_id, applied, source="ai", seat=turn.seat)
                        return
        step = m.system_step()
        if step == "sys deal":
            applied = None
            for _ in range(max(1, self.settings.DEAL_BATCH)):
                applied = await self._apply_sys(match_id, "sys deal")
                if applied is None:
                    break
                self.metrics.actions += 1
                if applied.match.system_step() != "sys deal":
                    break
            if applied is not None:
                await self.announce(match_id, applied.events, source="sys")
                await self.arm_clock(match_id, applied.match, applied.version)
                await self.render_match(match_id)
                self.schedule_next(match_id, applied.match)
            return
        if step is not None:
            if step == "sys close_bidding":
                await self._disarm_window(match_id)
            applied = await self._apply_sys(match_id, step)
            if applied is not None:
                await self._after(match_id, applied, source="sys")
            return
        turns = m.turns()
        if turns and all(not tr.required for tr in turns):
            # an optional window (the bid window): close it when its time is up, or when no human may act
            humans = [tr for tr in turns if tr.seat not in computers]
            if not humans:
                await self._disarm_window(match_id)
                applied = await self._apply_sys(match_id, "sys close_bidding")
                if applied is not None:
                    await self._after(match_id, applied, source="sys")
                return
            if match_id not in self._window_armed:
                seconds = int(table.options_json.get("bid_window_seconds", 10) or 0)
                due = self.scheduler.now() + timedelta(seconds=seconds)
                await self.scheduler.schedule(self.db, "bid_window", f"match:{match_id}:window", due,
                                              {"match_id": match_id, "deal": _deal_key(m)}, replace=True)
                self._window_armed[match_id] = row.version

    async def _disarm_window(self, match_id: int) -> None:
        if self._window_armed.pop(match_id, None) is not None:
            await self.scheduler.cancel(self.db, "bid_window", f"match:{match_id}:window")

    async def _on_bid_window(self, deadline: DeadlineData) -> None:
        payload = deadline.payload
        match_id = int(payload["match_id"])
        self._window_armed.pop(match_id, None)
        async with self.lock(match_id):
            row, m = await service.load_match_row(self.db, match_id)
            if row.status != "playing" or _deal_key(m) != payload.get("deal"):
                return
            turns = m.turns()
            if turns and all(not tr.required for tr in turns) and m.system_step() is None:
                applied = await self._apply_sys(match_id, "sys close_bidding")
                if applied is not None:
                    await self._after(match_id, applied, source="sys")

    async def _on_match_time(self, deadline: DeadlineData) -> None:
        payload = deadline.payload
        match_id = int(payload["match_id"])
        async with self.lock(match_id):
            row, m = await service.load_match_row(self.db, match_id)
            if row.status != "playing" or m.finished:
                return
            applied = await self._apply_sys(match_id, "sys time_up")
            if applied is not None:
                await self._after(match_id, applied, source="sys")

    # --- move clocks -----------------------------------------------------------------------

    async def arm_clock(self, match_id: int, m: Any, version: int) -> None:
        """Cancel the match's move clock; start one if the next turn has a clock."""
        if self.scheduler is None:
            return
        ref = f"match:{match_id}"
        await self.scheduler.cancel(self.db, "move_clock", ref)
        if m.finished:
            return
        row = await service.get_match_row(self.db, match_id)
        if row is None:
            return
        seats = await service.get_seats(self.db, row.table_id)
        computers = {s.seat for s in seats if s.is_computer}
        for turn in m.turns():
            if not turn.required or not turn.clock or turn.seat in computers:
                continue
            seconds = int(getattr(m.options, turn.clock, 0) or 0)
            if seconds <= 0:
                continue
            due = self.scheduler.now() + timedelta(seconds=seconds)
            await self.scheduler.schedule(self.db, "move_clock", ref, due,
                                          {"match_id": match_id, "version": version, "seat": turn.seat})
            self._clock_armed[match_id] = (version, turn.seat)
            self.deadlines[match_id] = due
            return
        self.deadlines.pop(match_id, None)

    async def _on_move_clock(self, deadline: DeadlineData) -> None:
        payload = deadline.payload
        match_id, version, seat = int(payload["match_id"]), int(payload["version"]), int(payload["seat"])
        async with self.lock(match_id):
            row, m = await service.load_match_row(self.db, match_id)
            if row.status != "playing" or row.version != version or m.finished:
                return
            try:
                # D6: both engines take "sys forfeit_deal <seat>" (Shengji and Guandan)
                if getattr(m.options, "on_timeout", "autoplay") == "forfeit_deal":
                    action = f"sys forfeit_deal {seat}"
                else:
                    action = m.auto_action(seat)
            except RuleError:
                return
            try:
                applied = await service.apply_action(self.db, match_id, action, expected_version=version,
                                                   dedupe_key=f"clock:{version}")
            except (RuleError, service.StaleVersion):
                return
            if applied.duplicate:
                return
            table = await service.get_table(self.db, row.table_id)
            lang = await self.chat_lang(table.chat_id) if table is not None else self.group_lang()
            names = await self.player_names(row.table_id, lang)
            if table is not None:
                key = "note.timeout_forfeit" if action.startswith("sys forfeit_deal") else "note.timeout"
                self.send(table.chat_id, t(lang, key, name=names[seat], seat=render.seat_name(lang, seat)))
            await self._after(match_id, applied, source="clock", seat=seat)

    # --- rendering -------------------------------------------------------------------------

    async def announce(self, match_id: int, events: list[Any], *, source: str, seat: int | None = None) -> None:
        interesting = [e for e in events if e.kind in render.ANNOUNCED]
        if not interesting:
            return
        row = await service.get_match_row(self.db, match_id)
        if row is None:
            return
        table = await service.get_table(self.db, row.table_id)
        if table is None:
            return
        lang = await self.chat_lang(table.chat_id)
        names = await self.player_names(row.table_id, lang)
        for ev in interesting:
            try:
                text = render.announcement(lang, row.game, ev, names, table.options_json)
                if text and ev.kind == "deal_over":  # the deal's seed is revealed with its summary
                    _, m = await service.load_match_row(self.db, match_id)
                    deal = int(ev.data.get("deal", ev.data.get("deal_no", 0)))
                    redeal = int(getattr(m, "redeal_no", 0) or 0) if row.game == "shengji" else 0
                    text += "\n" + reveal_line(lang, row.game, row.seed, deal, redeal)
                if text and ev.kind == "match_over" and table.server_seed is not None:
                    text += "\n" + t(lang, "sum.server_seed", seed=table.server_seed)
            except Exception:
                log.exception("could not render %s", ev.kind)
                text = None
            if text:
                markup = None
                if ev.kind == "paused":
                    from telegram import InlineKeyboardButton, InlineKeyboardMarkup
                    markup = InlineKeyboardMarkup([[InlineKeyboardButton(t(lang, "btn.resume"),
                                                                         callback_data=f"u:{match_id}")]])
                self.send(table.chat_id, text, markup)
            if ev.kind == "match_over":  # the table was marked finished with the result (storage.service)
                await self.scheduler.cancel(self.db, "move_clock", f"match:{match_id}")
                await self.scheduler.cancel(self.db, "match_time", f"match:{match_id}:time")
                if self.match_over_hooks:
                    self._spawn(self._match_over(match_id, dict(ev.data)))

    async def _match_over(self, match_id: int, data: dict[str, Any]) -> None:
        """Run ``match_over_hooks`` (the tournament side records the result and moves the bracket on)."""
        for hook in list(self.match_over_hooks):
            try:
                await hook(match_id, dict(data))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("match_over hook %r failed for match %s", hook, match_id)

    async def render_match(self, match_id: int) -> None:
        row, m, table, seats = await self.match_context(match_id)
        if table is None or self.outbox is None:
            return
        lang = await self.chat_lang(table.chat_id)
        names = await self.player_names(row.table_id, lang)
        deadline = self.deadlines.get(match_id)
        computers = frozenset(s.seat for s in seats if s.is_computer)
        text, markup = render.table_message(lang, row.game, m.public_view(), names, deadline, self.bot_username,
                                            self.title(lang, table.preset_id), clocks=table.options_json,
                                            computers=computers)
        text = "\n".join([text, *table_lines(lang, row.game, row.seed, m, table)])
        if table.table_message_id is not None:
            self.outbox.edit(table.chat_id, table.table_message_id, text, markup)
        else:
            mid = await self.send(table.chat_id, text, markup)
            if mid is not None:
                await service.set_table_message(self.db, table.id, table.chat_id, mid,
                                                text_hash=self.outbox.known_hash(table.chat_id, mid))
        users = await service.get_users(self.db, [s.user_id for s in seats if s.user_id is not None])
        for s in seats:
            if s.user_id is None:
                continue
            u = users.get(s.user_id)
            if u is not None and u.blocked_bot:
                continue  # the table was told; their hand comes back when they /start again
            await self.render_hand(row, m, s.seat, s.user_id, names, lang)

    async def render_hand(self, row: Any, m: Any, seat: int, user_id: int, names: list[str] | None = None,
                          names_lang: str | None = None) -> None:
        assert self.outbox is not None
        lang = await self.user_lang(user_id)
        if names is None or lang != names_lang:
            names = await self.player_names(row.table_id, lang)
        view = m.seat_view(seat)
        deal = render.deal_marker(row.game, view)
        if deal == 0:
            return  # nothing dealt yet (Guandan before deal 1): the hand message comes with the deal
        sel = await service.get_selection(self.db, row.id, seat)
        sel_text, sel_deal = (sel.cards_text, sel.deal_no) if sel is not None else ("", None)
        from engine.cards import parse_cards
        selection = parse_cards(sel_text) if sel_text and sel_deal == deal else []
        text, markup = render.hand_message(lang, row.game, row.id, m, seat, view, selection, names,
                                           self.deadlines.get(row.id))
        ref = await service.get_hand_message(self.db, row.id, seat)
        if ref is not None and ref.deal_no == deal:
            self.outbox.edit(ref.chat_id, ref.message_id, text, markup)
            return
        mid = await self.send(user_id, text, markup)
        if mid is not None:
            await service.set_hand_message(self.db, row.id, seat, user_id, mid, deal_no=deal,
                                           text_hash=self.outbox.known_hash(user_id, mid))

    async def resume_all(self) -> None:
        """After a restart: re-render live tables and continue their next step."""
        for row in await service.active_matches(self.db):
            table = await service.get_table(self.db, row.table_id)
            if table is None or table.status != "playing":
                continue
            try:
                async with self.lock(row.id):
                    _, m = await service.load_match_row(self.db, row.id)
                    await self.render_match(row.id)
                self.schedule_next(row.id, m)
            except Exception:
                log.exception("could not resume match %s", row.id)


def _deal_key(m: Any) -> str:
    """Which deal (and redeal) a bid window belongs to."""
    return f"{getattr(m, 'deal_no', 0)}.{getattr(m, 'redeal_no', 0)}"
