"""The tournament's timers as deadline rows: set-up deadlines (registration close, draw) and each
match's reminder, check-in, start and lateness deadlines, armed and cancelled."""

from __future__ import annotations

import logging

from bot.tournaments.context import TournamentContext
from engine.errors import RuleError
from engine.tournament.schedule import match_timers
from scheduler.deadlines import DeadlineData
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentMatch

log = logging.getLogger(__name__)


class MatchTimers:
    def __init__(self, ctx: TournamentContext) -> None:
        self.ctx = ctx

    async def arm_tournament(self, row: Tournament) -> None:
        ref = f"t:{row.id}"
        if row.registration_deadline is not None and row.status == "registration":
            await self.ctx.deadlines.schedule(
                self.ctx.db, "t_close", ref, row.registration_deadline, {"tid": row.id}, replace=True
            )
        if row.draw_at is not None and row.state_json is None:
            await self.ctx.deadlines.schedule(
                self.ctx.db, "t_draw", ref, row.draw_at, {"tid": row.id}, replace=True
            )

    async def arm_match(self, row: Tournament, m: TournamentMatch) -> None:
        assert m.start_at is not None
        st = ts.settings_of(row)
        ref = f"tm:{m.id}"
        base = {"tid": row.id, "key": m.match_key, "start": m.start_at.isoformat()}
        kinds = {"reminder": "t_remind", "checkin_open": "t_checkin", "lateness_deadline": "t_late"}
        for timer in match_timers(
            m.match_key,
            m.start_at,
            st.late_forfeit_minutes,
            st.checkin_opens_minutes,
            st.reminder_minutes,
            self.ctx.now(),
        ):
            await self.ctx.deadlines.schedule(
                self.ctx.db, kinds[timer.kind], ref, timer.at, {**base, "minutes": timer.minutes_before}
            )
        await self.ctx.deadlines.schedule(self.ctx.db, "t_start", ref, m.start_at, base)

    async def resume_unarmed(self) -> int:
        """At start-up: the scheduled matches of a running tournament whose start timer is not armed -- a stop
        between storing a round's times (one commit) and arming each match's timers (a row each, the start
        last), or between a reschedule's cancel and its new timers -- get their timers now (the pending ones a
        cut-short arming left are replaced; reminders already past are not sent).  Returns how many."""
        armed = await self.ctx.deadlines.live_refs(self.ctx.db, "t_start")
        count = 0
        for row in await ts.all_tournaments(self.ctx.db):
            if row.status != "running":
                continue
            for m in await ts.matches(self.ctx.db, row.id):
                if m.status != "scheduled" or m.start_at is None or f"tm:{m.id}" in armed:
                    continue
                await self.cancel_match_timers(m)
                await self.arm_match(row, m)
                log.warning(
                    "tournament %s match %s: its timers were not armed (a stop); armed now",
                    row.id,
                    m.match_key,
                )
                count += 1
        return count

    async def current(
        self, d: DeadlineData, statuses: tuple[str, ...]
    ) -> tuple[Tournament, TournamentMatch] | None:
        tid, key = int(d.payload["tid"]), str(d.payload["key"])
        row = await ts.get_tournament(self.ctx.db, tid)
        try:
            m = await ts.get_match(self.ctx.db, tid, key)
        except RuleError:
            return None
        if m.start_at is None or m.start_at.isoformat() != d.payload.get("start") or m.status not in statuses:
            return None
        return row, m

    async def cancel_match_timers(self, m: TournamentMatch) -> None:
        for kind in ("t_remind", "t_checkin", "t_start", "t_late"):
            await self.ctx.deadlines.cancel(self.ctx.db, kind, f"tm:{m.id}")
