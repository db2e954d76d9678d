"""Driving a match: applying actions, the table's own steps (computer seats, dealing, bid windows,
the next deal), move clocks and the match time limit.

Flow of one action: ``act`` applies it in one transaction (version check, dedupe key), then
``_after`` announces events and renders the messages (``bot.tables.live``), re-arms the move clock and
schedules the table's next step (``kick``).  Pacing uses asyncio timers derived from the stored
state, so a restart resumes them (``Runtime.resume_all``).  Move clocks, bid windows and the match
time limit are stored deadlines (restart-safe, idempotent: the payload carries the version).
"""

from __future__ import annotations

import asyncio
import copy
import logging
import time
from collections.abc import Awaitable, Callable
from datetime import datetime, timedelta

from bot.presentation import render
from bot.presentation.i18n import t
from bot.tables.outcomes import APPLIED, REPEATED, Acted, Refusal, Why
from bot.tables.ports import MatchShows, Names, Pace, Person, Running
from bot.tables.seats import match_context, match_seats
from bot.tables.thinking import THINKER
from engine.errors import RuleError
from engine.game import Match, Turn
from engine.rng import rng_for
from scheduler.deadlines import DeadlineData, DeadlineScheduler
from storage import action_repo, match_repo, table_repo
from storage.action_repo import ApplyResult
from storage.errors import StaleVersion
from storage.models import GameTable

log = logging.getLogger(__name__)


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


class Driver:
    def __init__(
        self,
        shared: Running,
        pace: Pace,
        names: Names,
        shows: MatchShows,
        deadlines: dict[int, datetime] | None = None,
    ) -> None:
        self.rt = shared
        self.pace = pace
        self.names = names
        self.shows = shows
        self.metrics = Metrics()
        self._tick_failures: dict[int, int] = {}  # match -> failed table steps in a row (retried, backed off)
        # asked before a table deals its next deal (duplicate deals wait for the partner table); None: never
        self.deal_gate: Callable[[int, Match, GameTable | None], Awaitable[bool]] | None = None
        self.gate_poll = 1.0  # seconds before a table the gate held asks again
        # match id -> when the running move clock runs out (the live messages read the same map)
        self.deadlines: dict[int, datetime] = {} if deadlines is None else deadlines
        self._timers: dict[int, asyncio.TimerHandle] = {}
        self._window_armed: dict[
            int, str
        ] = {}  # match -> the deal (and redeal) whose bidding window it armed
        self._clock_armed: dict[int, tuple[int, int]] = {}  # match -> (version, seat) of its running clock
        self._clock_known: set[int] = (
            set()
        )  # matches whose clock state this process knows (else: cancel once)

    def register_deadlines(self, scheduler: DeadlineScheduler) -> None:
        scheduler.register("move_clock", self._on_move_clock)
        scheduler.register("bid_window", self._on_bid_window)
        scheduler.register("match_time", self._on_match_time)

    def stop(self) -> None:
        for h in self._timers.values():
            h.cancel()
        self._timers.clear()
        THINKER.shutdown()

    # --- pacing ----------------------------------------------------------------------------

    def kick(self, match_id: int, delay: float = 0.0) -> None:
        """Run the table's next step for ``match_id`` after ``delay`` seconds (replaces a pending one)."""
        if self.rt.stopping:
            return
        self.cancel_kick(match_id)
        loop = asyncio.get_running_loop()
        self._timers[match_id] = loop.call_later(max(0.0, delay), lambda: self.rt.spawn(self.tick(match_id)))

    def cancel_kick(self, match_id: int) -> None:
        old = self._timers.pop(match_id, None)
        if old is not None:
            old.cancel()

    def schedule_next(self, match_id: int, m: Match) -> None:
        s = self.pace
        if m.finished:
            return
        step = m.system_step()
        if step == "sys deal":
            self.kick(match_id, s.deal_delay)
        elif step == "sys next_deal":
            first = not m.history and not m.log
            self.kick(match_id, 0 if first else max(s.deal_delay * 2, s.ai_delay))
        elif self._forced_next(match_id, m):
            self.kick(match_id, 0)  # a person's move with no choice (the last trick): played at once
        elif not self._people_choose(match_id, m):
            self.kick(match_id, s.ai_delay)

    def _forced_next(self, match_id: int, m: Match) -> bool:
        """Is the next move a person's with no choice (Shengji's last trick)?  The bot plays it at once (no
        computer's pause: nobody waits to see it, and the group shows the deal's end with both last tricks)."""
        entry = self.rt.seats.get(match_id)
        turns = [tr for tr in m.turns() if tr.required]
        if entry is None or len(turns) != 1:
            return False
        if any(s.seat == turns[0].seat and s.is_computer for s in entry.seats):
            return False
        return m.forced_action(turns[0].seat) is not None

    def _people_choose(self, match_id: int, m: Match) -> bool:
        """Is every turn a person's required move with a choice?  Then the table's own step would find
        nothing to do (and read the match and its table for it): no tick until the next action."""
        entry = self.rt.seats.get(match_id)
        turns = m.turns()
        if entry is None or not turns:
            return False
        computers = {s.seat for s in entry.seats if s.is_computer}
        return all(
            tr.required and tr.seat not in computers and m.forced_action(tr.seat) is None for tr in turns
        )

    # --- seats of a match ------------------------------------------------------------------

    async def seat_of_user(self, match_id: int, user_id: int) -> int | None:
        entry = await match_seats(self.rt.db, self.rt.seats, match_id)
        return entry.seat_of(user_id) if entry is not None else None

    async def user_match(self, user_id: int) -> tuple[int, int] | None:
        """The (match id, seat) the user plays in now (the newest of their live matches), by the index."""
        for match_id, seat in self.rt.seats.matches_of(user_id):
            row = await match_repo.match_row(self.rt.db, match_id)
            if row is not None and row.status in ("playing", "paused"):
                return match_id, seat
            self.rt.seats.remove(match_id)  # ended (or its table aborted) since it was indexed
        if self.rt.claims is not None:  # several processes: another one may have started the user's match
            latest = await match_repo.latest_match_of_user(self.rt.db, user_id)
            if latest is not None and latest.status in ("playing", "paused"):
                found = await self.seat_of_user(latest.id, user_id)  # indexes it
                if found is not None:
                    return latest.id, found
        return None

    # --- actions ---------------------------------------------------------------------------

    async def act(
        self,
        match_id: int,
        seat: int,
        action: str,
        *,
        user_id: int | None,
        dedupe: str | None,
        t0: float | None = None,
        source: str = "player",
    ) -> Acted:
        """Apply ``action`` for ``seat`` (committed, announced and shown), or say why not (the match ended
        or moved on: ``Why.STALE``; the rules refused it: ``Why.RULE``); a repeated update: neither."""
        rt = self.rt
        async with rt.lock(match_id):
            # under the lock nothing else moves the match: the current version is the one decided on
            try:
                applied = await action_repo.apply_action(
                    rt.db, match_id, action, actor_user_id=user_id, dedupe_key=dedupe
                )
            except RuleError as err:
                rt.metrics.action("refused")
                if err.code in ("match_finished", "match_not_found"):
                    return Acted(False, Refusal(Why.STALE))
                return Acted(False, Refusal.rule(err))
            except StaleVersion:
                rt.metrics.action("stale")
                return Acted(False, Refusal(Why.STALE))
            if applied.duplicate:
                return REPEATED
            if t0 is not None:
                self.metrics.latencies.append(time.perf_counter() - t0)
                rt.metrics.turn(self.metrics.latencies[-1])
                if len(self.metrics.latencies) > 200_000:  # bounded: keep the newer half
                    del self.metrics.latencies[:100_000]
            await self.after(match_id, applied, source=source, seat=seat)
        return APPLIED

    async def resume_match(self, match_id: int, user: Person) -> Refusal | None:
        """A seated player (or the creator, or an admin) resumes a paused table; None, or why not."""
        rt = self.rt
        row = await match_repo.get_match_row(rt.db, match_id)
        if row is None:
            return Refusal(Why.STALE)
        table = await table_repo.get_table(rt.db, row.table_id)
        seat = await self.seat_of_user(match_id, user.id)
        if seat is None and (table is None or user.id != table.created_by) and user.id not in rt.admin_ids:
            return Refusal(Why.NOT_YOUR_TABLE)
        async with rt.lock(match_id):
            try:
                applied = await action_repo.apply_action(rt.db, match_id, "sys resume", actor_user_id=user.id)
            except RuleError as err:
                return Refusal.rule(err)
            await self.after(match_id, applied, source="player")
        return None

    async def _apply_sys(self, match_id: int, action: str, version: int | None = None) -> ApplyResult | None:
        """Apply a step of the table itself; ``version``: only if the match is still at the version it was
        decided on (another process may have moved it meanwhile)."""
        try:
            applied = await action_repo.apply_action(self.rt.db, match_id, action, expected_version=version)
        except (RuleError, StaleVersion) as err:
            log.info("match %s: %s not applied: %s", match_id, action, err)
            return None
        return applied

    async def after(
        self, match_id: int, applied: ApplyResult, *, source: str, seat: int | None = None
    ) -> None:
        """What follows a committed action: announce, re-arm the clock, render, schedule the next step."""
        self.metrics.actions += 1
        self.rt.metrics.action("applied")
        for ev in applied.events:
            if ev.kind == "play":
                self.metrics.cards_played += len(str(ev.data.get("cards", "")).split())
        if seat is not None and source in ("player", "clock", "forced"):
            self.shows.drop_queued_hand(match_id, seat)  # a tap's edit: the play answers it
        # at a deal's end the table message shows the last tricks before the summary is sent: the group has one
        # call every 3 s, and the summary first kept the last tricks from the group that long
        deal_ends = any(ev.kind in ("deal_over", "match_over") for ev in applied.events)
        if deal_ends:
            await self.shows.render_match(match_id, applied=applied)
        await self.shows.announce(match_id, applied.events, source=source, seat=seat, applied=applied)
        await self.arm_clock(match_id, applied.match, applied.version)
        if not deal_ends:
            await self.shows.render_match(match_id, applied=applied)
        self.schedule_next(match_id, applied.match)
        if applied.match.finished:
            self.forget(match_id)  # its last messages are queued: nothing in memory needs the match any more

    def remembers(self, match_id: int) -> bool:
        """Whether anything in this process's memory still concerns the match (tests: maps stay bounded)."""
        return (
            match_id in self._timers
            or match_id in self._window_armed
            or match_id in self._clock_armed
            or match_id in self._clock_known
            or match_id in self.deadlines
            or self.rt.seats.get(match_id) is not None
            or self.shows.remembers(match_id)
        )

    def forget(self, match_id: int) -> None:
        """Drop what this process keeps in memory for a match that ended or was stopped (bounded maps)."""
        self.cancel_kick(match_id)
        self._tick_failures.pop(match_id, None)
        self._window_armed.pop(match_id, None)
        self._clock_armed.pop(match_id, None)
        self._clock_known.discard(match_id)
        self.deadlines.pop(match_id, None)
        self.rt.seats.remove(match_id)
        self.shows.forget_match(match_id)

    # --- the table's own steps -------------------------------------------------------------

    async def tick(self, match_id: int) -> None:
        """One step of the table itself: computer players, dealing, windows, next deal."""
        self._timers.pop(match_id, None)
        if self.rt.stopping:
            return
        try:
            async with self.rt.lock(match_id):
                await self._tick(match_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            # e.g. the database restarting: try again later (1, 2, 4 ... 60 s) rather than leave the table stuck
            failures = self._tick_failures[match_id] = self._tick_failures.get(match_id, 0) + 1
            log.exception("tick failed for match %s (attempt %d; trying again)", match_id, failures)
            self.kick(match_id, min(60.0, 2.0 ** (failures - 1)))
        else:
            self._tick_failures.pop(match_id, None)

    async def _tick(self, match_id: int) -> None:
        rt = self.rt
        row, m, table, seats = await match_context(self.rt.db, self.rt.seats, match_id)
        if row.status != "playing" or table is None or table.status != "playing":
            return
        if m.finished:
            return
        computers = {s.seat for s in seats if s.is_computer}
        # computer players act first (required turns, or a bid they want to make)
        for turn in m.turns():
            if turn.seat in computers:
                try:
                    # a tournament table's computer is a stand-in for an absent player: it plays strong
                    action = await THINKER.action(
                        m,
                        turn.seat,
                        rng_for(row.seed, "ai", row.version, turn.seat),
                        level="strong" if table.tournament_ref is not None else None,
                    )
                except RuleError:
                    action = None
                if action:
                    applied = await self._apply_sys(match_id, action, row.version)
                    if applied is not None:
                        await self.after(match_id, applied, source="ai", seat=turn.seat)
                        return
        # a person's move that leaves no choice (Shengji: the last trick) is played for them
        for turn in m.turns():
            if turn.seat in computers or not turn.required:
                continue
            action = m.forced_action(turn.seat)
            if action:
                try:
                    applied = await action_repo.apply_action(
                        rt.db,
                        match_id,
                        action,
                        expected_version=row.version,
                        dedupe_key=f"forced:{row.version}",
                    )
                except (RuleError, StaleVersion):
                    break
                if not applied.duplicate:
                    await self.after(match_id, applied, source="forced", seat=turn.seat)
                return
        step = m.system_step()
        if step == "sys deal":  # a batch of cards in one transaction
            batch = max(1, self.pace.DEAL_BATCH)
            # the batch that deals the last card opens the bid window: its deadline is stored before that
            # version is committed, so the first frame a page receives of the open window has its countdown
            # (the pages read the deadline when they are told of the commit)
            armed_ahead = False
            if len(computers) < len(seats):  # a window only waits for people
                ahead = _after_steps(m, "sys deal", batch)
                armed_ahead = any(
                    tr.seat not in computers for tr in _window_turns(ahead)
                ) and await self._arm_window(match_id, ahead, table)
            try:
                applied = await action_repo.apply_steps(
                    rt.db, match_id, "sys deal", batch, expected_version=row.version
                )
            except (RuleError, StaleVersion) as err:
                log.info("match %s: sys deal not applied: %s", match_id, err)
                applied = None
            if applied is None and armed_ahead:
                await self._disarm_window(match_id)
            if applied is not None:
                self.metrics.actions += applied.version - row.version
                await self.shows.announce(match_id, applied.events, source="sys", applied=applied)
                await self.arm_clock(match_id, applied.match, applied.version)
                await self.shows.render_match(match_id, applied=applied)
                self.schedule_next(match_id, applied.match)
            return
        if (
            step == "sys next_deal"
            and self.deal_gate is not None
            and not await self.deal_gate(match_id, m, table)
        ):
            self.kick(
                match_id, self.gate_poll
            )  # duplicate deals: the partner table has not finished this board
            return
        if step is not None:
            if step == "sys close_bidding":
                await self._disarm_window(match_id)
            applied = await self._apply_sys(match_id, step, row.version)
            if applied is not None:
                await self.after(match_id, applied, source="sys")
            return
        turns = _window_turns(m)
        if turns:
            # an optional window (the bid window): close it when its time is up, or when no human may act
            humans = [tr for tr in turns if tr.seat not in computers]
            if not humans:
                await self._disarm_window(match_id)
                applied = await self._apply_sys(match_id, "sys close_bidding")
                if applied is not None:
                    await self.after(match_id, applied, source="sys")
                return
            # normally armed by the deal's last batch (above); here after a restart, or a window opened otherwise
            await self._arm_window(match_id, m, table)

    async def _arm_window(self, match_id: int, m: Match, table: GameTable) -> bool:
        """Store the end of ``m``'s bid window unless it is armed for this deal already (here, or by another
        process: a window another process closed leaves an older deal here, never this one); whether this
        call stored it."""
        rt = self.rt
        deal = _deal_key(m)
        if self._window_armed.get(match_id) == deal:
            return False
        if rt.claims is not None and any(  # several processes: another one may have opened this window
            d.payload.get("deal") == deal
            for d in await rt.scheduler.pending(rt.db, "bid_window", f"match:{match_id}:window")
        ):
            self._window_armed[match_id] = deal
            return False
        seconds = int(table.options_json.get("bid_window_seconds", 10) or 0)
        due = rt.scheduler.now() + timedelta(seconds=seconds)
        await rt.scheduler.schedule(
            rt.db,
            "bid_window",
            f"match:{match_id}:window",
            due,
            {"match_id": match_id, "deal": deal},
            replace=True,
        )
        self._window_armed[match_id] = deal
        return True

    async def _disarm_window(self, match_id: int) -> None:
        if self._window_armed.pop(match_id, None) is not None:
            await self.rt.scheduler.cancel(self.rt.db, "bid_window", f"match:{match_id}:window")

    async def _on_bid_window(self, deadline: DeadlineData) -> None:
        payload = deadline.payload
        match_id = int(payload["match_id"])
        self._window_armed.pop(match_id, None)
        async with self.rt.lock(match_id):
            row, m = await match_repo.match_state(self.rt.db, match_id)
            if row.status != "playing" or _deal_key(m) != payload.get("deal"):
                return
            turns = m.turns()
            if turns and all(not tr.required for tr in turns) and m.system_step() is None:
                applied = await self._apply_sys(match_id, "sys close_bidding")
                if applied is not None:
                    await self.after(match_id, applied, source="sys")

    async def _on_match_time(self, deadline: DeadlineData) -> None:
        payload = deadline.payload
        match_id = int(payload["match_id"])
        async with self.rt.lock(match_id):
            row, m = await match_repo.match_state(self.rt.db, match_id)
            if row.status != "playing" or m.finished:
                return
            applied = await self._apply_sys(match_id, "sys time_up")
            if applied is not None:
                await self.after(match_id, applied, source="sys")

    # --- move clocks -----------------------------------------------------------------------

    async def arm_clock(self, match_id: int, m: Match, version: int) -> None:
        """Start the move clock of the next turn that has one (replacing the running one, in one
        transaction), or cancel the running one.  A match whose clock this process knows is not
        running costs no database call."""
        rt = self.rt
        if rt.scheduler is None:
            return
        ref = f"match:{match_id}"
        wanted: tuple[int, int] | None = None
        entry = None if m.finished else await match_seats(self.rt.db, self.rt.seats, match_id)
        if entry is not None:
            computers = entry.computers
            for turn in m.turns():
                if not turn.required or not turn.clock or turn.seat in computers:
                    continue
                seconds = m.clock_seconds(turn.clock)
                if seconds > 0:
                    wanted = (turn.seat, seconds)
                    break
        if wanted is None:
            self.deadlines.pop(match_id, None)
            if self._clock_armed.pop(match_id, None) is not None or match_id not in self._clock_known:
                await rt.scheduler.cancel(rt.db, "move_clock", ref)
            self._clock_known.add(match_id)
            return
        seat, seconds = wanted
        due = rt.scheduler.now() + timedelta(seconds=seconds)
        await rt.scheduler.schedule(
            rt.db,
            "move_clock",
            ref,
            due,
            {"match_id": match_id, "version": version, "seat": seat},
            replace=True,
        )
        self._clock_armed[match_id] = (version, seat)
        self._clock_known.add(match_id)
        self.deadlines[match_id] = due

    async def _on_move_clock(self, deadline: DeadlineData) -> None:
        rt = self.rt
        payload = deadline.payload
        match_id, version, seat = int(payload["match_id"]), int(payload["version"]), int(payload["seat"])
        async with rt.lock(match_id):
            row, m = await match_repo.match_state(rt.db, match_id)
            if row.status != "playing" or row.version != version or m.finished:
                return
            try:
                action = m.timeout_action(seat)  # D6: auto-play or "sys forfeit_deal <seat>"
            except RuleError:
                return
            try:
                applied = await action_repo.apply_action(
                    rt.db, match_id, action, expected_version=version, dedupe_key=f"clock:{version}"
                )
            except (RuleError, StaleVersion):
                return
            if applied.duplicate:
                return
            table = (
                applied.table
                if applied.table is not None
                else await table_repo.get_table(rt.db, row.table_id)
            )
            if table is not None:
                lang = await rt.chat_lang(table.chat_id)
                names = await self.names.player_names(row.table_id, lang)
                who = f"{render.seat_name(lang, seat)} {names[seat]}"
                if action.startswith("sys forfeit_deal"):  # a notice of record: a message of its own
                    rt.messages.send(
                        table.chat_id,
                        t(lang, "note.timeout_forfeit", name=names[seat], seat=render.seat_name(lang, seat)),
                    )
                else:  # folded into the table message
                    self.shows.note_autoplay(match_id, who)
            await self.after(match_id, applied, source="clock", seat=seat)


def _after_steps(m: Match, step: str, times: int) -> Match:
    """A copy of ``m`` after the table's own ``step`` applied up to ``times`` times while it stays the next
    step (what ``action_repo.apply_steps`` will commit); ``m`` itself is not changed."""
    ahead = copy.deepcopy(m)
    for _ in range(times):
        if ahead.finished or ahead.system_step() != step:
            break
        ahead.apply(step)
    return ahead


def _window_turns(m: Match) -> list[Turn]:
    """The turns of an open optional window (the bid window: only optional turns, no step of the table's
    own); empty when ``m`` stands in none."""
    if m.finished or m.system_step() is not None:
        return []
    turns = m.turns()
    return turns if turns and all(not tr.required for tr in turns) else []


def _deal_key(m: Match) -> str:
    """Which deal (and redeal) a bid window belongs to."""
    return f"{m.deal_no}.{m.redeal_no}"
