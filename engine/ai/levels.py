"""The computer players' levels and the action of a seat at a level.

* ``easy`` — the baseline player, but about one play in three is a random legal play (for beginners);
* ``normal`` — the baseline heuristic player (``engine.shengji.ai``, ``engine.guandan.ai``);
* ``strong`` — the searching player (``engine.shengji.ai_strong``, ``engine.guandan.ai_strong``), which
  reads only the seat's information set;
* ``random`` — uniformly random legal card play (a yardstick for the evaluation, not a table option).

A player is ``(match, seat, rng) -> action text or None``, like ``Match.ai_action``; all randomness
comes from ``rng``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

LEVELS = ("easy", "normal", "strong")
"""The levels a table may choose (option ``ai``)."""
DEFAULT_LEVEL = "normal"
EASY_RANDOM_SHARE = 0.35

Player = Callable[[Any, int, random.Random], "str | None"]


def check_level(level: str) -> str:
    """``level`` when it names a level, else ValueError naming the levels."""
    if level not in LEVELS:
        raise ValueError(f"ai must be one of {', '.join(LEVELS)}, not {level!r}")
    return level


def player_for(game: str, level: str) -> Player:
    """The player of ``game`` at ``level`` (one of LEVELS, or ``random``)."""
    if game == "shengji":
        from engine.shengji import ai, ai_strong

        normal: Player = ai.choose_action
        strong: Player = ai_strong.choose_action
        rand: Player = _shengji_random
    elif game == "guandan":
        from engine.guandan import ai as gai
        from engine.guandan import ai_strong as gstrong

        normal = gai.choose_action
        strong = gstrong.choose_action
        rand = gai.random_action
    else:
        raise ValueError(f"unknown game {game!r}")
    if level == "normal":
        return normal
    if level == "strong":
        return strong
    if level == "random":
        return rand
    if level == "easy":

        def easy(m: Any, seat: int, rng: random.Random) -> str | None:
            if rng.random() < EASY_RANDOM_SHARE:
                action = rand(m, seat, rng)
                if action is not None:
                    return action
            return normal(m, seat, rng)

        return easy
    raise ValueError(f"ai must be one of {', '.join(LEVELS)}, not {level!r}")


def action_at(level: str, match: Any, seat: int, rng: random.Random) -> str | None:
    """``seat``'s action at ``level`` now (None: nothing to do)."""
    return player_for(match.game, check_level(level))(match, seat, rng)


def table_step(m: Any, players: Sequence[Player], rng: random.Random) -> str:
    """The next action of a table whose seat ``s`` is played by ``players[s]``: the first seat due that acts
    (optional bids included), else the table's own step, else the move-clock action of the first seat
    due (``engine.game.computer_step`` with a player per seat)."""
    for turn in m.turns():
        action = players[turn.seat](m, turn.seat, rng)
        if action is not None:
            return str(action)
    step = m.system_step()
    if step is not None:
        return str(step)
    due = [t for t in m.turns() if t.required]
    return "sys resume" if not due else str(m.auto_action(due[0].seat))


def play_first_deal(m: Any, players: Sequence[Player], rng: random.Random) -> None:
    """Play ``m`` (a new match) to the end of its first deal with ``players[s]`` at seat ``s``."""
    if m.game == "guandan" and m.phase == "new":
        m.apply("sys next_deal")
    while not m.history:
        m.apply(table_step(m, players, rng))


def _shengji_random(m: Any, seat: int, rng: random.Random) -> str | None:
    """Random legal card play; bids, burying and choices as the baseline player (the yardstick of
    docs/performance.md measures card play only)."""
    from engine.shengji import ai
    from engine.shengji.legal import random_legal_play
    from engine.shengji.match import Move

    if m.phase == "play" and not m.finished and m.to_play() == seat:
        play = random_legal_play(m.ctx, m.hands[seat], m.lead if m.trick else None, rng, m.options.throws)
        return Move(seat, "play", tuple(play)).text()
    return ai.choose_action(m, seat, rng)
