"""The garbage collector's pauses, timed for a benchmark's window (``bot.devtools.webapp_bench``).

Every collection stops the event loop: a full one walks every object the collector tracks that is not frozen
(``bot.boot.heap``). ``GcTimer`` times each collection through ``gc.callbacks`` from ``start`` to ``stop`` and reports, per
generation, how many there were and how long they took.
"""

from __future__ import annotations

import gc
import statistics
import time
from typing import Any


class GcTimer:
    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._began: float | None = None

    def _callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        elif self._began is not None:
            self.pauses[info["generation"]].append(time.perf_counter() - self._began)
            self._began = None

    def start(self) -> GcTimer:
        gc.callbacks.append(self._callback)
        return self

    def stop(self) -> None:
        if self._callback in gc.callbacks:
            gc.callbacks.remove(self._callback)

    def report(self) -> dict[str, Any]:
        """Per generation: collections, median and longest pause (ms), total (s); and the objects frozen."""
        out: dict[str, Any] = {"frozen_objects": gc.get_freeze_count()}
        for generation, pauses in self.pauses.items():
            out[f"gen{generation}"] = {
                "collections": len(pauses),
                "median_ms": round(statistics.median(pauses) * 1000, 1) if pauses else None,
                "max_ms": round(max(pauses) * 1000, 1) if pauses else None,
                "total_s": round(sum(pauses), 2),
            }
        return out
