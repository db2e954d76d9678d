"""The garbage collector's view of the bot's heap, settled once start-up is done (``bot.edge.app``).

What start-up makes (modules, classes, functions, the application and its handlers, the translations, the
web server: about 200,000 objects the collector tracks) lives as long as the process.  Every full collection
walked all of it again, with the event loop stopped meanwhile: at 200 table pages, five or six full collections
in five minutes of ~0.32 s each, every page's move waiting behind them.  ``gc.freeze`` moves what exists at
that moment into the permanent generation, which no collection walks; what the bot makes later (matches,
pages, messages) is collected as before.  The garbage start-up left is collected first, not frozen with the
rest.  Measured (docs/performance.md, "Mini App", rows 20-27): full collections ~0.23 s instead of ~0.32 s.

Once per process: a second bot started in the same process (the tests' harness restarts bots) freezes
nothing more, so what earlier bots left behind stays collectable.
"""

from __future__ import annotations

import gc

_settled = False


def settle_after_start() -> int:
    """Freeze the start-up heap (first call in the process only); the number of objects frozen by this call."""
    global _settled
    if _settled:
        return 0
    _settled = True
    gc.collect()
    before = gc.get_freeze_count()
    gc.freeze()
    return gc.get_freeze_count() - before
