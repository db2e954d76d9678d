"""The strong Shengji player's choices with the fast baseline lead against the first version's
(``engine.shengji.ai._lead_reference``, which filtered every simple lead): fixed positions (seeds 100–103,
every 8th play of computer-played first deals), the same seed per decision; prints both CPU times and
whether every choice is the same (exit status 1 if not).

    nice -n 10 .venv/bin/python -m tests.perf.ai_same_choices
"""

from __future__ import annotations

import copy
import random
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


def main() -> int:
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
