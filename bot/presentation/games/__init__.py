"""One presenter per game: the game-specific text and buttons of the chat (the table message, the hand
message, a deal's summary), so that no code outside ``engine/`` and this package branches on the game's
name.  A presenter implements :class:`GamePresenter` (``base.py``); :func:`presenter` finds it by the game's
name (``engine.registry``'s names).  A new game: a module here with its presenter class and one entry in
``PRESENTERS``."""

from __future__ import annotations

from collections.abc import Sequence

from bot.presentation.games.base import GamePresenter
from bot.presentation.games.guandan import GuandanPresenter
from bot.presentation.games.shengji import ShengjiPresenter
from bot.presentation.hand import HandGroups

__all__ = ["PRESENTERS", "GamePresenter", "group_hand", "presenter"]

PRESENTERS: dict[str, GamePresenter] = {"shengji": ShengjiPresenter(), "guandan": GuandanPresenter()}


def presenter(game: str) -> GamePresenter:
    """The presenter of ``game`` (KeyError for a game the bot does not show)."""
    return PRESENTERS[game]


def group_hand(game: str, hand: Sequence[int], trump_suit: int | None, level: int | None) -> HandGroups:
    """The rows of a hand as the hand message shows them (the table page shows them in the same order)."""
    return presenter(game).group_hand(hand, trump_suit, level)
