"""What every game's presenter offers (``GamePresenter``)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from bot.presentation.common import EventData
from bot.presentation.hand import HandGroups
from bot.presentation.markup import Keyboard
from engine.game import Match
from engine.views import PublicView, SeatView


class GamePresenter(Protocol):
    """What the chat shows of one game (every function is pure: views in, text and keyboards out)."""

    game: str  # the game's name in engine.registry

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

    # --- what the live messages follow (bot/tables/live.py) ---------------------------------------

    def group_deal_stage(self, public: PublicView) -> str:
        """What of the deal the group's table message follows, the tricks aside (Mini App mode shows it
        at once)."""
        ...

    def group_tricks(self, public: PublicView) -> tuple[object, ...]:
        """The completed tricks the group's table message follows (not the plays inside a trick)."""
        ...

    def hand_step(self, view: SeatView) -> str:
        """The part of the deal a hand message is in."""
        ...

    def hand_stage(self, view: SeatView) -> str:
        """What every seat's hand message must follow even when it is not that seat's turn."""
        ...

    def must_act(self, view: SeatView) -> bool:
        """Is it the seat's turn (a required move, or a bid it can make while bids are open)?"""
        ...

    def hand_news_waits(self, before: str | None, view: SeatView) -> bool:
        """May a hand message's change of stage wait to be folded into its owner's next turn?"""
        ...

    def shows_a_hand(self, view: SeatView) -> bool:
        """Is there anything for a new hand message to show?"""
        ...

    def with_trick_before_last(self, m: Match, public: PublicView) -> PublicView:
        """The public view the group's table message shows at a deal's end."""
        ...

    # --- the deal review and proof (bot/tables/review.py, deal_proof.py) ---------------------------

    BIDS_AND_KITTY: bool  # bids settle the trump, a kitty is dealt apart from a first drawer
    LAST_PLAYER_WINS_TRICK: bool  # a trick is won by the last seat that played (no ``trick`` event)
    TRICK_POINTS: bool  # tricks carry points (the review's points column)


def stage_key(*parts: object) -> str:
    """A stage as one comparable text (what a message shows changes when its key does)."""
    return json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
