"""Tournament administration in Telegram: set-up, registration, draw, schedule, check-in, referee tools.

Wiring (bot/edge/app.py): after ``register(app)`` in ``build_application`` call
``register_tournament_handlers(app)``.  That adds the handlers (group -1) and arranges for the
tournament side to start after the play side's runtime has started (deadline kinds registered on
the runtime's DeadlineScheduler, pending tournament timers re-armed, finished tables caught up).

``register_tournament_deadlines(scheduler, tb)`` registers the deadline kinds alone (for a process
that runs the scheduler without the Telegram handlers).  Tests and the demo may put a clock in
``app.bot_data["tournament_clock"]`` before ``initialize()``: it replaces the scheduler's clock.
"""

from __future__ import annotations

from typing import Any

from bot.tournaments.core import KINDS, TournamentBot, register_deadlines


def register_tournament_deadlines(scheduler: Any, tb: TournamentBot) -> None:
    register_deadlines(scheduler, tb)


def register_tournament_handlers(application: Any) -> TournamentBot:
    """Add the tournament handlers to ``application`` and hook its start-up and shut-down (idempotent:
    a second call returns the first one's TournamentBot)."""
    from bot.edge.tournament.handlers import register

    existing = application.bot_data.get("tournaments")
    if isinstance(existing, TournamentBot):
        return existing
    tb = TournamentBot(application)
    application.bot_data["tournaments"] = tb
    register(application)
    initialize, stop = application.initialize, application.stop

    async def _initialize() -> None:
        await initialize()
        await tb.startup()

    async def _stop() -> None:
        await tb.shutdown()
        await stop()

    application.initialize = _initialize
    application.stop = _stop
    return tb


__all__ = ["KINDS", "TournamentBot", "register_tournament_deadlines", "register_tournament_handlers"]
