"""How a determinized search turns play-out results into a choice (both games' strong players).

Candidate 0 is always the baseline player's own move.  The search leaves it only when the best
candidate beats it clearly on the same worlds: its mean paired advantage is above ``MIN_GAIN`` and
above ``Z`` standard errors (with a few worlds per decision, the plain best average is often a lucky
candidate, which would make the player weaker than its baseline).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z = 1.5
MIN_GAIN = 0.05


def ranking(results: Sequence[Sequence[float]]) -> list[tuple[int, float]]:
    """``(candidate index, mean result)`` best first; ``results[i][w]``: candidate i in world w.

    Ties keep the earlier candidate; the baseline (index 0) stays first unless the best one beats it
    clearly (see the module doc)."""
    means = [statistics.fmean(r) for r in results]
    order = sorted(range(len(results)), key=lambda i: (-means[i], i))
    best = order[0]
    if best != 0 and not clearly_better(results[best], results[0]):
        order.remove(0)
        order.insert(0, 0)
    return [(i, means[i]) for i in order]


def clearly_better(a: Sequence[float], b: Sequence[float]) -> bool:
    """Whether ``a`` beats ``b`` clearly on the same worlds (paired: mean difference above MIN_GAIN and
    above Z standard errors)."""
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = statistics.fmean(d)
    if len(d) < 2:
        return mean > MIN_GAIN
    se = statistics.stdev(d) / math.sqrt(len(d))
    return mean > MIN_GAIN and mean > Z * se


def worlds_for(budget: int, candidates: int, cards_left: int, least: int, most: int) -> int:
    """How many worlds a decision samples: ``budget`` card plays shared by the candidates' play-outs
    (a play-out costs about one unit per card still to play), between ``least`` and ``most``."""
    per_world = max(1, candidates * cards_left)
    return max(least, min(most, budget // per_world))


def scaled_worlds(least: int, most: int, effort: float) -> tuple[int, int]:
    """The least and most worlds of a search at ``effort`` (1: as given; below 1, a quicker search under
    load, never fewer than 2 worlds so that the paired comparison stays defined)."""
    if effort >= 1.0:
        return least, most
    low = max(2, round(least * effort))
    return low, max(low, round(most * effort))
