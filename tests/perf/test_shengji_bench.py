"""Benchmark: complete Shengji deals through the match state machine, one core (issue 2: >= 200 deals/s).

Per preset: random-legal deals per second (dealing, bidding, kitty, late overturns, every play,
scoring — every action as text through ``ShengjiMatch.apply``) and computer-player deals per
second.  Run with ``make bench``; the figures go to docs/performance.md.

Method: each figure is three repetitions of ``SECONDS`` of CPU time of this one process (one core),
best and median printed with every run, as deals per CPU second (the figure to compare: it hardly
moves with the machine's load) and per wall-clock second (what a player would see on this machine
at that load); every deal of the module is dealt from a seed never used before (fresh seeds in every
repetition), and the first line printed says how loaded the machine was.  Nothing here asserts a time.
"""

from __future__ import annotations

import itertools
import random

import pytest

from engine.options import load_preset
from engine.shengji.ai import ai_step, random_legal_action
from engine.shengji.match import ShengjiMatch
from tests.perf.machine import Clocks, best_median, describe

PRESETS = ("shengji-17-deals", "shengji-timed-2h", "shengji-50min")
SECONDS = 1.0
REPETITIONS = 3
_SEEDS = itertools.count(1)  # every deal of the module gets a seed never used before


def _deals_per_second(preset: str, driver: str, seconds: float = SECONDS) -> tuple[float, float, int, int]:
    """(deals per CPU second, deals per wall second, deals, actions) over ``seconds`` of CPU time."""
    opts = load_preset(preset).with_overrides({"deals": 0, "max_redeals_before_pause": 20}).rules
    rng = random.Random(1)
    deals = actions = 0
    step = random_legal_action if driver == "random" else ai_step
    clocks = Clocks()
    while clocks.cpu < seconds:
        m = ShengjiMatch(opts, next(_SEEDS))
        while m.phase != "deal_over" and not m.finished:
            a = step(m, rng)
            assert a is not None
            m.apply(a)
            actions += 1
        deals += 1
    return deals / clocks.cpu, deals / clocks.wall, deals, actions


def _measure(preset: str, driver: str, label: str) -> None:
    cpu_rates: list[float] = []
    wall_rates: list[float] = []
    deals = actions = 0
    for _ in range(REPETITIONS):
        cpu_rate, wall_rate, d, a = _deals_per_second(preset, driver)
        cpu_rates.append(cpu_rate)
        wall_rates.append(wall_rate)
        deals += d
        actions += a
    print(f"\n{describe()}\n{preset}: {label} {best_median(cpu_rates, 'deals per CPU second')}; "
          f"wall clock {best_median(wall_rates)} ({deals} deals, {actions / deals:.0f} actions per deal, fresh seeds)")
    assert deals > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_random_legal_deals_per_second(preset: str) -> None:
    _measure(preset, "random", "random-legal deals:")


@pytest.mark.parametrize("preset", PRESETS)
def test_computer_player_deals_per_second(preset: str) -> None:
    _measure(preset, "ai", "computer-player deals:")


def test_computer_17_deal_match_seconds() -> None:
    opts = load_preset("shengji-17-deals").rules
    times = []
    for _ in range(REPETITIONS):
        seed = next(_SEEDS)
        clocks = Clocks()
        m = ShengjiMatch(opts, seed)
        rng = random.Random(seed)
        while not m.finished:
            a = ai_step(m, rng)
            assert a is not None
            m.apply(a)
        times.append(clocks.cpu)
    print(f"\n{describe()}\ncomputer-played 17-deal match (fresh seed each), CPU seconds: "
          f"{', '.join(f'{t:.2f}' for t in times)} ({len(m.log)} actions in the last)")
