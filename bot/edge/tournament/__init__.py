"""Tournament administration in Telegram: set-up, registration, draw, schedule, check-in, referee tools.

Wiring (bot/edge/app.py): after ``register(app)`` in ``build_application`` call
``register_tournament_handlers(app)``.  That builds the tournament side (bot/tournaments/wiring.py) on
the ports of the play side (play_side.py) and the tournament keyboards (keyboards.py), adds the
handlers (group -1) and arranges for the tournament side to start after the play side's runtime has
started (deadline kinds registered on the runtime's DeadlineScheduler, pending tournament timers
re-armed, finished tables caught up).

``register_deadlines(scheduler, tb)`` (bot/tournaments/wiring.py) registers the deadline kinds alone
(for a process that runs the scheduler without the Telegram handlers).  Tests and the demo may put a
clock in ``app.bot_data["tournament_clock"]`` before ``initialize()``: it replaces the scheduler's clock.
"""

from __future__ import annotations

from bot.edge.ptb_types import App
from bot.edge.tournament.handlers import register
from bot.edge.tournament.keyboards import TelegramTournamentKeyboards
from bot.edge.tournament.play_side import RuntimePlaySide
from bot.tournaments.wiring import KINDS, TournamentBot


def register_tournament_handlers(application: App) -> TournamentBot:
    """Add the tournament handlers to ``application`` and hook its start-up and shut-down (idempotent:
    a second call returns the first one's TournamentBot)."""
    existing = application.bot_data.get("tournaments")
    if isinstance(existing, TournamentBot):
        return existing
    play = RuntimePlaySide(application)
    tb = TournamentBot(
        lambda: play,
        TelegramTournamentKeyboards(),
        clock=lambda: application.bot_data.get("tournament_clock"),
    )
    application.bot_data["tournaments"] = tb
    register(application)
    initialize, stop = application.initialize, application.stop

    async def _initialize() -> None:
        await initialize()
        await tb.startup()

    async def _stop() -> None:
        await tb.shutdown()
        await stop()

    # this instance's own start and stop (mypy refuses an assignment to a method: setattr says it is meant)
    setattr(application, "initialize", _initialize)  # noqa: B010
    setattr(application, "stop", _stop)  # noqa: B010
    return tb


__all__ = ["KINDS", "TournamentBot", "register_tournament_handlers"]
