"""The running tournament side of the bot: deadlines, the draw, schedule, check-in, tables, results.

``TournamentBot`` lives in ``application.bot_data["tournaments"]``; it uses the play side's runtime
(``bot_data["runtime"]``: database, outbox, deadline scheduler, tables) and never calls Telegram
except through the outbox (texts, and files and pictures through ``send_document``).

Timers are deadline rows (kinds in ``KINDS``), so they survive restarts; each payload carries the
match's start time, and a handler whose match was moved or decided meanwhile does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.presentation.keyboards import seat_name
from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments import views
from engine.errors import RuleError
from engine.registry import load_preset
from engine.tournament import TableResult, team_result
from engine.tournament.results import PairingResult
from engine.tournament.schedule import match_timers
from scheduler.deadlines import DeadlineData
from storage import match_repo, message_repo, selection_repo, table_repo
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentMatch

log = logging.getLogger(__name__)

KINDS = ("t_close", "t_draw", "t_remind", "t_checkin", "t_start", "t_late")
DASHBOARD_SECONDS = 10.0  # a live dashboard message is edited at most once per this many seconds
DASHBOARD_TICK_SECONDS = 60.0  # while tables play, their levels and time left are brought up to date this often


def tie_break_of(result: Mapping[str, Any]) -> str | None:
    """How a game decided a match whose levels are equal: the engine's ``tie_break`` (Shengji:
    ``dealer_side`` / ``cut``), else Guandan's rule 2.7 (the side of the last 上游); None when the
    levels differ or the match was not decided on levels."""
    levels = list(result.get("levels") or [None, None])
    if levels[0] is None or levels[0] != levels[1]:
        return None
    if result.get("tie_break"):
        return str(result["tie_break"])
    if result.get("last_upstream") is not None:
        return "last_upstream"
    return None


def table_match_result(result: Mapping[str, Any], table: int) -> PairingResult:
    """The tournament result of one table from the engine's match result (tie-break kept in ``extra``)."""
    levels = list(result.get("levels") or [None, None])
    winner = "a" if int(result.get("winner", 0)) == 0 else "b"
    tr = TableResult(table, winner, levels[0], levels[1], None)
    tie = tie_break_of(result)
    return PairingResult(winner, "played", (tr,), "tables", extra={"tie_break": tie} if tie else {})


class TournamentBot:
    def __init__(self, app: Any) -> None:
        self.app = app
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        # user -> the game matches in play where a substitute took their seat (their presses are refused)
        self.replaced: dict[int, set[int]] = {}
        # the live dashboards: at most one pass of edits per tournament every ``dashboard_seconds``
        self.dashboard_seconds = DASHBOARD_SECONDS
        self.dashboard_tick_seconds = DASHBOARD_TICK_SECONDS
        self._dash_ticking: set[int] = set()  # tournaments with a minute's refresh waiting
        self._dash_due: set[int] = set()  # tournaments with a pass waiting
        self._dash_tasks: set[asyncio.Task[Any]] = set()
        self._dash_last: dict[int, float] = {}  # tournament -> event-loop time of its last pass

    # --- plumbing -------------------------------------------------------------------------

    @property
    def rt(self) -> Any:
        return self.app.bot_data["runtime"]

    @property
    def db(self) -> Any:
        return self.rt.db

    @property
    def scheduler(self) -> Any:
        return self.rt.scheduler

    def now(self) -> datetime:
        return self.scheduler.now()  # type: ignore[no-any-return]

    def lock(self, tid: int) -> asyncio.Lock:
        lk = self._locks.get(tid)
        if lk is None:
            lk = self._locks[tid] = asyncio.Lock()
        return lk

    def glang(self) -> str:
        return self.rt.group_lang()  # type: ignore[no-any-return]

    async def ulang(self, user_id: int | None) -> str:
        return await self.rt.user_lang(user_id)  # type: ignore[no-any-return]

    def send(self, chat_id: int | None, text: str, markup: Any = None) -> Any:
        if chat_id is None:
            return None
        return self.rt.send(chat_id, text, markup)

    async def send_document(self, chat_id: int, data: bytes, filename: str, caption: str = "",
                            photo: bool = False) -> int | None:
        """Send a file (or, ``photo``, a picture) through the outbox: after the texts queued before it, at
        the chat's pace, RetryAfter waited out, a refused chat reported; returns the message id or None."""
        outbox = self.rt.outbox
        if outbox is None:
            return None
        if photo:
            return await outbox.send_photo(chat_id, data, caption)  # type: ignore[no-any-return]
        return await outbox.send_document(chat_id, data, filename, caption)  # type: ignore[no-any-return]

    def spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def bot_link(self, payload: str) -> str:
        name = self.rt.bot_username or getattr(self.app.bot, "username", None) or "bot"
        return f"https://t.me/{name}?start={payload}"

    # --- start-up ---------------------------------------------------------------------------

    async def startup(self) -> None:
        """Register the deadline kinds, hook match ends, re-arm and catch up (after a restart)."""
        clock = self.app.bot_data.get("tournament_clock")
        if clock is not None:
            self.scheduler.clock = clock
        register_deadlines(self.scheduler, self)
        if self.on_match_over not in self.rt.match_over_hooks:
            self.rt.match_over_hooks.append(self.on_match_over)
        await self.scheduler.rearm()
        await self.load_replaced()
        await self.catch_up()
        for tid in {f.tournament_id for f in await ts.dashboards(self.db)}:  # what changed while down
            self.dashboard_changed(tid)

    async def shutdown(self) -> None:
        for task in list(self._tasks) + list(self._dash_tasks):
            task.cancel()
        for task in list(self._tasks) + list(self._dash_tasks):
            with contextlib.suppress(BaseException):
                await task

    async def catch_up(self) -> None:
        """Tables of tournament matches that finished while the bot was down are reported now."""
        for row in await ts.all_tournaments(self.db):
            if row.status != "running":
                continue
            for m in await ts.matches(self.db, row.id):
                if m.status not in ("open", "playing"):
                    continue
                for table_id in m.game_tables:
                    if table_id is None:
                        continue
                    match_row = await match_repo.current_match(self.db, int(table_id))
                    if match_row is not None and match_row.result_json and match_row.status == "finished":
                        await self.on_match_over(match_row.id, dict(match_row.result_json))

    # --- the live dashboards -----------------------------------------------------------------------

    def dashboard_changed(self, tid: int) -> None:
        """Something a dashboard shows changed: its followed messages are edited once, at once if the last
        pass is ``dashboard_seconds`` old, else when it is (changes meanwhile ride along)."""
        if tid in self._dash_due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._dash_due.add(tid)
        last = self._dash_last.get(tid)
        wait = 0.0 if last is None else max(0.0, last + self.dashboard_seconds - loop.time())
        task = loop.create_task(self._dashboard_pass(tid, wait))  # apart from ``_tasks``: nothing waits on it
        self._dash_tasks.add(task)
        task.add_done_callback(self._dash_tasks.discard)

    async def _dashboard_pass(self, tid: int, wait: float) -> None:
        try:
            if wait > 0:
                await asyncio.sleep(wait)
        finally:
            self._dash_due.discard(tid)
        self._dash_last[tid] = asyncio.get_running_loop().time()
        try:
            await self.render_dashboards(tid)
        except Exception:
            log.exception("dashboards of tournament %s not updated", tid)

    async def render_dashboards(self, tid: int) -> None:
        """Edit every followed dashboard of ``tid`` (through the outbox; an unchanged one costs nothing).
        A tournament that has ended gets its last edit (no Stop button) and is followed no more."""
        from bot.edge.tournament import dashboard

        follows = await ts.dashboards(self.db, tid)
        if not follows or self.rt.outbox is None:
            return
        row = await ts.get_tournament(self.db, tid)
        live = row.status not in dashboard.ENDED
        made: dict[str, tuple[str, Any]] = {}
        for f in follows:
            if f.lang not in made:
                made[f.lang] = await dashboard.dashboard(self, row, f.lang, live=live)
            self.rt.outbox.edit(f.chat_id, f.message_id, *made[f.lang])
        if not live:
            await ts.unfollow_dashboard(self.db, tid)
            self._dash_last.pop(tid, None)
        elif any(m.status == "playing" for m in await ts.matches(self.db, tid)):
            self._tick_dashboard(tid)

    def _tick_dashboard(self, tid: int) -> None:
        """Tables are playing: in a minute the dashboards show their levels and time left again."""
        if tid in self._dash_ticking:
            return
        self._dash_ticking.add(tid)

        async def later() -> None:
            try:
                await asyncio.sleep(self.dashboard_tick_seconds)
            finally:
                self._dash_ticking.discard(tid)
            self.dashboard_changed(tid)

        task = asyncio.get_running_loop().create_task(later())
        self._dash_tasks.add(task)
        task.add_done_callback(self._dash_tasks.discard)

    async def follow_dashboard(self, tid: int, user_id: int, lang: str, sent: Any) -> None:
        """Keep the dashboard message being sent (``sent``: the outbox's future of its id) live."""
        message_id = await sent if sent is not None else None
        if message_id is not None:
            await ts.follow_dashboard(self.db, tid, user_id, user_id, int(message_id), lang, self.now())

    # --- set-up deadlines -----------------------------------------------------------------------

    async def arm_tournament(self, row: Tournament) -> None:
        ref = f"t:{row.id}"
        if row.registration_deadline is not None and row.status == "registration":
            await self.scheduler.schedule(self.db, "t_close", ref, row.registration_deadline, {"tid": row.id},
                                          replace=True)
        if row.draw_at is not None and row.state_json is None:
            await self.scheduler.schedule(self.db, "t_draw", ref, row.draw_at, {"tid": row.id}, replace=True)

    async def on_close(self, d: DeadlineData) -> None:
        tid = int(d.payload["tid"])
        async with self.lock(tid):
            row = await ts.get_tournament(self.db, tid)
            if row.status != "registration":
                return
            await ts.close_registration(self.db, tid)
            self.dashboard_changed(tid)
            kind = "team" if row.settings_json.get("entrant") == "team" else "pair"
            count = len(await ts.entries(self.db, tid, kind))
            lang = self.glang()
            self.send(row.group_chat_id, tt(lang, "reg.closed_note", name=row.name, count=count,
                                            unit=tt(lang, "unit." + kind), draw=ts.local_text(row.draw_at, row.time_zone)))

    async def on_draw_deadline(self, d: DeadlineData) -> None:
        await self.draw(int(d.payload["tid"]), None)

    # --- the draw --------------------------------------------------------------------------------

    async def draw(self, tid: int, actor: int | None) -> str | None:
        """Freeze, publish the hash and the commitment, draw, reveal, post the bracket and the JSON.
        Returns an error text (in the actor's language) or None."""
        lang = self.glang()
        alang = await self.ulang(actor) if actor else lang
        async with self.lock(tid):
            row = await ts.get_tournament(self.db, tid)
            if row.state_json is not None:
                return error_text(alang, RuleError("draw_already_held", "", name=row.name))
            try:
                ann = await ts.freeze(self.db, tid, secrets.token_bytes(32), actor)
            except RuleError as err:
                text = tt(alang, "draw.failed", reason=error_text(alang, err))
                if actor is None:
                    self.send(row.created_by, text)
                return text
            kind = "team" if row.settings_json.get("entrant") == "team" else "pair"
            entries = await ts.entries(self.db, tid, kind)
            self.send(row.group_chat_id, tt(lang, "draw.frozen", name=row.name, count=len(entries),
                                            list_hash=ann["list_hash"], commitment=ann["commitment"]))
            eng, _ = await ts.hold_draw(self.db, tid, actor)
            self.dashboard_changed(tid)
            await self.scheduler.cancel(self.db, "t_draw", f"t:{tid}")
            await self.scheduler.cancel(self.db, "t_close", f"t:{tid}")
            assert eng.draw is not None
            names = views.names_of(entries)
            text = tt(lang, "draw.done", secret=eng.draw.secret.hex(), seed=eng.draw.seed.hex(),
                      bracket=views.bracket_text(lang, eng, names))
            target = row.group_chat_id or row.created_by
            self.send(target, text)
            data = json.dumps(eng.draw.published(reveal=True), ensure_ascii=False, indent=1).encode("utf-8")
            await self.send_document(target, data, f"draw-{tid}.json", tt(lang, "draw.caption"))
            await self._schedule(row)
        return None

    # --- schedule and match timers ---------------------------------------------------------------

    async def _schedule(self, row: Tournament) -> None:
        """Schedule every ready match without a time, arm its timers and post the schedule."""
        lang = self.glang()
        for m in await ts.matches(self.db, row.id):
            if m.start_at is None and m.status == "scheduled":  # new, or reset by a correction: old timers go
                await self.cancel_match_timers(m)
        try:
            rows = await ts.schedule_ready(self.db, row.id, self.now())
        except RuleError as err:
            self.send(row.created_by, tt(await self.ulang(row.created_by), "sched.no_tables",
                                         reason=error_text(lang, err), id=row.id))
            return
        if not rows:
            return
        self.dashboard_changed(row.id)
        for m in rows:
            await self.arm_match(row, m)
        names = views.names_of(await ts.entries(self.db, row.id, include_withdrawn=True))
        tables = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(self.db, row.id)}
        self.send(row.group_chat_id, tt(lang, "sched.round",
                                        lines="\n".join(views.schedule_lines(lang, row, rows, names, tables))))
        eng = ts.load_engine(await ts.get_tournament(self.db, row.id))
        for m in rows:
            await self.tell_players_their_table(row, m, names, tables, eng)

    async def tell_players_their_table(self, row: Tournament, m: TournamentMatch, names: Mapping[str, str],
                                       tables: Mapping[int, str], eng: Any) -> None:
        """Each player, privately: their next match, its time, and which table (group) their pair sits at."""
        a, b = names.get(m.side_a or "", "?"), names.get(m.side_b or "", "?")
        for k, (pa, pb) in enumerate(await ts.match_players(self.db, m), start=1):
            chat = int(m.table_chats[(k - 1) % len(m.table_chats)]) if m.table_chats else None
            where = tables.get(chat, str(chat)) if chat is not None else "-"
            for uid in (*pa, *pb):
                ul = await self.ulang(uid)
                self.send(uid, tt(ul, "sched.yours", match=views.match_label(ul, eng, m.match_key), a=a, b=b,
                                  time=ts.local_text(m.start_at, row.time_zone), table=k, where=where,
                                  checkin=row.settings_json.get("checkin_opens_minutes", 30)))

    async def arm_match(self, row: Tournament, m: TournamentMatch) -> None:
        assert m.start_at is not None
        st = ts.settings_of(row)
        ref = f"tm:{m.id}"
        base = {"tid": row.id, "key": m.match_key, "start": m.start_at.isoformat()}
        kinds = {"reminder": "t_remind", "checkin_open": "t_checkin", "lateness_deadline": "t_late"}
        for timer in match_timers(m.match_key, m.start_at, st.late_forfeit_minutes, st.checkin_opens_minutes,
                                  st.reminder_minutes, self.now()):
            await self.scheduler.schedule(self.db, kinds[timer.kind], ref, timer.at,
                                          {**base, "minutes": timer.minutes_before})
        await self.scheduler.schedule(self.db, "t_start", ref, m.start_at, base)

    async def _current(self, d: DeadlineData, statuses: tuple[str, ...]) -> tuple[Tournament, TournamentMatch] | None:
        tid, key = int(d.payload["tid"]), str(d.payload["key"])
        row = await ts.get_tournament(self.db, tid)
        try:
            m = await ts.get_match(self.db, tid, key)
        except RuleError:
            return None
        if m.start_at is None or m.start_at.isoformat() != d.payload.get("start") or m.status not in statuses:
            return None
        return row, m

    async def _names(self, tid: int) -> dict[str, str]:
        return views.names_of(await ts.entries(self.db, tid, include_withdrawn=True))

    async def _table_titles(self, tid: int, m: TournamentMatch) -> str:
        tables = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(self.db, tid)}
        return "、".join(tables.get(int(c), str(c)) for c in m.table_chats)

    async def on_remind(self, d: DeadlineData) -> None:
        got = await self._current(d, ("scheduled",))
        if got is None:
            return
        row, m = got
        names = await self._names(row.id)
        titles = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(self.db, row.id)}
        minutes = int(d.payload.get("minutes", 0))
        for k, (a, b) in enumerate(await ts.match_players(self.db, m), start=1):
            chat = int(m.table_chats[(k - 1) % len(m.table_chats)]) if m.table_chats else 0
            where = titles.get(chat, str(chat))  # this pair's own table
            for uid in (*a, *b):
                lang = await self.ulang(uid)
                left = (tt(lang, "left.hours", n=minutes // 60) if minutes >= 120 and minutes % 60 == 0
                        else tt(lang, "left.minutes", n=minutes))
                self.send(uid, tt(lang, "remind", key=m.match_key, a=names.get(m.side_a or "", "?"),
                                  b=names.get(m.side_b or "", "?"), time=ts.local_text(m.start_at, row.time_zone),
                                  tables=where, left=left,
                                  checkin=row.settings_json.get("checkin_opens_minutes", 30)))

    def checkin_markup(self, lang: str, tid: int, key: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup([[InlineKeyboardButton(tt(lang, "checkin.button"),
                                                           callback_data=f"T:c:{tid}:{key}")]])

    async def on_checkin_open(self, d: DeadlineData) -> None:
        got = await self._current(d, ("scheduled",))
        if got is None:
            return
        row, m = got
        names = await self._names(row.id)
        params = {"key": m.match_key, "a": names.get(m.side_a or "", "?"), "b": names.get(m.side_b or "", "?"),
                  "time": ts.local_text(m.start_at, row.time_zone),
                  "late": row.settings_json.get("late_forfeit_minutes", 15)}
        lang = self.glang()
        self.send(row.group_chat_id, tt(lang, "checkin.open", **params), self.checkin_markup(lang, row.id, m.match_key))
        for a, b in await ts.match_players(self.db, m):
            for uid in (*a, *b):
                ul = await self.ulang(uid)
                self.send(uid, tt(ul, "checkin.open", **params), self.checkin_markup(ul, row.id, m.match_key))

    async def check_in(self, tid: int, key: str, user_id: int) -> str:
        """A player pressed Check in; returns the answer text."""
        lang = await self.ulang(user_id)
        async with self.lock(tid):
            try:
                m = await ts.check_in(self.db, tid, key, user_id, self.now())
            except RuleError as err:
                return error_text(lang, err)
            self.dashboard_changed(tid)
            if m.status in ("open", "playing"):
                await self._start_ready_tables(tid, key)
        return tt(lang, "checkin.ok")

    async def on_start(self, d: DeadlineData) -> None:
        got = await self._current(d, ("scheduled",))
        if got is None:
            return
        row, m = got
        async with self.lock(row.id):
            await self.open_tables(row, m)

    async def open_tables(self, row: Tournament, m: TournamentMatch, force: bool = False) -> None:
        """Create the match's table(s) in the assigned table groups, seat the players (pair k of side a at
        seats 0 and 2, of side b at 1 and 3) and start every table whose four players are present.
        Run again (a deadline after a restart) it reuses the tables it made: one table per ``tournament_ref``."""
        preset = load_preset(row.preset_id)
        options = ts.rule_options(row)
        ids: list[int | None] = []
        existing = list(m.game_tables)
        for k, (pa, pb) in enumerate(await ts.match_players(self.db, m), start=1):
            old = existing[k - 1] if k - 1 < len(existing) else None
            if str(k) in m.table_results:
                ids.append(old)
                continue
            if old is not None:  # a table still in play (a team match after a partial forfeit was undone)
                current = await table_repo.get_table(self.db, int(old))
                if current is not None and current.status in ("open", "playing", "paused"):
                    ids.append(old)
                    continue
            ref = f"t{row.id}:{m.match_key}:{k}"
            made = await ts.active_table_of_ref(self.db, ref)
            if made is not None:  # opened before a restart
                ids.append(made)
                continue
            chat = int(m.table_chats[(k - 1) % len(m.table_chats)])
            table = await table_repo.insert_table(self.db, chat, row.preset_id, preset.game, options, row.created_by,
                                               tournament_ref=ref)
            for seat, uid in ((0, pa[0]), (1, pb[0]), (2, pa[1]), (3, pb[1])):
                await table_repo.seat_user(self.db, table.id, seat, uid)
            ids.append(table.id)
            await self.rt.render_lobby(table.id)
        await ts.set_match_fields(self.db, m.id, game_tables=ids, status="open")
        self.dashboard_changed(row.id)
        names = await self._names(row.id)
        where = await self._table_titles(row.id, m)
        lang = self.glang()
        text = tt(lang, "start.open", key=m.match_key, a=names.get(m.side_a or "", "?"),
                  b=names.get(m.side_b or "", "?"), tables=where)
        self.send(row.group_chat_id, text)
        waiting = await self._start_ready_tables(row.id, m.match_key, force)
        if waiting:
            await self.tell_missing(row, m, waiting)

    async def _start_ready_tables(self, tid: int, key: str, force: bool = False) -> dict[int, list[int]]:
        """Start each open table whose four players have checked in (``force``: all of them); returns the
        players still missing, per table."""
        m = await ts.get_match(self.db, tid, key)
        present = await ts.checkins(self.db, tid, key)
        waiting: dict[int, list[int]] = {}
        started = False
        for k, (pa, pb) in enumerate(await ts.match_players(self.db, m), start=1):
            table_id = m.game_tables[k - 1] if k - 1 < len(m.game_tables) else None
            if table_id is None:
                continue
            table = await table_repo.get_table(self.db, int(table_id))
            if table is None or table.status != "open":
                started = started or (table is not None and table.status in ("playing", "paused", "finished"))
                continue
            missing = [u for u in (*pa, *pb) if u not in present]
            if missing and not force:
                waiting[k] = missing
                continue
            err = await self.rt.start_table(int(table_id), None)
            if err:
                log.warning("could not start table %s: %s", table_id, err)
            else:
                started = True
        if started and m.status != "playing":
            await ts.set_match_fields(self.db, m.id, status="playing")
            await ts.mark_started(self.db, tid, key)
        if started:
            self.dashboard_changed(tid)
        return waiting

    async def tell_missing(self, row: Tournament, m: TournamentMatch, waiting: dict[int, list[int]]) -> None:
        """Who has not checked in, table by table, with each table's own deadline: in that table's group,
        in the tournament group and to the organisers."""
        names = await ts.user_names(self.db, [u for us in waiting.values() for u in us])
        lang = self.glang()
        lines = []
        for k, users in sorted(waiting.items()):
            until = ts.local_text(ts.table_deadline(row, m, k), row.time_zone)[-5:]
            line = tt(lang, "start.waiting", key=m.match_key, table=k, names="、".join(names[u] for u in users),
                      until=until)
            lines.append(line)
            if m.table_chats:
                self.send(int(m.table_chats[(k - 1) % len(m.table_chats)]), line)
        text = "\n".join(lines)
        self.send(row.group_chat_id, text)
        for r in await ts.role_members(self.db, row.id, "organiser"):
            self.send(r.user_id, text)

    async def on_late(self, d: DeadlineData) -> None:
        """A lateness deadline: every table due is decided (one transaction with the match result when
        that completes it); each forfeited table is announced with the entry and the players missing."""
        got = await self._current(d, ("scheduled", "open", "playing"))
        if got is None:
            return
        row, m = got
        async with self.lock(row.id):
            lat = await ts.decide_lateness(self.db, row.id, m.match_key, self.now())
            if not lat.new_tables:
                return
            self.dashboard_changed(row.id)
            m = await ts.get_match(self.db, row.id, m.match_key)
            for t in lat.new_forfeits:
                if t.table - 1 < len(m.game_tables) and m.game_tables[t.table - 1] is not None:
                    await self._abort_table(int(m.game_tables[t.table - 1]))
            if lat.new_forfeits:
                await self.tell_match(row, m, await self.lateness_text(row, m, lat))
            if lat.recorded is not None:
                await self.after_result(row.id, lat.recorded, announce=False)
            else:
                await self._start_ready_tables(row.id, m.match_key)

    async def lateness_text(self, row: Tournament, m: TournamentMatch, lat: ts.Lateness) -> str:
        """The forfeit notice: per table, the entry late and who of it did not come, and who wins."""
        lang = self.glang()
        names = await self._names(row.id)
        a, b = names.get(m.side_a or "", "?"), names.get(m.side_b or "", "?")
        missing = [int(p) for t in lat.new_forfeits for p in (*t.absent_a, *t.absent_b)]
        people = await ts.user_names(self.db, missing)

        def who(players: tuple[str, ...]) -> str:
            return "、".join(people.get(int(p), p) for p in players)

        count = len(await ts.match_players(self.db, m))
        lines = []
        for t in lat.new_forfeits:
            late = int((ts.table_deadline(row, m, t.table) - m.start_at).total_seconds() // 60) if m.start_at else 0
            gone = who((*t.absent_a, *t.absent_b))
            if count == 1:
                if t.absent == "both":
                    lines.append(tt(lang, "late.double", key=m.match_key, players=gone))
                else:
                    absent, winner = (a, b) if t.absent == "a" else (b, a)
                    lines.append(tt(lang, "late.forfeit", key=m.match_key, absent=absent, players=gone, late=late,
                                    winner=winner))
            elif t.absent == "both":
                lines.append(tt(lang, "late.table_double", key=m.match_key, table=t.table, players=gone))
            else:
                absent, winner = (a, b) if t.absent == "a" else (b, a)
                lines.append(tt(lang, "late.table", key=m.match_key, table=t.table, absent=absent, players=gone,
                                late=late, winner=winner))
        if count > 1:
            if lat.recorded is not None and lat.recorded.match.result_json is not None:
                eng = await ts.engine_state(self.db, row.id)
                lines.append(tt(lang, "late.match", line=views.result_line(lang, m.match_key,
                                                                           lat.recorded.match.result_json, a, b,
                                                                           eng)))
            else:
                lines.append(tt(lang, "late.others_play"))
        return "\n".join(lines)

    async def _abort_table(self, table_id: int) -> None:
        table = await table_repo.get_table(self.db, table_id)
        if table is None or table.status in ("finished", "aborted"):
            return
        await table_repo.abort_table(self.db, table_id)
        match_row = await match_repo.current_match(self.db, table_id)
        if match_row is not None:
            await self.scheduler.cancel(self.db, "move_clock", f"match:{match_row.id}")
            await self.scheduler.cancel(self.db, "match_time", f"match:{match_row.id}:time")

    async def tell_match(self, row: Tournament, m: TournamentMatch, text: str) -> None:
        """Tell the tournament group, both sides and the referees."""
        self.send(row.group_chat_id, text)
        told: set[int] = set()
        for a, b in await ts.match_players(self.db, m):
            for uid in (*a, *b):
                if uid not in told:
                    told.add(uid)
                    self.send(uid, text)
        for r in await ts.role_members(self.db, row.id):
            if r.role in ("referee", "chief_referee") and r.user_id not in told:
                told.add(r.user_id)
                self.send(r.user_id, text)

    # --- results -----------------------------------------------------------------------------------

    async def on_match_over(self, match_id: int, result: dict[str, Any]) -> None:
        """A table finished: record its result; the match result once every table of it is in."""
        match_row = await match_repo.get_match_row(self.db, match_id)
        if match_row is None:
            return
        table = await table_repo.get_table(self.db, match_row.table_id)
        ref = (table.tournament_ref or "") if table else ""
        if not ref.startswith("t") or ref.count(":") != 2:
            return
        head, key, k = ref.split(":")
        tid = int(head[1:])
        async with self.lock(tid):
            try:
                m = await ts.get_match(self.db, tid, key)
            except RuleError:
                return
            if m.status in ("finished", "void") or m.result_json is not None:
                return
            res1 = table_match_result(result, int(k))
            tr = res1.tables[0]
            results = {**m.table_results, str(k): tr.to_dict()}
            m = await ts.set_match_fields(self.db, m.id, table_results=results)
            self.dashboard_changed(tid)
            count = len(await ts.match_players(self.db, m))
            done = [TableResult.from_dict(v) for kk, v in results.items() if kk.isdigit()]
            if len(done) < count:
                return
            res = res1 if count == 1 else team_result(done)
            try:
                rec = await ts.record_result(self.db, tid, key, res, None)
            except RuleError as err:  # a level team match in the knockout: the referee decides
                log.info("result of %s in tournament %s not recorded: %s", key, tid, err)
                row = await ts.get_tournament(self.db, tid)
                await self.tell_match(row, m, tt(self.glang(), "result.referee_decides", key=key))
                self.dashboard_changed(tid)
                return
            await self.after_result(tid, rec)

    async def after_result(self, tid: int, rec: ts.Recorded, announce: bool = True, text: str | None = None) -> None:
        self.dashboard_changed(tid)
        row = await ts.get_tournament(self.db, tid)
        lang = self.glang()
        if announce and rec.match.result_json is not None:
            names = await self._names(tid)
            line = views.result_line(lang, rec.match.match_key, rec.match.result_json,
                                     names.get(rec.match.side_a or "", "?"), names.get(rec.match.side_b or "", "?"),
                                     ts.load_engine(row))
            self.send(row.group_chat_id, text or tt(lang, "result.announce", line=line))
            await self.tell_players_result(row, rec)
        if rec.finished:
            eng = ts.load_engine(row)
            self.send(row.group_chat_id or row.created_by,
                      tt(lang, "finished", name=row.name, ranking=views.ranking_text(lang, eng)))
            return
        eng = ts.load_engine(row)
        if eng.swiss is not None and eng.swiss.stalled and not rec.new_matches:  # the organiser decides
            self.send(row.created_by, tt(await self.ulang(row.created_by), "swiss.stalled",
                                         round=eng.swiss.current_round))
        await self._schedule(row)

    async def tell_players_result(self, row: Tournament, rec: ts.Recorded) -> None:
        """Each player of the match, privately: the result; what comes next follows when it is scheduled
        (``sched.yours``), or that their tournament is over.  A referee's substitute is told their match
        is over (their place goes back to the entry's player); the player they stood in for is told too."""
        m = rec.match
        if m.result_json is None:
            return
        entries = await ts.entries(self.db, row.id, include_withdrawn=True)
        names = views.names_of(entries)
        members = {str(e.id): {int(p) for p in e.players_json} for e in entries}
        eng = ts.load_engine(await ts.get_tournament(self.db, row.id))
        alive = set(eng.ready_matches()) | {x.match_key for x in rec.new_matches}
        sides_next = {e for key in alive for e in eng.sides(key) if e}
        if eng.bracket is not None:  # already placed in a match to come (a semi-final loser's third-place match)
            br = eng.bracket
            sides_next |= {e for x in br.matches if x.result is None for e in br.entries_of(x.id) if e}
        for side, entry in (("a", m.side_a), ("b", m.side_b)):
            if not entry:
                continue
            seated = {p for pa, pb in await ts.match_players(self.db, m) for p in (pa if side == "a" else pb)}
            for uid in sorted(seated | members.get(entry, set())):
                ul = await self.ulang(uid)
                line = views.result_line(ul, m.match_key, m.result_json, names.get(m.side_a or "", "?"),
                                         names.get(m.side_b or "", "?"), eng)
                if uid not in members.get(entry, {uid}):
                    after = "result.substitute_done"
                elif rec.finished:
                    after = "result.tournament_over"
                elif entry not in sides_next and eng.bracket is not None and (
                        entry in eng.bracket.eliminations()
                        or (eng.swiss is not None and entry not in eng.bracket.entries())):
                    after = "result.out"   # knocked out, or not among the Swiss's top K
                else:
                    after = "result.next_soon"
                self.send(uid, tt(ul, "result.yours", line=line) + "\n" + tt(ul, after))

    async def cancel_match_timers(self, m: TournamentMatch) -> None:
        for kind in ("t_remind", "t_checkin", "t_start", "t_late"):
            await self.scheduler.cancel(self.db, kind, f"tm:{m.id}")

    async def halt_match(self, m: TournamentMatch) -> None:
        """A result was imposed (award, correction, disqualification): stop its timers and its tables."""
        await self.cancel_match_timers(m)
        for table_id in m.game_tables:
            if table_id is not None:
                await self._abort_table(int(table_id))

    # --- referee tools ---------------------------------------------------------------------------

    async def undo_forfeit(self, tid: int, key: str, actor: int, reason: str) -> None:
        async with self.lock(tid):
            m = await ts.undo_lateness(self.db, tid, key, actor, reason)
            row = await ts.get_tournament(self.db, tid)
            await self.cancel_match_timers(m)
            await self.tell_match(row, m, tt(self.glang(), "late.undone", key=key, reason=reason))
            await self.open_tables(row, m, force=True)

    async def referee_start(self, tid: int, key: str, actor: int) -> str:
        """A referee starts a match's tables now, whoever has checked in (audited); returns the answer."""
        lang = await self.ulang(actor)
        async with self.lock(tid):
            row = await ts.get_tournament(self.db, tid)
            await ts.require(self.db, tid, actor, ("referee", "chief_referee", "organiser"))
            m = await ts.get_match(self.db, tid, key)
            if m.status not in ("scheduled", "open", "playing") or m.start_at is None:
                return error_text(lang, RuleError("match_not_ready", "", match=key))
            await ts.audit(self.db, tid, actor, "referee_start", match=key)
            if m.status == "scheduled":  # its start deadline then finds it open and does nothing
                await self.open_tables(row, m, force=True)
            else:
                await self._start_ready_tables(tid, key, force=True)
            self.send(row.group_chat_id, tt(self.glang(), "ref.started", key=key))
        return tt(lang, "done")

    async def seat_substitute(self, tid: int, key: str, old: int, new: int, actor: int, reason: str) -> str:
        """A referee seats a substitute (rules.md D25).  Before the table begins: the match's players and
        the open table's seat change, the substitute then checks in.  While it plays: the seat's player
        changes for the rest of the match (``take_over_seat``); clocks run on.  The tournament group,
        the table group and both people are told; the audit log has it."""
        async with self.lock(tid):
            live = await self._live_match_of(tid, key, old)
            if live is not None:
                async with self.rt.lock(live):  # no move of the match between the seat change and the index
                    sub = await ts.substitute(self.db, tid, key, old, new, actor, reason)
                    if sub.in_play and sub.seat is not None and sub.game_table is not None:
                        await self.take_over_seat(live, sub.game_table, sub.seat, old, new, sub)
            else:
                sub = await ts.substitute(self.db, tid, key, old, new, actor, reason)
                if sub.in_play and sub.seat is not None and sub.game_table is not None:  # began meanwhile
                    started = await match_repo.current_match(self.db, sub.game_table)
                    if started is not None:
                        async with self.rt.lock(started.id):
                            await self.take_over_seat(started.id, sub.game_table, sub.seat, old, new, sub)
            m, k = sub.match, sub.table
            if sub.game_table is not None and not sub.in_play and sub.seat is not None:
                await self.rt.render_lobby(sub.game_table)
            row = await ts.get_tournament(self.db, tid)
            names = await ts.user_names(self.db, [old, new])
            params = {"key": key, "table": k, "new": names[new], "old": names[old], "reason": reason or "-"}
            text_key = "ref.substitute_live" if sub.in_play else "ref.substitute"
            glang = self.glang()
            seat = seat_name(glang, sub.seat) if sub.seat is not None else "-"
            text = tt(glang, text_key, seat=seat, **params)
            self.send(row.group_chat_id, text)
            if m.table_chats:
                self.send(int(m.table_chats[(k - 1) % len(m.table_chats)]), text)
            for uid in (old, new):
                ul = await self.ulang(uid)
                self.send(uid, tt(ul, text_key, seat=seat_name(ul, sub.seat) if sub.seat is not None else "-",
                                  **params))
            if m.status in ("open", "playing") and not sub.in_play:
                await self._start_ready_tables(tid, key)
            self.dashboard_changed(tid)
            return tt(await self.ulang(actor), "done")

    async def _live_match_of(self, tid: int, key: str, user_id: int) -> int | None:
        """The game match in play at ``user_id``'s table of match ``key`` (None: not begun, or over)."""
        m = await ts.get_match(self.db, tid, key)
        k = ts.table_of_player(await ts.match_players(self.db, m), user_id)
        if k is None or k - 1 >= len(m.game_tables) or m.game_tables[k - 1] is None:
            return None
        row = await match_repo.current_match(self.db, int(m.game_tables[k - 1]))
        return row.id if row is not None and row.status in ("playing", "paused") else None

    async def take_over_seat(self, match_id: int, table_id: int, seat: int, old: int, new: int,
                             sub: ts.Substituted) -> None:
        """The seat's player changed in a match in play (the caller holds the match's lock): the seat
        index, the old player's hand message (closed, its keyboard gone), the seat's tapped selection,
        then every message of the match again: the new player gets a hand message with the current
        hand and keyboard, the table message shows the new name.  Presses and typed plays of the old
        player are refused from now on (``replaced``)."""
        rt = self.rt
        rt.seats.add(match_id, table_id, await table_repo.get_seats(self.db, table_id))
        ref = await message_repo.get_hand_message(self.db, match_id, seat)
        if ref is not None:
            await message_repo.delete_message_ref(self.db, ref.id)
            if rt.outbox is not None:
                names = await ts.user_names(self.db, [new])
                ol = await self.ulang(old)
                rt.outbox.edit(ref.chat_id, ref.message_id, tt(ol, "sub.hand_closed", key=sub.match.match_key,
                                                               table=sub.table, new=names[new]), None)
        await selection_repo.clear_selection(self.db, match_id, seat)
        self.replaced.setdefault(old, set()).add(match_id)
        self.replaced.get(new, set()).discard(match_id)
        rt.live.forget_match(match_id)  # its in-memory message refs: the seat's hand message is the new player's
        await rt.live.render_match(match_id, everything=True)

    async def replaced_answer(self, user_id: int, match_id: int | None, lang: str) -> str | None:
        """The answer to a hand button (of ``match_id``) or a typed play (None) by a player a substitute
        replaced in a match still in play; None when that is not the case."""
        mine = self.replaced.get(user_id)
        if not mine:
            return None
        live = set()
        for mid in list(mine):
            row = await match_repo.get_match_row(self.db, mid)
            if row is not None and row.status in ("playing", "paused"):
                live.add(mid)
            else:
                mine.discard(mid)  # over: forgotten
        if not mine:
            self.replaced.pop(user_id, None)
        if match_id is not None:
            return tt(lang, "sub.refused") if match_id in live else None
        if live and await self.rt.user_match(user_id) is None:  # not seated in another live match
            return tt(lang, "sub.refused")
        return None

    async def load_replaced(self) -> None:
        """At start-up: who a substitute replaced in the matches still in play (from the audit log)."""
        self.replaced.clear()
        for row in await ts.all_tournaments(self.db):
            if row.status != "running":
                continue
            subs = [a for a in await ts.audit_log(self.db, row.id, 10_000)
                    if a.action == "substitute" and a.detail_json.get("in_play")]
            for a in subs:
                d = a.detail_json
                try:
                    m = await ts.get_match(self.db, row.id, str(d["match"]))
                except RuleError:
                    continue
                k = int(d["table"])
                if k - 1 >= len(m.game_tables) or m.game_tables[k - 1] is None:
                    continue
                match_row = await match_repo.current_match(self.db, int(m.game_tables[k - 1]))
                if match_row is None or match_row.status not in ("playing", "paused"):
                    continue
                if await table_repo.seat_of_user(self.db, match_row.table_id, int(d["old"])) is None:
                    self.replaced.setdefault(int(d["old"]), set()).add(match_row.id)

    async def extend_lateness(self, tid: int, key: str, table: int | None, minutes: int, actor: int) -> str:
        """A referee gives a table (or every table waiting) more time: a new lateness deadline per table."""
        async with self.lock(tid):
            m, deadlines = await ts.extend_lateness(self.db, tid, key, table, minutes, actor, self.now())
            row = await ts.get_tournament(self.db, tid)
            assert m.start_at is not None
            for k, due in deadlines.items():
                await self.scheduler.schedule(self.db, "t_late", f"tm:{m.id}", due,
                                              {"tid": tid, "key": key, "start": m.start_at.isoformat(), "table": k})
            lang = self.glang()
            lines = [tt(lang, "ref.extended", key=key, table=k, minutes=minutes,
                        until=ts.local_text(due, row.time_zone)[-5:]) for k, due in sorted(deadlines.items())]
            text = "\n".join(lines)
            self.send(row.group_chat_id, text)
            for k in deadlines:
                if m.table_chats:
                    self.send(int(m.table_chats[(k - 1) % len(m.table_chats)]), lines[sorted(deadlines).index(k)])
            return tt(await self.ulang(actor), "done")

    # --- the organiser's control after creation ---------------------------------------------------

    async def cancel_tournament(self, tid: int, actor: int, reason: str, delete: bool) -> str:
        """Cancel (or delete) a tournament: its timers stop, its tables are aborted, everyone is told."""
        async with self.lock(tid):
            row = await ts.cancel(self.db, tid, actor, reason, delete)
            self.dashboard_changed(tid)
            for kind in ("t_close", "t_draw"):
                await self.scheduler.cancel(self.db, kind, f"t:{tid}")
            for m in await ts.matches(self.db, tid):
                await self.halt_match(m)
            lang = self.glang()
            key = "ctl.deleted" if delete else "ctl.cancelled"
            self.send(row.group_chat_id, tt(lang, key, name=row.name, reason=reason))
            told: set[int] = set()
            for e in await ts.entries(self.db, tid):
                for uid in (int(p) for p in e.players_json):
                    if uid not in told:
                        told.add(uid)
                        self.send(uid, tt(await self.ulang(uid), key, name=row.name, reason=reason))
            return tt(await self.ulang(actor), key, name=row.name, reason=reason)

    async def rearm_match(self, row: Tournament, m: TournamentMatch, text_key: str, **params: Any) -> None:
        """A match moved (time or tables): new timers; the group and its players are told."""
        await self.cancel_match_timers(m)
        await self.arm_match(row, m)
        names = await self._names(row.id)
        where = await self._table_titles(row.id, m)
        lang = self.glang()
        values = {"key": m.match_key, "a": names.get(m.side_a or "", "?"), "b": names.get(m.side_b or "", "?"),
                  "time": ts.local_text(m.start_at, row.time_zone), "tables": where, **params}
        self.send(row.group_chat_id, tt(lang, text_key, **values))
        for pa, pb in await ts.match_players(self.db, m):
            for uid in (*pa, *pb):
                self.send(uid, tt(await self.ulang(uid), text_key, **values))

    async def edit_time(self, tid: int, actor: int, what: str, when: datetime) -> str:
        async with self.lock(tid):
            edited = await ts.edit_time(self.db, tid, actor, what, when)
            row = edited.row
            await self.arm_tournament(row)
            for m in edited.moved:
                await self.rearm_match(row, m, "ctl.rescheduled")
            self.send(row.group_chat_id, tt(self.glang(), "ctl.time_edited", name=row.name,
                                            what=tt(self.glang(), "ctl.what." + what),
                                            time=ts.local_text(when, row.time_zone)))
            return tt(await self.ulang(actor), "done")

    async def reschedule(self, tid: int, actor: int, key: str, when: datetime) -> str:
        async with self.lock(tid):
            m = await ts.reschedule(self.db, tid, actor, key, when)
            await self.rearm_match(await ts.get_tournament(self.db, tid), m, "ctl.rescheduled")
            return tt(await self.ulang(actor), "done")

    async def swap(self, tid: int, actor: int, first: str, second: str) -> str:
        async with self.lock(tid):
            a, b = await ts.swap(self.db, tid, actor, first, second)
            row = await ts.get_tournament(self.db, tid)
            for m in (a, b):
                await self.rearm_match(row, m, "ctl.rescheduled")
            return tt(await self.ulang(actor), "done")

    async def move_table(self, tid: int, actor: int, key: str, table: int, chat_id: int) -> str:
        async with self.lock(tid):
            m = await ts.move_table(self.db, tid, actor, key, table, chat_id)
            await self.rearm_match(await ts.get_tournament(self.db, tid), m, "ctl.table_moved", table=table)
            return tt(await self.ulang(actor), "done")

    async def live_engine_matches(self, tid: int, key: str) -> list[int]:
        m = await ts.get_match(self.db, tid, key)
        out = []
        for table_id in m.game_tables:
            if table_id is None:
                continue
            row = await match_repo.current_match(self.db, int(table_id))
            if row is not None and row.status in ("playing", "paused"):
                out.append(row.id)
        return out

    async def pause(self, tid: int, key: str, paused: bool) -> bool:
        """Pause or resume the match's table clocks (the time limit is moved on by the pause)."""
        ids = await self.live_engine_matches(tid, key)
        if not ids:
            return False
        m = await ts.get_match(self.db, tid, key)
        results = dict(m.table_results)
        for mid in ids:
            ref = f"match:{mid}:time"
            if paused:
                pending = await self.scheduler.pending(self.db, "match_time", ref)
                if pending:
                    results[f"paused:{mid}"] = (pending[0].due_at - self.now()).total_seconds()
                    await self.scheduler.cancel(self.db, "match_time", ref)
                await self.scheduler.cancel(self.db, "move_clock", f"match:{mid}")
                await match_repo.set_match_paused(self.db, mid, True)
            else:
                await match_repo.set_match_paused(self.db, mid, False)
                left = results.pop(f"paused:{mid}", None)
                if left is not None:
                    await self.scheduler.schedule(self.db, "match_time", ref,
                                                  self.now() + timedelta(seconds=float(left)), {"match_id": mid})
                self.rt.kick(mid, 0)
        await ts.set_match_fields(self.db, m.id, table_results=results)
        self.dashboard_changed(tid)
        return True


def register_deadlines(scheduler: Any, tb: TournamentBot) -> None:
    """Register the tournament deadline kinds on the deadline scheduler."""
    scheduler.register("t_close", tb.on_close)
    scheduler.register("t_draw", tb.on_draw_deadline)
    scheduler.register("t_remind", tb.on_remind)
    scheduler.register("t_checkin", tb.on_checkin_open)
    scheduler.register("t_start", tb.on_start)
    scheduler.register("t_late", tb.on_late)
