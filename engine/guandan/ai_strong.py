"""The strong Guandan player: determinized Monte Carlo search on the seat's information set.

For a play it lists a few candidates — the baseline player's choice first, passing when allowed, the
plays that keep the hand's plan shortest, the lowest bomb, the lowest and highest groups of the plan
when leading — then deals the unseen cards several times consistently with what the seat knows
(``engine.guandan.information``: counts, every card played, tribute cards) and plays each candidate
out to the end of the deal in every such world, every seat following the baseline player
(``engine.guandan.ai``).  The candidate with the best average level steps for the own side wins when it
beats the baseline's choice clearly on the same worlds (common random numbers; ``engine.search.choice``).

It is given a :class:`~engine.guandan.information.GuandanInformation`, never the match, and draws only
from the seed it is given.  Tribute and return are the baseline player's (docs/performance.md).
"""

from __future__ import annotations

import random
import time

from engine.cards import cards_text
from engine.guandan.ai import (
    _combo_for,
    _remove,
    choose_follow,
    choose_lead,
    decompose,
    plan_size,
)
from engine.guandan.ai import choose_action as normal_action
from engine.guandan.combos import BOMB, JOKER_BOMB, Combo, playable_readings
from engine.guandan.deal import DealPlay
from engine.guandan.enumerate import legal_plays
from engine.guandan.information import GuandanInformation, information, sample_hands, world
from engine.guandan.levels import level_change, partner_of, side_of
from engine.guandan.match import GuandanRules
from engine.search.choice import ranking, scaled_worlds, worlds_for

BUDGET = 5_000  # card plays of play-outs per decision, all candidates and worlds together
MIN_WORLDS = 6
MAX_WORLDS = 30
MAX_CANDIDATES = 6
CPU_LIMIT = 1.0  # CPU seconds a decision of the player may take: no world is started after that ...
LEAST_WORLDS = 3  # ... once this many are played (the early decisions of a deal, 108 cards to play out)


def choose_action(m: GuandanRules, seat: int, rng: random.Random) -> str | None:
    """The strong player's action for ``seat`` (level strong): a play is searched on ``seat``'s
    information set only; tribute and return are the baseline player's."""
    if m.phase == "play" and m.play is not None and not m.play.over and m.play.turn == seat:
        info = information(m, seat)
        return action_text(info, choose_play(info, rng.getrandbits(63), cpu_limit=CPU_LIMIT))
    return normal_action(m, seat, rng)


def action_text(info: GuandanInformation, combo: Combo | None) -> str:
    """The action text of ``info.seat`` playing ``combo`` now (None: a pass), as ``GuandanRules.play_text``
    writes it (the reading named when the cards have several)."""
    if combo is None:
        return f"{info.seat} pass"
    text = f"{info.seat} play {cards_text(combo.cards)}"
    if len(playable_readings(combo.cards, info.level, info.to_beat)) > 1:
        text += f" as {combo.reading_id()}"
    return text


def choose_play(
    info: GuandanInformation,
    seed: int,
    budget: int | None = None,
    cpu_limit: float | None = None,
    effort: float = 1.0,
) -> Combo | None:
    """The searched play of ``info.seat`` now (None: pass); with ``cpu_limit``, no world is started after
    that many CPU seconds once ``LEAST_WORLDS`` are played (the choice then depends on the machine's
    speed: the players use it, the tests and the coach do not).  ``effort`` below 1 scales the budget, the
    worlds and the CPU limit down (the bot's workers under load)."""
    return search(info, seed, budget, cpu_limit, effort)[0][0]


def search(
    info: GuandanInformation,
    seed: int,
    budget: int | None = None,
    cpu_limit: float | None = None,
    effort: float = 1.0,
) -> list[tuple[Combo | None, float]]:
    """Every candidate (None: pass) with its average level steps for the own side, best first
    (``engine.search.choice.ranking``)."""
    cands, results = play_outs(info, seed, budget, cpu_limit=cpu_limit, effort=effort)
    if len(cands) == 1:
        return [(cands[0], 0.0)]
    return [(cands[i], mean) for i, mean in ranking(results)]


_NO_EXTRA = Combo("", (), 0, 0, ())


def play_outs(
    info: GuandanInformation,
    seed: int,
    budget: int | None = None,
    extra: Combo | None = _NO_EXTRA,
    cpu_limit: float | None = None,
    effort: float = 1.0,
) -> tuple[list[Combo | None], list[list[float]]]:
    """The candidates (``extra`` added last when it is not one: the coach's actual move, None a pass) and
    each one's result in every world (``results[i][w]``); a single candidate is not played out.  Every
    world plays all the candidates, so a search stopped by ``cpu_limit`` still compares them on the same
    worlds."""
    start = time.process_time()
    rng = random.Random(seed)
    cands = candidates(info)
    if extra is not _NO_EXTRA and all(extra != c for c in cands):
        cands.append(extra)
    if len(cands) == 1:
        return cands, [[0.0]]
    least, most = scaled_worlds(MIN_WORLDS, MAX_WORLDS, effort)
    worlds = worlds_for(int((budget or BUDGET) * effort), len(cands), sum(info.counts), least, most)
    limit = None if cpu_limit is None else cpu_limit * min(1.0, effort)
    least_timed = LEAST_WORLDS if effort >= 1.0 else scaled_worlds(LEAST_WORLDS, LEAST_WORLDS, effort)[0]
    results: list[list[float]] = [[] for _ in cands]
    for w in range(worlds):
        if limit is not None and w >= least_timed and time.process_time() - start > limit:
            break
        hands = sample_hands(info, rng)
        for i, cand in enumerate(cands):
            results[i].append(playout(info, world(info, hands), cand))
    return cands, results


def baseline_move(play: DealPlay, seat: int) -> Combo | None:
    """The baseline player's move for ``seat`` in ``play`` (what ``engine.guandan.ai.choose_action``
    plays, without the match around it)."""
    level = play.level
    hand = play.hands[seat]
    counts = [len(h) for h in play.hands]
    if play.to_beat is None:
        nxt = next((s for s in ((seat + k) % 4 for k in (1, 2, 3)) if counts[s]), seat)
        nxt_count = counts[nxt] if side_of(nxt) != side_of(seat) else 99
        return choose_lead(hand, level, nxt_count, counts[partner_of(seat)])
    opponents = [counts[s] for s in range(4) if side_of(s) != side_of(seat) and counts[s]]
    winner = play.last_seat
    return choose_follow(
        hand,
        level,
        play.to_beat,
        side_of(winner) == side_of(seat),
        counts[winner] if counts[winner] else 99,
        min(opponents) if opponents else 99,
    )


def playout(info: GuandanInformation, play: DealPlay, first: Combo | None) -> float:
    """``first`` (None: pass) in ``play``, then the baseline player for every seat to the end of the
    deal: the level steps won (positive) or lost by ``info.seat``'s side."""
    move: Combo | None = first
    seat = info.seat
    while True:
        if move is None:
            play.pass_turn(seat)
        elif play.play(seat, move):
            break
        seat = play.turn
        move = baseline_move(play, seat)
    change = level_change(
        info.levels, info.level, play.finish_order, info.a_failures, info.options.a_failures_reset
    )
    mine = side_of(info.seat)
    return float(change.gain if change.winner_side == mine else -change.gain)


def candidates(info: GuandanInformation) -> list[Combo | None]:
    """The moves the search compares (None: pass): the baseline player's first, then a few others."""
    hand = list(info.hand)
    level = info.level
    # the baseline player reads only its own hand and the other hands' sizes
    probe = world(info, [list(info.hand) if s == info.seat else [0] * info.counts[s] for s in range(4)])
    out: list[Combo | None] = []

    def add(c: Combo | None) -> None:
        if all(c != x for x in out):
            out.append(c)

    add(baseline_move(probe, info.seat))
    if info.to_beat is None:
        groups = [g for g in decompose(hand, level) if g.kind not in (BOMB, JOKER_BOMB)]
        combos = [c for c in (_combo_for(g, hand, level, None) for g in groups) if c is not None]
        combos.sort(key=lambda c: (c.rank_key, -len(c.cards)))
        for c in combos[:3] + combos[-2:]:
            add(c)
        if len(out) < 3:
            plays = legal_plays(hand, level, None)
            for c in sorted(plays, key=lambda c: (c.is_bomb, plan_size(_remove(hand, c.cards), level)))[:3]:
                add(c)
    else:
        add(None)
        plays = legal_plays(hand, level, info.to_beat)
        plain = sorted(
            (c for c in plays if not c.is_bomb),
            key=lambda c: (plan_size(_remove(hand, c.cards), level), c.rank_key),
        )
        for c in plain[:3]:
            add(c)
        bombs = sorted((c for c in plays if c.is_bomb), key=lambda c: c.power)
        if bombs:
            add(bombs[0])
    return out[:MAX_CANDIDATES]
