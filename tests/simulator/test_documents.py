"""A simulated user sends a file: the bot receives a Message with ``document`` and downloads it with
python-telegram-bot (getFile, then ``base_file_url`` + file_path), as on Telegram."""

from __future__ import annotations

import pytest
from telegram import Bot, Update

from bot.devtools.simulator import BotApiSimulator, SimulatorClient
from bot.devtools.simulator.client import SimUserHandle
from bot.devtools.simulator.server import SimulatorError
from tests.simulator.conftest import GROUP, OTHER_USER, PRIVATE_USER

SETUP = 'name = "工会双升赛"\npreset = "shengji-50min"\n'.encode()


async def _next_update(bot: Bot) -> Update:
    updates = await bot.get_updates(timeout=0)
    assert len(updates) == 1
    await bot.get_updates(offset=updates[0].update_id + 1, timeout=0)
    return updates[0]


async def test_private_document_reaches_the_bot_with_its_metadata(sim: BotApiSimulator, bot: Bot) -> None:
    sent = SimUserHandle(sim, PRIVATE_USER).send_document(PRIVATE_USER, SETUP, "2025 双升.toml")
    update = await _next_update(bot)
    msg = update.effective_message
    assert msg is not None and msg.document is not None and msg.message_id == sent.message_id
    assert msg.from_user is not None and msg.from_user.id == PRIVATE_USER
    doc = msg.document
    assert doc.file_name == "2025 双升.toml"
    assert doc.file_size == len(SETUP)
    assert doc.mime_type  # guessed from the name when not given
    assert doc.file_unique_id and doc.file_id
    assert msg.text is None


async def test_bot_downloads_the_file_through_get_file(sim: BotApiSimulator, bot: Bot) -> None:
    sim.user_sends_document(PRIVATE_USER, PRIVATE_USER, SETUP, "setup.toml", mime_type="application/toml")
    msg = (await _next_update(bot)).effective_message
    assert msg is not None and msg.document is not None
    assert msg.document.mime_type == "application/toml"
    file = await bot.get_file(msg.document.file_id)
    assert file.file_path and file.file_size == len(SETUP)
    assert bytes(await file.download_as_bytearray()) == SETUP


async def test_unknown_file_id_is_refused(bot: Bot) -> None:
    from telegram.error import BadRequest

    with pytest.raises(BadRequest, match="(?i)invalid file_id"):
        await bot.get_file("no-such-file")


async def test_caption_command_and_privacy_mode_in_groups(sim: BotApiSimulator, bot: Bot) -> None:
    """Privacy mode: a plain file in a group is not delivered; one whose caption is a command is."""
    sim.user_sends_document(OTHER_USER, GROUP, b"x", "notes.txt")
    assert await bot.get_updates(timeout=0) == ()
    sim.user_sends_document(OTHER_USER, GROUP, b"y", "setup.toml", caption="/import now")
    msg = (await _next_update(bot)).effective_message
    assert msg is not None and msg.caption == "/import now" and msg.document is not None
    assert msg.caption_entities and msg.caption_entities[0].type == "bot_command"


def test_documents_follow_the_chat_rules(sim: BotApiSimulator) -> None:
    with pytest.raises(SimulatorError, match="empty"):
        sim.user_sends_document(PRIVATE_USER, PRIVATE_USER, b"", "a.toml")
    with pytest.raises(SimulatorError, match="not a member"):
        sim.add_user(555, "Dan")
        sim.user_sends_document(555, GROUP, b"x", "a.toml")


async def test_transcript_and_http_control(sim: BotApiSimulator, bot: Bot) -> None:
    async with SimulatorClient(sim.url) as client:
        view = await client.send_document(PRIVATE_USER, PRIVATE_USER, SETUP, "last-year.toml")
    assert view["document"]["file_name"] == "last-year.toml" and view["document"]["file_size"] == len(SETUP)
    msg = (await _next_update(bot)).effective_message
    assert msg is not None and msg.document is not None
    file = await bot.get_file(msg.document.file_id)
    assert bytes(await file.download_as_bytearray()) == SETUP
    assert "<document last-year.toml>" in sim.transcript(PRIVATE_USER)
    assert "<document last-year.toml>" in sim.transcript(PRIVATE_USER, mode="events")
