"""The outbox's queues, one per chat, with bounded memory (issue 12, "Abuse limits"):

* Each chat's queue holds at most ``max_chat_queue`` calls and all queues together ``max_queued``.  Over a
  bound, the oldest queued send marked ``record=False`` (a note nobody needs later) is dropped (its future gets
  None); a new non-record send that finds nothing droppable is dropped itself.  Sends of record are never
  dropped, even over a bound (then only a warning is logged).  Edits are coalesced, never dropped.
* A note never delays a message of record: a send of record (or an edit) is queued before the notes still
  waiting in its chat.
* Refusal folding: a note may carry a ``fold`` key (a refusal to one person in a group); a note with the same
  key still queued takes the newer text instead of queuing a second message.
* Edits of one message are coalesced: ``pending_edit`` is the edit of each message still queued (not yet in
  flight), which a newer state replaces.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable

from bot.delivery.calls import Call, OutboxStats, PendingSend
from bot.delivery.pacing import Pacing

log = logging.getLogger("bot.delivery.outbox")  # one logger for the outbox's modules

MessageKey = tuple[int, int]  # (chat, message)


class ChatQueues:
    def __init__(
        self, stats: OutboxStats, clock: Callable[[], float], *, max_chat_queue: int, max_queued: int
    ) -> None:
        self.stats = stats
        self.clock = clock
        self.max_chat_queue = max_chat_queue
        self.max_queued = max_queued
        self.queues: dict[int, deque[Call]] = {}
        self.pending_edit: dict[MessageKey, Call] = {}
        self.flying: dict[int, Call] = {}  # the call in flight of each busy chat (at most one per chat)
        self.queued = 0  # calls in all queues
        self._seq = 0
        self._next_bound_log = -1e18
        self._unlogged_drops = 0

    # --- queuing ----------------------------------------------------------------------------

    def enqueue(self, call: Call) -> bool:
        """Queue ``call``; False when it was folded into a queued note or dropped over a bound."""
        q = self.queues.setdefault(call.chat_id, deque())
        if call.fold is not None and self._fold(q, call):
            return False
        if len(q) >= self.max_chat_queue and not self._drop_note(q, call):
            return False
        if self.queued >= self.max_queued and not self._drop_note(None, call):
            return False
        self._seq += 1
        call.seq = self._seq
        call.queued_at = self.clock()
        if call.kind == "send" and not call.record:
            q.append(call)
        else:  # a message of record (or an edit) goes before the notes still queued in its chat
            q.insert(next((i for i, o in enumerate(q) if self.droppable(o)), len(q)), call)
        self.queued += 1
        return True

    def _fold(self, q: deque[Call], new: Call) -> bool:
        """A note with the fold key of one still queued: that one shows the newer text (one message, not
        two); ``new``'s future gets its message id."""
        old = next((o for o in q if o.fold == new.fold and self.droppable(o)), None)
        if old is None:
            return False
        old.text, old.markup = new.text, new.markup
        self.stats.folded_notes += 1
        if old.future is not None and new.future is not None:
            later = new.future

            def same_id(done: asyncio.Future[int | None]) -> None:
                if not later.done():
                    later.set_result(None if done.cancelled() else done.result())

            old.future.add_done_callback(same_id)
        return True

    def droppable(self, call: Call) -> bool:
        return call.kind == "send" and not call.record and self.flying.get(call.chat_id) is not call

    def _drop_note(self, q: deque[Call] | None, new: Call) -> bool:
        """Over a bound: drop the oldest queued non-record send (of that chat, or of any chat when ``q`` is
        None).  Returns whether ``new`` may be queued."""
        victim: Call | None = None
        if q is not None:
            victim = next((o for o in q if self.droppable(o)), None)
        else:
            for cq in self.queues.values():
                cand = next((o for o in cq if self.droppable(o)), None)
                if cand is not None and (victim is None or cand.seq < victim.seq):
                    victim = cand
        if victim is not None:
            self.queues[victim.chat_id].remove(victim)
            self.queued -= 1
            self._dropped(victim)
            return True
        if new.kind == "send" and not new.record:
            self._dropped(new)
            return False
        self.stats.over_bound_records += 1
        self._log_bound(new.chat_id)
        return True

    def _dropped(self, call: Call) -> None:
        self.stats.dropped_notes += 1
        self._unlogged_drops += 1
        if call.future is not None and not call.future.done():
            call.future.set_result(None)
        self._log_bound(call.chat_id)

    def _log_bound(self, chat_id: int) -> None:
        now = self.clock()
        if now < self._next_bound_log:
            return
        self._next_bound_log = now + 10.0  # one line per 10 s at most, with the counts since the last
        q = self.queues.get(chat_id)
        log.warning(
            "outbox: queue bound reached (chat %s: %d queued, %d in all): %d non-record sends dropped "
            "since the last warning (%d in all), %d sends of record queued over the bound",
            chat_id,
            len(q) if q else 0,
            self.queued,
            self._unlogged_drops,
            self.stats.dropped_notes,
            self.stats.over_bound_records,
        )
        self._unlogged_drops = 0

    # --- edits ------------------------------------------------------------------------------

    def withdraw_edit(self, chat_id: int, message_id: int) -> Call | None:
        """Take a queued edit of this message out of its queue (not when in flight); the call, or None."""
        call = self.pending_edit.pop((chat_id, message_id), None)
        if call is None:
            return None
        q = self.queues.get(chat_id)
        if q is not None and call in q and not (q[0] is call and chat_id in self.flying):
            q.remove(call)
            self.queued -= 1
            return call
        return None

    # --- the worker's side ------------------------------------------------------------------

    def ready(self, now: float, pacing: Pacing) -> tuple[list[Call], float]:
        """The calls that may go now (one per chat: the first of its queue that is not a delayed edit still
        waiting), in the order the token's pacing serves them (``Pacing.priority``), and the next time one
        may."""
        best_at = float("inf")
        g_at = pacing.token_ready_at(now)
        if g_at > now:
            return [], g_at
        out: list[Call] = []
        for chat_id, q in self.queues.items():
            if not q or chat_id in self.flying:
                continue
            at = pacing.chat_ready_at(chat_id, now)
            if at > now:
                best_at = min(best_at, at)
                continue
            call = q[0]
            if call.not_before > now:  # a delayed edit (a card tap) waits; the chat's other calls need not
                call = next((o for o in q if o.not_before <= now), call)
                if call.not_before > now:
                    best_at = min(best_at, min(o.not_before for o in q))
                    continue
            out.append(call)
        if len(out) > 1:
            out.sort(key=lambda o: pacing.priority(o, now))
        return out, best_at

    def to_head(self, call: Call) -> None:
        """``call`` goes before a delayed edit still waiting: it is now its chat's head."""
        q = self.queues.get(call.chat_id)
        if q and q[0] is not call:
            q.remove(call)
            q.appendleft(call)

    def done(self, call: Call) -> None:
        """``call`` is finished: out of its queue (and of the coalescing of its message)."""
        q = self.queues.get(call.chat_id)
        if q and q[0] is call:
            q.popleft()
            self.queued -= 1
        if call.kind == "edit" and call.message_id is not None:
            key = (call.chat_id, call.message_id)
            if self.pending_edit.get(key) is call:
                del self.pending_edit[key]

    def drop_empty(self) -> None:
        for chat_id in [c for c, q in self.queues.items() if not q and c not in self.flying]:
            del self.queues[chat_id]

    def active(self) -> set[int]:
        """The chats with a queue or a call in flight."""
        return set(self.queues) | set(self.flying)

    # --- pending sends at a stop ------------------------------------------------------------

    def leftovers(self) -> tuple[list[PendingSend], int, int]:
        """What is still queued: the sends of record (kept for the next start-up), the number of notes and
        of edits (dropped)."""
        kept: list[PendingSend] = []
        notes = edits = 0
        for q in self.queues.values():
            for call in q:
                if call.kind == "edit":
                    edits += 1
                elif call.record:
                    kept.append(PendingSend.of(call))
                else:
                    notes += 1
        return kept, notes, edits

    def clear(self) -> None:
        """Every queued call's future gets None; the queues are empty."""
        self.flying.clear()
        for q in self.queues.values():
            for call in q:
                if call.future is not None and not call.future.done():
                    call.future.set_result(None)
        self.queues.clear()
        self.queued = 0
        self.pending_edit.clear()
