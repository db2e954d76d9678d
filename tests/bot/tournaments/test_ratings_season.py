"""Issue 20, "Ratings": after a simulated season of 20 tournaments between computer players of known
strengths, the rating order matches the strength order (Kendall tau >= 0.8).

Twelve players at three levels, four each: ``random`` (uniformly random legal card play), ``half`` (the
baseline player, but half of its plays are random legal plays: a weaker ``easy``) and ``normal`` (the
baseline heuristic player).  Each tournament draws new partnerships among all twelve, then runs a Swiss
of 4 rounds (engine/tournament, the real pairing).  Every match is really played by the engine
(``shengji-17-deals`` rules, 6 deals a match, each seat played by its player's level); its result goes
through the bot's own conversion (``table_match_result``) into the tournament and the rating code
(``match_games``, ``replay``).  The order of the three levels is what the ratings must find: Kendall's
tau over the pairs of players of different levels (``kendall_tau_across_levels``: players of one level
are equally strong, so their pairs have no true order and are left out; tau-b would count them as ties,
which caps it at 0.853 here and made the test pass or fail by the seed: 0.78 on one seed in three).
Seeds 1-11 gave 0.958, 1.0, 1.0, 1.0, 0.917, 0.917, 1.0, 1.0, 1.0, 0.917, 0.958 (tau-b 0.78-0.85): the
worst seen is two of the 48 cross-level pairs the wrong way, the bound 0.8 allows four.

The expensive ``strong`` level is left out so the season fits in ``make test`` (about 8 s of
CPU; the levels' own strength is measured by ``make ai-eval``).
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

from bot.tournaments.results import table_match_result
from engine.ai.levels import Player, player_for, table_step
from engine.registry import load_preset, new_match
from engine.tournament import Tournament, TournamentSettings
from engine.tournament.entries import Entry
from engine.tournament.ratings import TableGame, match_games, replay

LEVELS = {"random": 1.0, "half": 0.5, "normal": 0.0}  # the share of random plays
STRENGTH = {"random": 0, "half": 1, "normal": 2}
PER_LEVEL = 4
TOURNAMENTS, ROUNDS, DEALS = 20, 4, 6
SEED = 2


def kendall_tau_b(xs: list[float], ys: list[float]) -> float:
    """Kendall's tau-b (ties in either order counted as scipy.stats.kendalltau does)."""
    concordant = discordant = tied_x = tied_y = 0
    for i in range(len(xs)):
        for j in range(i + 1, len(xs)):
            dx, dy = xs[i] - xs[j], ys[i] - ys[j]
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tied_x += 1
            elif dy == 0:
                tied_y += 1
            elif dx * dy > 0:
                concordant += 1
            else:
                discordant += 1
    n = concordant + discordant
    return (concordant - discordant) / math.sqrt((n + tied_x) * (n + tied_y))


def test_kendall_tau_b_of_known_orders() -> None:
    assert kendall_tau_b([1, 2, 3], [10, 20, 30]) == 1.0
    assert kendall_tau_b([1, 2, 3], [30, 20, 10]) == -1.0
    assert abs(kendall_tau_b([0, 0, 1, 1], [1, 2, 3, 4]) - 4 / math.sqrt(4 * 6)) < 1e-12


def _player(share: float) -> Player:
    normal, rand = player_for("shengji", "normal"), player_for("shengji", "random")

    def play(m: Any, seat: int, rng: random.Random) -> str | None:
        if share and rng.random() < share:
            action = rand(m, seat, rng)
            if action is not None:
                return action
        return normal(m, seat, rng)

    return play


def kendall_tau_across_levels(levels: list[float], ratings: list[float]) -> float:
    """Kendall's tau over the pairs of players of *different* levels: (concordant - discordant) / pairs,
    a tie in the ratings counting as neither.  Pairs of one level have no true order, so they are left
    out rather than counted as ties (tau-b counts them, which caps it below 1 here: 0.853)."""
    score = pairs = 0
    for i in range(len(levels)):
        for j in range(i + 1, len(levels)):
            dx, dy = levels[i] - levels[j], ratings[i] - ratings[j]
            if dx == 0:
                continue
            pairs += 1
            score += (dx * dy > 0) - (dx * dy < 0)
    return score / pairs


def test_kendall_tau_across_levels_of_known_orders() -> None:
    assert kendall_tau_across_levels([0, 0, 1, 1], [1, 2, 3, 4]) == 1.0  # every stronger one above
    assert kendall_tau_across_levels([0, 0, 1, 1], [4, 3, 2, 1]) == -1.0
    assert kendall_tau_across_levels([0, 0, 1, 1], [1, 3, 2, 4]) == 0.5  # one of four pairs the wrong way
    assert kendall_tau_across_levels([0, 1], [5, 5]) == 0.0


def season(seed: int) -> tuple[list[str], list[float], Any]:
    """A season of ``TOURNAMENTS`` Swiss tournaments; returns the players, their strengths, the ratings."""
    rng = random.Random(seed)
    rules = replace(load_preset("shengji-17-deals").rules, deals=DEALS)
    level_of = {f"{lv}-{k}": lv for lv in LEVELS for k in range(PER_LEVEL)}
    plays = {p: _player(LEVELS[lv]) for p, lv in level_of.items()}
    players = sorted(level_of)
    settings = TournamentSettings.from_mapping({"format": "swiss", "swiss_rounds": ROUNDS})
    games: list[TableGame] = []
    played = 0
    for n in range(TOURNAMENTS):
        rng.shuffle(players)
        entries = [Entry(f"e{k}", f"E{k}", "", (players[2 * k], players[2 * k + 1])) for k in range(6)]
        t = Tournament.create(f"season-{n}", settings, entries)
        t.hold_draw(rng.randbytes(32))
        by_id = {e.id: e for e in entries}
        while not t.finished and not (t.swiss is not None and t.swiss.stalled):
            for mid in t.ready_matches():
                a, b = t.sides(mid)
                assert a is not None and b is not None
                pa, pb = by_id[a].players, by_id[b].players
                seed = rng.getrandbits(32)
                m = new_match("shengji", rules, seed)
                seats = [plays[pa[0]], plays[pb[0]], plays[pa[1]], plays[pb[1]]]  # side a: seats 0 and 2
                moves = random.Random(seed)
                while not m.finished:
                    m.apply(table_step(m, seats, moves))
                result = m.result()
                assert result is not None and result["deals"] == DEALS
                outcome = table_match_result(dict(result), 1)
                games += match_games("shengji", pa, pb, outcome, f"season-{n}/{mid}")
                t.record(mid, outcome)
                played += 1
    assert played >= TOURNAMENTS * ROUNDS * 3 * 0.9  # a round that cannot be paired ends a tournament early
    names = sorted(level_of)
    return names, [float(STRENGTH[level_of[p]]) for p in names], replay(games)


def test_a_season_of_computer_players_is_ranked_in_the_order_of_their_levels() -> None:
    names, strengths, ratings = season(SEED)
    shown = [float(ratings.of(p, "shengji").shown) for p in names]
    tau = kendall_tau_across_levels(strengths, shown)
    assert tau >= 0.8, (tau, kendall_tau_b(strengths, shown), sorted(zip(shown, names, strict=True)))
    assert all(not ratings.of(p, "shengji").provisional for p in names)
