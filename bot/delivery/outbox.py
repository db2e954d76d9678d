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
  network errors are retried (bounded), except a send that went out whole and got no answer within its read
  timeout (``BotSender``'s ``send_timeout``, 60 s by default): Telegram may have made it, so it is not sent
  again (logged; an edit is repeated: showing the same state twice is harmless); ``Forbidden`` (blocked, never started) and "chat not
  found" are handed to ``on_error`` and never raised.

The outbox's parts, one job each: ``calls`` (one queued call, the content hash, the sends of record kept
across a restart), ``pacing`` (Telegram's limits), ``queues`` (the per-chat queues: bounds, notes, refusal
folding, coalescing), ``shown`` (what each message shows), ``refusals`` (what Telegram's refusal of a call means), ``senders`` (who makes the
calls), ``keyboards`` (presentation's keyboards as Telegram's).

Bounded memory (issue 12, "Abuse limits"):

* Each chat's queue holds at most ``max_chat_queue`` calls and all queues together ``max_queued``.
  Over a bound, the oldest queued send marked ``record=False`` (a note nobody needs later) is
  dropped (its future gets None); a new non-record send that finds nothing droppable is dropped
  itself.  Sends are ``record=True`` by default (results, deal summaries, notices): they are never
  dropped, even over a bound (then only a warning is logged).  Edits are coalesced, never dropped.
* ``shown`` (``bot/delivery/shown.py``) is an LRU of ``max_hashes`` messages (a forgotten hash costs one
  extra edit);
  the per-chat pacing maps (last call, group windows, RetryAfter blocks) are pruned once an entry
  no longer delays anything (every ``prune_every`` seconds, or ``prune()``).
* A note never delays a message of record: a send of record (or an edit) is queued before the notes
  still waiting in its chat.  A note may carry a ``fold`` key (a refusal to one person in a group): a
  note with the same key still queued takes the newer text instead of queuing a second message.
* ``stop()`` drains for ``timeout`` seconds, then returns the record sends that could not go
  (``PendingSend``: the owner stores them and hands them to ``restore`` at the next start-up);
  pending non-record sends and edits are dropped with a log line.

Time is the outbox's own clock: ``clock`` (monotonic seconds) and ``sleep`` (waits that many of them), the
real ones by default.  Every wait goes through them (the pacing, a delayed edit, a RetryAfter, the network
backoff, the drain of ``stop``), so a test that hands it a manual clock moves time itself and asserts the
order and spacing of the calls exactly, whatever the machine's load.

Files go through the same queues: ``send_document`` (bytes and a file name) and ``send_photo``
(PNG/JPEG bytes), with the same rate limits, RetryAfter handling and error reporting.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Iterable
from typing import Any, cast

from telegram.error import RetryAfter

from bot.delivery.calls import (
    MAX_CAPTION,
    MAX_TEXT,
    Call,
    Markup,
    OutboxStats,
    PendingSend,
    StoredSend,
    clip,
    content_hash,
    markup_from_json,
    markup_json,
)
from bot.delivery.pacing import PRIORITY_AGE, Pacing
from bot.delivery.queues import ChatQueues
from bot.delivery.refusals import Refusal, network_backoff, refusal, retry_after_seconds
from bot.delivery.senders import BotSender, FileSender, Sender, SendSlots
from bot.delivery.shown import ShownMessages

__all__ = [
    "MAX_CAPTION",
    "MAX_TEXT",
    "PRIORITY_AGE",
    "BotSender",
    "Outbox",
    "OutboxStats",
    "PendingSend",
    "content_hash",
    "markup_json",
]

log = logging.getLogger(__name__)

ErrorHook = Callable[[int, Exception], Awaitable[None]]
MissingHook = Callable[[int, int], Awaitable[None]]
Observer = Callable[[str, Call, float], None]  # ("launch" | "finish", call, clock time)


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
        self.sender = sender
        self.limits = (
            limits  # Telegram's limits shared with other processes (bot/delivery/shared_limits.py), or None
        )
        self.pacing = Pacing(
            rate_scale=rate_scale,
            per_chat_interval=per_chat_interval,
            group_limit=group_limit,
            group_window=group_window,
            global_limit=global_limit,
            global_window=global_window,
        )
        self.rate_scale = self.pacing.rate_scale
        self.max_in_flight = max_in_flight
        self.max_retries = max_retries
        self.on_error = on_error
        self.on_missing = on_missing  # an edited message is gone (deleted): the owner may send a new one
        self.clock = clock
        self._sleep = sleep or asyncio.sleep
        self.stats = OutboxStats()
        self.queues = ChatQueues(self.stats, clock, max_chat_queue=max_chat_queue, max_queued=max_queued)
        self.shown = ShownMessages(max_hashes)  # what each message shows (an LRU of max_hashes)
        self.prune_every = prune_every
        self._next_prune = 0.0
        self._in_flight: set[asyncio.Task[None]] = set()
        self._wake = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self.observe: Observer | None = None  # ("launch" | "finish", call, now): metrics

    @property
    def max_queued(self) -> int:
        """The bound on all queues together (notes are dropped over it, sends of record never)."""
        return self.queues.max_queued

    @property
    def max_chat_queue(self) -> int:
        """The bound on one chat's queue."""
        return self.queues.max_chat_queue

    @property
    def global_gap(self) -> float:
        """The token's calls are spread at least this far apart (clock seconds)."""
        return self.pacing.global_gap

    # --- public API ---------------------------------------------------------------------

    def start(self) -> None:
        if self._task is None or self._task.done():
            self._closing = False
            self.pacing.started(self.clock())
            self._task = asyncio.get_running_loop().create_task(self._run(), name="outbox")

    async def stop(self, drain: bool = True, timeout: float = 10.0) -> list[PendingSend]:
        """Stop (draining for ``timeout`` seconds first); returns the sends of record that did not go
        (a call in flight at that moment included: it may have arrived, so it may come twice, never
        zero times).  Non-record sends and edits still pending are dropped (logged)."""
        if drain and not await self._within(self.flush(), timeout):
            log.warning("outbox: stopped with %d pending calls", self.pending())
        kept, notes, edits = self.queues.leftovers()
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
        self.queues.clear()
        self._idle.set()
        return kept

    def restore(self, items: Iterable[StoredSend]) -> list[asyncio.Future[int | None]]:
        """Queue again the sends of record a previous process left at its stop (in their order)."""
        futures = []
        for item in items:
            markup = markup_from_json(item.markup)
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
        return self.shown.get((chat_id, message_id))

    def remember(self, chat_id: int, message_id: int, digest: str | None) -> None:
        """Tell the outbox what a message shows (after a restart, from the database)."""
        if digest:
            self.shown.set((chat_id, message_id), digest)

    def forget(self, chat_id: int, message_id: int) -> None:
        """Forget what the message shows (another process may have edited it): its next edit is sent."""
        self.shown.forget((chat_id, message_id))

    def pending(self) -> int:
        return self.queues.queued

    def queued_calls(self) -> list[Call]:
        """Every call still queued (a copy: metrics read it)."""
        return [call for q in list(self.queues.queues.values()) for call in list(q)]

    async def flush(self) -> None:
        """Wait until every queued call has been made."""
        while self.pending():
            self._idle.clear()
            await self._idle.wait()

    def send_nowait(
        self,
        chat_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        record: bool = True,
        fold: Hashable | None = None,
    ) -> asyncio.Future[int | None]:
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._enqueue(
            Call(
                "send", chat_id, clip(text), markup, future=fut, record=record, fold=None if record else fold
            )
        )
        return fut

    async def send(
        self,
        chat_id: int,
        text: str,
        markup: Markup | None = None,
        *,
        record: bool = True,
        fold: Hashable | None = None,
    ) -> int | None:
        """Queue a new message; returns its id once sent (None when Telegram refused it, or when a
        ``record=False`` note was dropped over a queue bound)."""
        return await self.send_nowait(chat_id, text, markup, record=record, fold=fold)

    def send_document_nowait(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", markup: Markup | None = None
    ) -> asyncio.Future[int | None]:
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._enqueue(
            Call(
                "document",
                chat_id,
                clip(caption, MAX_CAPTION),
                markup,
                future=fut,
                data=bytes(data),
                filename=filename,
            )
        )
        return fut

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", markup: Markup | None = None
    ) -> int | None:
        """Queue a file (bytes named ``filename``); returns its message id once sent (None when refused)."""
        return await self.send_document_nowait(chat_id, data, filename, caption, markup)

    def send_photo_nowait(
        self, chat_id: int, data: bytes, caption: str = "", markup: Markup | None = None
    ) -> asyncio.Future[int | None]:
        fut: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._enqueue(
            Call("photo", chat_id, clip(caption, MAX_CAPTION), markup, future=fut, data=bytes(data))
        )
        return fut

    async def send_photo(
        self, chat_id: int, data: bytes, caption: str = "", markup: Markup | None = None
    ) -> int | None:
        """Queue a picture (PNG/JPEG bytes); returns its message id once sent (None when refused)."""
        return await self.send_photo_nowait(chat_id, data, caption, markup)

    def edit(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        markup: Markup | None = None,
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
        text = clip(text)
        key = (chat_id, message_id)
        digest = content_hash(text, markup)
        not_before = self.clock() + delay if delay is not None and delay > 0 else 0.0
        pending = self.queues.pending_edit.get(key)
        if pending is not None:
            pending.text, pending.markup, pending.digest, pending.version = text, markup, digest, version
            if delay is not None and not (pending.urgent and not_before):
                pending.not_before = not_before  # the newest wait counts (a run of taps, news after news)
            pending.urgent = pending.urgent or urgent
            self.stats.coalesced_edits += 1
            self._wake.set()
            return
        if self.shown.get(key) == digest:
            self.stats.skipped_edits += 1
            return
        op = Call(
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
        self.queues.pending_edit[key] = op
        self._enqueue(op)

    def has_pending_edit(self, chat_id: int, message_id: int) -> bool:
        """Is an edit of this message queued (not yet in flight)?  Updating it costs no extra call."""
        return (chat_id, message_id) in self.queues.pending_edit

    def drop_edit(self, chat_id: int, message_id: int) -> bool:
        """Withdraw a queued edit of this message (its reader no longer needs it); True if one was."""
        op = self.queues.withdraw_edit(chat_id, message_id)
        if op is None:
            return False
        self.stats.dropped_edits += 1
        if op.future is not None and not op.future.done():
            op.future.set_result(None)
        self._wake.set()
        return True

    def take_changed_hashes(self) -> dict[tuple[int, int], str]:
        """The (chat, message) -> hash of what each message shows now, for those changed since the
        last call (the owner stores them; after a restart ``remember`` gives them back)."""
        return self.shown.take_changed()

    def in_flight(self) -> int:
        return len(self._in_flight)

    def prune(self, now: float | None = None) -> None:
        """Forget pacing entries that no longer delay anything (a chat idle for longer than its
        interval, a group window with no call in it, a RetryAfter block that has passed)."""
        self.pacing.prune(self.clock() if now is None else now, self.queues.active())

    # --- worker -------------------------------------------------------------------------

    def _enqueue(self, op: Call) -> None:
        if self.queues.enqueue(op):
            self._idle.clear()
            self._wake.set()

    async def _run(self) -> None:
        while not self._closing:
            if self.clock() >= self._next_prune:
                self.prune()
                self._next_prune = self.clock() + self.prune_every
            self.queues.drop_empty()
            if not self.queues.queues:
                self._idle.set()
                self._wake.clear()
                await self._wake.wait()
                continue
            now = self.clock()
            ops, at = self.queues.ready(now, self.pacing)
            started = 0
            for op in ops:
                if len(self._in_flight) >= self.max_in_flight:
                    break
                ready = self.pacing.token_ready_at(now)
                if ready > now:
                    at = min(at, ready)
                    break
                self._launch(op)
                started += 1
            if started:
                await asyncio.sleep(0)  # let the calls start; look again
                continue
            self._wake.clear()
            await self._wait_wake(None if at == float("inf") else max(0.0, at - now))

    async def _wait_wake(self, seconds: float | None) -> None:
        """Wait until woken (a call queued or finished) or, unless None, ``seconds`` of the clock passed."""
        if seconds is None:
            await self._wake.wait()
            return
        timer: asyncio.Future[None] = asyncio.ensure_future(self._sleep(seconds))

        def rang(t: asyncio.Future[None]) -> None:
            if not t.cancelled():  # cancelled because the worker woke first: waking it again would spin it
                self._wake.set()

        timer.add_done_callback(rang)
        try:
            await self._wake.wait()
        finally:
            timer.cancel()

    async def _within(self, work: Coroutine[Any, Any, None], seconds: float) -> bool:
        """Await ``work`` for at most ``seconds`` of the clock; whether it finished (else it is cancelled)."""
        task = asyncio.get_running_loop().create_task(work)
        timer: asyncio.Future[None] = asyncio.ensure_future(self._sleep(seconds))
        try:
            await asyncio.wait((task, timer), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for t in (task, timer):
                t.cancel()
            await asyncio.gather(task, timer, return_exceptions=True)
        return task.done() and not task.cancelled() and task.exception() is None

    def _launch(self, op: Call) -> None:
        self.queues.to_head(op)
        if op.kind == "edit" and op.message_id is not None:
            key = (op.chat_id, op.message_id)
            if self.shown.get(key) == op.content():
                self.stats.skipped_edits += 1
                self._finish(op, op.message_id)
                return
            # detach from coalescing while in flight: a newer edit queues behind this one
            if self.queues.pending_edit.get(key) is op:
                del self.queues.pending_edit[key]
        self._count(op.chat_id)
        if self.observe is not None:
            self.observe("launch", op, self.clock())
        self.pacing.launched(self.clock())
        self.queues.flying[op.chat_id] = op
        task = asyncio.get_running_loop().create_task(self._call(op))
        self._in_flight.add(task)
        self.stats.max_in_flight = max(self.stats.max_in_flight, len(self._in_flight))

        def done(t: asyncio.Task[None], chat_id: int = op.chat_id) -> None:
            self._in_flight.discard(t)
            self.queues.flying.pop(chat_id, None)
            self._wake.set()

        task.add_done_callback(done)

    async def _call(self, op: Call) -> None:
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

    def _finish(self, op: Call, result: int | None) -> None:
        self.queues.done(op)
        if op.future is not None and not op.future.done():
            op.future.set_result(result)
        if self.observe is not None:
            self.observe("finish", op, self.clock())
        self._wake.set()

    def _count(self, chat_id: int) -> None:
        self.pacing.count(chat_id, self.clock())
        self.stats.calls += 1

    async def _make(self, op: Call) -> int | None:
        """Make the call; the message id."""
        text, markup = op.text, op.markup
        if op.kind == "send":
            mid = await self.sender.send_message(op.chat_id, text, markup)
            self.stats.sends += 1
            return mid
        if op.kind in ("document", "photo"):
            files = cast(FileSender, self.sender)
            assert op.data is not None
            if op.kind == "document":
                mid = await files.send_document(
                    op.chat_id, op.data, op.filename or "file", text or None, markup
                )
            else:
                mid = await files.send_photo(op.chat_id, op.data, text or None, markup)
            self.stats.files += 1
            return mid
        assert op.message_id is not None
        await self.sender.edit_message_text(op.chat_id, op.message_id, text, markup)
        self.stats.edits += 1
        return op.message_id

    async def _do(self, op: Call) -> None:
        try:
            mid = await self._make(op)
        except Exception as exc:
            answer = refusal(exc, edit=op.message_id is not None)
            if answer is None:
                raise
            if answer is not Refusal.NOT_MODIFIED:
                await self._refused(op, exc, answer)
                return
            mid = op.message_id or 0
        if op.kind in ("document", "photo"):  # never edited: no hash to keep
            self._finish(op, mid)
            return
        digest = op.content()
        if mid is not None:
            self.shown.made((op.chat_id, mid), digest)
        self._finish(op, mid)

    async def _refused(self, op: Call, exc: Exception, answer: Refusal) -> None:
        if answer is Refusal.RETRY_AFTER:
            self.stats.retry_after += 1
            delay = retry_after_seconds(cast(RetryAfter, exc)) / self.rate_scale  # Telegram seconds
            log.warning("outbox: RetryAfter %.2fs (chat %s)", delay, op.chat_id)
            self.pacing.block(op.chat_id, self.clock() + delay)  # that chat only
            self._retry(op)
        elif answer is Refusal.MESSAGE_GONE:
            assert op.message_id is not None
            self.stats.errors += 1
            self._finish(op, None)
            self.shown.forget((op.chat_id, op.message_id))
            if self.on_missing is not None:
                try:
                    await self.on_missing(op.chat_id, op.message_id)
                except Exception:
                    log.exception("outbox: on_missing hook failed")
        elif answer is Refusal.CHAT_REFUSES:
            await self._report(op, exc)
        elif answer is Refusal.FAILED:
            self.stats.errors += 1
            log.warning("outbox: %s %s refused: %s", op.kind, op.chat_id, exc)
            self._finish(op, None)
        elif answer is Refusal.UNCONFIRMED:
            self.stats.unconfirmed += 1
            log.warning(
                "outbox: %s to %s: no answer from Telegram in time (%s); not sent again "
                "(Telegram may have made it: a message is never sent twice)",
                op.kind,
                op.chat_id,
                type(exc.__cause__).__name__,
            )
            self._finish(op, None)
        else:  # Refusal.NETWORK
            log.warning("outbox: network error (%s), retrying", exc)
            await self._sleep(network_backoff(op.tries, self.rate_scale))
            self._retry(op)

    def _retry(self, op: Call) -> None:
        op.tries += 1
        if op.tries > self.max_retries:
            self.stats.errors += 1
            log.error("outbox: giving up %s to %s after %d tries", op.kind, op.chat_id, op.tries)
            self._finish(op, None)
            return
        if op.kind == "edit" and op.message_id is not None:
            key = (op.chat_id, op.message_id)
            newer = self.queues.pending_edit.get(key)
            if newer is not None and newer is not op:
                # a newer state is queued already: this one is obsolete
                self._finish(op, None)
                return
            self.queues.pending_edit[key] = op

    async def _report(self, op: Call, exc: Exception) -> None:
        self.stats.errors += 1
        log.info("outbox: %s to %s refused: %s", op.kind, op.chat_id, exc)
        self._finish(op, None)
        if self.on_error is not None:
            try:
                await self.on_error(op.chat_id, exc)
            except Exception:
                log.exception("outbox: on_error hook failed")
