"""parse_mode handling: Telegram stores plain text + entities (UTF-16 offsets); bad markup is refused."""

from __future__ import annotations

import pytest
from telegram import Bot, MessageEntity

from bot.devtools.simulator import BotApiSimulator
from bot.devtools.simulator.formatting import ParseError, command_entities, parse_text, utf16_len
from tests.simulator.conftest import PRIVATE_USER, FakeClock


def test_html_becomes_plain_text_with_entities() -> None:
    text, entities = parse_text(
        '<b>轮到你</b> 出牌: <code>♥5 ♥5</code> &amp; <a href="https://t.me/x">link</a>', "HTML"
    )
    assert text == "轮到你 出牌: ♥5 ♥5 & link"
    assert [(e["type"], text[e["offset"] : e["offset"] + e["length"]]) for e in entities] == [
        ("bold", "轮到你"),
        ("code", "♥5 ♥5"),
        ("text_link", "link"),
    ]


def test_entity_offsets_count_utf16_units() -> None:
    text, entities = parse_text("🂡 <b>A</b>", "HTML")
    assert utf16_len("🂡") == 2
    assert entities == [{"type": "bold", "offset": 3, "length": 1}]
    assert command_entities("🃏 /play ♥5") == [{"type": "bot_command", "offset": 3, "length": 5}]


@pytest.mark.parametrize("bad", ["<b>open", "<b>x</i>", "<div>x</div>", "a</b>"])
def test_malformed_or_unsupported_html_is_refused(bad: str) -> None:
    with pytest.raises(ParseError, match="can't parse entities"):
        parse_text(bad, "HTML")


def test_markdown_v2_requires_escaping_reserved_characters() -> None:
    text, entities = parse_text(r"*Score* 80\-40 \(3 deals\)\.", "MarkdownV2")
    assert text == "Score 80-40 (3 deals)."
    assert entities == [{"type": "bold", "offset": 0, "length": 5}]
    with pytest.raises(ParseError, match=r"Character '-' is reserved"):
        parse_text("80-40", "MarkdownV2")
    with pytest.raises(ParseError):
        parse_text("*unclosed", "MarkdownV2")


def test_legacy_markdown_and_no_parse_mode() -> None:
    assert parse_text("*bold* and _it_", "Markdown") == (
        "bold and it",
        [{"type": "bold", "offset": 0, "length": 4}, {"type": "italic", "offset": 9, "length": 2}],
    )
    assert parse_text("<b>kept</b> *as is*", None) == ("<b>kept</b> *as is*", [])


async def test_edit_with_other_formatting_is_a_modification(
    sim: BotApiSimulator, bot: Bot, clock: FakeClock
) -> None:
    sent = await bot.send_message(PRIVATE_USER, "<b>hand</b>", parse_mode="HTML")
    assert sent.entities == (MessageEntity("bold", 0, 4),)
    clock.advance(2)
    edited = await bot.edit_message_text("hand", PRIVATE_USER, sent.message_id)  # same text, no bold
    assert edited.text == "hand" and not edited.entities  # type: ignore[union-attr]
