"""Swiss pairing over 1,000 simulated tournaments of 8-200 entries with random results (issue 20).

Each tournament (its own seed, so a failure names the seed to replay) has random union groups,
sometimes separate_union_groups, a random number of rounds (at most half the entries, the bound
under which a complete pairing always exists), random results (wins at both sides, forfeits,
double forfeits, team draws), and between rounds the odd withdrawal and late entry, kept within
that bound.  After every round the properties are checked:

* no two entries meet twice;
* an entry has at most one bye, and a round has a bye only when the active entries are odd;
* every active entry (joined, not withdrawn) is in exactly one match of the round; a withdrawn
  entry is never paired after its withdrawal, a late one never before the round it joined;
* the next round is paired only once the round is complete, and the Swiss ends after its rounds.
"""

from __future__ import annotations

import random

import pytest

from engine.tournament import Tournament, TournamentSettings
from engine.tournament.entries import Entry
from engine.tournament.results import (
    PairingResult,
    TableResult,
    forfeit_result,
    pair_result,
    team_result,
)

TOURNAMENTS = 1000


def random_result(rng: random.Random, tables: int) -> PairingResult:
    roll = rng.random()
    if roll < 0.03:
        return forfeit_result(rng.choice(("a", "b", "both")), tables)
    if tables == 1:
        winner = rng.choice("ab")
        lo = rng.randint(2, 13)
        return pair_result(winner, 14, lo) if winner == "a" else pair_result(winner, lo, 14)
    rows = []
    for k in range(1, tables + 1):
        w = rng.choice("ab")
        rows.append(TableResult(k, w, 14 if w == "a" else 10, 10 if w == "a" else 14))
    return team_result(rows)


def one_tournament(seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    n = rng.randint(8, 200)
    team = rng.random() < 0.2
    per_team = 2 if team else 1
    unions = rng.randint(1, 12)
    rounds = rng.randint(1, min(n // 2, 12))
    settings = TournamentSettings.from_mapping(
        {
            "format": "swiss",
            "swiss_rounds": rounds,
            "entrant": "team" if team else "pair",
            "pairs_per_team": per_team,
            "separate_union_groups": rng.random() < 0.5,
            "swiss_bye": rng.choice(("win", "draw", "loss")),
        }
    )

    def entry(i: int) -> Entry:
        return Entry(
            f"e{i}", f"E{i}", f"U{rng.randrange(unions)}", tuple(f"p{i}-{k}" for k in range(2 * per_team))
        )

    t = Tournament.create(f"swiss-{seed}", settings, [entry(i) for i in range(n)])
    t.hold_draw(rng.randbytes(32))
    sw = t.swiss
    assert sw is not None
    met: set[frozenset[str]] = set()
    byes: dict[str, int] = {}
    withdrawn_in: dict[str, int] = {}
    next_id = n
    played_rounds = 0
    while True:
        rnd = sw.current_round
        matches = sw.round_matches(rnd)
        active = [e for e in sw.entries if sw.joined.get(e, 1) <= rnd and withdrawn_in.get(e, rnd) >= rnd]
        seen = [x for m in matches for x in (m.a, m.b) if x is not None]
        assert sorted(seen) == sorted(active), f"seed {seed} round {rnd}: not every active entry plays once"
        bye_matches = [m for m in matches if m.b is None]
        assert len(bye_matches) == len(active) % 2, f"seed {seed} round {rnd}: byes"
        for m in matches:
            if m.b is None:
                byes[m.a] = byes.get(m.a, 0) + 1
                assert byes[m.a] == 1, f"seed {seed}: {m.a} has a second bye"
            else:
                key = frozenset((m.a, m.b))
                assert key not in met, f"seed {seed} round {rnd}: {m.a} meets {m.b} again"
                met.add(key)
            for x in (m.a, m.b):
                assert x is None or x not in withdrawn_in or withdrawn_in[x] >= rnd, (
                    f"seed {seed}: {x} withdrew"
                )
        played_rounds += 1
        ready = t.ready_matches()
        for i, mid in enumerate(ready):
            t.record(mid, random_result(rng, per_team))
            if i < len(ready) - 1:
                assert sw.current_round == rnd, f"seed {seed}: round {rnd + 1} paired early"
        if sw.current_round == rnd:
            break
        # between rounds (the next one is paired): a withdrawal, a late entry, kept within rounds <= active / 2
        if rng.random() < 0.3 and len(sw.active()) - 1 >= 2 * rounds + 2:
            leaver = rng.choice(sw.active())
            withdrawn_in[leaver] = sw.current_round
            t.withdraw(leaver)
        if rng.random() < 0.2 and sw.current_round < rounds:
            t.add_late_entry(entry(next_id))
            next_id += 1
    assert not sw.stalled, f"seed {seed}: a round could not be paired"
    assert t.finished and sw.current_round == rounds, (
        f"seed {seed}: ended after {sw.current_round} of {rounds}"
    )
    return n, played_rounds


PARTS = 4  # the 1,000 tournaments in four tests of 250 (xdist spreads them; each stays far below the timeout)


@pytest.mark.parametrize("part", range(PARTS))
def test_thousand_simulated_swiss_tournaments_never_repeat_a_pairing_or_give_a_second_bye(part: int) -> None:
    sizes = []
    for seed in range(part, TOURNAMENTS, PARTS):
        n, played = one_tournament(seed)
        sizes.append(n)
    assert min(sizes) < 20 and max(sizes) > 190  # the range 8..200 is covered
