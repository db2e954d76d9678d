"""Telegram's rate limits as the simulator enforces them: every message call (send, photo, document, edit,
delete) counts against the chat's, the group's and the token's budgets; answering a button press does not.
Also the simulated round trip and the counters a load harness reads."""

from __future__ import annotations

import io
import math
import time

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import RetryAfter

from bot.devtools.simulator import BotApiSimulator, RateLimits
from tests.simulator.conftest import GROUP, OTHER_USER, PRIVATE_USER, FakeClock


def retry_seconds(exc: RetryAfter) -> float:
    return exc._retry_after.total_seconds()


def png() -> bytes:
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (4, 4)).save(out, format="PNG")
    return out.getvalue()


async def test_edits_count_against_the_groups_20_a_minute(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    table = await bot.send_message(GROUP, "table 0")
    for n in range(1, 20):
        clock.advance(1.0)  # within the per-chat limit
        await bot.edit_message_text(f"table {n}", GROUP, table.message_id)
    clock.advance(1.0)
    with pytest.raises(RetryAfter) as caught:
        await bot.edit_message_text("table 20", GROUP, table.message_id)
    window = 60 * (1 - RateLimits().tolerance)
    assert retry_seconds(caught.value) == math.ceil(window - 20)
    assert sim.message(GROUP, table.message_id).text == "table 19"  # the refused edit changed nothing
    with pytest.raises(RetryAfter):  # a send too: the group's budget is spent
        await bot.send_message(GROUP, "a new message")
    clock.advance(window - 20)
    await bot.edit_message_text("table 20", GROUP, table.message_id)


async def test_keyboard_edits_and_deletes_count_against_the_group_too(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    sent = []
    for n in range(10):
        sent.append(await bot.send_message(GROUP, f"m{n}"))
        clock.advance(1.0)
    for n in range(5):
        markup = InlineKeyboardMarkup([[InlineKeyboardButton(f"b{n}", callback_data=f"d{n}")]])
        await bot.edit_message_reply_markup(GROUP, sent[n].message_id, reply_markup=markup)
        clock.advance(1.0)
    for n in range(5, 10):
        await bot.delete_message(GROUP, sent[n].message_id)
        clock.advance(1.0)
    with pytest.raises(RetryAfter):
        await bot.delete_message(GROUP, sent[0].message_id)
    assert not sim.message(GROUP, sent[0].message_id).deleted


async def test_edits_photos_documents_and_deletes_count_against_the_tokens_30_a_second(
    sim: BotApiSimulator, bot: Bot
) -> None:
    users = list(range(2000, 2040))
    for uid in users:
        sim.add_user(uid, f"P{uid}", started=True)
    messages = [await bot.send_message(uid, "hi") for uid in users[:10]]  # 10
    for m in messages[:5]:  # 15
        await bot.edit_message_text("edited", m.chat_id, m.message_id)
    for m in messages[5:10]:  # 20
        await bot.delete_message(m.chat_id, m.message_id)
    for uid in users[10:15]:  # 25
        await bot.send_photo(uid, png())
    for uid in users[15:20]:  # 30
        await bot.send_document(uid, b"report", filename="r.txt")
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(users[20], "31st this second")
    assert retry_seconds(caught.value) == 1
    assert sim.stats.message_calls == 31  # the refused one was a call too


async def test_a_private_chat_gets_one_message_a_second_after_a_small_burst(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    first = await bot.send_message(PRIVATE_USER, "hand")
    await bot.edit_message_text("hand 1", PRIVATE_USER, first.message_id)
    await bot.delete_message(PRIVATE_USER, first.message_id)
    with pytest.raises(RetryAfter):
        await bot.send_message(PRIVATE_USER, "fourth at once")
    for n in range(3):  # then one a second, steadily
        clock.advance(1.0)
        await bot.send_message(PRIVATE_USER, f"steady {n}")
        with pytest.raises(RetryAfter):
            await bot.send_message(PRIVATE_USER, f"second in the same second {n}")


async def test_answering_button_presses_spends_no_message_budget(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("go", callback_data="go")]])
    message = await bot.send_message(PRIVATE_USER, "press", reply_markup=markup)
    queries = [sim.press_button(PRIVATE_USER, PRIVATE_USER, message.message_id, "go") for _ in range(40)]
    for query in queries:  # 40 answers in the same second: more than the token's 30
        await bot.answer_callback_query(query, text="ok")
    await bot.send_message(PRIVATE_USER, "two more")  # the chat still has its burst left
    await bot.send_message(PRIVATE_USER, "messages")
    assert sim.stats.rate_limited == 0
    assert sim.stats.message_calls == 3


async def test_a_429_says_when_to_retry_and_is_counted_by_chat_kind(sim: BotApiSimulator, bot: Bot) -> None:
    for n in range(3):
        await bot.send_message(OTHER_USER, f"m{n}")
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(OTHER_USER, "too many")
    assert retry_seconds(caught.value) >= 1
    await bot.send_message(GROUP, "group")
    stats = sim.stats
    assert stats.rate_limited_by_chat_kind == {"private": 1}
    assert stats.calls_by_chat_kind[("sendMessage", "private")] == 4
    assert stats.calls_by_chat_kind[("sendMessage", "group")] == 1
    assert stats.message_calls_by(chat_kind="group") == 1
    assert stats.message_calls_by(method="sendMessage", chat_kind="private") == 4
    snapshot = stats.snapshot()
    assert snapshot["calls_by_chat_kind"]["sendMessage/private"] == 4
    assert snapshot["rate_limited_by_chat_kind"] == {"private": 1}


async def test_a_simulated_round_trip_delays_every_call() -> None:
    async with BotApiSimulator(rtt_ms=200, enforce_rate_limits=False) as sim:
        sim.add_user(1, "A", started=True)
        async with Bot(sim.token or "", base_url=sim.base_url) as bot:
            started = time.monotonic()
            await bot.send_message(1, "x")
            await bot.get_me()
            elapsed = time.monotonic() - started
    assert elapsed >= 0.4
    assert sim.stats.calls["sendMessage"] == 1


async def test_listeners_see_each_message_the_bot_sends_or_edits_with_its_time(
    sim: BotApiSimulator, bot: Bot
) -> None:
    seen: list[tuple[int, str | None, float]] = []
    sim.bot_message_listeners.append(lambda m: seen.append((m.chat_id, m.text, m.current.at)))
    before = time.time()
    sent = await bot.send_message(GROUP, "v1")
    await bot.edit_message_text("v2", GROUP, sent.message_id)
    assert [(chat, text) for chat, text, _ in seen] == [(GROUP, "v1"), (GROUP, "v2")]
    assert before <= seen[0][2] <= seen[1][2] <= time.time()
    assert [v.text for v in sim.history(GROUP, sent.message_id)] == ["v1", "v2"]
