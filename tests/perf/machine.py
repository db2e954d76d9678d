"""What every benchmark prints first: the machine, the Python, and how busy the machine was."""

from __future__ import annotations

import os
import platform
import time


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def describe() -> str:
    """One line: date, cores, CPU model, Python, load average (1/5/15 min) at the time of the call."""
    try:
        load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "unknown"
    return (
        f"machine: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, nproc={os.cpu_count()}, "
        f"cpu={cpu_model()!r}, python={platform.python_version()}, load average {load}"
    )


class Clocks:
    """Wall-clock and CPU time (this process) since creation.

    On a machine shared with other work the wall-clock rate falls with the load; the CPU-time rate
    (work done per second the process really ran) is the figure to compare between runs."""

    def __init__(self) -> None:
        self.wall0 = time.perf_counter()
        self.cpu0 = time.process_time()

    @property
    def wall(self) -> float:
        return time.perf_counter() - self.wall0

    @property
    def cpu(self) -> float:
        return time.process_time() - self.cpu0


def best_median(rates: list[float], unit: str = "deals/s") -> str:
    """``best X, median Y <unit> (runs: a, b, c)`` of repeated measurements (higher is better)."""
    ordered = sorted(rates)
    runs = ", ".join(f"{r:.0f}" for r in rates)
    return f"best {ordered[-1]:.1f}, median {ordered[len(ordered) // 2]:.1f} {unit} (runs: {runs})"
