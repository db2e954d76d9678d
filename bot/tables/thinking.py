"""Computer players' thinking, off the event loop (issue 19).

``Thinker.action(match, seat, rng)`` is the computer's action for ``seat`` at the table's level (match
option ``ai``; the driver asks ``strong`` for a tournament table, where a computer is a referee's stand-in
for an absent player).  Levels ``easy`` and ``normal`` take microseconds and run inline.  A ``strong`` play (a
Shengji lead or follow, a Guandan play or pass) is searched in a worker process: the main process builds
the seat's information set (``engine.*.information``: no other seat's cards) and sends only that and a
seed, so the event loop stays free for everybody else's moves while the computer thinks.  The pool has
``cpu_count - 1`` workers (at least one), created on first use.

A worker that dies mid-thought (``BrokenProcessPool``) is replaced and the decision asked again, once; a
second failure, or a search longer than ``THINK_TIMEOUT`` seconds, falls back to the baseline player, so
a table never stalls.  Nothing is committed before the answer comes back: after a restart mid-thought
the driver's next tick takes the computer's turn again, once.  The pace is the driver's: the search
starts only when the table's delay for a computer move has passed, so a computer never acts faster than
before.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from engine.ai.levels import DEFAULT_LEVEL, LEVELS, player_for

log = logging.getLogger(__name__)

THINK_TIMEOUT = 10.0


def searched(m: Any, seat: int) -> bool:
    """Whether the strong player searches this decision (else it plays the baseline's, inline)."""
    if m.finished or m.phase != "play":
        return False
    if m.game == "shengji":
        return bool(m.to_play() == seat)
    return m.play is not None and not m.play.over and m.play.turn == seat


def think(game: str, info: Any, seed: int) -> Any:
    """In a worker: the strong player's searched move (Shengji ``Move``, Guandan ``Combo`` or None)."""
    if game == "shengji":
        from engine.shengji.ai_strong import choose_play

        return choose_play(info, seed)
    from engine.guandan.ai_strong import CPU_LIMIT
    from engine.guandan.ai_strong import choose_play as guandan_play

    return guandan_play(info, seed, cpu_limit=CPU_LIMIT)


def coach(
    game: str,
    options_json: dict[str, Any],
    seed: int,
    actions: list[str],
    deal_no: int,
    seat: int,
    budget: int | None = None,
) -> list[Any]:
    """In a worker: the coach's notes (``engine.ai.coach``) for ``seat`` in finished deal ``deal_no``."""
    from engine.ai.coach import coach_notes
    from engine.registry import read_options

    options: Any = read_options(game, dict(options_json))
    return coach_notes(game, options, seed, actions, deal_no, seat, budget)


COACH_TIMEOUT = 120.0
COACH_BUDGET: int | None = None  # the search's budget per play (None: the strong player's own)


class Thinker:
    """The process pool of the strong computer players (one per bot process)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None
        self.restarts = 0  # pools replaced after a worker died (tests, logs)

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._pool

    def _replace_pool(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self._pool = None
        self.restarts += 1

    def shutdown(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    async def action(self, m: Any, seat: int, rng: random.Random, level: str | None = None) -> str | None:
        """``seat``'s computer action now at ``level`` (default: the match's option ``ai``; a tournament
        table's stand-in plays ``strong``); None: nothing to do."""
        level = level or getattr(m.options, "ai", DEFAULT_LEVEL)
        if level not in LEVELS:
            level = DEFAULT_LEVEL
        if level != "strong" or not searched(m, seat):
            return player_for(m.game, level)(m, seat, rng)
        if m.game == "shengji":
            from engine.shengji.information import information
        else:
            from engine.guandan.information import information  # type: ignore[assignment]
        info = information(m, seat)
        seed = rng.getrandbits(63)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                move = await asyncio.wait_for(
                    loop.run_in_executor(self.pool(), think, m.game, info, seed), THINK_TIMEOUT
                )
            except BrokenProcessPool:
                log.warning("a computer player's worker died (attempt %s): replacing the pool", attempt)
                self._replace_pool()
                continue
            except TimeoutError:
                log.warning(
                    "a computer player's search took longer than %s s: the baseline plays", THINK_TIMEOUT
                )
                break
            return _text(m, seat, move)
        return player_for(m.game, "normal")(m, seat, rng)

    async def coach(
        self, game: str, options_json: dict[str, Any], seed: int, actions: list[str], deal_no: int, seat: int
    ) -> list[Any] | None:
        """The coach's notes for a finished deal, searched in a worker (None: the coach could not answer in
        ``COACH_TIMEOUT`` seconds, or its worker died twice)."""
        loop = asyncio.get_running_loop()
        for _ in (1, 2):
            try:
                return await asyncio.wait_for(
                    loop.run_in_executor(
                        self.pool(),
                        coach,
                        game,
                        dict(options_json),
                        seed,
                        list(actions),
                        deal_no,
                        seat,
                        COACH_BUDGET,
                    ),
                    COACH_TIMEOUT,
                )
            except BrokenProcessPool:
                self._replace_pool()
            except TimeoutError:
                log.warning("the coach took longer than %s s for deal %s", COACH_TIMEOUT, deal_no)
                return None
        return None


def _text(m: Any, seat: int, move: Any) -> str:
    if m.game == "shengji":
        return str(move.text())
    return f"{seat} pass" if move is None else str(m.play_text(seat, move))


THINKER = Thinker()
"""The bot process's thinker (``bot.tables.driver`` uses it)."""
