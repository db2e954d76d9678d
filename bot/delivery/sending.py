"""The outbox running now: one stable handle for queueing new messages.

The outbox is built at start-up (it needs the running application's bot) and rebuilt when the same
runtime starts again, so callers hold this handle instead; ``Runtime.start`` attaches each new outbox.
A stopped outbox stays attached until the next start (as before this handle: what is queued after a stop
is not sent; the sends of record left at the stop are kept by ``Runtime.stop``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any

from bot.delivery.outbox import Outbox


class NotSending(RuntimeError):
    """A message was queued before the runtime's first start (no outbox was ever built)."""


class Sending:
    def __init__(self) -> None:
        self._outbox: Outbox | None = None

    def attach(self, outbox: Outbox) -> None:
        self._outbox = outbox

    def send(
        self,
        chat_id: int,
        text: str,
        markup: Any = None,  # a Keyboard (bot/presentation/markup.py); the tournament side's Markup is opaque
        *,
        record: bool = True,
        fold: Hashable | None = None,
    ) -> asyncio.Future[int | None]:
        """Queue a message; the future gives its id (None: not delivered).  ``record=False``: a note the
        outbox may drop when that chat's queue (or the whole outbox) is over its bound, sent after the
        messages of record queued with it; ``fold``: a note still queued with that key shows this text
        instead (bot/delivery/outbox.py)."""
        if self._outbox is None:
            raise NotSending(f"no outbox runs: message to chat {chat_id} not queued")
        return self._outbox.send_nowait(chat_id, text, markup, record=record, fold=fold)
