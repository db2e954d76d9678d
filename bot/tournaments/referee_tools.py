"""The referees' tools on a match: undo a lateness forfeit, start the tables now, more time before the
lateness rule, pause and resume the table clocks."""

from __future__ import annotations

import logging
from datetime import timedelta

from bot.presentation.tournament.texts import tt
from bot.tournaments.context import TournamentContext
from bot.tournaments.tables import TournamentTables
from bot.tournaments.timers import MatchTimers
from engine.errors import RuleError
from storage import match_repo
from storage import tournaments as ts

log = logging.getLogger(__name__)


class RefereeTools:
    def __init__(self, ctx: TournamentContext, tables: TournamentTables, timers: MatchTimers) -> None:
        self.ctx = ctx
        self.tables = tables
        self.timers = timers

    async def undo_forfeit(self, tid: int, key: str, actor: int, reason: str) -> None:
        async with self.ctx.lock(tid):
            m = await ts.undo_lateness(self.ctx.db, tid, key, actor, reason)
            row = await ts.get_tournament(self.ctx.db, tid)
            await self.timers.cancel_match_timers(m)
            await self.ctx.tell_match(row, m, tt(self.ctx.glang(), "late.undone", key=key, reason=reason))
            await self.tables.open_tables(row, m, force=True)

    async def referee_start(self, tid: int, key: str, actor: int) -> None:
        """A referee starts a match's tables now, whoever has checked in (audited).  RuleError
        ``match_not_ready`` when it is over or has no time yet."""
        async with self.ctx.lock(tid):
            row = await ts.get_tournament(self.ctx.db, tid)
            await ts.require(self.ctx.db, tid, actor, ("referee", "chief_referee", "organiser"))
            m = await ts.get_match(self.ctx.db, tid, key)
            if m.status not in ("scheduled", "open", "playing") or m.start_at is None:
                raise RuleError("match_not_ready", "", match=key)
            await ts.audit(self.ctx.db, tid, actor, "referee_start", match=key)
            if m.status == "scheduled":  # its start deadline then finds it open and does nothing
                await self.tables.open_tables(row, m, force=True)
            else:
                await self.tables.start_ready_tables(tid, key, force=True)
            self.ctx.send(row.group_chat_id, tt(self.ctx.glang(), "ref.started", key=key))

    async def extend_lateness(self, tid: int, key: str, table: int | None, minutes: int, actor: int) -> None:
        """A referee gives a table (or every table waiting) more time: a new lateness deadline per table."""
        async with self.ctx.lock(tid):
            m, deadlines = await ts.extend_lateness(
                self.ctx.db, tid, key, table, minutes, actor, self.ctx.now()
            )
            row = await ts.get_tournament(self.ctx.db, tid)
            assert m.start_at is not None
            for k, due in deadlines.items():
                await self.ctx.deadlines.schedule(
                    self.ctx.db,
                    "t_late",
                    f"tm:{m.id}",
                    due,
                    {"tid": tid, "key": key, "start": m.start_at.isoformat(), "table": k},
                )
            lang = self.ctx.glang()
            lines = [
                tt(
                    lang,
                    "ref.extended",
                    key=key,
                    table=k,
                    minutes=minutes,
                    until=ts.local_text(due, row.time_zone)[-5:],
                )
                for k, due in sorted(deadlines.items())
            ]
            text = "\n".join(lines)
            self.ctx.send(row.group_chat_id, text)
            for k in deadlines:
                if m.table_chats:
                    self.ctx.send(
                        int(m.table_chats[(k - 1) % len(m.table_chats)]), lines[sorted(deadlines).index(k)]
                    )

    async def pause(self, tid: int, key: str, paused: bool) -> bool:
        """Pause or resume the match's table clocks (the time limit is moved on by the pause)."""
        ids = await self.tables.live_engine_matches(tid, key)
        if not ids:
            return False
        m = await ts.get_match(self.ctx.db, tid, key)
        results = dict(m.table_results)
        for mid in ids:
            ref = f"match:{mid}:time"
            if paused:
                pending = await self.ctx.deadlines.pending(self.ctx.db, "match_time", ref)
                if pending:
                    results[f"paused:{mid}"] = (pending[0].due_at - self.ctx.now()).total_seconds()
                    await self.ctx.deadlines.cancel(self.ctx.db, "match_time", ref)
                await self.ctx.deadlines.cancel(self.ctx.db, "move_clock", f"match:{mid}")
                await match_repo.set_match_paused(self.ctx.db, mid, True)
            else:
                await match_repo.set_match_paused(self.ctx.db, mid, False)
                left = results.pop(f"paused:{mid}", None)
                if left is not None:
                    await self.ctx.deadlines.schedule(
                        self.ctx.db,
                        "match_time",
                        ref,
                        self.ctx.now() + timedelta(seconds=float(left)),
                        {"match_id": mid},
                    )
                self.ctx.play.kick(mid)
        await ts.set_match_fields(self.ctx.db, m.id, table_results=results)
        self.ctx.dashboard_changed(tid)
        return True
