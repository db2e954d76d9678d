"""Every computer level plays legal actions only, over thousands of random positions (2,000 actions a preset) of both games and
every preset: each seat due is played by a level drawn at random at each step (so the positions are
mixtures of random, easy, normal and strong-candidate play), and the rules accept every action (an
illegal one raises ``RuleError`` in ``apply``)."""

from __future__ import annotations

import copy
import random

import pytest

from engine.ai import levels
from engine.guandan import ai_strong as guandan_strong
from engine.guandan.game import GuandanMatch
from engine.guandan.information import information as guandan_information
from engine.registry import load_preset, new_match
from engine.shengji import ai_strong as shengji_strong
from engine.shengji.game import ShengjiMatch
from engine.shengji.information import determinize, sample_hidden
from engine.shengji.information import information as shengji_information

PRESETS = ["shengji-17-deals", "shengji-50min", "shengji-timed-2h", "guandan-team"]
CHEAP = ("random", "easy", "normal")


@pytest.mark.parametrize("preset", PRESETS)
def test_every_level_acts_legally_in_thousands_of_random_positions(preset: str) -> None:
    p = load_preset(preset)
    rng = random.Random(preset)
    acted = {level: 0 for level in CHEAP}
    candidates = 0
    seed = 0
    while sum(acted.values()) < 2000:
        seed += 1
        m = new_match(p.game, p.rules, seed)
        players = {level: levels.player_for(p.game, level) for level in CHEAP}
        if isinstance(m, GuandanMatch) and m.phase == "new":
            m.apply("sys next_deal")
        steps = 0
        while not m.history and steps < 400:
            steps += 1
            action = None
            for turn in m.turns():
                level = rng.choice(CHEAP)
                action = players[level](m, turn.seat, rng)
                if action is not None:
                    acted[level] += 1
                    break
            if action is None:
                action = levels.table_step(m, [players["normal"]] * 4, rng)
            if steps % 25 == 0:  # now and then, the strong player's every candidate here is legal too
                candidates += _strong_candidates_are_legal(m, rng)
            m.apply(action)  # RuleError: an illegal action
    assert min(acted.values()) > 400, acted
    assert candidates > 20


def _strong_candidates_are_legal(m: object, rng: random.Random) -> int:
    n = 0
    if isinstance(m, ShengjiMatch) and m.phase == "play" and not m.finished:
        seat = m.to_play()
        info = shengji_information(m, seat)
        hands, kitty = sample_hidden(info, rng)
        world = determinize(info, hands, kitty)
        for cand in shengji_strong.candidates(info, world, rng):
            copy.deepcopy(m).apply(f"{seat} play " + shengji_strong.describe(cand))
            n += 1
    elif isinstance(m, GuandanMatch) and m.phase == "play" and m.play is not None and not m.play.over:
        seat = m.play.turn
        ginfo = guandan_information(m, seat)
        for gcand in guandan_strong.candidates(ginfo):
            copy.deepcopy(m).apply(guandan_strong.action_text(ginfo, gcand))
            n += 1
    return n
