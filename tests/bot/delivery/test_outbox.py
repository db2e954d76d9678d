"""The outbox: coalescing, no-op edits, rate limits, RetryAfter, refused chats (issue 4, Outbox)."""

from __future__ import annotations

import asyncio
import time

from telegram.error import Forbidden, RetryAfter

from bot.delivery.outbox import Outbox


class FakeSender:
    """Records each call as (clock time, kind, chat, text); ``clock``: the outbox's (a test's manual one)."""

    def __init__(self, clock=time.monotonic) -> None:
        self.clock = clock
        self.calls: list[tuple[float, str, int, str]] = []
        self.next_id = 100
        self.fail_once: Exception | None = None
        self.forbidden: set[int] = set()

    async def send_message(self, chat_id, text, reply_markup):
        return await self._call("send", chat_id, text)

    async def edit_message_text(self, chat_id, message_id, text, reply_markup):
        await self._call("edit", chat_id, text)

    async def send_document(self, chat_id, data, filename, caption, reply_markup):
        return await self._call("document", chat_id, f"{filename}:{len(data)}:{caption}")

    async def send_photo(self, chat_id, data, caption, reply_markup):
        return await self._call("photo", chat_id, f"{len(data)}:{caption}")

    async def _call(self, kind, chat_id, text):
        if chat_id in self.forbidden:
            raise Forbidden("Forbidden: bot was blocked by the user")
        if self.fail_once is not None:
            exc, self.fail_once = self.fail_once, None
            self.calls.append((self.clock(), "fail", chat_id, text))
            raise exc
        self.calls.append((self.clock(), kind, chat_id, text))
        self.next_id += 1
        return self.next_id


async def test_edits_of_one_message_are_coalesced_latest_wins():
    sender = FakeSender()
    box = Outbox(sender, rate_scale=10)  # 0.1 s between calls to one chat
    box.start()
    mid = await box.send(-1, "table v0")
    for i in range(1, 6):
        box.edit(-1, mid, f"table v{i}")
    await box.flush()
    await box.stop()
    texts = [c[3] for c in sender.calls]
    assert texts == ["table v0", "table v5"]


async def test_edit_that_changes_nothing_is_not_sent():
    sender = FakeSender()
    box = Outbox(sender, rate_scale=100)
    box.start()
    kb = {"inline_keyboard": [[{"text": "♥5", "callback_data": "x"}]]}
    mid = await box.send(5, "hand", kb)
    box.edit(5, mid, "hand", dict(kb))
    await box.flush()
    box.edit(5, mid, "hand 2", kb)
    box.edit(5, mid, "hand", kb)  # coalesced back to what is shown: dropped when its turn comes
    await box.flush()
    await box.stop()
    assert [c[1] for c in sender.calls] == ["send"]
    assert box.stats.skipped_edits >= 2


async def test_remembered_hash_after_restart_skips_identical_edit():
    sender = FakeSender()
    box = Outbox(sender, rate_scale=100)
    from bot.delivery.outbox import content_hash

    box.remember(7, 42, content_hash("same", None))
    box.start()
    box.edit(7, 42, "same")
    await box.flush()
    await box.stop()
    assert sender.calls == []


async def test_per_chat_and_global_limits_respected():
    sender = FakeSender()
    scale = 20.0
    box = Outbox(sender, rate_scale=scale)
    box.start()
    futs = [box.send_nowait(1, f"a{i}") for i in range(4)] + [box.send_nowait(2, f"b{i}") for i in range(4)]
    await asyncio.gather(*futs)
    await box.stop()
    for chat in (1, 2):
        times = [c[0] for c in sender.calls if c[2] == chat]
        gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
        assert all(g >= 1.0 / scale - 0.005 for g in gaps), gaps
    # chats are interleaved, not served one after the other
    assert [c[2] for c in sender.calls][:2] == [1, 2]


async def test_group_window_twenty_per_minute():
    sender = FakeSender()
    scale = 600.0  # 20 per 0.1 s, 1 per ~1.7 ms
    box = Outbox(sender, rate_scale=scale)
    box.start()
    await asyncio.gather(*[box.send_nowait(-5, str(i)) for i in range(25)])
    await box.stop()
    times = [c[0] for c in sender.calls]
    window = 60.0 / scale
    for i in range(len(times) - 20):
        assert times[i + 20] - times[i] >= window - 0.005


async def test_retry_after_is_honoured():
    sender = FakeSender()
    sender.fail_once = RetryAfter(1)
    box = Outbox(sender, rate_scale=2)  # retry_after 1 Telegram second = 0.5 s here
    box.start()
    t0 = time.monotonic()
    mid = await box.send(3, "hello")
    await box.stop()
    assert mid is not None
    assert [c[1] for c in sender.calls] == ["fail", "send"]
    assert sender.calls[1][0] - t0 >= 0.48
    assert box.stats.retry_after == 1


async def test_forbidden_chat_is_reported_not_raised():
    sender = FakeSender()
    sender.forbidden.add(9)
    reported: list[int] = []

    async def on_error(chat_id, exc):
        reported.append(chat_id)

    box = Outbox(sender, rate_scale=100, on_error=on_error)
    box.start()
    assert await box.send(9, "your hand") is None
    assert await box.send(10, "fine") is not None
    await box.stop()
    assert reported == [9]


async def test_edit_of_a_deleted_message_is_reported():
    from telegram.error import BadRequest

    class Gone(FakeSender):
        async def edit_message_text(self, chat_id, message_id, text, reply_markup):
            raise BadRequest("Message to edit not found")

    missing: list[tuple[int, int]] = []

    async def on_missing(chat_id, message_id):
        missing.append((chat_id, message_id))

    box = Outbox(Gone(), rate_scale=100, on_missing=on_missing)
    box.start()
    box.edit(-3, 77, "table")
    await box.flush()
    await box.stop()
    assert missing == [(-3, 77)]


async def test_documents_and_photos_share_the_chat_queue_order_and_rate_limit():
    """Files (the draw JSON, exports, the bracket picture) keep their place among the texts and the pacing."""
    sender = FakeSender()
    scale = 10
    box = Outbox(sender, rate_scale=scale)
    box.start()
    first = box.send_nowait(-7, "the draw")
    doc = box.send_document_nowait(-7, b"{}", "draw-1.json", "the draw file")
    photo = box.send_photo_nowait(-7, b"\x89PNG", "bracket")
    await asyncio.gather(first, doc, photo)
    await box.stop()
    assert [(c[1], c[3]) for c in sender.calls] == [
        ("send", "the draw"),
        ("document", "draw-1.json:2:the draw file"),
        ("photo", "4:bracket"),
    ]
    assert doc.result() is not None and photo.result() is not None
    times = [c[0] for c in sender.calls]
    assert all(b - a >= 1.0 / scale - 0.01 for a, b in zip(times, times[1:], strict=False))
    assert box.stats.files == 2


async def test_document_waits_out_retry_after_and_refused_chat_is_reported():
    sender = FakeSender()
    sender.fail_once = RetryAfter(1)
    reported: list[int] = []

    async def on_error(chat_id, exc):
        reported.append(chat_id)

    box = Outbox(sender, rate_scale=2, on_error=on_error)
    box.start()
    t0 = time.monotonic()
    assert await box.send_document(3, b"abc", "export.csv") is not None
    assert [c[1] for c in sender.calls] == ["fail", "document"]
    assert sender.calls[1][0] - t0 >= 0.48
    sender.forbidden.add(9)
    assert await box.send_photo(9, b"png") is None
    await box.stop()
    assert reported == [9]


class SlowSender(FakeSender):
    """A Bot API at a distance: every call takes ``rtt`` seconds."""

    def __init__(self, rtt: float) -> None:
        super().__init__()
        self.rtt = rtt
        self.in_flight = 0
        self.most_in_flight = 0

    async def _call(self, kind, chat_id, text):
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self.rtt)
            return await super()._call(kind, chat_id, text)
        finally:
            self.in_flight -= 1


async def test_many_calls_in_flight_at_a_distance_each_chat_in_order():
    sender = SlowSender(rtt=0.2)
    box = Outbox(sender, rate_scale=100)
    box.start()
    t0 = time.monotonic()
    futs = [box.send_nowait(chat, f"{chat}:{i}") for i in range(3) for chat in range(1, 21)]
    await asyncio.gather(*futs)
    elapsed = time.monotonic() - t0
    await box.stop()
    # one call at a time would take 60 x 0.2 s = 12 s; 20 chats in parallel take about 3 round trips
    assert sender.most_in_flight >= 10
    assert elapsed < 3.0, elapsed
    for chat in range(1, 21):
        assert [c[3] for c in sender.calls if c[2] == chat] == [f"{chat}:{i}" for i in range(3)]


async def test_retry_after_of_one_chat_delays_that_chat_only():
    class OneChatLimited(FakeSender):
        def __init__(self) -> None:
            super().__init__()
            self.limited_once = False

        async def _call(self, kind, chat_id, text):
            if chat_id == 1 and not self.limited_once:
                self.limited_once = True
                self.calls.append((time.monotonic(), "fail", chat_id, text))
                raise RetryAfter(3)
            return await super()._call(kind, chat_id, text)

    sender = OneChatLimited()
    box = Outbox(sender, rate_scale=2)  # RetryAfter 3 s -> 1.5 s here; 0.5 s between calls to one chat
    box.start()
    t0 = time.monotonic()
    first = box.send_nowait(1, "to the limited chat")
    others = [box.send_nowait(chat, "meanwhile") for chat in range(2, 6)]
    await asyncio.gather(*others)
    others_done = time.monotonic() - t0
    await first
    await box.stop()
    assert others_done < 1.0, others_done  # not stalled by chat 1's RetryAfter
    sent_to_1 = [c for c in sender.calls if c[2] == 1 and c[1] == "send"]
    assert len(sent_to_1) == 1 and sent_to_1[0][0] - t0 >= 1.45


async def test_group_budget_is_spent_evenly_over_the_minute():
    sender = FakeSender()
    scale = 20.0  # a group's 20 a minute -> one call every 3 s / 20 = 0.15 s (with the 5 % margin)
    box = Outbox(sender, rate_scale=scale)
    box.start()
    await asyncio.gather(*[box.send_nowait(-5, str(i)) for i in range(8)])
    await box.stop()
    times = [c[0] for c in sender.calls]
    gaps = [b - a for a, b in zip(times, times[1:], strict=False)]
    # never a burst (a loaded event loop may start one call a little late and the next on time: 20 % slack)
    assert all(g >= 3.0 / scale * 0.8 for g in gaps), gaps
    assert times[-1] - times[0] >= 7 * 3.0 / scale * 0.95, gaps


async def test_a_restarted_outbox_paces_its_first_group_message():
    """Nothing is known of what the previous process sent: the first call to a group waits one pacing step."""
    sender = FakeSender()
    scale = 20.0
    box = Outbox(sender, rate_scale=scale)
    box.start()
    t0 = time.monotonic()
    await box.send(-9, "after a restart")
    await box.send(9, "a private chat")
    await box.stop()
    group_at = next(c[0] for c in sender.calls if c[2] == -9)
    assert group_at - t0 >= 3.0 / scale * 0.95 - 0.01


async def test_sent_hashes_are_handed_over_in_batches_not_per_call():
    from bot.delivery.outbox import content_hash

    sender = FakeSender()
    box = Outbox(sender, rate_scale=100)
    box.start()
    a = await box.send(1, "a")
    b = await box.send(2, "b")
    box.edit(1, a, "a2")
    await box.flush()
    changed = box.take_changed_hashes()
    await box.stop()
    assert changed == {(1, a): content_hash("a2", None), (2, b): content_hash("b", None)}
    assert box.take_changed_hashes() == {}


async def test_a_delayed_edit_is_withdrawn_or_hurried():
    sender = FakeSender()
    box = Outbox(sender, rate_scale=100)
    box.start()
    mid = await box.send(4, "hand")
    box.edit(4, mid, "hand ✅♥5", delay=0.3)  # a card tap
    await asyncio.sleep(0.05)
    assert box.drop_edit(4, mid)  # the play came first: nobody needs the tap's edit
    await box.flush()
    assert [c[3] for c in sender.calls] == ["hand"]
    box.edit(4, mid, "hand ✅♥6", delay=5.0)
    t0 = time.monotonic()
    box.edit(4, mid, "your turn")  # needed now: the queued edit goes at once with the newest content
    await box.flush()
    await box.stop()
    assert [c[3] for c in sender.calls] == ["hand", "your turn"]
    assert time.monotonic() - t0 < 1.0
