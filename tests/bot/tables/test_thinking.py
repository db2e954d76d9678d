"""The strong computer players think in worker processes: same answer as the engine, the event loop
stays free, a killed worker costs one retry, a slow search falls back to the baseline."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import signal

import pytest

from bot.tables import thinking
from engine.ai.strong import Question
from engine.registry import load_preset, new_match
from engine.shengji import ai_strong
from engine.shengji.game import ShengjiMatch
from engine.shengji.information import information


def _shengji_play_position(level: str = "strong") -> ShengjiMatch:
    p = load_preset("shengji-17-deals")
    m = ShengjiMatch(dataclasses.replace(p.rules, ai=level), 8)
    rng = random.Random(8)
    while m.phase != "play":
        action = next((a for t in m.turns() if (a := m.ai_action(t.seat, rng)) is not None), None)
        m.apply(action or m.system_step() or "sys resume")
    for _ in range(5):
        m.apply(m.ai_action(m.turns()[0].seat, rng) or "")
    return m


async def _think_and_count_ticks(
    thinker: thinking.Thinker, m: ShengjiMatch, seat: int
) -> tuple[str | None, int]:
    ticks = 0
    done = asyncio.Event()

    async def ticker() -> None:
        nonlocal ticks
        while not done.is_set():
            await asyncio.sleep(0.005)
            ticks += 1

    task = asyncio.create_task(ticker())
    try:
        action = await thinker.action(m, seat, random.Random(3))
    finally:
        done.set()
        await task
    return action, ticks


def test_strong_action_comes_from_a_worker_and_matches_the_engine() -> None:
    m = _shengji_play_position()
    seat = m.to_play()
    thinker = thinking.Thinker(workers=1)
    try:
        action, ticks = asyncio.run(_think_and_count_ticks(thinker, m, seat))
    finally:
        thinker.shutdown()
    expected = ai_strong.choose_play(information(m, seat), random.Random(3).getrandbits(63)).text()
    assert action == expected
    assert ticks >= 3, "the event loop kept running while the computer thought"


def test_guandan_strong_action_is_legal() -> None:
    p = load_preset("guandan-team")
    m = new_match("guandan", dataclasses.replace(p.rules, ai="strong"), 5)
    m.apply("sys next_deal")
    thinker = thinking.Thinker(workers=1)
    try:
        seat = m.turns()[0].seat
        action = asyncio.run(thinker.action(m, seat, random.Random(1)))
    finally:
        thinker.shutdown()
    assert action is not None and action.startswith(f"{seat} ")
    m.apply(action)


def test_a_killed_worker_costs_one_retry() -> None:
    m = _shengji_play_position()
    seat = m.to_play()
    thinker = thinking.Thinker(workers=1)

    async def go() -> str | None:
        task = asyncio.create_task(thinker.action(m, seat, random.Random(3)))
        while thinker._pool is None or not getattr(thinker._pool, "_processes", None):
            await asyncio.sleep(0.001)
        for pid in list(thinker._pool._processes):
            os.kill(pid, signal.SIGKILL)
        return await task

    try:
        action = asyncio.run(go())
    finally:
        thinker.shutdown()
    expected = ai_strong.choose_play(information(m, seat), random.Random(3).getrandbits(63)).text()
    assert action == expected
    assert thinker.restarts == 1 and thinker.in_flight == 0


def test_a_search_past_the_time_budget_plays_the_baseline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking, "THINK_TIMEOUT", 0.001)
    m = _shengji_play_position()
    seat = m.to_play()
    thinker = thinking.Thinker(workers=1)
    try:
        action = asyncio.run(thinker.action(m, seat, random.Random(3)))
    finally:
        thinker.shutdown()
    assert action == m.ai_action(seat, random.Random(3))


def test_normal_and_easy_tables_think_inline() -> None:
    m = _shengji_play_position("normal")
    seat = m.to_play()
    thinker = thinking.Thinker(workers=1)
    assert asyncio.run(thinker.action(m, seat, random.Random(0))) == m.ai_action(seat, random.Random(0))
    assert thinker._pool is None  # no worker was started


def test_a_tournament_stand_in_plays_strong_at_a_normal_table() -> None:
    m = _shengji_play_position("normal")
    seat = m.to_play()
    thinker = thinking.Thinker(workers=1)
    try:
        action = asyncio.run(thinker.action(m, seat, random.Random(3), level="strong"))
        assert thinker._pool is not None
    finally:
        thinker.shutdown()
    expected = ai_strong.choose_play(information(m, seat), random.Random(3).getrandbits(63)).text()
    assert action == expected


def test_workers_yield_the_cpu_to_the_bots_process() -> None:
    """A search never competes with the event loop on equal terms: the workers run at a lower priority."""
    thinker = thinking.Thinker(workers=1)
    try:
        worker = thinker.pool().submit(os.getpriority, os.PRIO_PROCESS, 0).result(timeout=60)
    finally:
        thinker.shutdown()
    own = os.getpriority(os.PRIO_PROCESS, 0)
    assert worker == min(19, own + thinking.WORKER_NICENESS)


def test_busy_workers_leave_the_decision_to_the_baseline_at_once() -> None:
    """With every worker holding a search and one waiting, a further strong decision is the baseline's,
    made inline: the table does not queue behind the others."""
    m = _shengji_play_position()
    seat = m.to_play()
    thinker = thinking.Thinker(workers=1)
    thinker.in_flight = thinking.QUEUE_PER_WORKER
    action = asyncio.run(thinker.action(m, seat, random.Random(3)))
    assert action == m.ai_action(seat, random.Random(3))
    assert thinker.shed == 1 and thinker._pool is None  # no worker was asked


def test_a_queue_shrinks_the_search_before_dropping_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """With searches already waiting, a strong decision is still searched, at a smaller effort (fewer
    worlds); only past QUEUE_PER_WORKER per worker does the baseline play.  The counts say which was which."""
    from concurrent.futures import ThreadPoolExecutor

    from engine.ai.strong import answer, question

    m = _shengji_play_position()
    seat = m.to_play()
    asked: list[float] = []

    def think(q: Question) -> str:
        asked.append(q.effort)
        return answer(q)

    monkeypatch.setattr(thinking, "think", think)
    thinker = thinking.Thinker(workers=1)
    executor = ThreadPoolExecutor(1)
    monkeypatch.setattr(thinker, "pool", lambda: executor)
    try:
        got = []
        for depth in range(len(thinking.EFFORTS)):
            thinker.in_flight = depth
            got.append(asyncio.run(thinker.action(m, seat, random.Random(3))))
    finally:
        executor.shutdown()
    assert asked == list(thinking.EFFORTS) and asked[0] == 1.0 and asked[1] < 1.0
    q = question(m, seat, random.Random(3).getrandbits(63))
    assert q is not None
    assert got == [answer(dataclasses.replace(q, effort=e)) for e in thinking.EFFORTS]
    assert (thinker.full, thinker.reduced, thinker.shed) == (1, len(thinking.EFFORTS) - 1, 0)
    thinker.in_flight = thinking.QUEUE_PER_WORKER
    assert asyncio.run(thinker.action(m, seat, random.Random(3))) == m.ai_action(seat, random.Random(3))
    assert thinker.shed == 1 and len(asked) == len(thinking.EFFORTS)
