"""One presenter per game: the game-specific text and buttons of the chat (the table message, the hand
message, a deal's summary), so that no code outside ``engine/`` and this package branches on the game's
name.  A presenter is a module implementing :class:`GamePresenter`; :func:`presenter` finds it by the game's
name (``engine.registry``'s names).  A new game: a module here and one entry in ``PRESENTERS``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.presentation.common import EventData
from bot.presentation.games import guandan, shengji
from bot.presentation.hand import HandGroups
from bot.presentation.markup import Keyboard
from engine.game import Match
from engine.views import PublicView, SeatView


class GamePresenter(Protocol):
    """What the chat shows of one game (every function is pure: views in, text and keyboards out)."""

    GAME: str  # the game's name in engine.registry

    def deal_marker(self, view: PublicView) -> int:
        """Which deal (and Shengji redeal) a view shows; 0 while nothing is dealt yet."""
        ...

    def entry_text(self, lang: str, entry: PublicView) -> str:
        """One entry of a trick (a play, or a Guandan pass)."""
        ...

    def group_hand(self, hand: Sequence[int], trump_suit: int | None, level: int | None) -> HandGroups:
        """The rows of a hand in display order: (label, cards)."""
        ...

    def table_lines(self, lang: str, p: PublicView, names: Sequence[str], title: str) -> list[str]:
        """The group's table message, line by line (empty lines are left out by the caller); ``p`` is the
        public view with ``_clocks``, ``_computers`` and ``_deadline`` added."""
        ...

    def hand_message(
        self,
        lang: str,
        match_id: int,
        m: Match,
        seat: int,
        view: SeatView,
        hand: list[int],
        selection: Sequence[int],
        names: Sequence[str],
        deadline: datetime | None,
    ) -> tuple[str, Keyboard]:
        """A seat's private hand message and its keyboard (cards to tap, then the actions)."""
        ...

    def deal_summary(self, lang: str, d: EventData, names: Sequence[str]) -> str:
        """The group's announcement of a finished deal (the ``deal_over`` event's data)."""
        ...


PRESENTERS: dict[str, GamePresenter] = {shengji.GAME: shengji, guandan.GAME: guandan}


def presenter(game: str) -> GamePresenter:
    """The presenter of the game named ``game``."""
    try:
        return PRESENTERS[game]
    except KeyError:
        raise ValueError(f"no presenter for the game {game!r}") from None


def group_hand(game: str, hand: Sequence[int], trump_suit: int | None, level: int | None) -> HandGroups:
    """The rows of a hand as the hand message shows them (the table page shows them in the same order)."""
    return presenter(game).group_hand(hand, trump_suit, level)
