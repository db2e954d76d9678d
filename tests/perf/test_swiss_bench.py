"""Benchmark (``make bench``): pairing round 9 of a 512-entry Swiss (issue 20: at most 1 s on one core).

Eight rounds of a 512-pair Swiss with union groups kept apart are played with random results (seeded),
then round 9 is paired: the standings, the graph of allowed pairings and the maximum-weight matching
(``SwissStage.pair_next``).  Five fresh seeds, each pairing timed in CPU seconds of this process (one
core), printed with the median and the worst.  Figures only; nothing here asserts a time.
"""

from __future__ import annotations

import random
import statistics
import time

from engine.tournament import Tournament, TournamentSettings
from engine.tournament.entries import Entry
from engine.tournament.results import pair_result
from tests.perf.machine import describe

ENTRIES = 512
ROUNDS = 9


def eight_rounds_played(seed: int) -> Tournament:
    rng = random.Random(seed)
    settings = TournamentSettings.from_mapping(
        {"format": "swiss", "swiss_rounds": ROUNDS, "separate_union_groups": True}
    )
    entries = [Entry(f"e{i}", f"E{i}", f"U{rng.randrange(24)}", (f"p{i}a", f"p{i}b")) for i in range(ENTRIES)]
    t = Tournament.create(f"bench-{seed}", settings, entries)
    t.hold_draw(rng.randbytes(32))
    assert t.swiss is not None
    while True:
        mids = t.ready_matches()
        if t.swiss.current_round == ROUNDS - 1:  # round 8: its last result is left for the timed pairing
            mids = mids[:-1]
        for mid in mids:
            t.record(mid, pair_result(rng.choice("ab"), 14, rng.randint(2, 13)))
        if t.swiss.current_round == ROUNDS - 1 and len(t.ready_matches()) == 1:
            break
    return t


def test_swiss_round_9_pairing_of_512_entries(capsys):  # type: ignore[no-untyped-def]
    times = []
    for seed in range(5):
        t = eight_rounds_played(1000 + seed)
        assert t.swiss is not None
        last = t.ready_matches()
        assert len(last) == 1 and t.swiss.current_round == ROUNDS - 1
        # the last result of round 8, recorded by hand so only the pairing is timed
        t.swiss.match(last[0]).result = pair_result("a", 14, 9)
        t0 = time.process_time()
        new = t.swiss.pair_next(t.lot_seed)
        times.append(time.process_time() - t0)
        assert len(new) == ENTRIES // 2 and t.swiss.current_round == ROUNDS
    with capsys.disabled():
        print()
        print(describe())
        print(
            f"swiss: {ENTRIES} entries, round {ROUNDS} paired (standings + graph + matching), 5 seeds: "
            f"median {statistics.median(times) * 1000:.0f} ms CPU, worst {max(times) * 1000:.0f} ms CPU "
            f"({', '.join(f'{x * 1000:.0f}' for x in times)} ms)"
        )
