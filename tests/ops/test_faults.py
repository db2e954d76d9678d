"""Faults of Telegram (the simulator told to answer 502 or to stall): nothing lost, nothing sent twice, the bot
recovers by itself and its log says what happened."""

from __future__ import annotations

import logging
import time

LOBBY = "入座"


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
