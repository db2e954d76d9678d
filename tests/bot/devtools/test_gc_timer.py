"""The benchmark's garbage-collector timer (``bot.devtools.gc_timer``): it counts the collections made between
``start`` and ``stop``, per generation, and no others."""

from __future__ import annotations

import gc

from bot.devtools.gc_timer import GcTimer


def test_the_collections_between_start_and_stop_are_counted_by_generation() -> None:
    timer = GcTimer().start()
    try:
        gc.collect(2)
        gc.collect(2)
        gc.collect(0)
    finally:
        timer.stop()
    gc.collect(2)  # after stop: not counted
    report = timer.report()
    assert report["gen2"]["collections"] == 2
    assert report["gen0"]["collections"] >= 1  # the one asked for (and any the interpreter made meanwhile)
    assert report["gen2"]["max_ms"] >= report["gen2"]["median_ms"] > 0
    assert report["frozen_objects"] == gc.get_freeze_count()
    timer.stop()  # a second stop changes nothing
    assert timer not in [getattr(cb, "__self__", None) for cb in gc.callbacks]
