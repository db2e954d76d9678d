"""Faults of Telegram (the simulator told to answer 502 or to stall): nothing lost, nothing sent twice, the bot
recovers by itself and its log says what happened."""

from __future__ import annotations

import logging
import time

LOBBY = "入座"


def rt(h):
    return h.app.bot_data["runtime"]


def lobbies(h) -> list:
    return [m for m in h.sim.bot_messages(h.group_id) if LOBBY in str(m.reply_markup)]


async def test_telegram_answering_502_loses_nothing_and_sends_nothing_twice(harness_factory, caplog):
    caplog.set_level(logging.WARNING, logger="bot.delivery.outbox")
    async with harness_factory() as h:
        h.sim.faults.answer(502, count=3, chat_id=h.group_id)
        started = time.monotonic()
        h.players[0].say(h.group_id, "/newtable shengji-17-deals")
        await h.sim.wait_for_message(h.group_id, LOBBY, timeout=30)
        print(f"502 x3: the lobby shown {time.monotonic() - started:.2f} s after /newtable")
        await h.settle()
        assert h.sim.faults.answered == 3 and len(lobbies(h)) == 1
        assert any("network error" in r.getMessage() for r in caplog.records)
        h.assert_no_errors()


async def test_a_stalling_telegram_delays_the_lobby_but_sends_it_once(harness_factory):
    async with harness_factory() as h:
        h.sim.faults.stall(2.0, count=2, chat_id=h.group_id)
        started = time.monotonic()
        h.players[0].say(h.group_id, "/newtable shengji-17-deals")
        await h.sim.wait_for_message(h.group_id, LOBBY, timeout=30)
        print(f"stall 2 s x2: the lobby shown {time.monotonic() - started:.2f} s after /newtable")
        await h.settle()
        assert h.sim.faults.answered >= 1 and len(lobbies(h)) == 1
        h.assert_no_errors()


async def test_a_telegram_stalling_past_the_default_http_timeout_sends_the_lobby_once(
    harness_factory, caplog
):
    """The simulator holds the lobby's sendMessage 7 s, past PTB's 5 s read timeout, then makes it (Telegram
    completes a request it received).  The bot used to give up at 5 s and send it again: two lobbies.  A send now
    waits TELEGRAM_SEND_TIMEOUT (60 s) for its answer: one lobby, shown when the stall ends."""
    caplog.set_level(logging.WARNING, logger="bot.delivery.outbox")
    async with harness_factory() as h:
        h.sim.faults.stall(7.0, count=1, method="sendMessage", chat_id=h.group_id)
        started = time.monotonic()
        h.players[0].say(h.group_id, "/newtable shengji-17-deals")
        await h.sim.wait_for_message(h.group_id, LOBBY, timeout=60)
        print(f"stall 7 s: the lobby shown {time.monotonic() - started:.2f} s after /newtable")
        await h.sim.wait_for(lambda: h.sim.faults.stalls_over == 1, timeout=60)  # the held call was made
        await h.settle(quiet=1.0)
        assert h.sim.faults.answered == 1 and len(lobbies(h)) == 1
        assert rt(h).outbox.stats.unconfirmed == 0  # answered within the send's timeout
        h.assert_no_errors()


async def test_a_send_with_no_answer_within_its_timeout_is_not_sent_twice(harness_factory, caplog):
    """Past the send's own timeout (here 2 s, the stall 5 s): the bot cannot know whether Telegram made it.  It
    does not send it again (Telegram does make it: one lobby), says so in its log, and the table goes on: the
    next press is answered and the lobby edited."""
    caplog.set_level(logging.WARNING, logger="bot.delivery.outbox")
    async with harness_factory(TELEGRAM_SEND_TIMEOUT=2.0) as h:
        h.sim.faults.stall(5.0, count=1, method="sendMessage", chat_id=h.group_id)
        started = time.monotonic()
        h.players[0].say(h.group_id, "/newtable shengji-17-deals")
        await h.sim.wait_for(lambda: h.sim.faults.stalls_over == 1, timeout=60)
        lobby = await h.sim.wait_for_message(h.group_id, LOBBY, timeout=60)
        print(
            f"stall 5 s past a 2 s send timeout: the lobby shown {time.monotonic() - started:.2f} s after /newtable"
        )
        await h.settle(quiet=1.0)
        assert len(lobbies(h)) == 1 and rt(h).outbox.stats.unconfirmed == 1  # made once, by Telegram
        assert any("not sent again" in r.getMessage() for r in caplog.records)
        # its message id unknown to the bot, the table's next state goes in a message sent afresh (as when a
        # lobby was deleted); the press on the first one is answered and counts
        join = str(lobby.callback_data()[0])
        await h.sim.press_and_wait(h.players[0].user_id, h.group_id, lobby.message_id, join, timeout=30)
        await h.sim.wait_for(lambda: "南  张伟" in (lobbies(h)[-1].text or ""), timeout=30)
        h.assert_no_errors()
