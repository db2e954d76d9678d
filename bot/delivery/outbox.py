"""The outbox: every call to Telegram goes through here, and nobody waits for it (handlers queue
calls and go on; ``send`` returns a future of the new message id).

* Many calls are in flight at once (a server far from Telegram waits a round trip per call), at most
  one per chat, so calls to one chat keep their order.
* Edits of one message are coalesced: a pending edit is replaced by the newer state (it keeps
  its place in the chat's queue), so only the latest state is sent.  An edit may be delayed
  (``delay``: a card tap waits a moment, so a tap followed by Play costs no edit) and a pending
  edit may be dropped (``drop_edit``) when its reader no longer needs it.
* An edit whose text and keyboard equal what that message already shows is never sent.  The
  last hash per message is kept in memory; the owner persists the changed ones now and then
  (``take_changed_hashes``), never between two calls.
* Rate limits (Telegram's, shared by sends and edits): about 1 message a second per chat; a group's
  20 a minute spent evenly (one call every 3 s, so a group never shows a burst and then nothing);
  30 a second overall.  Every window is divided by ``rate_scale`` (an accelerated simulator runs
  with e.g. 20).  After a start-up every chat counts as used at that moment, so a restarted bot
  does not burst into chats the previous process was filling.
* ``RetryAfter`` delays that chat only (its seconds divided by ``rate_scale`` too); transient
  network errors are retried (bounded); ``Forbidden`` (blocked, never started) and "chat not
  found" are handed to ``on_error`` and never raised.

Bounded memory (issue 12, "Abuse limits"):

* Each chat's queue holds at most ``max_chat_queue`` calls and all queues together ``max_queued``.
  Over a bound, the oldest queued send marked ``record=False`` (a note nobody needs later) is
  dropped (its future gets None); a new non-record send that finds nothing droppable is dropped
  itself.  Sends are ``record=True`` by default (results, deal summaries, notices): they are never
  dropped, even over a bound (then only a warning is logged).  Edits are coalesced, never dropped.
* ``_last_hash`` is an LRU of ``max_hashes`` messages (a forgotten hash costs one extra edit);
  the per-chat pacing maps (last call, group windows, RetryAfter blocks) are pruned once an entry
  no longer delays anything (every ``prune_every`` seconds, or ``prune()``).
* A note never delays a message of record: a send of record (or an edit) is queued before the notes
  still waiting in its chat.  A note may carry a ``fold`` key (a refusal to one person in a group): a
  note with the same key still queued takes the newer text instead of queuing a second message.
* ``stop()`` drains for ``timeout`` seconds, then returns the record sends that could not go
  (``PendingSend``: the owner stores them and hands them to ``restore`` at the next start-up);
  pending non-record sends and edits are dropped with a log line.

Files go through the same queues: ``send_document`` (bytes and a file name) and ``send_photo``
(PNG/JPEG bytes), with the same rate limits, RetryAfter handling and error reporting.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import time
import warnings
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from bot.delivery.keyboards import to_telegram
from bot.presentation.markup import Keyboard

log = logging.getLogger(__name__)

MAX_TEXT = 4096
MAX_CAPTION = 1024
GLOBAL_MARGIN = 1.1
PRIORITY_AGE = 1.0  # Telegram seconds: a call waiting that long goes before newer ones, urgent or not


class Sender(Protocol):
    """The calls the outbox makes (a telegram.Bot adapter, or a fake in tests)."""

    async def send_message(self, chat_id: int, text: str, reply_markup: Any | None) -> int: ...

    async def edit_message_text(
        self, chat_id: int, message_id: int, text: str, reply_markup: Any | None
    ) -> None: ...


class SendSlots(Protocol):
    """Waits for a send slot shared with other processes (``bot.delivery.shared_limits.SharedLimits``); False: an edit
    showing ``version`` is not to be sent (another process showed a newer version in that message)."""

    async def wait_turn(
        self, chat_id: int, message_id: int | None = None, version: int | None = None
    ) -> bool: ...


class FileSender(Protocol):
    """The file calls (``send_document`` / ``send_photo`` ops need a sender that has them)."""

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str | None, reply_markup: Any | None
    ) -> int: ...

    async def send_photo(
        self, chat_id: int, data: bytes, caption: str | None, reply_markup: Any | None
    ) -> int: ...


def markup_json(markup: Any | None) -> Any:
    """The Bot API form of a keyboard (an inline keyboard of text / callback / url buttons is converted
    directly: PTB's generic ``to_dict`` costs about a millisecond for a hand keyboard)."""
    if markup is None:
        return None
    if isinstance(markup, Keyboard):
        return markup.to_json()
    rows = getattr(markup, "inline_keyboard", None)
    if rows is not None:
        out_rows = []
        for row in rows:
            out = []
            for b in row:
                if b.callback_data is not None and isinstance(b.callback_data, str) and b.url is None:
                    out.append({"text": b.text, "callback_data": b.callback_data})
                elif b.url is not None and b.callback_data is None:
                    out.append({"text": b.text, "url": b.url})
                else:
                    out.append(b.to_dict())
            out_rows.append(out)
        return {"inline_keyboard": out_rows}
    if hasattr(markup, "to_dict"):
        return markup.to_dict()
    return markup


def content_hash(text: str, markup: Any | None) -> str:
    """A short hash of what a message shows (text and keyboard)."""
    blob = json.dumps([text, markup_json(markup)], ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha1(blob.encode("utf-8")).hexdigest()[:16]


@dataclass
class _Op:
    kind: str  # "send" | "edit" | "document" | "photo" (text: the caption)
    chat_id: int
    text: str
    markup: Any | None
    message_id: int | None = None
    data: bytes | None = None
    filename: str | None = None
    future: asyncio.Future[int | None] | None = None
    tries: int = 0
    not_before: float = 0.0  # a delayed edit waits until then (clock time)
    digest: str | None = None  # content_hash(text, markup), computed once
    record: bool = True  # a send of record is never dropped (and kept across a clean stop)
    seq: int = 0  # enqueue order (the oldest droppable op goes first)
    urgent: bool = False  # an edit that tells its reader to act: first in the token's pacing
    queued_at: float = 0.0  # clock time it was queued (a call waiting PRIORITY_AGE goes first too)
    version: int | None = None  # an edit: the match version it shows (shared limits: never older than shown)
    fold: Any = (
        None  # a note: a queued note with the same key takes this one's text instead (refusals to one person)
    )


@dataclass(frozen=True)
class PendingSend:
    """A send of record still queued at ``stop()``: the owner persists it and gives it to ``restore``."""

    kind: str  # "send" | "document" | "photo"
    chat_id: int
    text: str
    markup: Any | None  # the Bot API (JSON) form of the keyboard
    data: bytes | None = None
    filename: str | None = None


class _Window:
    """At most ``limit`` events in any ``seconds`` window."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.times: deque[float] = deque()

    def ready_at(self, now: float) -> float:
        while self.times and self.times[0] <= now - self.seconds:
            self.times.popleft()
        if len(self.times) < self.limit:
            return now
        return self.times[0] + self.seconds

    def add(self, now: float) -> None:
        self.times.append(now)


@dataclass
class OutboxStats:
    calls: int = 0
    sends: int = 0
    edits: int = 0
    files: int = 0  # documents and photos sent
    skipped_edits: int = 0
    coalesced_edits: int = 0
    retry_after: int = 0
    errors: int = 0
    dropped_edits: int = 0
    dropped_notes: int = 0  # non-record sends dropped over a queue bound or at stop
    folded_notes: int = 0  # notes folded into one still queued (``fold``)
    over_bound_records: int = 0  # record sends queued although over a bound (never dropped)
    max_in_flight: int = 0


ErrorHook = Callable[[int, Exception], Awaitable[None]]
MissingHook = Callable[[int, int], Awaitable[None]]


class Outbox:
    def __init__(
        self,
        sender: Sender,
        *,
        rate_scale: float = 1.0,
        per_chat_interval: float = 1.0,
        group_limit: int = 20,
        group_window: float = 60.0,
        global_limit: int = 30,
        global_window: float = 1.0,
        max_retries: int = 5,
        max_in_flight: int = 64,
        on_error: ErrorHook | None = None,
        on_missing: MissingHook | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] | None = None,
        max_chat_queue: int = 50,
        max_queued: int = 20000,
        max_hashes: int = 50000,
        prune_every: float = 60.0,
        limits: SendSlots | None = None,
    ) -> None:
        scale = max(rate_scale, 1e-6) / 1.05  # keep a 5% margin under Telegram's limits
        self.sender = sender
        self.limits = (
            limits  # Telegram's limits shared with other processes (bot/delivery/shared_limits.py), or None
        )
        self.per_chat_interval = per_chat_interval / scale
        self.group_limit = group_limit
        self.group_window = group_window / scale
        self.group_interval = self.group_window / group_limit  # a group's budget spent evenly
        self.max_in_flight = max_in_flight
        # the token's 30 a second: another 10 % of margin, as calls leave a loaded event loop with some jitter
        # and Telegram counts them when they arrive (a window of 30 spaced by exactly 1/30 s would see 429s)
        self.global_window = _Window(global_limit, global_window / scale * GLOBAL_MARGIN)
        self.global_gap = (
            self.global_window.seconds / global_limit
        )  # and spread evenly: no burst of 30 at once
        self._global_next = 0.0
        self.priority_age = PRIORITY_AGE / scale
        self.max_retries = max_retries
        self.on_error = on_error
        self.on_missing = on_missing  # an edited message is gone (deleted): the owner may send a new one
        self.clock = clock
        self._sleep = sleep or asyncio.sleep
        self.rate_scale = scale
        self.stats = OutboxStats()
        self._queues: dict[int, deque[_Op]] = {}
        self._pending_edit: dict[tuple[int, int], _Op] = {}
        self._last_hash: OrderedDict[tuple[int, int], str] = OrderedDict()  # LRU, at most max_hashes
        self.max_chat_queue = max_chat_queue
        self.max_queued = max_queued
        self.max_hashes = max_hashes
        self.prune_every = prune_every
        self._queued = 0  # ops in all queues
        self._seq = 0
        self._next_prune = 0.0
        self._next_bound_log = -1e18
        self._unlogged_drops = 0
        self._chat_last: dict[int, float] = {}
        self._group_windows: dict[int, _Window] = {}
        self._chat_blocked: dict[int, float] = {}  # RetryAfter of one chat: nothing to it until then
        self._busy: set[int] = set()  # chats with a call in flight
        self._flying: dict[int, _Op] = {}  # that call
        self._in_flight: set[asyncio.Task[None]] = set()
        self._changed: dict[tuple[int, int], str] = {}  # hashes not yet taken by the owner
        self._started_at = -1e18
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.observe: Callable[[str, Any, float], None] | None = (
            None  # ("launch" | "finish", op, now): metrics
        )

    # --- public API ---------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._closing = False
            self._started_at = self.clock()
            self._task = asyncio.get_running_loop().create_task(self._run(), name="outbox")

    async def stop(self, drain: bool = True, timeout: float = 10.0) -> list[PendingSend]:
        """Stop (draining for ``timeout`` seconds first); returns the sends of record that did not go
        (a call in flight at that moment included: it may have arrived, so it may come twice, never
        zero times).  Non-record sends and edits still pending are dropped (logged)."""
        if drain:
            try:
                await asyncio.wait_for(self.flush(), timeout)
            except TimeoutError:
                log.warning("outbox: stopped with %d pending calls", self.pending())
        kept: list[PendingSend] = []
        notes = edits = 0
        for q in self._queues.values():
            for op in q:
                if op.kind == "edit":
                    edits += 1
                elif op.record:
                    kept.append(
                        PendingSend(
                            op.kind, op.chat_id, op.text, markup_json(op.markup), op.data, op.filename
                        )
                    )
                else:
                    notes += 1
        if kept or notes or edits:
            self.stats.dropped_notes += notes
            log.warning(
                "outbox: stop left %d sends of record (kept for the next start-up), dropped %d "
                "non-record sends and %d edits",
                len(kept),
                notes,
                edits,
            )
        self._closing = True
        self._wake.set()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
        for task in list(self._in_flight):
            task.cancel()
        for task in list(self._in_flight):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._busy.clear()
        self._flying.clear()
        for q in self._queues.values():
            for op in q:
                if op.future is not None and not op.future.done():
                    op.future.set_result(None)
        self._queues.clear()
        self._queued = 0
        self._pending_edit.clear()
        self._idle.set()
        return kept

    def restore(self, items: Iterable[Any]) -> list[asyncio.Future[int | None]]:
        """Queue again the sends of record a previous process left at its stop (in their order)."""
        futures = []
        for item in items:
            markup = _markup_from_json(item.markup)
            if item.kind == "document":
                fut = self.send_document_nowait(
                    item.chat_id, item.data or b"", item.filename or "file", item.text, markup
                )
            elif item.kind == "photo":
                fut = self.send_photo_nowait(item.chat_id, item.data or b"", item.text, markup)
            else:
                fut = self.send_nowait(item.chat_id, item.text, markup)
            futures.append(fut)
        return futures

    def known_hash(self, chat_id: int, message_id: int) -> str | None:
        return self._last_hash.get((chat_id, message_id))

    def remember(self, chat_id: int, message_id: int, digest: str | None) -> None:
        """Tell the outbox what a message shows (after a restart, from the database)."""
        if digest:
            self._set_hash((chat_id, message_id), digest)

    def forget(self, chat_id: int, message_id: int) -> None:
        """Forget what the message shows (another process may have edited it): its next edit is sent."""
        self._last_hash.pop((chat_id, message_id), None)

    def pending(self) -> int:
        return self._queued

    async def flush(self) -> None:
        """Wait until every queued call has been made."""
        while self.pending():
            self._idle.clear()
            await self._idle.wait()

    def send_nowait(
        self, chat_id: int, text: str, markup: Any | None = None, *, record: bool = True, fold: Any = None
    ) -> asyncio.Future[int | None]:
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._enqueue(
            _Op(
                "send", chat_id, _clip(text), markup, future=fut, record=record, fold=None if record else fold
            )
        )
        return fut

    async def send(
        self, chat_id: int, text: str, markup: Any | None = None, *, record: bool = True, fold: Any = None
    ) -> int | None:
        """Queue a new message; returns its id once sent (None when Telegram refused it, or when a
        ``record=False`` note was dropped over a queue bound)."""
        return await self.send_nowait(chat_id, text, markup, record=record, fold=fold)

    def send_document_nowait(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", markup: Any | None = None
    ) -> asyncio.Future[int | None]:
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._enqueue(
            _Op(
                "document",
                chat_id,
                _clip(caption, MAX_CAPTION),
                markup,
                future=fut,
                data=bytes(data),
                filename=filename,
            )
        )
        return fut

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", markup: Any | None = None
    ) -> int | None:
        """Queue a file (bytes named ``filename``); returns its message id once sent (None when refused)."""
        return await self.send_document_nowait(chat_id, data, filename, caption, markup)

    def send_photo_nowait(
        self, chat_id: int, data: bytes, caption: str = "", markup: Any | None = None
    ) -> asyncio.Future[int | None]:
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._enqueue(
            _Op("photo", chat_id, _clip(caption, MAX_CAPTION), markup, future=fut, data=bytes(data))
        )
        return fut

    async def send_photo(
        self, chat_id: int, data: bytes, caption: str = "", markup: Any | None = None
    ) -> int | None:
        """Queue a picture (PNG/JPEG bytes); returns its message id once sent (None when refused)."""
        return await self.send_photo_nowait(chat_id, data, caption, markup)

    def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Any | None = None,
        *,
        delay: float | None = 0.0,
        urgent: bool = False,
        version: int | None = None,
    ) -> None:
        """Queue an edit; replaces a pending edit of the same message; skipped when nothing changes.

        ``delay`` (seconds, not scaled): the edit waits that long from now (a newer edit's delay replaces
        the wait, 0 sends it at once); meanwhile ``drop_edit`` can withdraw it; None: a pending edit keeps its wait (a waiting edit does not hold up the other
        calls to its chat).  ``urgent``: the edit tells its reader to act (your turn); when the token's
        30 calls a second are the limit, it goes before the calls that are not urgent (they wait at
        most about ``PRIORITY_AGE``: a call that has waited that long goes first)."""
        text = _clip(text)
        key = (chat_id, message_id)
        digest = content_hash(text, markup)
        not_before = self.clock() + delay if delay is not None and delay > 0 else 0.0
        pending = self._pending_edit.get(key)
        if pending is not None:
            pending.text, pending.markup, pending.digest, pending.version = text, markup, digest, version
            if delay is not None and not (pending.urgent and not_before):
                pending.not_before = not_before  # the newest wait counts (a run of taps, news after news)
            pending.urgent = pending.urgent or urgent
            self.stats.coalesced_edits += 1
            self._wake.set()
            return
        if self._last_hash.get(key) == digest:
            self.stats.skipped_edits += 1
            return
        op = _Op(
            "edit",
            chat_id,
            text,
            markup,
            message_id=message_id,
            not_before=not_before,
            digest=digest,
            urgent=urgent,
            version=version,
        )
        self._pending_edit[key] = op
        self._enqueue(op)

    def has_pending_edit(self, chat_id: int, message_id: int) -> bool:
        """Is an edit of this message queued (not yet in flight)?  Updating it costs no extra call."""
        return (chat_id, message_id) in self._pending_edit

    def drop_edit(self, chat_id: int, message_id: int) -> bool:
        """Withdraw a queued edit of this message (its reader no longer needs it); True if one was."""
        op = self._pending_edit.pop((chat_id, message_id), None)
        if op is None:
            return False
        q = self._queues.get(chat_id)
        if q is not None and op in q and not (q[0] is op and chat_id in self._busy):
            q.remove(op)
            self._queued -= 1
            self.stats.dropped_edits += 1
            if op.future is not None and not op.future.done():
                op.future.set_result(None)
            self._wake.set()
            return True
        return False

    def take_changed_hashes(self) -> dict[tuple[int, int], str]:
        """The (chat, message) -> hash of what each message shows now, for those changed since the
        last call (the owner stores them; after a restart ``remember`` gives them back)."""
        changed, self._changed = self._changed, {}
        return changed

    def in_flight(self) -> int:
        return len(self._in_flight)

    # --- worker -------------------------------------------------------------------------

    def _enqueue(self, op: _Op) -> None:
        q = self._queues.setdefault(op.chat_id, deque())
        if op.fold is not None and self._fold(q, op):
            return
        if len(q) >= self.max_chat_queue and not self._drop_note(q, op):
            return
        if self._queued >= self.max_queued and not self._drop_note(None, op):
            return
        self._seq += 1
        op.seq = self._seq
        op.queued_at = self.clock()
        if op.kind == "send" and not op.record:
            q.append(op)
        else:  # a message of record (or an edit) goes before the notes still queued in its chat
            q.insert(next((i for i, o in enumerate(q) if self._droppable(q, o)), len(q)), op)
        self._queued += 1
        self._idle.clear()
        self._wake.set()

    def _fold(self, q: deque[_Op], new: _Op) -> bool:
        """A note with the fold key of one still queued: that one shows the newer text (one message, not two);
        ``new``'s future gets its message id."""
        old = next((o for o in q if o.fold == new.fold and self._droppable(q, o)), None)
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

    def _droppable(self, q: deque[_Op], op: _Op) -> bool:
        return op.kind == "send" and not op.record and self._flying.get(op.chat_id) is not op

    def _drop_note(self, q: deque[_Op] | None, new: _Op) -> bool:
        """Over a bound: drop the oldest queued non-record send (of that chat, or of any chat when
        ``q`` is None).  Returns whether ``new`` may be queued."""
        victim: _Op | None = None
        if q is not None:
            victim = next((o for o in q if self._droppable(q, o)), None)
        else:
            for cq in self._queues.values():
                cand = next((o for o in cq if self._droppable(cq, o)), None)
                if cand is not None and (victim is None or cand.seq < victim.seq):
                    victim = cand
        if victim is not None:
            self._queues[victim.chat_id].remove(victim)
            self._queued -= 1
            self._dropped(victim)
            return True
        if new.kind == "send" and not new.record:
            self._dropped(new)
            return False
        self.stats.over_bound_records += 1
        self._log_bound(new.chat_id)
        return True

    def _dropped(self, op: _Op) -> None:
        self.stats.dropped_notes += 1
        self._unlogged_drops += 1
        if op.future is not None and not op.future.done():
            op.future.set_result(None)
        self._log_bound(op.chat_id)

    def _log_bound(self, chat_id: int) -> None:
        now = self.clock()
        if now < self._next_bound_log:
            return
        self._next_bound_log = now + 10.0  # one line per 10 s at most, with the counts since the last
        q = self._queues.get(chat_id)
        log.warning(
            "outbox: queue bound reached (chat %s: %d queued, %d in all): %d non-record sends dropped "
            "since the last warning (%d in all), %d sends of record queued over the bound",
            chat_id,
            len(q) if q else 0,
            self._queued,
            self._unlogged_drops,
            self.stats.dropped_notes,
            self.stats.over_bound_records,
        )
        self._unlogged_drops = 0

    def _set_hash(self, key: tuple[int, int], digest: str) -> None:
        self._last_hash[key] = digest
        self._last_hash.move_to_end(key)
        while len(self._last_hash) > self.max_hashes:
            self._last_hash.popitem(last=False)

    def prune(self, now: float | None = None) -> None:
        """Forget pacing entries that no longer delay anything (a chat idle for longer than its
        interval, a group window with no call in it, a RetryAfter block that has passed)."""
        now = self.clock() if now is None else now
        for chat_id in [
            c
            for c, last in self._chat_last.items()
            if c not in self._queues
            and c not in self._busy
            and last + (self.group_interval if c < 0 else self.per_chat_interval) <= now
        ]:
            del self._chat_last[chat_id]
        for chat_id in [c for c, w in self._group_windows.items() if w.ready_at(now) <= now and not w.times]:
            del self._group_windows[chat_id]
        for chat_id in [c for c, until in self._chat_blocked.items() if until <= now]:
            del self._chat_blocked[chat_id]

    def _chat_ready_at(self, chat_id: int, now: float) -> float:
        # a chat not used since start-up counts as used at start-up: a restarted bot does not burst
        interval = self.group_interval if chat_id < 0 else self.per_chat_interval
        at = self._chat_last.get(chat_id, self._started_at) + interval
        if chat_id < 0:
            win = self._group_windows.get(chat_id)
            if win is not None:
                at = max(at, win.ready_at(now))
        blocked = self._chat_blocked.get(chat_id)
        if blocked is not None:
            if blocked <= now:
                del self._chat_blocked[chat_id]
            else:
                at = max(at, blocked)
        return max(at, now)

    def _ready(self, now: float) -> tuple[list[_Op], float]:
        """The ops that may go now (one per chat: the first of its queue that is not a delayed edit still
        waiting), in the order the token's pacing serves them (``_priority``), and the next time one may."""
        best_at = float("inf")
        g_at = max(self.global_window.ready_at(now), self._global_next)
        if g_at > now:
            return [], g_at
        out: list[_Op] = []
        for chat_id, q in self._queues.items():
            if not q or chat_id in self._busy:
                continue
            at = self._chat_ready_at(chat_id, now)
            if at > now:
                best_at = min(best_at, at)
                continue
            op = q[0]
            if op.not_before > now:  # a delayed edit (a card tap) waits; the chat's other calls need not
                op = next((o for o in q if o.not_before <= now), op)
                if op.not_before > now:
                    best_at = min(best_at, min(o.not_before for o in q))
                    continue
            out.append(op)
        if len(out) > 1:
            out.sort(key=lambda o: self._priority(o, now))
        return out, best_at

    def _priority(self, op: _Op, now: float) -> tuple[int, float]:
        """Who goes first when the token's pacing is the limit: a call that has waited ``PRIORITY_AGE``
        (so nothing starves), then an urgent edit (it tells its reader to act), then the others; each
        group oldest first."""
        rank = 0 if now - op.queued_at >= self.priority_age else 1 if op.urgent else 2
        return (rank, op.queued_at)

    async def _run(self) -> None:
        while not self._closing:
            if self.clock() >= self._next_prune:
                self.prune()
                self._next_prune = self.clock() + self.prune_every
            for chat_id in [c for c, q in self._queues.items() if not q and c not in self._busy]:
                del self._queues[chat_id]
            if not self._queues:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            now = self.clock()
            ops, at = self._ready(now)
            started = 0
            for op in ops:
                if len(self._in_flight) >= self.max_in_flight:
                    break
                ready = max(self.global_window.ready_at(now), self._global_next)
                if ready > now:
                    at = min(at, ready)
                    break
                self._launch(op)
                started += 1
            if started:
                await asyncio.sleep(0)  # let the calls start; look again
                continue
            self._wake.clear()
            wait = None if at == float("inf") else max(0.0, at - now)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)

    def _launch(self, op: _Op) -> None:
        q = self._queues.get(op.chat_id)
        if q and q[0] is not op:  # it goes before a delayed edit still waiting: it is now the chat's head
            q.remove(op)
            q.appendleft(op)
        if op.kind == "edit" and op.message_id is not None:
            key = (op.chat_id, op.message_id)
            if self._last_hash.get(key) == self._digest(op):
                self.stats.skipped_edits += 1
                self._finish(op, op.message_id)
                return
            # detach from coalescing while in flight: a newer edit queues behind this one
            if self._pending_edit.get(key) is op:
                del self._pending_edit[key]
        self._count(op.chat_id)
        if self.observe is not None:
            self.observe("launch", op, self.clock())
        self._global_next = self.clock() + self.global_gap
        self._busy.add(op.chat_id)
        self._flying[op.chat_id] = op
        task = asyncio.get_running_loop().create_task(self._call(op))
        self._in_flight.add(task)
        self.stats.max_in_flight = max(self.stats.max_in_flight, len(self._in_flight))

        def done(t: asyncio.Task[None], chat_id: int = op.chat_id) -> None:
            self._in_flight.discard(t)
            self._busy.discard(chat_id)
            self._flying.pop(chat_id, None)
            self._wake.set()

        task.add_done_callback(done)

    async def _call(self, op: _Op) -> None:
        try:
            if (
                self.limits is not None
                and not await self.limits.wait_turn(  # the slot shared with other processes
                    op.chat_id, op.message_id if op.kind == "edit" else None, op.version
                )
            ):
                self.stats.skipped_edits += 1  # another process showed a newer state in that message
                self._finish(op, op.message_id)
                return
            await self._do(op)
        except asyncio.CancelledError:
            self._finish(op, None)
            raise
        except Exception:  # never let a call kill the outbox
            log.exception("outbox: unexpected error")
            self._finish(op, None)

    def _finish(self, op: _Op, result: int | None) -> None:
        q = self._queues.get(op.chat_id)
        if q and q[0] is op:
            q.popleft()
            self._queued -= 1
        if op.kind == "edit" and op.message_id is not None:
            key = (op.chat_id, op.message_id)
            if self._pending_edit.get(key) is op:
                del self._pending_edit[key]
        if op.future is not None and not op.future.done():
            op.future.set_result(result)
        if self.observe is not None:
            self.observe("finish", op, self.clock())
        self._wake.set()

    @staticmethod
    def _digest(op: _Op) -> str:
        if op.digest is None:
            op.digest = content_hash(op.text, op.markup)
        return op.digest

    def _count(self, chat_id: int) -> None:
        now = self.clock()
        self._chat_last[chat_id] = now
        self.global_window.add(now)
        if chat_id < 0:
            self._group_windows.setdefault(chat_id, _Window(self.group_limit, self.group_window)).add(now)
        self.stats.calls += 1

    async def _do(self, op: _Op) -> None:
        text, markup = op.text, op.markup
        try:
            if op.kind == "send":
                mid = await self.sender.send_message(op.chat_id, text, markup)
                self.stats.sends += 1
            elif op.kind in ("document", "photo"):
                files: Any = self.sender
                assert op.data is not None
                if op.kind == "document":
                    mid = await files.send_document(
                        op.chat_id, op.data, op.filename or "file", text or None, markup
                    )
                else:
                    mid = await files.send_photo(op.chat_id, op.data, text or None, markup)
                self.stats.files += 1
            else:
                assert op.message_id is not None
                await self.sender.edit_message_text(op.chat_id, op.message_id, text, markup)
                self.stats.edits += 1
                mid = op.message_id
        except RetryAfter as exc:
            self.stats.retry_after += 1
            with warnings.catch_warnings():  # PTB 22.2+: retry_after may become a timedelta
                warnings.simplefilter("ignore")
                delay = _seconds(exc.retry_after) / self.rate_scale  # Telegram seconds
            log.warning("outbox: RetryAfter %.2fs (chat %s)", delay, op.chat_id)
            self._chat_blocked[op.chat_id] = self.clock() + delay  # that chat only
            self._retry(op)
            return
        except BadRequest as exc:
            msg = str(exc).lower()
            if "not modified" in msg:
                mid = op.message_id or 0
            elif "message to edit not found" in msg and op.message_id is not None:
                self.stats.errors += 1
                self._finish(op, None)
                self._last_hash.pop((op.chat_id, op.message_id), None)
                if self.on_missing is not None:
                    try:
                        await self.on_missing(op.chat_id, op.message_id)
                    except Exception:
                        log.exception("outbox: on_missing hook failed")
                return
            elif "chat not found" in msg or "user not found" in msg or "bot was blocked" in msg:
                await self._report(op, exc)
                return
            else:
                self.stats.errors += 1
                log.warning("outbox: %s %s refused: %s", op.kind, op.chat_id, exc)
                self._finish(op, None)
                return
        except Forbidden as exc:
            await self._report(op, exc)
            return
        except (TimedOut, NetworkError) as exc:
            log.warning("outbox: network error (%s), retrying", exc)
            await self._sleep(min(2.0, 0.2 * (2**op.tries)) / max(1.0, self.rate_scale / 4))
            self._retry(op)
            return
        if op.kind in ("document", "photo"):  # never edited: no hash to keep
            self._finish(op, mid)
            return
        digest = self._digest(op)
        if mid is not None:
            self._set_hash((op.chat_id, mid), digest)
            self._changed[(op.chat_id, mid)] = digest
        self._finish(op, mid)

    def _retry(self, op: _Op) -> None:
        op.tries += 1
        if op.tries > self.max_retries:
            self.stats.errors += 1
            log.error("outbox: giving up %s to %s after %d tries", op.kind, op.chat_id, op.tries)
            self._finish(op, None)
            return
        if op.kind == "edit" and op.message_id is not None:
            key = (op.chat_id, op.message_id)
            newer = self._pending_edit.get(key)
            if newer is not None and newer is not op:
                # a newer state is queued already: this one is obsolete
                self._finish(op, None)
                return
            self._pending_edit[key] = op

    async def _report(self, op: _Op, exc: Exception) -> None:
        self.stats.errors += 1
        log.info("outbox: %s to %s refused: %s", op.kind, op.chat_id, exc)
        self._finish(op, None)
        if self.on_error is not None:
            try:
                await self.on_error(op.chat_id, exc)
            except Exception:
                log.exception("outbox: on_error hook failed")


def _clip(text: str, limit: int = MAX_TEXT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _markup_from_json(markup: Any | None) -> Any | None:
    """A stored keyboard (Bot API form) as a PTB keyboard again."""
    if isinstance(markup, dict) and "inline_keyboard" in markup:
        from telegram import InlineKeyboardMarkup

        return InlineKeyboardMarkup.de_json(markup, None)
    return markup


def _seconds(value: object) -> float:
    if hasattr(value, "total_seconds"):
        return float(value.total_seconds())
    return float(value)  # type: ignore[arg-type]


class BotSender:
    """The outbox's sender over a telegram.Bot.  Texts go through ``do_api_request`` with the keyboard in
    its Bot API form and the answer left as JSON (PTB would build a Message, keyboard and all, from
    every answer: milliseconds of CPU per call that nobody reads)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        warnings.filterwarnings("ignore", message=r"Please use 'Bot\.(send_message|edit_message_text)'")

    async def send_message(self, chat_id: int, text: str, reply_markup: Any | None) -> int:
        kwargs: dict[str, Any] = {"chat_id": chat_id, "text": text}
        if reply_markup is not None:
            kwargs["reply_markup"] = markup_json(reply_markup)
        result = await self.bot.do_api_request("send_message", api_kwargs=kwargs)
        return int(result["message_id"])

    async def edit_message_text(
        self, chat_id: int, message_id: int, text: str, reply_markup: Any | None
    ) -> None:
        kwargs: dict[str, Any] = {"chat_id": chat_id, "message_id": message_id, "text": text}
        if reply_markup is not None:
            kwargs["reply_markup"] = markup_json(reply_markup)
        await self.bot.do_api_request("edit_message_text", api_kwargs=kwargs)

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str | None, reply_markup: Any | None
    ) -> int:
        msg = await self.bot.send_document(
            chat_id=chat_id,
            document=data,
            filename=filename,
            caption=caption,
            reply_markup=to_telegram(reply_markup),
        )
        return int(msg.message_id)

    async def send_photo(
        self, chat_id: int, data: bytes, caption: str | None, reply_markup: Any | None
    ) -> int:
        msg = await self.bot.send_photo(
            chat_id=chat_id, photo=data, caption=caption, reply_markup=to_telegram(reply_markup)
        )
        return int(msg.message_id)
