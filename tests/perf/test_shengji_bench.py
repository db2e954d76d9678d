"""Benchmark: complete Shengji deals through the match state machine, one core (issue 2: >= 200 deals/s).

Per preset: random-legal deals per second (dealing, bidding, kitty, late overturns, every play,
scoring — every action as text through ``ShengjiMatch.apply``) and computer-player deals per
second.  Run with ``make bench``; the figures go to docs/performance.md.
"""

from __future__ import annotations

import random
import time

import pytest

from engine.options import load_preset
from engine.shengji.ai import ai_step, random_legal_action
from engine.shengji.match import ShengjiMatch

PRESETS = ("shengji-17-deals", "shengji-timed-2h", "shengji-50min")


def _deals_per_second(preset: str, driver: str, seconds: float = 2.0) -> tuple[float, int, int]:
    opts = load_preset(preset).with_overrides({"deals": 0, "max_redeals_before_pause": 20}).rules
    rng = random.Random(1)
    deals = actions = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        seed += 1
        m = ShengjiMatch(opts, seed)
        step = random_legal_action if driver == "random" else ai_step
        while m.phase != "deal_over" and not m.finished:
            a = step(m, rng)
            assert a is not None
            m.apply(a)
            actions += 1
        deals += 1
    elapsed = time.perf_counter() - start
    return deals / elapsed, deals, actions


@pytest.mark.parametrize("preset", PRESETS)
def test_random_legal_deals_per_second(preset: str) -> None:
    rate, deals, actions = _deals_per_second(preset, "random")
    print(f"\n{preset}: {rate:.0f} random-legal deals/s ({deals} deals, {actions / deals:.0f} actions per deal)")
    assert deals > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_computer_player_deals_per_second(preset: str) -> None:
    rate, deals, actions = _deals_per_second(preset, "ai")
    print(f"\n{preset}: {rate:.0f} computer-player deals/s ({deals} deals, {actions / deals:.0f} actions per deal)")
    assert deals > 0


def test_computer_17_deal_match_seconds() -> None:
    opts = load_preset("shengji-17-deals").rules
    start = time.perf_counter()
    m = ShengjiMatch(opts, 7)
    rng = random.Random(7)
    while not m.finished:
        a = ai_step(m, rng)
        assert a is not None
        m.apply(a)
    print(f"\ncomputer-played 17-deal match: {time.perf_counter() - start:.2f} s ({len(m.log)} actions)")
