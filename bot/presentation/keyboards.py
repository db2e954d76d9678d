"""The keyboards every game shares (the lobby, "open the chat", the table message's "my hand"), as neutral
data (``bot.presentation.markup``; the outbox turns them into Telegram's at the point of sending).

Button callback data is encoded by ``bot.presentation.callbacks`` (the one codec of the play side's buttons).  The
words shared by every game (seat and side names, ranks, cards) are in ``bot.presentation.common`` and the
hand's rows in ``bot.presentation.hand``; they are named here too for the modules that import them from here.
"""

from __future__ import annotations

from bot.presentation.callbacks import ResumeButton, TableButton, TableOp
from bot.presentation.common import ctext, parse_hand, rank_text, seat_name, side_name, suit_text, who
from bot.presentation.games import group_hand
from bot.presentation.hand import chunk, hand_lines, selected_counts
from bot.presentation.i18n import t
from bot.presentation.markup import Button, Keyboard

__all__ = [
    "chunk",
    "ctext",
    "group_hand",
    "hand_lines",
    "lobby",
    "my_hand_button",
    "open_chat_button",
    "parse_hand",
    "rank_text",
    "seat_name",
    "selected_counts",
    "side_name",
    "suit_text",
    "who",
]


def lobby(
    lang: str,
    table_id: int,
    title: str,
    names: list[str | None],
    computers: list[bool],
    bot_username: str | None,
    *,
    started: bool = False,
) -> tuple[str, Keyboard | None]:
    lines = [t(lang, "lobby.title", title=title, table=table_id)]
    for seat in range(4):
        name = t(lang, "name.computer") if computers[seat] else names[seat] or t(lang, "lobby.empty")
        lines.append(f"{seat_name(lang, seat)}  {name}")
    lines.append(t(lang, "lobby.hint"))
    rows: list[list[Button]] = []
    row = []
    for seat in range(4):
        if not computers[seat] and not names[seat]:
            row.append(
                Button(
                    t(lang, "btn.join", seat=seat_name(lang, seat)),
                    callback_data=TableButton(TableOp.JOIN, table_id, seat).encode(),
                )
            )
    if row:
        rows.append(row)
    rows.append(
        [
            Button(t(lang, "btn.start"), callback_data=TableButton(TableOp.START, table_id).encode()),
            Button(t(lang, "btn.leave"), callback_data=TableButton(TableOp.LEAVE, table_id).encode()),
        ]
    )
    return "\n".join(lines), Keyboard.of(rows)


def open_chat_button(lang: str, bot_username: str | None, payload: str) -> Keyboard | None:
    if not bot_username:
        return None
    return Keyboard.of(
        [[Button(t(lang, "btn.open_chat"), url=f"https://t.me/{bot_username}?start={payload}")]]
    )


def my_hand_button(lang: str, bot_username: str | None) -> Keyboard | None:
    """The table message's link to the bot's private chat, where the hands are."""
    if not bot_username:
        return None
    return Keyboard.of([[Button(t(lang, "btn.my_hand"), url=f"https://t.me/{bot_username}")]])


def resume_keyboard(lang: str, match_id: int) -> Keyboard:
    """The Resume button under a paused table's notice."""
    return Keyboard.of([[Button(t(lang, "btn.resume"), callback_data=ResumeButton(match_id).encode())]])
