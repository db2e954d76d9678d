"""The organiser's control after creation: cancel or delete, edit the set-up times, reschedule, swap
two matches, move a table; every moved match gets new timers and its people are told."""

from __future__ import annotations

import logging
from datetime import datetime

from bot.presentation.tournament.texts import tt
from bot.tournaments.context import TournamentContext
from bot.tournaments.tables import TournamentTables
from bot.tournaments.timers import MatchTimers
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentMatch

log = logging.getLogger(__name__)


class OrganiserControl:
    def __init__(self, ctx: TournamentContext, tables: TournamentTables, timers: MatchTimers) -> None:
        self.ctx = ctx
        self.tables = tables
        self.timers = timers

    async def cancel_tournament(self, tid: int, actor: int, reason: str, delete: bool) -> Tournament:
        """Cancel (or delete) a tournament: its timers stop, its tables are aborted, everyone is told;
        returns the row (the edge answers the organiser)."""
        async with self.ctx.lock(tid):
            row = await ts.cancel(self.ctx.db, tid, actor, reason, delete)
            self.ctx.dashboard_changed(tid)
            for kind in ("t_close", "t_draw"):
                await self.ctx.deadlines.cancel(self.ctx.db, kind, f"t:{tid}")
            for m in await ts.matches(self.ctx.db, tid):
                await self.tables.halt_match(m)
            lang = self.ctx.glang()
            key = "ctl.deleted" if delete else "ctl.cancelled"
            self.ctx.send(row.group_chat_id, tt(lang, key, name=row.name, reason=reason))
            told: set[int] = set()
            for e in await ts.entries(self.ctx.db, tid):
                for uid in (int(p) for p in e.players_json):
                    if uid not in told:
                        told.add(uid)
                        self.ctx.send(uid, tt(await self.ctx.ulang(uid), key, name=row.name, reason=reason))
            return row

    async def rearm_match(self, row: Tournament, m: TournamentMatch, text_key: str, **params: object) -> None:
        """A match moved (time or tables): new timers; the group and its players are told."""
        await self.timers.cancel_match_timers(m)
        await self.timers.arm_match(row, m)
        names = await self.ctx.names(row.id)
        where = await self.ctx.table_titles(row.id, m)
        lang = self.ctx.glang()
        values = {
            "key": m.match_key,
            "a": names.get(m.side_a or "", "?"),
            "b": names.get(m.side_b or "", "?"),
            "time": ts.local_text(m.start_at, row.time_zone),
            "tables": where,
            **params,
        }
        self.ctx.send(row.group_chat_id, tt(lang, text_key, **values))
        for pa, pb in await ts.match_players(self.ctx.db, m):
            for uid in (*pa, *pb):
                self.ctx.send(uid, tt(await self.ctx.ulang(uid), text_key, **values))

    async def edit_time(self, tid: int, actor: int, what: str, when: datetime) -> None:
        async with self.ctx.lock(tid):
            edited = await ts.edit_time(self.ctx.db, tid, actor, what, when)
            row = edited.row
            await self.timers.arm_tournament(row)
            for m in edited.moved:
                await self.rearm_match(row, m, "ctl.rescheduled")
            self.ctx.send(
                row.group_chat_id,
                tt(
                    self.ctx.glang(),
                    "ctl.time_edited",
                    name=row.name,
                    what=tt(self.ctx.glang(), "ctl.what." + what),
                    time=ts.local_text(when, row.time_zone),
                ),
            )

    async def reschedule(self, tid: int, actor: int, key: str, when: datetime) -> None:
        async with self.ctx.lock(tid):
            m = await ts.reschedule(self.ctx.db, tid, actor, key, when)
            await self.rearm_match(await ts.get_tournament(self.ctx.db, tid), m, "ctl.rescheduled")

    async def swap(self, tid: int, actor: int, first: str, second: str) -> None:
        async with self.ctx.lock(tid):
            a, b = await ts.swap(self.ctx.db, tid, actor, first, second)
            row = await ts.get_tournament(self.ctx.db, tid)
            for m in (a, b):
                await self.rearm_match(row, m, "ctl.rescheduled")

    async def move_table(self, tid: int, actor: int, key: str, table: int, chat_id: int) -> None:
        async with self.ctx.lock(tid):
            m = await ts.move_table(self.ctx.db, tid, actor, key, table, chat_id)
            await self.rearm_match(
                await ts.get_tournament(self.ctx.db, tid), m, "ctl.table_moved", table=table
            )
