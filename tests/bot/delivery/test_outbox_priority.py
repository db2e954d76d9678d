"""The outbox's order under the token's pacing (issue 8): an edit that tells its reader to act goes first,
nothing else starves, and a delayed edit does not hold up the other calls to its chat."""

from __future__ import annotations

import asyncio
import time

from bot.delivery.outbox import PRIORITY_AGE, Outbox
from tests.bot.delivery.test_outbox import FakeSender


async def _queue_behind_a_busy_token(box: Outbox, sender: FakeSender, chats: int) -> dict[int, int]:
    """Messages in ``chats`` private chats and one group; the token's window is then full, so what is
    queued next waits for the global pacing."""
    mids = {}
    for c in range(1, chats + 1):
        mids[c] = await box.send(c, f"hand {c}")
    mids[-1] = await box.send(-1, "table")
    return mids


async def test_an_edit_telling_its_reader_to_act_goes_before_older_calls():
    sender = FakeSender()
    box = Outbox(sender, rate_scale=1, global_limit=4, global_window=1.0)  # one call every ~0.29 s
    box.start()
    mids = await _queue_behind_a_busy_token(box, sender, 4)
    await asyncio.sleep(1.2)  # every chat's own interval has passed: only the token's pacing holds them
    sender.calls.clear()
    box.edit(3, mids[3], "hand 3: the trump settled")  # queued first, not urgent
    box.edit(1, mids[1], "hand 1: a card tapped")  # not urgent
    box.edit(2, mids[2], "hand 2: 👉 your turn", urgent=True)  # queued last, tells seat 2 to act
    await box.flush()
    await box.stop()
    texts = [c[3] for c in sender.calls]
    assert texts[0] == "hand 2: 👉 your turn"
    assert texts[1:] == ["hand 3: the trump settled", "hand 1: a card tapped"]  # the others in their order


async def test_a_call_that_waited_long_enough_is_not_starved_by_urgent_edits():
    sender = FakeSender()
    scale = 4.0  # a 1.5 s wait becomes 1.5 / (4 / 1.05) s
    box = Outbox(sender, rate_scale=scale, global_limit=2, global_window=1.0)  # ~0.14 s between calls
    box.start()
    mids = await _queue_behind_a_busy_token(box, sender, 12)
    await asyncio.sleep(1.0)
    stop = asyncio.Event()

    async def urgent_stream() -> None:  # a new "your turn" in some chat more often than the token serves
        n = 0
        while not stop.is_set():
            n += 1
            c = 1 + n % 12
            box.edit(c, mids[c], f"hand {c}: 👉 turn {n}", urgent=True)
            await asyncio.sleep(0.05)

    task = asyncio.create_task(urgent_stream())
    await asyncio.sleep(0.5)  # the token is busy with urgent edits
    loop_time = asyncio.get_running_loop().time()
    queued = time.monotonic()
    sender.calls.clear()
    box.edit(-1, mids[-1], "table: trick 1")
    waited = PRIORITY_AGE / (scale / 1.05)
    while asyncio.get_running_loop().time() - loop_time < 3.0:
        await asyncio.sleep(0.05)
        if any(c[3] == "table: trick 1" for c in sender.calls):
            break
    stop.set()
    await task
    await box.stop(drain=False)
    sent = [c for c in sender.calls if c[3] == "table: trick 1"]
    assert sent, "the group's edit starved behind urgent edits"
    before = [c for c in sender.calls if c[0] < sent[0][0]]
    assert any("👉" in c[3] for c in before)  # urgent edits went first while it was young
    # then it went, once it had waited PRIORITY_AGE and the calls older than it (one per chat) had gone
    assert sent[0][0] - queued < waited + 13 * box.global_gap + 0.3


async def test_a_delayed_edit_does_not_hold_up_a_message_to_the_same_chat():
    sender = FakeSender()
    box = Outbox(sender, rate_scale=20)
    box.start()
    mid = await box.send(5, "hand")
    box.edit(5, mid, "hand ✅ ♥5", delay=2.0)  # a card tap, shown after 2 s unless a play follows
    reply = box.send_nowait(5, "illegal play: follow suit")
    await asyncio.wait_for(reply, 1.0)  # answered at once, not after the tap's wait
    assert [c[3] for c in sender.calls] == ["hand", "illegal play: follow suit"]
    await box.flush()
    await box.stop()
    assert [c[3] for c in sender.calls][-1] == "hand ✅ ♥5"  # and the tap's edit still came


async def test_an_update_without_a_delay_keeps_a_waiting_edit_waiting():
    """``delay=None`` brings a queued edit up to date without hurrying it (news that may wait for the
    reader's next turn); ``delay=0`` hurries it (the reader must act)."""
    sender = FakeSender()
    box = Outbox(sender, rate_scale=20)
    box.start()
    mid = await box.send(5, "hand")
    box.edit(5, mid, "hand: trump ♣", delay=0.6)
    box.edit(5, mid, "hand: trump ♣, dealer burying", delay=None)
    await asyncio.sleep(0.3)
    assert len(sender.calls) == 1  # still waiting
    box.edit(5, mid, "hand: 👉 your turn", urgent=True)
    await asyncio.sleep(0.15)
    assert [c[3] for c in sender.calls] == ["hand", "hand: 👉 your turn"]  # hurried, one edit for all three
    await box.flush()
    await box.stop()
    assert len(sender.calls) == 2


async def test_refusals_to_one_person_fold_and_never_delay_a_message_of_record():
    """Six quick /newtable in a group: a refusal was just sent, three more to the same person and one to another
    wait behind the group's pacing, then the lobby is queued. The lobby goes next; the first person's waiting
    refusals are one message (the newest text), the other person's stays their own."""
    sender = FakeSender()
    box = Outbox(sender, rate_scale=20)  # a group: one call every 3 s / 20 × 1.05
    box.start()
    group = -100
    first = await box.send(
        group, "refused 1", record=False, fold=("refused", 7)
    )  # sent: the group's slot is used
    later = [box.send_nowait(group, f"refused {n}", record=False, fold=("refused", 7)) for n in (2, 3, 4)]
    other = box.send_nowait(group, "refused: not an admin", record=False, fold=("refused", 8))
    lobby = box.send_nowait(group, "lobby")
    await box.flush()
    await box.stop()
    assert [c[3] for c in sender.calls] == ["refused 1", "lobby", "refused 4", "refused: not an admin"]
    assert box.stats.folded_notes == 2
    ids = [await f for f in later]
    assert ids[0] == ids[1] == ids[2] != first  # every folded refusal is the one message sent
    assert await lobby < ids[0] < await other


async def test_a_note_without_a_fold_key_is_never_merged():
    sender = FakeSender()
    box = Outbox(sender, rate_scale=20)
    box.start()
    for n in range(3):
        box.send_nowait(-100, f"note {n}", record=False)
    await box.flush()
    await box.stop()
    assert [c[3] for c in sender.calls] == ["note 0", "note 1", "note 2"]
