"""What Shengji shows its own way."""

from __future__ import annotations

from bot.presentation.games.base import public_part, stage_key
from engine.game import Match
from engine.views import PublicView, SeatView

# Dealing and the bid window are one stage for the group (the declarations are the players' business: their
# hands show each one); the trump settled is the next (burying is the dealer's business, and the dealer
# leads the first trick, so the group's message stays right until that trick completes).
GROUP_STAGES = {
    "bury": "play",
    "rebury": "play",
    "late": "play",
    "choose": "play",
    "dealing": "declaring",
    "window": "declaring",
    "blackout": "declaring",
}
MY_MOVES = ("lead", "follow", "kitty", "rebury", "choose", "overturn")


class ShengjiPresenter:
    game = "shengji"
    bids_and_kitty = True  # bids settle the trump; the kitty is dealt apart (a first drawer deals)
    last_player_wins_trick = False  # a ``trick`` event names the winner
    trick_points = True

    def group_deal_stage(self, public: PublicView) -> str:
        p = public_part(public)
        phase = p.get("phase")
        stage = GROUP_STAGES.get(str(phase), phase)
        declaring = stage == "declaring"
        return stage_key(
            p.get("deal"),
            p.get("redeal"),
            stage,
            None if declaring else p.get("declaration"),
            None if declaring else p.get("trump"),
            p.get("level"),
            p.get("dealer"),
            p.get("levels"),
            p.get("paused"),
            p.get("time_up"),
            p.get("turned_kitty"),
            p.get("pending_choice") is not None,
            p.get("finished"),
        )

    def group_tricks(self, public: PublicView) -> tuple[object, ...]:
        p = public_part(public)
        return (p.get("tricks_played"), p.get("points"))

    def hand_step(self, view: SeatView) -> str:
        """ "dealing", "window" (every card dealt: the bid window) or "settled" (the trump settled: burying,
        then play)."""
        phase = public_part(view).get("phase")
        return "dealing" if phase == "dealing" else "window" if phase in ("window", "blackout") else "settled"

    def hand_stage(self, view: SeatView) -> str:
        p = public_part(view)
        step = self.hand_step(view)
        deal = (p.get("deal"), p.get("redeal"))
        if step == "dealing":  # while cards arrive: when the seat gets its first way to declare (more ways,
            # or a declaration by another seat, show with the last card, a few batches later)
            return stage_key(deal, step, bool(view.get("legal_bids")))
        if step == "window":  # every card is dealt: each declaration
            return stage_key(deal, step, p.get("declaration"))
        # burying, then play: once, when the trump is settled (and again if it is overturned)
        return stage_key(deal, step, p.get("trump"), p.get("declaration"))

    def must_act(self, view: SeatView) -> bool:
        my = view.get("my_turns") or []
        phase = public_part(view).get("phase")
        return any(k in MY_MOVES for k in my) or (
            "bid" in my and phase in ("window", "blackout") and bool(view.get("legal_bids"))
        )

    def hand_news_waits(self, before: str | None, view: SeatView) -> bool:
        """Once the seat has seen its whole hand (``before``: the hand step it was last shown in): a
        declaration the seat cannot overturn, the trump settled for a seat that does not bury."""
        return before in ("window", "settled") and not self.must_act(view)

    def shows_a_hand(self, view: SeatView) -> bool:
        """Not while the cards are dealt and the seat has no way to declare (the group's message shows the
        dealing)."""
        return public_part(view).get("phase") != "dealing" or bool(view.get("legal_bids"))

    def with_trick_before_last(self, m: Match, public: PublicView) -> PublicView:
        """At the deal's end: the trick before the last (``prev_trick``) beside the last one."""
        tricks = getattr(m, "tricks", None)
        if m.phase not in ("deal_over", "match_over") or not tricks or len(tricks) < 2:
            return public
        if "table" in public:  # a copy: the view may be shared (cached) with other readers
            return {**public, "table": {**public["table"], "prev_trick": tricks[-2]}}
        return {**public, "prev_trick": tricks[-2]}
