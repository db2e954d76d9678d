"""The outbox's order under the token's pacing (issue 8): an edit that tells its reader to act goes first,
nothing else starves, and a delayed edit does not hold up the other calls to its chat.

Each outbox here runs on a manual clock (``tests/bot/delivery/manual_clock.py``): the test moves time, so
the order and the spacing of the calls are the pacing's, never a race with the machine's load."""

from __future__ import annotations

import asyncio

from bot.delivery.outbox import PRIORITY_AGE, Outbox
from tests.bot.delivery.manual_clock import ManualClock
from tests.bot.delivery.test_outbox import FakeSender


def manual_outbox(**options) -> tuple[Outbox, FakeSender, ManualClock]:
    """A started outbox on a manual clock, and its sender (which records the clock's time of each call)."""
    clock = ManualClock()
    sender = FakeSender(clock)
    box = Outbox(sender, clock=clock, sleep=clock.sleep, **options)
    box.start()
    return box, sender, clock


async def drained(clock: ManualClock, box: Outbox) -> float:
    """``flush`` on the manual clock: time moves on until every queued call is made; the clock seconds."""
    return await clock.run_until(lambda: not box.pending() and not box.in_flight(), what="calls still queued")


async def _sent_to_busy_chats(box: Outbox, clock: ManualClock, chats: int) -> dict[int, int]:
    """Messages in ``chats`` private chats and one group (-1), once sent: their message ids."""
    futures = {c: box.send_nowait(c, f"hand {c}") for c in range(1, chats + 1)}
    futures[-1] = box.send_nowait(-1, "table")
    await clock.run_until(lambda: all(f.done() for f in futures.values()))
    return {c: f.result() for c, f in futures.items()}


async def test_an_edit_telling_its_reader_to_act_goes_before_older_calls():
    box, sender, clock = manual_outbox(
        rate_scale=1, global_limit=4, global_window=1.0
    )  # a call every ~0.29 s
    mids = await _sent_to_busy_chats(box, clock, 4)
    await clock.advance(1.2)  # every chat's own interval has passed: only the token's pacing holds them
    sender.calls.clear()
    box.edit(3, mids[3], "hand 3: the trump settled")  # queued first, not urgent
    box.edit(1, mids[1], "hand 1: a card tapped")  # not urgent
    box.edit(2, mids[2], "hand 2: 👉 your turn", urgent=True)  # queued last, tells seat 2 to act
    await drained(clock, box)
    await box.stop()
    texts = [c[3] for c in sender.calls]
    assert texts[0] == "hand 2: 👉 your turn"
    assert texts[1:] == ["hand 3: the trump settled", "hand 1: a card tapped"]  # the others in their order
    times = [c[0] for c in sender.calls]  # one after another at the token's pace: its order decided
    assert all(b - a >= box.global_gap - 1e-9 for a, b in zip(times, times[1:], strict=False))


async def test_a_call_that_waited_long_enough_is_not_starved_by_urgent_edits():
    scale = 4.0  # a 1.5 s wait becomes 1.5 / (4 / 1.05) s
    box, sender, clock = manual_outbox(rate_scale=scale, global_limit=2, global_window=1.0)  # ~0.14 s apart
    mids = await _sent_to_busy_chats(box, clock, 12)
    await clock.advance(1.0)
    streaming = True

    async def urgent_stream() -> None:  # a new "your turn" in some chat more often than the token serves
        n = 0
        while streaming:
            n += 1
            c = 1 + n % 12
            box.edit(c, mids[c], f"hand {c}: 👉 turn {n}", urgent=True)
            await clock.sleep(0.05)

    task = asyncio.create_task(urgent_stream())
    await clock.advance(0.5)  # the token is busy with urgent edits
    queued = clock()
    sender.calls.clear()
    box.edit(-1, mids[-1], "table: trick 1")
    waited = PRIORITY_AGE / (scale / 1.05)
    await clock.run_until(
        lambda: any(c[3] == "table: trick 1" for c in sender.calls),
        limit=3.0,
        what="the group's edit starved behind urgent edits",
    )
    streaming = False
    await clock.advance(0.05)
    await task
    await box.stop(drain=False)
    sent = [c for c in sender.calls if c[3] == "table: trick 1"]
    before = [c for c in sender.calls if c[0] < sent[0][0]]
    assert any("👉" in c[3] for c in before)  # urgent edits went first while it was young
    # then it went, once it had waited PRIORITY_AGE and the calls older than it (one per chat) had gone
    assert sent[0][0] - queued <= waited + 13 * box.global_gap


async def test_a_delayed_edit_does_not_hold_up_a_message_to_the_same_chat():
    box, sender, clock = manual_outbox(rate_scale=20)
    hand = box.send_nowait(5, "hand")
    await clock.run_until(hand.done)
    tapped = clock()
    box.edit(5, hand.result(), "hand ✅ ♥5", delay=2.0)  # a card tap, shown after 2 s unless a play follows
    reply = box.send_nowait(5, "illegal play: follow suit")
    # answered at once (after the chat's own interval since "hand"), not after the tap's wait
    assert await clock.run_until(reply.done) <= box.pacing.per_chat_interval + 1e-9  # (float sums)
    assert [c[3] for c in sender.calls] == ["hand", "illegal play: follow suit"]
    await drained(clock, box)
    await box.stop()
    assert [c[3] for c in sender.calls][-1] == "hand ✅ ♥5"  # and the tap's edit still came, after its wait
    assert sender.calls[-1][0] - tapped >= 2.0


async def test_an_update_without_a_delay_keeps_a_waiting_edit_waiting():
    """``delay=None`` brings a queued edit up to date without hurrying it (news that may wait for the
    reader's next turn); ``delay=0`` hurries it (the reader must act)."""
    box, sender, clock = manual_outbox(rate_scale=20)
    hand = box.send_nowait(5, "hand")
    await clock.run_until(hand.done)
    box.edit(5, hand.result(), "hand: trump ♣", delay=0.6)
    box.edit(5, hand.result(), "hand: trump ♣, dealer burying", delay=None)
    await clock.advance(0.3)
    assert len(sender.calls) == 1  # still waiting
    box.edit(5, hand.result(), "hand: 👉 your turn", urgent=True)
    await clock.advance(0)  # no time passes
    assert [c[3] for c in sender.calls] == ["hand", "hand: 👉 your turn"]  # hurried, one edit for all three
    await drained(clock, box)
    await box.stop()
    assert len(sender.calls) == 2


async def test_refusals_to_one_person_fold_and_never_delay_a_message_of_record():
    """Six quick /newtable in a group: a refusal was just sent, three more to the same person and one to another
    wait behind the group's pacing, then the lobby is queued. The lobby goes next; the first person's waiting
    refusals are one message (the newest text), the other person's stays their own."""
    box, sender, clock = manual_outbox(rate_scale=20)  # a group: one call every 3 s / 20 × 1.05
    group = -100
    first = box.send_nowait(group, "refused 1", record=False, fold=("refused", 7))
    await clock.run_until(first.done)  # sent: the group's slot is used
    later = [box.send_nowait(group, f"refused {n}", record=False, fold=("refused", 7)) for n in (2, 3, 4)]
    other = box.send_nowait(group, "refused: not an admin", record=False, fold=("refused", 8))
    lobby = box.send_nowait(group, "lobby")
    await drained(clock, box)
    await box.stop()
    assert [c[3] for c in sender.calls] == ["refused 1", "lobby", "refused 4", "refused: not an admin"]
    assert box.stats.folded_notes == 2
    ids = [await f for f in later]
    assert ids[0] == ids[1] == ids[2] != first.result()  # every folded refusal is the one message sent
    assert await lobby < ids[0] < await other


async def test_a_note_without_a_fold_key_is_never_merged():
    box, sender, clock = manual_outbox(rate_scale=20)
    for n in range(3):
        box.send_nowait(-100, f"note {n}", record=False)
    await drained(clock, box)
    await box.stop()
    assert [c[3] for c in sender.calls] == ["note 0", "note 1", "note 2"]
