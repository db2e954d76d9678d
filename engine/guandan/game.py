"""Guandan as an :class:`engine.game.Match`: the rules (``engine.guandan.match``) with their views and
the computer player, which read the rules' state (so they import the rules, and this module imports all
three: no module imports its own importer)."""

from __future__ import annotations

import random

from engine.guandan import ai, views
from engine.guandan.match import GuandanRules
from engine.views import GuandanPublicView, GuandanSeatView

__all__ = ["GuandanMatch"]


class GuandanMatch(GuandanRules):
    """One Guandan match (``GuandanMatch(options, seed)``), everything :class:`engine.game.Match` offers."""

    def ai_action(self, seat: int, rng: random.Random) -> str | None:
        return ai.choose_action(self, seat, rng)

    def seat_view(self, seat: int) -> GuandanSeatView:
        return views.seat_view(self, seat)

    def public_view(self) -> GuandanPublicView:
        return views.public_view(self)
