"""Shengji as an :class:`engine.game.Match`: the rules (``engine.shengji.match``) with their views and
the computer player, which read the rules' state (so they import the rules, and this module imports all
three: no module imports its own importer)."""

from __future__ import annotations

import random

from engine.shengji import ai, views
from engine.shengji.match import ShengjiRules
from engine.views import ShengjiPublicView, ShengjiSeatView

__all__ = ["ShengjiMatch"]


class ShengjiMatch(ShengjiRules):
    """One Shengji match (``ShengjiMatch(options, seed)``), everything :class:`engine.game.Match` offers."""

    def ai_action(self, seat: int, rng: random.Random) -> str | None:
        return ai.choose_action(self, seat, rng)

    def seat_view(self, seat: int) -> ShengjiSeatView:
        return views.seat_view(self, seat)

    def public_view(self) -> ShengjiPublicView:
        return views.public_view(self)
