"""Computer players' thinking, off the event loop (issue 19).

``Thinker.action(match, seat, rng)`` is the computer's action for ``seat`` at the table's level (match
option ``ai``; the driver asks ``strong`` for a tournament table, where a computer is a referee's stand-in
for an absent player).  Levels ``easy`` and ``normal`` take microseconds and run inline.  A ``strong`` play (a
Shengji lead or follow, a Guandan play or pass) is searched in a worker process: the main process builds
the question (``engine.ai.strong.question``: the seat's information set, no other seat's cards, and a
seed) and sends only that; the worker answers with the action text, so the event loop stays free for
everybody else's moves while the computer thinks.  Nothing here knows which game it is.  The pool has
``cpu_count - 1`` workers (at least one), created on first use.

A worker that dies mid-thought (``BrokenProcessPool``) is replaced and the decision asked again, once; a
second failure, or a search longer than ``THINK_TIMEOUT`` seconds, falls back to the baseline player, so
a table never stalls.  Under load the search shrinks before it is dropped: with ``k`` searches already in
flight per worker a new one is asked at effort ``EFFORTS[k]`` (full, half, a quarter of the budget and
worlds), and only past ``QUEUE_PER_WORKER`` does the baseline play at once; the log says every
``LOG_EVERY`` strong decisions how many were searched in full, at a reduced budget, or left to the baseline.
Nothing is committed before the answer comes back: after a restart mid-thought
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
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace

from engine.ai.coach import CoachNote, coach_notes
from engine.ai.levels import DEFAULT_LEVEL, LEVELS, player_for
from engine.ai.strong import Question, answer, question
from engine.game import Match
from engine.registry import read_options

log = logging.getLogger(__name__)

THINK_TIMEOUT = 10.0
EFFORTS = (1.0, 0.5, 0.25, 0.25)
"""The search's effort (share of the full budget and worlds) by the searches already in flight per worker:
a free worker searches in full, a queue gets quicker searches; past ``QUEUE_PER_WORKER`` the baseline plays."""
QUEUE_PER_WORKER = len(
    EFFORTS
)  # searches in flight per worker (running or waiting); beyond, the baseline plays
LOG_EVERY = 50  # strong decisions between two summary lines of the log (full / reduced / baseline)
WORKER_NICENESS = 10  # the workers yield the CPU to the bot's own process (people's moves come first)


def searched(m: Match, seat: int) -> bool:
    """Whether the strong player searches this decision (else it plays the baseline's, inline)."""
    return question(m, seat, 0) is not None


def _worker_start() -> None:
    """In each new worker: a lower CPU priority than the bot's process, so that on a machine short of cores
    a search never slows the event loop (the searches wait instead)."""
    try:
        os.nice(WORKER_NICENESS)
    except OSError:  # pragma: no cover - not allowed here: the worker runs at the bot's priority
        log.info("a computer player's worker could not lower its priority")


def think(q: Question) -> str:
    """In a worker: the strong player's searched action text."""
    return answer(q)


def coach(
    game: str,
    options_json: Mapping[str, object],
    seed: int,
    actions: list[str],
    deal_no: int,
    seat: int,
    budget: int | None = None,
) -> list[CoachNote]:
    """In a worker: the coach's notes (``engine.ai.coach``) for ``seat`` in finished deal ``deal_no``."""
    return coach_notes(game, read_options(game, dict(options_json)), seed, actions, deal_no, seat, budget)


COACH_TIMEOUT = 120.0
COACH_BUDGET: int | None = None  # the search's budget per play (None: the strong player's own)


class Thinker:
    """The process pool of the strong computer players (one per bot process)."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self._pool: ProcessPoolExecutor | None = None
        self.restarts = 0  # pools replaced after a worker died (tests, logs)
        self.in_flight = 0  # searches sent and not answered yet
        self.shed = 0  # decisions the baseline made because the workers were busy (tests, logs)
        self.full = 0  # decisions searched at the full budget
        self.reduced = 0  # decisions searched at a reduced budget (EFFORTS) because others were waiting
        self.decisions = 0  # strong decisions that would be searched (a summary is logged every LOG_EVERY)

    def effort(self) -> float | None:
        """The effort of a search asked now (EFFORTS by the searches in flight per worker); None: too many in
        flight, the baseline plays."""
        depth = self.in_flight // self.workers
        return EFFORTS[depth] if depth < len(EFFORTS) else None

    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                self.workers, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_start
            )
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

    async def action(self, m: Match, seat: int, rng: random.Random, level: str | None = None) -> str | None:
        """``seat``'s computer action now at ``level`` (default: the match's option ``ai``; a tournament
        table's stand-in plays ``strong``); None: nothing to do."""
        level = level or getattr(m.options, "ai", DEFAULT_LEVEL)
        if level not in LEVELS:
            level = DEFAULT_LEVEL
        q = question(m, seat, rng.getrandbits(63)) if level == "strong" else None
        if q is None:
            return player_for(m.game, level)(m, seat, rng)
        self.decisions += 1
        effort = self.effort()
        if effort is None:
            # every worker has QUEUE_PER_WORKER searches running or waiting: a longer queue would only make the
            # tables wait (and searches past THINK_TIMEOUT are thrown away while they hold a worker)
            self.shed += 1
        elif effort < 1.0:
            self.reduced += 1
        else:
            self.full += 1
        if self.decisions % LOG_EVERY == 0:
            log.info(
                "strong decisions: %s; searched at the full budget %s, at a reduced budget %s, "
                "left to the baseline because the workers were busy %s",
                self.decisions,
                self.full,
                self.reduced,
                self.shed,
            )
        if effort is None:
            return player_for(m.game, "normal")(m, seat, rng)
        q = replace(q, effort=effort)
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            self.in_flight += 1
            try:
                return await asyncio.wait_for(loop.run_in_executor(self.pool(), think, q), THINK_TIMEOUT)
            except BrokenProcessPool:
                log.warning("a computer player's worker died (attempt %s): replacing the pool", attempt)
                self._replace_pool()
                continue
            except TimeoutError:
                log.warning(
                    "a computer player's search took longer than %s s: the baseline plays", THINK_TIMEOUT
                )
                break
            finally:
                self.in_flight -= 1
        return player_for(m.game, "normal")(m, seat, rng)

    async def coach(
        self,
        game: str,
        options_json: Mapping[str, object],
        seed: int,
        actions: list[str],
        deal_no: int,
        seat: int,
    ) -> list[CoachNote] | None:
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


THINKER = Thinker()
"""The bot process's thinker (``bot.tables.driver`` uses it)."""
