"""Scheduling the matches that are ready: a time and tables each, their timers, the schedule posted,
each player told their table."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments import views
from bot.tournaments.context import TournamentContext
from bot.tournaments.timers import MatchTimers
from engine.errors import RuleError
from engine.tournament import Tournament as Engine
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentMatch

log = logging.getLogger(__name__)


class Scheduling:
    def __init__(self, ctx: TournamentContext, timers: MatchTimers) -> None:
        self.ctx = ctx
        self.timers = timers

    async def schedule_ready(self, row: Tournament) -> None:
        """Schedule every ready match without a time, arm its timers and post the schedule."""
        lang = self.ctx.glang()
        waiting = await ts.unscheduled_matches(self.ctx.db, row.id)  # new, or reset by a correction
        if not waiting:  # most results of a round: nothing to schedule (no need to read every match row)
            return
        for m in waiting:
            await self.timers.cancel_match_timers(m)  # old timers go
        try:
            rows = await ts.schedule_ready(self.ctx.db, row.id, self.ctx.now())
        except RuleError as err:
            self.ctx.send(
                row.created_by,
                tt(
                    await self.ctx.ulang(row.created_by),
                    "sched.no_tables",
                    reason=error_text(lang, err),
                    id=row.id,
                ),
            )
            return
        if not rows:
            return
        self.ctx.dashboard_changed(row.id)
        for m in rows:
            await self.timers.arm_match(row, m)
        names = views.names_of(await ts.entries(self.ctx.db, row.id, include_withdrawn=True))
        tables = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(self.ctx.db, row.id)}
        self.ctx.send(
            row.group_chat_id,
            tt(lang, "sched.round", lines="\n".join(views.schedule_lines(lang, row, rows, names, tables))),
        )
        eng = ts.load_engine(await ts.get_tournament(self.ctx.db, row.id))
        for m in rows:
            await self.tell_players_their_table(row, m, names, tables, eng)

    async def tell_players_their_table(
        self,
        row: Tournament,
        m: TournamentMatch,
        names: Mapping[str, str],
        tables: Mapping[int, str],
        eng: Engine,
    ) -> None:
        """Each player, privately: their next match, its time, and which table (group) their pair sits at."""
        a, b = names.get(m.side_a or "", "?"), names.get(m.side_b or "", "?")
        for k, (pa, pb) in enumerate(await ts.match_players(self.ctx.db, m), start=1):
            chat = int(m.table_chats[(k - 1) % len(m.table_chats)]) if m.table_chats else None
            where = tables.get(chat, str(chat)) if chat is not None else "-"
            for uid in (*pa, *pb):
                ul = await self.ctx.ulang(uid)
                self.ctx.send(
                    uid,
                    tt(
                        ul,
                        "sched.yours",
                        match=views.match_label(ul, eng, m.match_key),
                        a=a,
                        b=b,
                        time=ts.local_text(m.start_at, row.time_zone),
                        table=k,
                        where=where,
                        checkin=row.settings_json.get("checkin_opens_minutes", 30),
                    ),
                )
