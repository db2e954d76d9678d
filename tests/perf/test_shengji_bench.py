"""Benchmark: complete Shengji deals through the match state machine, one core (issue 11: >= 400 deals/s).

Method (docs/performance.md "Shengji engine"): every repetition plays deals of *fresh* match seeds
(``random.SystemRandom``), so no cache warmed by an earlier repetition replays the same deals; each
repetition runs for ``SECONDS`` of this process's CPU time (``time.process_time``: on a shared machine
it counts only the time this process ran) and also reports wall-clock time; the figure is the median
of ``REPS`` repetitions, with the range.  A deal is everything from the first draw to ``deal_over``:
100 draws with bids between them, the bid window, kitty take and bury, late overturns where the preset
has them, every play (lead classification, throw checks, following checks, trick winners), kitty
capture and scoring; deals where nobody declared are redealt and counted once.

Two drivers: random-legal actions as text through ``ShengjiMatch.apply`` (what the bot does with a
typed or pressed play: read the text, apply, log), and the same choices as structured moves through
``ShengjiMatch.apply_move`` (what computer players can use: no text to read; the log still gets the
canonical texts).  Run with ``make bench``.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable

import pytest

from engine.registry import load_preset
from engine.shengji.ai import ai_step, random_legal_action, random_legal_move
from engine.shengji.game import ShengjiMatch

PRESETS = ("shengji-17-deals", "shengji-timed-2h", "shengji-50min")
REPS = 5
SECONDS = 1.0


def _text_random(m: ShengjiMatch, rng: random.Random) -> None:
    action = random_legal_action(m, rng)
    assert action is not None
    m.apply(action)


def _move_random(m: ShengjiMatch, rng: random.Random) -> None:
    move = random_legal_move(m, rng)
    assert move is not None
    m.apply_move(move)


def _text_ai(m: ShengjiMatch, rng: random.Random) -> None:
    action = ai_step(m, rng)
    assert action is not None
    m.apply(action)


def _one_rep(
    preset: str, step: Callable[[ShengjiMatch, random.Random], None]
) -> tuple[float, float, int, int]:
    """(deals per CPU second, deals per wall second, deals, actions) of one repetition on fresh seeds."""
    opts = load_preset(preset).with_overrides({"deals": 0, "max_redeals_before_pause": 20}).rules
    fresh = random.SystemRandom()
    rng = random.Random(fresh.randrange(2**62))
    deals = actions = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < SECONDS:
        m = ShengjiMatch(opts, fresh.randrange(2**62))
        while m.phase != "deal_over" and not m.finished:
            step(m, rng)
        actions += len(m.log)
        deals += 1
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    return deals / cpu, deals / wall, deals, actions


def _report(label: str, preset: str, step: Callable[[ShengjiMatch, random.Random], None]) -> float:
    reps = [_one_rep(preset, step) for _ in range(REPS)]
    cpu = [r[0] for r in reps]
    wall = [r[1] for r in reps]
    deals, actions = sum(r[2] for r in reps), sum(r[3] for r in reps)
    print(
        f"\n{preset} {label}: median {statistics.median(cpu):.0f} deals per CPU-second "
        f"(range {min(cpu):.0f}-{max(cpu):.0f}; wall clock median {statistics.median(wall):.0f}) "
        f"over {REPS} x {SECONDS:.0f} s on fresh seeds, {actions / deals:.0f} actions a deal"
    )
    return statistics.median(cpu)


@pytest.mark.parametrize("preset", PRESETS)
def test_random_legal_deals_per_second_text(preset: str) -> None:
    assert _report("random-legal deals, text (apply)", preset, _text_random) > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_random_legal_deals_per_second_moves(preset: str) -> None:
    assert _report("random-legal deals, moves (apply_move)", preset, _move_random) > 0


@pytest.mark.parametrize("preset", PRESETS)
def test_computer_player_deals_per_second(preset: str) -> None:
    assert _report("computer-player deals, text (ai_step)", preset, _text_ai) > 0


def test_computer_17_deal_match_seconds() -> None:
    opts = load_preset("shengji-17-deals").rules
    seconds = []
    for _ in range(3):
        seed = random.SystemRandom().randrange(2**62)
        cpu0 = time.process_time()
        m = ShengjiMatch(opts, seed)
        rng = random.Random(seed)
        while not m.finished:
            a = ai_step(m, rng)
            assert a is not None
            m.apply(a)
        seconds.append(time.process_time() - cpu0)
    print(
        f"\ncomputer-played 17-deal match on fresh seeds: median {statistics.median(seconds):.2f} CPU-seconds "
        f"(range {min(seconds):.2f}-{max(seconds):.2f}, {len(m.log)} actions in the last)"
    )
