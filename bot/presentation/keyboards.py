"""Text and keyboards built from engine views (never from hidden state).

Button callback data is encoded by ``bot.edge.callbacks`` (the one codec of the play side's buttons).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.edge.callbacks import ResumeButton, TableButton, TableOp, tap
from bot.presentation.i18n import cards as tcards
from bot.presentation.i18n import t
from engine.cards import JOKER_SUIT, SUIT_SYMBOLS, card_text, parse_cards, rank_of, suit_of

SEATS = {"zh": ("南", "东", "北", "西"), "en": ("S", "E", "N", "W")}
SIDES = {"zh": ("南北", "东西"), "en": ("N-S", "E-W")}
RANKS_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}


def seat_name(lang: str, seat: int) -> str:
    return SEATS[lang][seat % 4]


def side_name(lang: str, side: int) -> str:
    return SIDES[lang][side % 2]


def rank_text(r: int | None) -> str:
    if r is None:
        return "?"
    return RANKS_TEXT.get(r, str(r))


def ctext(lang: str, text: str | None) -> str:
    return tcards(lang, text or "")


def suit_text(suit: Any) -> str:
    if suit is None:
        return "?"
    if isinstance(suit, int):
        return SUIT_SYMBOLS[suit] if 0 <= suit < 4 else "NT"
    return str(suit)


def who(lang: str, names: Sequence[str], seat: int) -> str:
    return f"{seat_name(lang, seat)} {names[seat]}"


# --- the lobby ------------------------------------------------------------------------------------


def lobby(
    lang: str,
    table_id: int,
    title: str,
    names: list[str | None],
    computers: list[bool],
    bot_username: str | None,
    *,
    started: bool = False,
) -> tuple[str, InlineKeyboardMarkup | None]:
    lines = [t(lang, "lobby.title", title=title, table=table_id)]
    for seat in range(4):
        name = t(lang, "name.computer") if computers[seat] else names[seat] or t(lang, "lobby.empty")
        lines.append(f"{seat_name(lang, seat)}  {name}")
    lines.append(t(lang, "lobby.hint"))
    rows: list[list[InlineKeyboardButton]] = []
    row = []
    for seat in range(4):
        if not computers[seat] and not names[seat]:
            row.append(
                InlineKeyboardButton(
                    t(lang, "btn.join", seat=seat_name(lang, seat)),
                    callback_data=TableButton(TableOp.JOIN, table_id, seat).encode(),
                )
            )
    if row:
        rows.append(row)
    rows.append(
        [
            InlineKeyboardButton(
                t(lang, "btn.start"), callback_data=TableButton(TableOp.START, table_id).encode()
            ),
            InlineKeyboardButton(
                t(lang, "btn.leave"), callback_data=TableButton(TableOp.LEAVE, table_id).encode()
            ),
        ]
    )
    return "\n".join(lines), InlineKeyboardMarkup(rows)


def open_chat_button(lang: str, bot_username: str | None, payload: str) -> InlineKeyboardMarkup | None:
    if not bot_username:
        return None
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton(t(lang, "btn.open_chat"), url=f"https://t.me/{bot_username}?start={payload}")]]
    )


# --- grouping a hand -------------------------------------------------------------------------------


def resume_keyboard(lang: str, match_id: int) -> InlineKeyboardMarkup:
    """The Resume button under a paused table's notice."""
    button = InlineKeyboardButton(t(lang, "btn.resume"), callback_data=ResumeButton(match_id).encode())
    return InlineKeyboardMarkup([[button]])


def is_trump_sj(c: int, trump_suit: int | None, level: int | None) -> bool:
    if suit_of(c) == JOKER_SUIT:
        return True
    if level is not None and rank_of(c) == level:
        return True
    return trump_suit is not None and suit_of(c) == trump_suit


def group_hand(
    game: str, hand: list[int], trump_suit: int | None, level: int | None
) -> list[tuple[str, list[int]]]:
    """Rows of the hand keyboard: (label, cards) in display order (trumps first in Shengji)."""
    if game == "shengji":
        groups: list[tuple[str, list[int]]] = []
        trumps = [c for c in hand if is_trump_sj(c, trump_suit, level)]
        if trumps:
            groups.append(("trump", trumps))
        for suit in range(4):
            cs = [c for c in hand if suit_of(c) == suit and not is_trump_sj(c, trump_suit, level)]
            if cs:
                groups.append((SUIT_SYMBOLS[suit], cs))
        return groups
    # Guandan: the hand is display-sorted by the engine (jokers, level, A..2): rows of up to 8
    return [("", hand)]


def chunk(items: list[Any], n: int = 8) -> list[list[Any]]:
    return [items[i : i + n] for i in range(0, len(items), n)]


# --- the hand message ---------------------------------------------------------------------------


def selected_counts(selection: list[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in selection:
        out[c] = out.get(c, 0) + 1
    return out


def hand_keyboard(
    lang: str,
    game: str,
    match_id: int,
    deal: int,
    hand: list[int],
    selection: list[int],
    trump_suit: int | None,
    level: int | None,
    actions: list[list[tuple[str, str]]],
) -> InlineKeyboardMarkup:
    sel = selected_counts(selection)
    rows: list[list[InlineKeyboardButton]] = []
    for _label, cards in group_hand(game, hand, trump_suit, level):
        buttons = []
        seen: dict[int, int] = {}
        for c in cards:
            copy = seen.get(c, 0)
            seen[c] = copy + 1
            label = ctext(lang, card_text(c))
            if sel.get(c, 0) > copy:
                label = "✅" + label
            buttons.append(InlineKeyboardButton(label, callback_data=tap(match_id, deal, c, copy)))
        rows.extend(chunk(buttons, 8))
    for arow in actions:
        rows.append([InlineKeyboardButton(text, callback_data=data) for text, data in arow])
    # Telegram: at most 100 buttons
    total = 0
    out: list[list[InlineKeyboardButton]] = []
    for r in rows:
        if total + len(r) > 100:
            break
        out.append(r)
        total += len(r)
    return InlineKeyboardMarkup(out)


def parse_hand(view: Mapping[str, Any]) -> list[int]:
    hand = view.get("hand") or []
    if isinstance(hand, str):
        return parse_cards(hand) if hand else []
    out: list[int] = []
    for h in hand:
        out.extend(parse_cards(h) if isinstance(h, str) else [int(h)])
    return out


def hand_lines(lang: str, game: str, hand: list[int], trump_suit: int | None, level: int | None) -> list[str]:
    lines = [t(lang, "hand.yours", n=len(hand))]
    for label, cards in group_hand(game, hand, trump_suit, level):
        text = ctext(lang, " ".join(card_text(c) for c in cards))
        if label == "trump":
            lines.append(f"{t(lang, 'hand.trump')}  {text}")
        elif label:
            lines.append(f"{label}  {text}")
        else:
            for part in chunk(text.split(" "), 14):
                lines.append(" ".join(part))
    return lines
