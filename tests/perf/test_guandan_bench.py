"""Benchmark (``make bench``): complete Guandan deals per second on one core (issue 3).

* random-legal deals: every turn picks uniformly among all legal plays (plus pass when allowed),
  straight on the engine's play state (``DealPlay`` + ``legal_plays``), as the open competition
  engine's ~31 deals/s figure is measured; goal ≥ 93/s;
* the same through the text API (``GuandanMatch.apply`` with parsed action texts, log kept);
* computer-player deals: a full match driven by ``ai_action`` (tribute included).

Method: three repetitions of each measure; every repetition plays **fresh seeds** (no deal is played
twice in the process) and starts with the computer player's plan cache empty, so no repetition replays
a warm cache. One process on one core; rates per CPU second of the process (the figure to compare:
it hardly moves with the machine's load) and per wall-clock second; the machine line says the load.
Figures only; nothing here asserts a time.  Copy them to docs/performance.md ("## Guandan engine").
"""

from __future__ import annotations

import itertools
import random

from engine.guandan import ai as guandan_ai
from engine.guandan.ai import random_action
from engine.guandan.deal import DealPlay, deal_hands, first_leader
from engine.guandan.enumerate import legal_plays
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions
from tests.perf.machine import Clocks, best_median, describe

RANDOM_DEALS = 200
API_DEALS = 60
AI_DEALS = 40
_SEEDS = itertools.count(1)  # every deal of the module gets a seed never used before


def random_deal(seed: int, rng: random.Random) -> int:
    """One complete random-legal deal on the play state; returns the number of turns."""
    level = rng.randint(2, 14)
    play = DealPlay(level, deal_hands(seed, 1), first_leader(seed))
    turns = 0
    while not play.over:
        seat = play.turn
        options = legal_plays(play.hands[seat], level, play.to_beat)
        n = len(options) + (1 if play.to_beat is not None else 0)
        k = rng.randrange(n)
        if k == len(options):
            play.pass_turn(seat)
        else:
            play.play(seat, options[k])
        turns += 1
    return turns


def match_deals(total: int, computer: bool, rng: random.Random) -> tuple[int, int, Clocks]:
    """Whole matches (text API) until ``total`` deals are played: (deals, actions, clocks)."""
    deals = actions = 0
    guandan_ai.clear_plan_cache()
    clocks = Clocks()
    while deals < total:
        m = GuandanMatch(GuandanOptions(deals=total - deals), next(_SEEDS) * 1000)
        while not m.finished:
            step = m.system_step()
            if step is not None:
                m.apply(step)
                continue
            seat = m.turns()[0].seat
            action = m.ai_action(seat, rng) if computer else random_action(m, seat, rng)
            assert action is not None
            m.apply(action)
        deals += m.deal_no
        actions += len(m.log)
    return deals, actions, clocks


def test_guandan_deals_per_second() -> None:
    rng = random.Random(7)
    random_cpu: list[float] = []
    random_wall: list[float] = []
    turns = 0
    for _ in range(3):
        seeds = [next(_SEEDS) * 1000 for _ in range(RANDOM_DEALS)]
        clocks = Clocks()
        turns = sum(random_deal(seed, rng) for seed in seeds)
        random_cpu.append(RANDOM_DEALS / clocks.cpu)
        random_wall.append(RANDOM_DEALS / clocks.wall)
    api_cpu: list[float] = []
    api_wall: list[float] = []
    ai_cpu: list[float] = []
    ai_wall: list[float] = []
    api_actions = ai_actions = 0
    for _ in range(3):
        deals, api_actions, clocks = match_deals(API_DEALS, False, rng)
        api_cpu.append(deals / clocks.cpu)
        api_wall.append(deals / clocks.wall)
        deals, ai_actions, clocks = match_deals(AI_DEALS, True, rng)
        ai_cpu.append(deals / clocks.cpu)
        ai_wall.append(deals / clocks.wall)

    per_cpu = "deals per CPU second"
    print()
    print(describe())
    print("fresh seeds in every repetition; the computer player's plan cache emptied before each")
    print(
        f"random-legal deals (play state + legal_plays): {best_median(random_cpu, per_cpu)}; "
        f"wall clock {best_median(random_wall)} ({turns / RANDOM_DEALS:.1f} turns/deal)"
    )
    print(
        f"random-legal deals (whole matches, text API, log kept): {best_median(api_cpu, per_cpu)}; "
        f"wall clock {best_median(api_wall)} ({api_actions / API_DEALS:.1f} actions/deal)"
    )
    print(
        f"computer-player deals (whole matches, ai_action, text API): {best_median(ai_cpu, per_cpu)}; "
        f"wall clock {best_median(ai_wall)} ({ai_actions / AI_DEALS:.1f} actions/deal)"
    )
