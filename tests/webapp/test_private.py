"""Mini App mode costs the private chats nothing per deal: while a seated person has the table page open
their hand message is neither edited nor sent for a new deal; when the page has stayed closed a few
seconds it catches up (a new deal: a new hand message, with the button that opens the page again)."""

from __future__ import annotations

import asyncio
from typing import Any

import bot.webapp
from tests.webapp.helpers import PageClient, local_table, my_turn, wait_until

URL = "https://cards.example.org"
GRACE = 1.0


def buttons(message: Any) -> list[dict[str, Any]]:
    return [b for row in (message.reply_markup or {}).get("inline_keyboard", []) for b in row]


def hand_messages(table: Any) -> list[Any]:
    """The person's hand messages (the private messages with card buttons), oldest first."""
    return [m for m in table.sim.bot_messages(table.user_id) if any("callback_data" in b for b in buttons(m))]


async def settled(table: Any) -> None:
    """Every edit the outbox holds for the person's chat has been made (its pacing is invisible to the
    simulator), and the bot is quiet."""
    outbox = table.rt.outbox
    await wait_until(
        lambda: (
            not any(
                outbox.has_pending_edit(table.user_id, m.message_id)
                for m in table.sim.bot_messages(table.user_id)
            )
        )
    )
    await table.sim.wait_quiet(quiet=0.5, timeout=30)


def calls(table: Any) -> int:
    """Telegram calls made for the person's private chat so far (sends and edits)."""
    return sum(len(m.versions) for m in table.sim.bot_messages(table.user_id))


async def play_until(page: PageClient, stop: Any) -> dict[str, Any]:
    """Play the person's turns through the page (pass when allowed, else the lowest card) until ``stop(frame)``."""
    frame = page.state
    while True:
        if frame is None or not (stop(frame) or my_turn(frame)):
            frame = await page.until(
                lambda f: f.get("type") == "state" and (stop(f) or my_turn(f)), timeout=60
            )
        if stop(frame):
            return frame
        a, hand, frame = frame["me"]["actions"], frame["me"]["hand"], None
        if a.get("play") and a["pass"]:
            await page.act("pass")
        elif a.get("play"):
            await page.act("play", hand[-1]["cards"][:1])


async def test_a_deal_begun_with_the_page_open_sends_its_hand_message_only_when_the_page_closes(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(bot.webapp, "CATCH_UP_AFTER", GRACE)
    async with local_table(tmp_path, "/newtable guandan-team deals=2 seed=5 bots=3", WEBAPP_URL=URL) as table:
        first = await wait_until(lambda: hand_messages(table))  # deal 1's hand message: the door to the page
        assert buttons(first[-1])[0]["web_app"]["url"] == f"{URL}/?m={table.match_id}"
        page = await PageClient.open(table)
        await page.hello(table.init_data(), table.match_id)
        await settled(table)  # an edit queued before the page opened has been made
        before, messages = calls(table), len(hand_messages(table))
        frame = await play_until(
            page, lambda f: f["table"].get("deal_no") == 2 and f.get("me", {}).get("hand")
        )
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        assert calls(table) == before, (
            "nothing is sent to or edited in the private chat while the page is open"
        )
        assert len(hand_messages(table)) == messages
        await page.close()
        new = await wait_until(lambda: hand_messages(table)[messages:], timeout=30)
        assert len(new) == 1  # deal 2's hand message, once the page closed
        door = buttons(new[0])
        assert door[0] == {"text": "🃏 打开牌桌", "web_app": {"url": f"{URL}/?m={table.match_id}"}}
        cards = [b for b in door if b.get("callback_data", "").startswith("s:")]
        assert len(cards) == frame["me"]["hand_size"]  # the deal's hand, one button a card


async def test_a_page_reopened_at_once_costs_nothing_and_a_closed_one_catches_up(tmp_path, monkeypatch):
    monkeypatch.setattr(bot.webapp, "CATCH_UP_AFTER", GRACE)
    async with local_table(tmp_path, "/newtable guandan-team deals=1 seed=3 bots=3") as table:
        await wait_until(lambda: hand_messages(table))
        page = await PageClient.open(table)
        await page.hello(table.init_data(), table.match_id)
        await settled(table)  # an edit queued before the page opened has been made
        hand = hand_messages(table)[-1]
        edits = len(hand.versions)
        start = await page.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        await play_until(
            page,
            lambda f: (
                f.get("version", 0) > start["version"] + 4 and my_turn(f) and f["me"]["actions"]["play"]
            ),
        )  # the person's move: the computers wait for it
        async with table.rt.lock(
            table.match_id
        ):  # the last computer move's after-step (chat messages) is done
            pass
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        assert len(hand.versions) == edits, "the page is open: the hand message is not edited"
        await page.close()  # the phone sleeps a moment; the page comes back before the grace is over
        page = await PageClient.open(table)
        await page.hello(table.init_data(), table.match_id)
        await asyncio.sleep(GRACE + 1.0)
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        assert len(hand.versions) == edits, (
            "a page back within the grace period: the hand message is not edited"
        )
        await page.close()  # closed for good: the hand message shows the hand as it is now
        await wait_until(lambda: len(hand.versions) > edits, timeout=30)
        assert len(hand_messages(table)) == 1  # the same deal: an edit, not a new message
