"""A real PTB Application (polling, handlers, AIORateLimiter) against the simulator."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest

from bot.devtools.simulator import BotApiSimulator
from tests.simulator.echo_bot import build_echo_app, running

ALICE = 201
BOB = 202
GROUP = -1009876543210


@pytest.fixture
async def echo_sim() -> AsyncIterator[BotApiSimulator]:
    async with BotApiSimulator(rate_scale=20) as sim:
        sim.add_user(ALICE, "Alice", language_code="en")
        sim.add_user(BOB, "Bob")
        sim.add_group(GROUP, "Echo group", [ALICE, BOB], [ALICE])
        yield sim


async def test_start_text_reply_and_button_round_trip(echo_sim: BotApiSimulator) -> None:
    sim = echo_sim
    async with running(build_echo_app(sim)):
        sim.user_starts_bot(ALICE, "table-7")
        greeting = await sim.wait_for_message(ALICE, "Hello Alice! payload=table-7")
        assert greeting.from_bot

        sim.user_sends_text(ALICE, ALICE, "红桃5 红桃5")
        reply = await sim.wait_for_message(ALICE, "echo: 红桃5 红桃5", after=greeting)
        assert reply.button_texts() == ["👍 Like"]

        answer = await sim.press_and_wait(ALICE, ALICE, reply.message_id, "like")
        assert answer.text == "Liked!" and not answer.show_alert
        assert len(sim.stats.callback_latencies) == 1 and sim.stats.callback_latency(0.5) is not None
        edited = await sim.wait_for(
            lambda: (
                sim.message(ALICE, reply.message_id).edit_count == 1 and sim.message(ALICE, reply.message_id)
            )
        )
        assert (
            edited.text == "echo: 红桃5 红桃5 ❤" and edited.reply_markup is None
        )  # the keyboard went with the edit

        # In the group, commands addressed to this bot get through privacy mode.
        sim.user_sends_text(BOB, GROUP, "/start@ShengjiSimBot")
        await sim.wait_for_message(GROUP, "Hello Bob! payload=-")
        assert sim.stats.calls["getMe"] >= 1 and sim.stats.calls["deleteWebhook"] >= 0
    assert sim.stats.client_errors == 0


async def test_ptb_rate_limiter_retries_after_429(echo_sim: BotApiSimulator) -> None:
    """Four messages at once in one chat: the 4th gets 429, PTB waits retry_after and resends it."""
    sim = echo_sim
    # The simulator's clock runs 10× slower than real time, so the burst of three is always
    # "instant" and the 4th message always exceeds one message per (1 s / 20) of simulated time.
    sim.limiter.clock = lambda: time.monotonic() / 10
    async with running(build_echo_app(sim)):
        sim.user_sends_text(BOB, BOB, "/burst 4")
        await sim.wait_for_message(BOB, "burst 4/4", timeout=30)
    texts = [m.text for m in sim.bot_messages(BOB)]
    assert texts[-4:] == ["burst 1/4", "burst 2/4", "burst 3/4", "burst 4/4"]
    assert sim.stats.rate_limited >= 1
    assert sim.stats.errors[0][:2] == ("sendMessage", 429)


async def test_application_restart_continues_from_the_next_update(echo_sim: BotApiSimulator) -> None:
    sim = echo_sim
    sim.user_starts_bot(ALICE)
    async with running(build_echo_app(sim)):
        await sim.wait_for_message(ALICE, "Hello Alice")
    sim.user_sends_text(ALICE, ALICE, "while the bot was down")
    async with running(build_echo_app(sim)):
        await sim.wait_for_message(ALICE, "echo: while the bot was down")
        await sim.wait_updates_consumed()
    greetings = [m for m in sim.bot_messages(ALICE) if m.text and m.text.startswith("Hello")]
    assert len(greetings) == 1  # the /start update was confirmed, not delivered twice


async def test_user_handle_taps_buttons_by_label(echo_sim: BotApiSimulator) -> None:
    from bot.devtools.simulator import SimUserHandle

    sim = echo_sim
    alice = SimUserHandle(sim, ALICE)
    async with running(build_echo_app(sim)):
        alice.dm("第一")
        await sim.wait_for_message(ALICE, "echo: 第一")
        alice.dm("第二")
        second = await sim.wait_for_message(ALICE, "echo: 第二")
        answer = await alice.tap(ALICE, "Like")  # the newest message with that button
        assert answer.text == "Liked!"
        await sim.wait_for(lambda: sim.message(ALICE, second.message_id).edit_count == 1)
        assert sim.message(ALICE, second.message_id).text == "echo: 第二 ❤"
        assert sim.find_button(ALICE, "Like")[0].text == "echo: 第一"
