"""The computer players' levels: named, validated, and every level plays legal actions to the end."""

from __future__ import annotations

import random

import pytest

from engine.ai import levels
from engine.registry import load_preset, new_match


def test_a_bad_level_is_refused_with_the_levels_named() -> None:
    with pytest.raises(ValueError, match="easy, normal, strong"):
        levels.check_level("hard")
    assert levels.check_level("strong") == "strong"


@pytest.mark.parametrize("preset", ["shengji-17-deals", "guandan-team"])
@pytest.mark.parametrize("level", ["easy", "random"])
def test_cheap_levels_play_a_whole_deal_legally(preset: str, level: str) -> None:
    p = load_preset(preset)
    for seed in range(3):
        m = new_match(p.game, p.rules, seed)
        levels.play_first_deal(m, [levels.player_for(p.game, level)] * 4, random.Random(seed))
        assert m.history[0]["deal_no"] == 1


def test_easy_differs_from_normal_sometimes() -> None:
    """Easy is weaker on purpose: over a deal some of its plays are not the baseline player's."""
    p = load_preset("shengji-17-deals")
    m = new_match("shengji", p.rules, 4)
    easy, normal = levels.player_for("shengji", "easy"), levels.player_for("shengji", "normal")
    rng = random.Random(4)
    differ = 0
    while not m.history:
        turns = m.turns()
        if m.phase == "play":
            seat = turns[0].seat
            a, b = easy(m, seat, random.Random(len(m.log))), normal(m, seat, rng)
            differ += a != b
            m.apply(b or "")
            continue
        action = next((x for t in turns if (x := normal(m, t.seat, rng)) is not None), None)
        m.apply(action or m.system_step() or "sys resume")
    assert differ >= 5
