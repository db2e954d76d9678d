"""Each Telegram rule the simulator enforces (docs/simulator.md, "Rules enforced"), seen through PTB's Bot."""

from __future__ import annotations

import math

import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import BadRequest, Forbidden, RetryAfter

from bot.devtools.simulator import BotApiSimulator, RateLimits
from tests.simulator.conftest import GROUP, OTHER_USER, PRIVATE_USER, STRANGER, FakeClock


def retry_seconds(exc: RetryAfter) -> float:
    """retry_after as seconds (PTB 22 returns an int or a timedelta depending on PTB_TIMEDELTA)."""
    return exc._retry_after.total_seconds()


def keyboard(*data: str) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton(d, callback_data=d)] for d in data])


async def test_text_of_4096_characters_is_sent_and_4097_is_too_long(sim: BotApiSimulator, bot: Bot) -> None:
    ok = await bot.send_message(PRIVATE_USER, "红" * 4096)
    assert len(ok.text or "") == 4096
    with pytest.raises(BadRequest, match="(?i)message is too long"):
        await bot.send_message(PRIVATE_USER, "x" * 4097)
    assert len(sim.bot_messages(PRIVATE_USER)) == 1


async def test_length_is_counted_after_html_markup_is_parsed(sim: BotApiSimulator, bot: Bot) -> None:
    message = await bot.send_message(PRIVATE_USER, "<b>" + "a" * 4096 + "</b>", parse_mode="HTML")
    assert message.text == "a" * 4096
    assert sim.last_bot_message(PRIVATE_USER).text == "a" * 4096  # type: ignore[union-attr]
    with pytest.raises(BadRequest, match="(?i)can't parse entities"):
        await bot.send_message(PRIVATE_USER, "<b>unclosed", parse_mode="HTML")


async def test_callback_data_of_64_bytes_is_accepted_and_65_bytes_refused(
    sim: BotApiSimulator, bot: Bot
) -> None:
    await bot.send_message(PRIVATE_USER, "ok", reply_markup=keyboard("d" * 64))
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        await bot.send_message(PRIVATE_USER, "too long", reply_markup=keyboard("d" * 65))
    # bytes, not characters: 22 Chinese characters are 66 bytes of UTF-8
    with pytest.raises(BadRequest, match="(?i)button_data_invalid"):
        await bot.send_message(PRIVATE_USER, "too long", reply_markup=keyboard("红" * 22))


async def test_a_keyboard_of_100_buttons_is_accepted_and_101_refused(sim: BotApiSimulator, bot: Bot) -> None:
    def grid(n: int) -> InlineKeyboardMarkup:
        buttons = [InlineKeyboardButton(str(i), callback_data=str(i)) for i in range(n)]
        return InlineKeyboardMarkup([buttons[i : i + 8] for i in range(0, n, 8)])

    sent = await bot.send_message(PRIVATE_USER, "100", reply_markup=grid(100))
    assert sent.reply_markup is not None and sum(len(r) for r in sent.reply_markup.inline_keyboard) == 100
    with pytest.raises(BadRequest, match="(?i)reply markup is too long"):
        await bot.send_message(PRIVATE_USER, "101", reply_markup=grid(101))
    with pytest.raises(BadRequest, match="(?i)reply markup is too long"):  # more than 8 in a row
        row = [InlineKeyboardButton(str(i), callback_data=str(i)) for i in range(9)]
        await bot.send_message(PRIVATE_USER, "9 in a row", reply_markup=InlineKeyboardMarkup([row]))


async def test_edit_that_changes_nothing_is_refused_as_not_modified(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    sent = await bot.send_message(GROUP, "table", reply_markup=keyboard("join"))
    clock.advance(5)
    with pytest.raises(
        BadRequest, match="(?i)message is not modified: specified new message content and reply markup"
    ):
        await bot.edit_message_text("table", GROUP, sent.message_id, reply_markup=keyboard("join"))
    with pytest.raises(BadRequest, match="(?i)message is not modified"):
        await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=keyboard("join"))
    # Same text without the markup is a change: as on Telegram, the keyboard is removed.
    edited = await bot.edit_message_text("table", GROUP, sent.message_id)
    assert edited.reply_markup is None  # type: ignore[union-attr]
    assert sim.message(GROUP, sent.message_id).edit_count == 1
    history = sim.history(GROUP, sent.message_id)
    assert [v.reply_markup is not None for v in history] == [True, False]


async def test_edits_are_kept_in_the_message_history(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    sent = await bot.send_message(PRIVATE_USER, "v1", reply_markup=keyboard("a"))
    for text in ("v2", "v3"):
        clock.advance(2)
        await bot.edit_message_text(text, PRIVATE_USER, sent.message_id, reply_markup=keyboard("a"))
    clock.advance(2)
    await bot.edit_message_reply_markup(PRIVATE_USER, sent.message_id, reply_markup=keyboard("b"))
    message = sim.message(PRIVATE_USER, sent.message_id)
    assert [v.text for v in sim.history(PRIVATE_USER, sent.message_id)] == ["v1", "v2", "v3", "v3"]
    assert message.edit_count == 3 and message.callback_data() == ["b"]
    with pytest.raises(BadRequest, match="(?i)message to edit not found"):
        await bot.edit_message_text("x", PRIVATE_USER, 999)


async def test_bot_cannot_message_a_user_who_never_started_it(sim: BotApiSimulator, bot: Bot) -> None:
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await bot.send_message(STRANGER, "hello")
    sim.user_starts_bot(STRANGER, "join-table-7")
    message = await bot.send_message(STRANGER, "hello")
    assert message.chat.id == STRANGER


async def test_bot_cannot_message_a_user_who_blocked_it(sim: BotApiSimulator, bot: Bot) -> None:
    await bot.send_message(OTHER_USER, "hand")
    sim.block_bot(OTHER_USER)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await bot.send_message(OTHER_USER, "hand again")
    updates = await bot.get_updates()
    blocked = [u for u in updates if u.my_chat_member is not None]
    assert blocked and blocked[-1].my_chat_member.new_chat_member.status == "kicked"  # type: ignore[union-attr]


async def test_unknown_chat_is_not_found(sim: BotApiSimulator, bot: Bot) -> None:
    with pytest.raises(BadRequest, match="(?i)chat not found"):
        await bot.send_message(-100999, "anyone?")
    with pytest.raises(BadRequest, match="(?i)chat not found"):
        await bot.get_chat(424242)


async def test_per_chat_limit_answers_429_after_a_burst_of_three(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    for n in range(3):
        await bot.send_message(PRIVATE_USER, f"m{n}")
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(PRIVATE_USER, "one too many")
    assert retry_seconds(caught.value) == 1
    # Edits share the limit.
    first = sim.bot_messages(PRIVATE_USER)[0]
    with pytest.raises(RetryAfter):
        await bot.edit_message_text("edited", PRIVATE_USER, first.message_id)
    # Another chat is not affected; after a second one more message goes through.
    await bot.send_message(OTHER_USER, "other chat")
    clock.advance(1.0)
    await bot.send_message(PRIVATE_USER, "after a second")
    assert sim.stats.rate_limited == 2
    assert sim.stats.retry_after == [1, 1]


async def test_group_limit_answers_429_after_20_messages_a_minute(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    for n in range(20):
        await bot.send_message(GROUP, f"live {n}")
        clock.advance(1.0)  # within the per-chat limit
    with pytest.raises(RetryAfter) as caught:
        await bot.send_message(GROUP, "21st in a minute")
    # The first of the 20 was sent 20 s ago: the window frees up in 40 s (minus the 5 % tolerance).
    window = 60 * (1 - RateLimits().tolerance)
    assert retry_seconds(caught.value) == math.ceil(window - 20)
    clock.advance(window - 20)
    await bot.send_message(GROUP, "a minute later")


async def test_overall_limit_is_30_messages_per_second(sim: BotApiSimulator, bot: Bot) -> None:
    for uid in range(1000, 1031):
        sim.add_user(uid, f"P{uid}", started=True)
    for uid in range(1000, 1030):
        await bot.send_message(uid, "hi")
    with pytest.raises(RetryAfter):
        await bot.send_message(1030, "31st this second")


async def test_rate_scale_divides_the_windows() -> None:
    clock = FakeClock()
    async with BotApiSimulator(rate_scale=10, clock=clock) as sim:
        sim.add_user(1, "A", started=True)
        async with Bot(sim.token or "", base_url=sim.base_url) as bot:
            for _ in range(3):
                await bot.send_message(1, "x")
            with pytest.raises(RetryAfter) as caught:
                await bot.send_message(1, "x")
            assert retry_seconds(caught.value) == 1  # Telegram seconds
            clock.advance(0.1)  # one Telegram second / 10
            await bot.send_message(1, "x")


async def test_answering_an_unknown_or_already_answered_query_is_too_old(
    sim: BotApiSimulator, bot: Bot
) -> None:
    sent = await bot.send_message(PRIVATE_USER, "press", reply_markup=keyboard("go"))
    query_id = sim.press_button(PRIVATE_USER, PRIVATE_USER, sent.message_id, "go")
    assert sim.callback_answer(query_id) is None
    assert await bot.answer_callback_query(query_id, "Done", show_alert=True)
    answer = sim.callback_answer(query_id)
    assert answer is not None and answer.text == "Done" and answer.show_alert
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_callback_query(query_id, "again")
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_callback_query("12345", "unknown")


async def test_a_query_older_than_15_seconds_cannot_be_answered(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    sent = await bot.send_message(PRIVATE_USER, "press", reply_markup=keyboard("go"))
    query_id = sim.press_button(PRIVATE_USER, PRIVATE_USER, sent.message_id, "go")
    clock.advance(16)
    with pytest.raises(BadRequest, match="(?i)query is too old"):
        await bot.answer_callback_query(query_id)


async def test_wrong_token_is_unauthorized(sim: BotApiSimulator) -> None:
    from telegram.error import InvalidToken

    bot = Bot("987:wrong", base_url=sim.base_url)
    with pytest.raises(InvalidToken):
        await bot.initialize()
