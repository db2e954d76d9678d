"""A Shengji deal played out to its end by the baseline player at every seat (the strong players' search:
``engine.shengji.ai_strong`` for plays, ``engine.shengji.ai_bury`` for the kitty)."""

from __future__ import annotations

import random

from engine.shengji import ai as baseline
from engine.shengji.information import ShengjiInformation
from engine.shengji.match import Move, ShengjiRules

POINTS_WEIGHT = 1 / 200  # a point of the defenders' total against a level step, as a tie-break


def finish(info: ShengjiInformation, world: ShengjiRules) -> float:
    """``world`` played to the end of the deal by the baseline player at every seat: the result for
    ``info.seat``'s side (level steps won or lost, the defenders' points as a tie-break)."""
    rng = random.Random(0)  # the baseline player draws nothing; ai_step wants one
    while world.phase not in ("deal_over", "match_over"):
        if world.phase == "play":  # the baseline player's play, without its action text
            seat = world.to_play()
            world.apply_move(
                Move(
                    seat,
                    "play",
                    tuple(baseline._lead(world, seat) if not world.trick else baseline._follow(world, seat)),
                )
            )
            continue
        action = baseline.ai_step(world, rng)  # a failed throw's choice
        assert action is not None
        world.apply(action)
    summary = world.history[-1]
    mine = info.seat % 2
    steps = summary["steps"] if summary["winner"] == mine else -summary["steps"]
    defending = mine != info.dealer % 2
    pts = summary["points"] if defending else -summary["points"]
    return steps + pts * POINTS_WEIGHT
