"""The HTTP control endpoints (/_sim/...) that drive a standalone simulator, through SimulatorClient."""

from __future__ import annotations

from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup

from bot.devtools.simulator import DEFAULT_TOKEN, BotApiSimulator, SimulatorClient


async def test_control_endpoints_act_as_users_and_read_chats() -> None:
    async with (
        BotApiSimulator() as sim,
        SimulatorClient(sim.url) as client,
        Bot(DEFAULT_TOKEN, base_url=sim.base_url) as bot,
    ):
        await client.add_user(7, "Ann", language_code="en")
        await client.add_group(-500, "Club", [7], [7])
        await client.start(7, "hello")
        await client.send(7, -500, "/help")
        updates = await bot.get_updates()
        assert [u.message.text for u in updates] == ["/start hello", "/help"]  # type: ignore[union-attr]
        sent = await bot.send_message(
            7, "pick", reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("A", callback_data="a")]])
        )
        query_id = await client.press(7, 7, sent.message_id, text="A")
        assert await client.callback_answer(query_id) is None
        await bot.answer_callback_query(query_id, "picked A")
        assert (await client.callback_answer(query_id))["text"] == "picked A"
        messages = await client.messages(7)
        assert [m["text"] for m in messages] == ["/start hello", "pick"]
        assert "picked A" in await client.transcript(7)
        await client.block(7)
        assert sim.users[7].blocked
        stats = await client.stats()
        assert stats["calls"]["sendMessage"] == 1
        try:
            await client.press(7, 7, sent.message_id, "nope")
        except RuntimeError as exc:
            assert "no button" in str(exc)
        else:
            raise AssertionError("pressing a button that does not exist must fail")
