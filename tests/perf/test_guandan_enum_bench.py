"""Benchmark (``make bench``): Guandan move enumeration for random 27-card hands (issue 3).

Prints lead enumeration time (mean, 99th percentile) and the mean number of leads per hand,
the same with every full-house pair listed (``kickers=True``), and following enumeration time.
Times are CPU time of this process (``time.process_time``): other work on the machine does not
inflate them.  Hands are fresh (a new shuffle each).  Figures only; nothing here asserts a time.
"""

from __future__ import annotations

import random
import statistics
import time

from engine.cards import full_deck
from engine.guandan.combos import readings
from engine.guandan.enumerate import legal_plays, lowest_play
from tests.perf.machine import describe

HANDS = 2000


def _percentile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(q * len(ys)))]


def test_guandan_enumeration_benchmark() -> None:
    rng = random.Random(20260601)
    deck = full_deck()
    cases = []
    for _ in range(HANDS):
        rng.shuffle(deck)
        level = rng.randint(2, 14)
        hand = deck[:27]
        other_leads = legal_plays(deck[27:54], level)
        cases.append((hand, level, rng.choice(other_leads)))

    lead_ms: list[float] = []
    lead_counts: list[int] = []
    kick_ms: list[float] = []
    kick_counts: list[int] = []
    follow_ms: list[float] = []
    follow_counts: list[int] = []
    lowest_ms: list[float] = []
    pc = time.process_time  # CPU time of this process: other work on the machine does not inflate it
    for hand, level, to_beat in cases:
        t0 = pc()
        plays = legal_plays(hand, level)
        t1 = pc()
        kick = legal_plays(hand, level, kickers=True)
        t2 = pc()
        follow = legal_plays(hand, level, to_beat)
        t3 = pc()
        lowest_play(hand, level, to_beat)
        t4 = pc()
        lead_ms.append((t1 - t0) * 1000)
        kick_ms.append((t2 - t1) * 1000)
        follow_ms.append((t3 - t2) * 1000)
        lowest_ms.append((t4 - t3) * 1000)
        lead_counts.append(len(plays))
        kick_counts.append(len(kick))
        follow_counts.append(len(follow))

    # readings of the enumerated plays (what validating a chosen play costs)
    sample = [(c.cards, level) for hand, level, _ in cases[:200] for c in legal_plays(hand, level)]
    t0 = pc()
    for cards, level in sample:
        readings(cards, level)
    read_us = (pc() - t0) / len(sample) * 1e6

    print()
    print(describe())
    print(f"Guandan enumeration, {HANDS} random 27-card hands, random level:")
    print(
        f"  lead:            mean {statistics.mean(lead_ms):.3f} ms, p99 {_percentile(lead_ms, 0.99):.3f} ms, "
        f"{statistics.mean(lead_counts):.1f} leads/hand (one per kind, rank, size)"
    )
    print(
        f"  lead, kickers:   mean {statistics.mean(kick_ms):.3f} ms, p99 {_percentile(kick_ms, 0.99):.3f} ms, "
        f"{statistics.mean(kick_counts):.1f} leads/hand (every full-house pair)"
    )
    print(
        f"  follow:          mean {statistics.mean(follow_ms):.3f} ms, p99 {_percentile(follow_ms, 0.99):.3f} ms, "
        f"{statistics.mean(follow_counts):.1f} plays/hand"
    )
    print(f"  lowest_play:     mean {statistics.mean(lowest_ms):.3f} ms")
    print(f"  readings():      mean {read_us:.1f} us per play ({len(sample)} plays)")
    assert min(lead_counts) > 0
