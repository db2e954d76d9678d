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
