"""Benchmark (``make bench``): complete Guandan deals per second on one core (issue 3).

* random-legal deals: every turn picks uniformly among all legal plays (plus pass when allowed),
  straight on the engine's play state (``DealPlay`` + ``legal_plays``), as the open competition
  engine's ~31 deals/s figure is measured; goal ≥ 93/s;
* the same through the text API (``GuandanMatch.apply`` with parsed action texts, log kept);
* computer-player deals: a full match driven by ``ai_action`` (tribute included).

Figures only; nothing here asserts a time.  Copy them to docs/performance.md ("## Guandan engine").
"""

from __future__ import annotations

import os
import platform
import random
import time

from engine.guandan.ai import random_action
from engine.guandan.deal import DealPlay, deal_hands, first_leader
from engine.guandan.enumerate import legal_plays
from engine.guandan.match import GuandanMatch
from engine.guandan.options import GuandanOptions

RANDOM_DEALS = 200
API_DEALS = 60
AI_DEALS = 40


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


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


def match_deals(total: int, computer: bool, rng: random.Random) -> tuple[int, int, float]:
    """Whole matches (text API) until ``total`` deals are played: (deals, actions, seconds)."""
    deals = actions = 0
    seed = 100
    t0 = time.perf_counter()
    while deals < total:
        m = GuandanMatch(GuandanOptions(deals=total - deals), seed)
        seed += 1
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
    return deals, actions, time.perf_counter() - t0


def _best_median(rates: list[float]) -> str:
    rates = sorted(rates)
    return f"best {rates[-1]:.1f}, median {rates[len(rates) // 2]:.1f}"


def test_guandan_deals_per_second() -> None:
    rng = random.Random(7)
    random_rates: list[float] = []
    turns = 0
    for rep in range(3):
        t0 = time.perf_counter()
        turns = sum(random_deal(seed, rng) for seed in range(rep * RANDOM_DEALS, (rep + 1) * RANDOM_DEALS))
        random_rates.append(RANDOM_DEALS / (time.perf_counter() - t0))
    api_rates: list[float] = []
    ai_rates: list[float] = []
    api_actions = ai_actions = 0
    for _ in range(3):
        deals, api_actions, secs = match_deals(API_DEALS, False, rng)
        api_rates.append(deals / secs)
        deals, ai_actions, secs = match_deals(AI_DEALS, True, rng)
        ai_rates.append(deals / secs)

    print()
    print(f"machine: nproc={os.cpu_count()} cpu={_cpu_model()!r} python={platform.python_version()}")
    print(f"random-legal deals (play state + legal_plays): {_best_median(random_rates)} deals/s "
          f"({turns / RANDOM_DEALS:.1f} turns/deal)")
    print(f"random-legal deals (whole matches, text API, log kept): {_best_median(api_rates)} deals/s "
          f"({api_actions / API_DEALS:.1f} actions/deal)")
    print(f"computer-player deals (whole matches, ai_action, text API): {_best_median(ai_rates)} deals/s "
          f"({ai_actions / AI_DEALS:.1f} actions/deal)")
