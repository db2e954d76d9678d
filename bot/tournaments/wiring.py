"""The tournament side, wired: one ``TournamentBot`` builds the parts (each a module named for its job)
around the ports it is given, registers the deadline kinds and hooks the end of game matches.

``TournamentBot`` lives in ``application.bot_data["tournaments"]`` (bot/edge/tournament/__init__.py
builds it); it never calls Telegram except through the outbox (``Messages``: texts, and files and
pictures through ``send_document``).

Timers are deadline rows (kinds in ``KINDS``), so they survive restarts; each payload carries the
match's start time, and a handler whose match was moved or decided meanwhile does nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.tournaments.context import TournamentContext
from bot.tournaments.control import OrganiserControl
from bot.tournaments.dashboards import LiveDashboards
from bot.tournaments.deadlines import MatchDeadlines
from bot.tournaments.draws import Draws
from bot.tournaments.duplicate import POLL_SECONDS
from bot.tournaments.ports import PlaySide, TournamentKeyboards
from bot.tournaments.referee_tools import RefereeTools
from bot.tournaments.results import FOLLOW_UP, Results
from bot.tournaments.scheduling import Scheduling
from bot.tournaments.substitutes import Substitutes
from bot.tournaments.tables import TournamentTables
from bot.tournaments.timers import MatchTimers
from scheduler.clock import Clock
from scheduler.deadlines import DeadlineScheduler
from storage import tournaments as ts

KINDS = ("t_close", "t_draw", "t_remind", "t_checkin", "t_start", "t_late", FOLLOW_UP)


class TournamentBot:
    def __init__(
        self,
        play: Callable[[], PlaySide],
        keyboards: TournamentKeyboards,
        clock: Callable[[], Clock | None] = lambda: None,
    ) -> None:
        """``play`` gives the play side's ports (built at the application's start-up); ``clock``, read at
        start-up, may replace the deadline scheduler's clock (tests and the demo)."""
        self.ctx = ctx = TournamentContext(play)
        self._clock = clock
        self.dashboards = LiveDashboards(ctx, keyboards)
        ctx.dashboard_changed = self.dashboards.changed
        self.timers = MatchTimers(ctx)
        self.tables = TournamentTables(ctx, self.timers)
        self.scheduling = Scheduling(ctx, self.timers)
        self.draws = Draws(ctx, self.scheduling)
        self.results = Results(ctx, self.scheduling, self.tables)
        self.deadlines = MatchDeadlines(ctx, keyboards, self.timers, self.tables, self.results)
        self.substitutes = Substitutes(ctx, self.tables)
        self.referee = RefereeTools(ctx, self.tables, self.timers)
        self.control = OrganiserControl(ctx, self.tables, self.timers)

    async def startup(self) -> None:
        """Register the deadline kinds, hook match ends, re-arm and catch up (after a restart)."""
        scheduler = self.ctx.deadlines
        clock = self._clock()
        if clock is not None:
            scheduler.clock = clock
        register_deadlines(scheduler, self)
        self.ctx.play.on_match_over(self.results.on_match_over)
        self.ctx.play.deal_gate(self.tables.duplicate.may_deal, POLL_SECONDS)
        await scheduler.rearm()
        await self.timers.resume_unarmed()  # a round's times stored, a stop before its timers were
        await self.substitutes.load_replaced()
        await self.results.catch_up()
        await self.results.resume_follow_ups()  # a referee's result whose follow-up a stop or crash cut short
        for tid in {f.tournament_id for f in await ts.dashboards(self.ctx.db)}:  # what changed while down
            self.dashboards.changed(tid)

    async def shutdown(self) -> None:
        await self.ctx.cancel_tasks()
        await self.dashboards.stop()


def register_deadlines(scheduler: DeadlineScheduler, tb: TournamentBot) -> None:
    """Register the tournament deadline kinds on the deadline scheduler."""
    scheduler.register("t_close", tb.draws.on_close)
    scheduler.register("t_draw", tb.draws.on_draw_deadline)
    scheduler.register("t_remind", tb.deadlines.on_remind)
    scheduler.register("t_checkin", tb.deadlines.on_checkin_open)
    scheduler.register("t_start", tb.deadlines.on_start)
    scheduler.register("t_late", tb.deadlines.on_late)
    scheduler.register(FOLLOW_UP, tb.results.on_follow_up)
