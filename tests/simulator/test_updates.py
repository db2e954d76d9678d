"""Updates, users acting, raw wire format, commands and files."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import Conflict, EndPointNotFound

from bot.devtools.simulator import DEFAULT_TOKEN, BotApiSimulator, SimulatorError
from tests.simulator.conftest import GROUP, OTHER_USER, PRIVATE_USER, STRANGER


async def test_get_updates_offset_confirms_and_forgets_earlier_updates(
    sim: BotApiSimulator, bot: Bot
) -> None:
    for text in ("one", "two", "three"):
        sim.user_sends_text(PRIVATE_USER, PRIVATE_USER, text)
    first = await bot.get_updates()
    assert [u.message.text for u in first] == ["one", "two", "three"]  # type: ignore[union-attr]
    again = await bot.get_updates()  # nothing confirmed yet: the same updates again
    assert [u.update_id for u in again] == [u.update_id for u in first]
    limited = await bot.get_updates(offset=first[1].update_id, limit=1)  # confirms "one"
    assert [u.message.text for u in limited] == ["two"]  # type: ignore[union-attr]
    assert [u["message"]["text"] for u in sim.pending_updates()] == ["two", "three"]
    assert await bot.get_updates(offset=first[-1].update_id + 1) == ()
    assert sim.pending_updates() == []
    sim.user_sends_text(PRIVATE_USER, PRIVATE_USER, "four")
    sim.user_sends_text(PRIVATE_USER, PRIVATE_USER, "five")
    last = await bot.get_updates(offset=-1)  # negative offset: only the last one, the rest forgotten
    assert [u.message.text for u in last] == ["five"]  # type: ignore[union-attr]
    assert last[0].update_id > first[-1].update_id


async def test_long_polling_returns_as_soon_as_an_update_arrives(sim: BotApiSimulator, bot: Bot) -> None:
    async def later() -> None:
        await asyncio.sleep(0.05)
        sim.user_sends_text(OTHER_USER, OTHER_USER, "hello")

    task = asyncio.create_task(later())
    updates = await bot.get_updates(timeout=30, read_timeout=40)
    await task
    assert [u.message.text for u in updates] == ["hello"]  # type: ignore[union-attr]
    assert await bot.get_updates(offset=updates[0].update_id + 1, timeout=0) == ()


async def test_a_second_get_updates_terminates_the_first_with_conflict(
    sim: BotApiSimulator, bot: Bot
) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=5, read_timeout=10))
    await asyncio.sleep(0.05)
    async with Bot(DEFAULT_TOKEN, base_url=sim.base_url) as second_instance:
        assert await second_instance.get_updates(timeout=0) == ()
    with pytest.raises(Conflict, match="(?i)terminated by other getUpdates request"):
        await first


async def test_user_commands_carry_bot_command_entities(sim: BotApiSimulator, bot: Bot) -> None:
    sim.user_starts_bot(STRANGER, "t42")
    sim.user_sends_text(PRIVATE_USER, GROUP, "/newtable@ShengjiSimBot shengji-17-deals deals=3")
    updates = await bot.get_updates()
    start, newtable = (u.message for u in updates)
    assert start.text == "/start t42" and start.parse_entities() == {start.entities[0]: "/start"}  # type: ignore[union-attr]
    assert newtable.chat.type == "supergroup" and newtable.from_user.first_name == "Alice"  # type: ignore[union-attr]
    assert list(newtable.parse_entities().values()) == ["/newtable@ShengjiSimBot"]  # type: ignore[union-attr]
    assert sim.users[STRANGER].started


async def test_privacy_mode_delivers_only_commands_and_replies_in_groups(
    sim: BotApiSimulator, bot: Bot
) -> None:
    sim.user_sends_text(PRIVATE_USER, GROUP, "just chatting")
    sim.user_sends_text(PRIVATE_USER, GROUP, "/help@SomeOtherBot")
    sim.user_sends_text(PRIVATE_USER, GROUP, "/help")
    sent = await bot.send_message(GROUP, "table")
    sim.user_sends_text(OTHER_USER, GROUP, "replying to the bot", reply_to_message_id=sent.message_id)
    updates = await bot.get_updates()
    assert [u.message.text for u in updates] == ["/help", "replying to the bot"]  # type: ignore[union-attr]
    assert updates[1].message.reply_to_message.message_id == sent.message_id  # type: ignore[union-attr]
    assert [m.text for m in sim.messages(GROUP)][:3] == ["just chatting", "/help@SomeOtherBot", "/help"]


async def test_pressing_a_button_sends_a_callback_query_with_the_current_message(
    sim: BotApiSimulator, bot: Bot
) -> None:
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Join seat 1", callback_data="join:1")]])
    sent = await bot.send_message(GROUP, "table", reply_markup=markup)
    query_id = sim.press_button(OTHER_USER, GROUP, sent.message_id, text="Join seat 1")
    (update,) = await bot.get_updates()
    query = update.callback_query
    assert query is not None and query.id == query_id and query.data == "join:1"
    assert query.from_user.id == OTHER_USER and query.message.message_id == sent.message_id  # type: ignore[union-attr]
    await query.answer()
    # A button that is not on the message's current keyboard cannot be pressed.
    await bot.edit_message_reply_markup(GROUP, sent.message_id, reply_markup=None)
    with pytest.raises(SimulatorError, match="no button"):
        sim.press_button(OTHER_USER, GROUP, sent.message_id, "join:1")
    with pytest.raises(SimulatorError, match="cannot see"):
        sim.press_button(OTHER_USER, PRIVATE_USER, sent.message_id, "join:1")


async def test_commands_are_kept_per_scope_and_language(sim: BotApiSimulator, bot: Bot) -> None:
    await bot.set_my_commands([BotCommand("start", "开始"), BotCommand("help", "帮助")])
    await bot.set_my_commands([BotCommand("start", "Start")], language_code="en")
    await bot.set_my_commands(
        [BotCommand("newtable", "New table")], scope=BotCommandScopeAllGroupChats(), language_code="en"
    )
    assert [c.description for c in await bot.get_my_commands()] == ["开始", "帮助"]
    assert [c.command for c in await bot.get_my_commands(language_code="en")] == ["start"]
    assert [
        c.command for c in await bot.get_my_commands(scope=BotCommandScopeAllGroupChats(), language_code="en")
    ] == ["newtable"]
    await bot.delete_my_commands(language_code="en")
    assert await bot.get_my_commands(language_code="en") == ()


async def test_uploaded_photo_and_document_bytes_are_kept(sim: BotApiSimulator, bot: Bot) -> None:
    import io

    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), "green").save(buffer, format="PNG")
    photo = await bot.send_photo(GROUP, buffer.getvalue(), caption="<b>最终排名</b>", parse_mode="HTML")
    assert photo.photo[-1].width == 40 and photo.caption == "最终排名"
    document = await bot.send_document(GROUP, b"rank,team\n1,A\n", filename="results.csv")
    stored = sim.message(GROUP, document.message_id)
    assert stored.document is not None and stored.document["bytes"] == b"rank,team\n1,A\n"
    assert stored.document["filename"] == "results.csv"
    assert sim.message(GROUP, photo.message_id).photo["bytes"] == buffer.getvalue()  # type: ignore[index]
    file = await bot.get_file(document.document.file_id)  # type: ignore[union-attr]
    assert bytes(await file.download_as_bytearray()) == b"rank,team\n1,A\n"


async def test_group_members_admins_and_chat_info(sim: BotApiSimulator, bot: Bot) -> None:
    assert (await bot.get_chat_member(GROUP, PRIVATE_USER)).status == "creator"
    assert (await bot.get_chat_member(GROUP, OTHER_USER)).status == "member"
    sim.add_user(555, "Outsider")
    assert (await bot.get_chat_member(GROUP, 555)).status == "left"
    admins = await bot.get_chat_administrators(GROUP)
    assert [a.user.id for a in admins] == [PRIVATE_USER]
    chat = await bot.get_chat(GROUP)
    assert chat.title == "牌桌 1"
    assert await bot.send_chat_action(GROUP, "typing")
    assert (await bot.get_chat_menu_button()).type == "commands"
    assert await bot.set_chat_menu_button()
    assert (await bot.get_chat_menu_button()).type == "default"


async def test_wire_format_of_errors_and_unknown_methods(sim: BotApiSimulator, bot: Bot) -> None:
    url = f"{sim.base_url}{DEFAULT_TOKEN}"
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{url}/sendMessage", json={"chat_id": 999999, "text": "x"}) as response:
            assert response.status == 400
            assert await response.json() == {
                "ok": False,
                "error_code": 400,
                "description": "Bad Request: chat not found",
            }
        async with session.get(
            f"{url}/sendMessage", params={"chat_id": str(PRIVATE_USER), "text": "via GET"}
        ) as response:
            body = await response.json()
            assert body["ok"] is True and body["result"]["text"] == "via GET"
        for n in range(3):
            await session.post(f"{url}/sendMessage", data={"chat_id": str(OTHER_USER), "text": f"form {n}"})
        async with session.post(
            f"{url}/sendMessage", data={"chat_id": str(OTHER_USER), "text": "x"}
        ) as response:
            assert response.status == 429
            assert await response.json() == {
                "ok": False,
                "error_code": 429,
                "description": "Too Many Requests: retry after 1",
                "parameters": {"retry_after": 1},
            }
        async with session.post(f"{url}/fooBar") as response:
            assert response.status == 404
            assert await response.json() == {"ok": False, "error_code": 404, "description": "Not Found"}
    with pytest.raises(EndPointNotFound):
        await bot.do_api_request("fooBar")
    assert sim.stats.calls["sendMessage"] == 6 and sim.stats.calls["fooBar"] == 2
    assert sim.stats.rate_limited == 1 and sim.stats.client_errors == 4


async def test_wait_helpers_and_transcript(sim: BotApiSimulator, bot: Bot) -> None:
    async def bot_side() -> None:
        await asyncio.sleep(0.05)
        sent = await bot.send_message(
            GROUP,
            "牌桌：等待玩家",
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton("入座 1", callback_data="seat:1")]]),
        )
        await asyncio.sleep(0.05)
        await bot.edit_message_text("牌桌：Alice 已入座", GROUP, sent.message_id)

    task = asyncio.create_task(bot_side())
    message = await sim.wait_for_message(GROUP, "Alice 已入座", timeout=5)
    await task
    assert message.edit_count == 1
    text = sim.transcript(GROUP)
    assert "牌桌 1" in text and "牌桌：Alice 已入座" in text and "edited 1×" in text
    events = sim.transcript(GROUP, mode="events")
    assert "[入座 1]" in events and "牌桌：等待玩家" in events
    with pytest.raises(TimeoutError):
        await sim.wait_for(lambda: False, timeout=0.05)


async def test_update_types_the_bot_did_not_ask_for_are_dropped(sim: BotApiSimulator, bot: Bot) -> None:
    assert await bot.get_updates(allowed_updates=["message", "callback_query"]) == ()
    sim.block_bot(OTHER_USER)  # a my_chat_member update: not asked for
    sim.user_sends_text(PRIVATE_USER, PRIVATE_USER, "still here")
    updates = await bot.get_updates()
    assert [u.message.text for u in updates] == ["still here"]  # type: ignore[union-attr]
    await bot.get_updates(offset=updates[-1].update_id + 1)
    assert sim.pending_updates() == []


async def test_pinning_needs_admin_rights_in_groups_and_leaving_stops_sends(
    sim: BotApiSimulator, bot: Bot
) -> None:
    from telegram.error import BadRequest, Forbidden

    sent = await bot.send_message(GROUP, "live table")
    with pytest.raises(BadRequest, match="(?i)not enough rights to manage pinned messages"):
        await bot.pin_chat_message(GROUP, sent.message_id)
    sim.chat(GROUP).bot_is_admin = True
    assert await bot.pin_chat_message(GROUP, sent.message_id)
    assert (await bot.get_chat(GROUP)).pinned_message.text == "live table"  # type: ignore[union-attr]
    assert await bot.unpin_chat_message(GROUP)
    sim.remove_bot_from_group(GROUP)
    with pytest.raises(Forbidden, match="(?i)bot is not a member of the supergroup chat"):
        await bot.send_message(GROUP, "anyone?")
    updates = await bot.get_updates()
    assert updates[-1].my_chat_member.new_chat_member.status == "left"  # type: ignore[union-attr]
    sim.add_bot_to_group(GROUP, admin=True)
    updates = await bot.get_updates(offset=updates[-1].update_id + 1)
    assert updates[-1].my_chat_member.new_chat_member.status == "administrator"  # type: ignore[union-attr]
    assert await bot.leave_chat(GROUP)
    assert not sim.chat(GROUP).bot_is_member
