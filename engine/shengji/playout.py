"""A Shengji deal played out to its end by the baseline player at every seat (the strong players' search:
``engine.shengji.ai_strong`` for plays, ``engine.shengji.ai_bury`` for the kitty)."""

from __future__ import annotations

import random

from engine.events import ShengjiDealSummary
from engine.shengji import ai as baseline
from engine.shengji.information import ShengjiInformation
from engine.shengji.match import Move, ShengjiRules

POINTS_WEIGHT = 1 / 200  # a point of the defenders' total against a level step, as a tie-break


def baseline_play(world: ShengjiRules) -> None:
    """The baseline player's lead or follow for the seat to play, applied without its action text."""
    seat = world.to_play()
    cards = baseline._lead(world, seat) if not world.trick else baseline._follow(world, seat)
    world.apply_move(Move(seat, "play", tuple(cards)))


def side_result(seat: int, summary: ShengjiDealSummary) -> float:
    """A finished deal's result for ``seat``'s side: level steps won or lost, the defenders' points as a
    tie-break (the deal's dealer from the summary: the match's ``dealer`` is already the next one)."""
    mine = seat % 2
    steps = summary["steps"] if summary["winner"] == mine else -summary["steps"]
    defending = mine != summary["dealer"] % 2
    pts = summary["points"] if defending else -summary["points"]
    return steps + pts * POINTS_WEIGHT


def finish(info: ShengjiInformation, world: ShengjiRules) -> float:
    """``world`` played to the end of the deal by the baseline player at every seat: the result for
    ``info.seat``'s side (:func:`side_result`)."""
    rng = random.Random(0)  # the baseline player draws nothing; ai_step wants one
    while world.phase not in ("deal_over", "match_over"):
        if world.phase == "play":
            baseline_play(world)
            continue
        action = baseline.ai_step(world, rng)  # a failed throw's choice
        assert action is not None
        world.apply(action)
    return side_result(info.seat, world.history[-1])
