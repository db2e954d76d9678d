"""The strong players' choices with the faster engine code against the first versions', at equal budget.

Shengji: the fast baseline lead against ``engine.shengji.ai._lead_reference`` (which filtered every simple
lead), on fixed positions (seeds 100–103, every 8th play of computer-played first deals).  Guandan: the
bit-mask straight flushes against the first version (``tests.engine.guandan.test_enumerate``), on fixed
positions (seeds 200–201, every 3rd play of the first deal, the first 12), without the CPU limit.  The same
seed per decision; prints both CPU times and whether every choice is the same (exit status 1 if not).

    nice -n 10 .venv/bin/python -m tests.perf.ai_same_choices [shengji|guandan]
"""

from __future__ import annotations

import copy
import random
import sys
import time

from engine.shengji import ai, ai_strong
from engine.shengji.ai import ai_step
from engine.shengji.game import ShengjiMatch
from engine.shengji.information import ShengjiInformation, information
from engine.shengji.options import ShengjiOptions


def positions() -> list[ShengjiInformation]:
    out = []
    for seed in range(100, 104):
        m = ShengjiMatch(ShengjiOptions(), seed)
        rng = random.Random(seed)
        k = 0
        while not m.history:
            if m.phase == "play":
                if k % 8 == 0:
                    out.append(information(copy.deepcopy(m), m.to_play()))
                k += 1
            m.apply(ai_step(m, rng) or "sys resume")
    return out


def guandan() -> int:
    from engine.game import computer_step
    from engine.guandan import ai_strong as gstrong
    from engine.guandan.ai import clear_plan_cache
    from engine.guandan.enumerate import _Hand
    from engine.guandan.game import GuandanMatch
    from engine.guandan.information import GuandanInformation
    from engine.guandan.information import information as ginformation
    from engine.guandan.options import GuandanOptions
    from tests.engine.guandan.test_enumerate import _straight_flushes_reference

    infos: list[GuandanInformation] = []
    for seed in (200, 201):
        m = GuandanMatch(GuandanOptions(), seed)
        rng = random.Random(seed)
        m.apply("sys next_deal")
        k = 0
        while not m.history and len(infos) < 6 * (seed - 199):
            if m.phase == "play" and m.play is not None and not m.play.over:
                if k % 3 == 0:
                    infos.append(ginformation(m, m.play.turn))
                k += 1
            m.apply(str(computer_step(m, rng)))
    fast = _Hand.straight_flushes
    chosen: dict[str, list[str]] = {}
    try:
        for name, method in (("reference", _straight_flushes_reference), ("fast", fast)):
            _Hand.straight_flushes = method  # type: ignore[method-assign,assignment]
            clear_plan_cache()  # both runs start with the baseline's plan memo empty
            t0 = time.process_time()
            chosen[name] = [gstrong.action_text(i, gstrong.choose_play(i, 7)) for i in infos]
            print(f"guandan {name}: {len(infos)} decisions, {time.process_time() - t0:.1f} s CPU")
    finally:
        _Hand.straight_flushes = fast  # type: ignore[method-assign]
    same = sum(a == b for a, b in zip(chosen["reference"], chosen["fast"], strict=True))
    print(f"guandan: the same choice in {same} of {len(infos)} positions")
    return 0 if same == len(infos) else 1


def main(argv: list[str] | None = None) -> int:
    games = (argv if argv is not None else sys.argv[1:]) or ["shengji", "guandan"]
    status = 0
    if "shengji" in games:
        status |= shengji()
    if "guandan" in games:
        status |= guandan()
    return status


def shengji() -> int:
    infos = positions()
    fast = ai._lead
    chosen: dict[str, list[str]] = {}
    try:
        for name, lead in (("reference", ai._lead_reference), ("fast", fast)):
            ai._lead = lead  # the play-outs (engine.shengji.playout) call it through the module
            t0 = time.process_time()
            chosen[name] = [ai_strong.choose_play(i, 7).text() for i in infos]
            print(f"{name}: {len(infos)} decisions, {time.process_time() - t0:.1f} s CPU")
    finally:
        ai._lead = fast
    same = sum(a == b for a, b in zip(chosen["reference"], chosen["fast"], strict=True))
    print(f"the same choice in {same} of {len(infos)} positions")
    return 0 if same == len(infos) else 1


if __name__ == "__main__":
    raise SystemExit(main())
