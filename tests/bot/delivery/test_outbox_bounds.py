"""The outbox's memory stays bounded and nothing of record is lost (issue 12, "Abuse limits"):
queue bounds with non-record notes dropped first, pruned maps, and sends of record kept across a
clean stop that could not deliver them.

Each outbox here runs on a manual clock (``tests/bot/delivery/manual_clock.py``): the test moves time, so what
is queued, dropped or sent at each moment is the outbox's doing, never a race with the machine's load."""

from __future__ import annotations

import asyncio
import time

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import RetryAfter

from bot.delivery.outbox import Outbox
from storage import pending_send_repo
from storage.db import open_database
from tests.bot.delivery.manual_clock import ManualClock
from tests.bot.delivery.test_outbox import FakeSender
from tests.bot.delivery.test_outbox_priority import drained


def manual_outbox(sender: FakeSender, clock: ManualClock, **options) -> Outbox:
    box = Outbox(sender, clock=clock, sleep=clock.sleep, **options)
    box.start()
    return box


class SlowSender(FakeSender):
    """Each call waits until released (a chat whose calls pile up)."""

    def __init__(self, clock=time.monotonic) -> None:
        super().__init__(clock)
        self.gate = asyncio.Event()

    async def _call(self, kind, chat_id, text):
        await self.gate.wait()
        return await super()._call(kind, chat_id, text)


class RetryAfterSender(FakeSender):
    """Telegram answers RetryAfter (a long one) for every call to the chats in ``blocked``."""

    def __init__(self, blocked: set[int], clock=time.monotonic) -> None:
        super().__init__(clock)
        self.blocked = blocked

    async def _call(self, kind, chat_id, text):
        if chat_id in self.blocked:
            raise RetryAfter(3600)
        return await super()._call(kind, chat_id, text)


async def test_flooding_a_chat_with_notes_keeps_its_queue_bounded_and_a_record_send_still_arrives():
    clock = ManualClock()
    sender = SlowSender(clock)
    box = manual_outbox(sender, clock, rate_scale=1000, max_chat_queue=10)
    notes = [box.send_nowait(7, f"note {i}", record=False) for i in range(200)]
    result = box.send_nowait(7, "RESULT of record")
    await clock.advance(0.01)  # the chat's first call is in flight (held by the sender)
    assert box.pending() <= 10
    sender.gate.set()
    await drained(clock, box)
    await box.stop()
    texts = [c[3] for c in sender.calls]
    assert "RESULT of record" in texts
    assert await result is not None
    assert len(texts) <= 11  # one note may already be in flight when the bound is reached
    assert box.stats.dropped_notes >= 190
    dropped = [f for f in notes if f.result() is None]
    assert len(dropped) == box.stats.dropped_notes
    # the notes that did go are the newest ones (oldest dropped first) and keep their order
    sent_notes = [int(t.split()[1]) for t in texts if t.startswith("note")]
    assert sent_notes == sorted(sent_notes)
    assert sent_notes[-1] == 199


async def test_record_sends_are_never_dropped_even_over_the_bounds():
    clock = ManualClock()
    sender = SlowSender(clock)
    box = manual_outbox(sender, clock, rate_scale=1000, max_chat_queue=5, max_queued=8)
    futures = [box.send_nowait(7, f"record {i}") for i in range(30)]
    futures += [box.send_nowait(8, f"other {i}") for i in range(10)]
    notes = [box.send_nowait(9, f"note {i}", record=False) for i in range(10)]
    await clock.advance(0.01)  # the first calls are in flight (held by the sender)
    assert box.pending() == 40  # over both bounds: nothing of record was refused
    assert box.stats.over_bound_records > 0
    sender.gate.set()
    await drained(clock, box)
    await box.stop()
    texts = [c[3] for c in sender.calls]
    assert [t for t in texts if t.startswith("record")] == [f"record {i}" for i in range(30)]
    assert [t for t in texts if t.startswith("other")] == [f"other {i}" for i in range(10)]
    assert all(f.result() is not None for f in futures)
    assert all(n.result() is None for n in notes)  # no room for notes while records fill the outbox
    assert not [t for t in texts if t.startswith("note")]


async def test_global_bound_drops_the_oldest_note_of_any_chat():
    clock = ManualClock()
    sender = SlowSender(clock)
    box = manual_outbox(sender, clock, rate_scale=1000, max_chat_queue=100, max_queued=6)
    old = box.send_nowait(5, "old note", record=False)
    for i in range(5):
        box.send_nowait(6, f"record {i}")
    newer = box.send_nowait(4, "newer note", record=False)
    await clock.advance(0.01)
    assert old.done() and old.result() is None
    assert box.pending() == 6
    sender.gate.set()
    await drained(clock, box)
    await box.stop()
    assert await newer is not None
    assert "old note" not in [c[3] for c in sender.calls]


async def test_maps_stay_bounded_after_many_chats():
    clock = ManualClock()
    sender = FakeSender(clock)
    box = manual_outbox(sender, clock, rate_scale=1000, max_hashes=50, prune_every=0.01)
    for wave in range(3):
        sends = [box.send_nowait(c, f"hello {c} {wave}") for c in range(-300, 300) if c]
        await clock.run_until(lambda sends=sends: all(f.done() for f in sends))
        assert all(f.result() for f in sends)
        await clock.advance(
            box.pacing.group_window
        )  # every chat's interval (and a group's window) has passed
        box.prune()
        assert box.shown.count() <= 50
        assert len(box.pacing.chat_last) == 0
        assert len(box.pacing.group_windows) == 0
        assert len(box.pacing.chat_blocked) == 0
    await box.stop()
    assert sender.calls and len(sender.calls) == 3 * 599


async def test_forgotten_hash_costs_one_edit_only():
    clock = ManualClock()
    sender = FakeSender(clock)
    box = manual_outbox(sender, clock, rate_scale=1000, max_hashes=2)
    sent = [box.send_nowait(chat, text) for chat, text in ((1, "a"), (2, "b"), (3, "c"))]
    await drained(clock, box)  # the hash of message `first` is forgotten
    first = sent[0].result()
    box.edit(1, first, "a")  # so this edit goes (Telegram would answer "not modified")
    await drained(clock, box)
    box.edit(1, first, "a")  # and this one is known again: skipped
    await drained(clock, box)
    await box.stop()
    assert [c[1] for c in sender.calls].count("edit") == 1
    assert box.stats.skipped_edits == 1


async def test_stop_that_cannot_drain_keeps_record_sends_for_the_next_start(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    try:
        keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Details", callback_data="sum:1")]])
        clock = ManualClock()
        blocked = RetryAfterSender({-42}, clock)
        box = manual_outbox(blocked, clock, rate_scale=1000)
        box.send_nowait(-42, "Match over: North-South win 3-1", keyboard)
        box.send_nowait(-42, "someone is typing…", record=False)
        box.send_document_nowait(-42, b"a,b\n1,2\n", "result.csv", "results")
        box.send_nowait(11, "to another chat")
        await clock.advance(0.05)
        stopping = asyncio.create_task(box.stop(drain=True, timeout=0.2))
        await clock.advance(0.2)  # chat -42 waits out an hour's RetryAfter: the drain's time runs out
        left = await stopping
        assert [(p.kind, p.text) for p in left] == [
            ("send", "Match over: North-South win 3-1"),
            ("document", "results"),
        ]
        assert [c[3] for c in blocked.calls] == ["to another chat"]
        await pending_send_repo.save_pending_messages(db, left)
    finally:
        await db.dispose()

    # a new process on the same database
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    try:
        stored = await pending_send_repo.take_pending_messages(db)
        assert await pending_send_repo.take_pending_messages(db) == []  # taken once
        clock = ManualClock()
        sender = KeyboardSender(clock)
        box = manual_outbox(sender, clock, rate_scale=1000)
        futures = box.restore(stored)
        await drained(clock, box)
        ids = [f.result() for f in futures]
        await box.stop()
        assert all(ids)
        assert [(c[1], c[2], c[3]) for c in sender.calls] == [
            ("send", -42, "Match over: North-South win 3-1"),
            ("document", -42, "result.csv:8:results"),
        ]
        assert "someone is typing…" not in [c[3] for c in sender.calls]
        assert sender.markups[0] == {"inline_keyboard": [[{"text": "Details", "callback_data": "sum:1"}]]}
    finally:
        await db.dispose()


class KeyboardSender(FakeSender):
    def __init__(self, clock=time.monotonic) -> None:
        super().__init__(clock)
        self.markups: list = []

    async def send_message(self, chat_id, text, reply_markup):
        self.markups.append(reply_markup.to_dict() if reply_markup is not None else None)
        return await super().send_message(chat_id, text, reply_markup)
