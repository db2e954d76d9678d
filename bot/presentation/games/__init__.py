"""One presenter per game: what differs between the games in what the bot shows (the only place in bot/
that names a game).  ``presenter(game)`` gives the game's; code for both games asks it instead of
branching on the game's name.

Today: what the live messages follow (bot/tables/live.py: when the group's table message and each hand
message need an edit) and how the deal review is cut and laid out (bot/tables/review.py).
"""

from __future__ import annotations

from bot.presentation.games.base import GamePresenter
from bot.presentation.games.guandan import GuandanPresenter
from bot.presentation.games.shengji import ShengjiPresenter

__all__ = ["GamePresenter", "presenter"]

PRESENTERS: dict[str, GamePresenter] = {"shengji": ShengjiPresenter(), "guandan": GuandanPresenter()}


def presenter(game: str) -> GamePresenter:
    """The presenter of ``game`` (KeyError for a game the bot does not show)."""
    return PRESENTERS[game]
