"""What Guandan shows its own way."""

from __future__ import annotations

from bot.presentation.games.base import public_part, stage_key
from engine.game import Match
from engine.views import PublicView, SeatView

PLAY_PHASES = {"play", "choose", "late", "deal_over", "match_over", "paused", "over"}


class GuandanPresenter:
    game = "guandan"
    bids_and_kitty = False  # no bids, no kitty: each hand is a quarter of the deck
    last_player_wins_trick = True  # the others passed: no ``trick`` event
    trick_points = False

    def group_deal_stage(self, public: PublicView) -> str:
        p = public_part(public)
        return stage_key(
            p.get("deal_no"),
            p.get("phase"),
            p.get("finish_order"),
            p.get("tribute"),
            p.get("levels"),
            p.get("time_up"),
        )

    def group_tricks(self, public: PublicView) -> tuple[object, ...]:
        return (public_part(public).get("trick_no"),)

    def hand_step(self, view: SeatView) -> str:
        phase = public_part(view).get("phase")
        return "play" if phase in PLAY_PHASES else str(phase)

    def hand_stage(self, view: SeatView) -> str:
        p = public_part(view)
        step = self.hand_step(view)
        if step == "play":
            return stage_key(p.get("deal_no"), step)
        return stage_key(p.get("deal_no"), step, p.get("tribute"))

    def must_act(self, view: SeatView) -> bool:
        return view.get("hint") is not None

    def hand_news_waits(self, before: str | None, view: SeatView) -> bool:
        return False

    def shows_a_hand(self, view: SeatView) -> bool:
        return True

    def with_trick_before_last(self, m: Match, public: PublicView) -> PublicView:
        return public
