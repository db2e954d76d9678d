"""The start-up heap frozen once per process (``bot.boot.heap``): start-up's garbage is collected, not frozen;
what is made later, by this bot or by a bot started after it in the same process, stays collectable."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import gc, weakref
    from bot.boot.heap import settle_after_start

    class Node:
        pass

    def cycle():
        node = Node()
        node.me = node  # freed by the collector only
        return weakref.ref(node)

    kept = [Node() for _ in range(1000)]  # start-up's own objects, alive
    left = cycle()  # garbage start-up left
    frozen = settle_after_start()
    assert left() is None, "start-up's garbage was frozen, not collected"
    assert frozen >= 1000 and gc.get_freeze_count() == frozen, (frozen, gc.get_freeze_count())
    later = cycle()  # garbage of the running bot
    gc.collect()
    assert later() is None, "garbage made after start-up was not collected"
    assert settle_after_start() == 0, "a second start froze more"
    again = cycle()  # garbage of a bot started later in the same process
    gc.collect()
    assert again() is None, "garbage made after a second start was not collected"
    print("ok", frozen)
    """
)


def test_the_start_up_heap_is_frozen_once_and_later_garbage_is_collected() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok ")
