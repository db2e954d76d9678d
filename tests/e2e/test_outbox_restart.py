"""End-to-end: a send of record that a clean stop could not deliver (Telegram kept answering
RetryAfter for that chat) arrives after the restart (issue 12, "Abuse limits")."""

from __future__ import annotations

from telegram.error import RetryAfter

from storage import pending_send_repo
from tests.e2e.test_play import rt


class _Refusing:
    """The outbox's sender, but Telegram answers RetryAfter (an hour) for one chat."""

    def __init__(self, inner, chat_id: int) -> None:
        self.inner, self.chat_id = inner, chat_id

    async def send_message(self, chat_id, text, reply_markup):
        if chat_id == self.chat_id:
            raise RetryAfter(3600)
        return await self.inner.send_message(chat_id, text, reply_markup)

    def __getattr__(self, name):
        return getattr(self.inner, name)


async def test_record_send_left_at_stop_arrives_after_restart(harness):
    h = harness
    box = rt(h).outbox
    box.sender = _Refusing(box.sender, h.group_id)
    box.send_nowait(h.group_id, "RECORD: final standings")
    box.send_nowait(h.group_id, "note: a draft nobody needs", record=False)
    await h.restart()  # the stop drains for its timeout, then stores what is of record
    msg = await h.sim.wait_for_message(
        h.group_id, lambda m: (m.text or "") == "RECORD: final standings", timeout=30
    )
    assert msg is not None
    assert not [m for m in h.sim.messages(h.group_id) if "a draft nobody needs" in (m.text or "")]
    assert await pending_send_repo.take_pending_messages(rt(h).db) == []  # taken by the start-up
