"""What every game's presenter offers (``GamePresenter``) and the helpers they share."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Protocol

from engine.game import Match
from engine.views import PublicView, SeatView


def stage_key(*parts: object) -> str:
    """A stage as one comparable text (what a message shows changes when its key does)."""
    return json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)


def public_part(view: Mapping[str, object]) -> Mapping[str, object]:
    """The public table of a view (a Shengji view has it under ``"table"``; a Guandan view is it)."""
    table = view.get("table")
    return table if isinstance(table, Mapping) and "phase" in table else view


class GamePresenter(Protocol):
    game: str

    # --- what the live messages follow (bot/tables/live.py) -------------------------------------

    def group_deal_stage(self, public: PublicView) -> str:
        """What of the deal the group's table message follows, the tricks aside (Mini App mode shows it
        at once)."""

    def group_tricks(self, public: PublicView) -> tuple[object, ...]:
        """The completed tricks the group's table message follows (not the plays inside a trick)."""

    def hand_step(self, view: SeatView) -> str:
        """The part of the deal a hand message is in."""

    def hand_stage(self, view: SeatView) -> str:
        """What every seat's hand message must follow even when it is not that seat's turn."""

    def must_act(self, view: SeatView) -> bool:
        """Is it the seat's turn (a required move, or a bid it can make while bids are open)?"""

    def hand_news_waits(self, before: str | None, view: SeatView) -> bool:
        """May a hand message's change of stage wait to be folded into its owner's next turn?"""

    def shows_a_hand(self, view: SeatView) -> bool:
        """Is there anything for a new hand message to show?"""

    def with_trick_before_last(self, m: Match, public: PublicView) -> PublicView:
        """The public view the group's table message shows at a deal's end."""

    # --- the deal review and proof (bot/tables/review.py, deal_proof.py) ----------------------------

    @property
    def bids_and_kitty(self) -> bool:
        """Do bids settle the trump and is a kitty dealt apart, from a first drawer (the review's bids,
        kitty and trump; the deal proof's kitty and first drawer)?"""

    @property
    def last_player_wins_trick(self) -> bool:
        """Is a trick won by the last seat that played (the others passed), not by a ``trick`` event?"""

    @property
    def trick_points(self) -> bool:
        """Do tricks carry points (the review's points column)?"""
