"""The hand message's card part, for every game: the cards as rows of tap buttons (a selected card ticked),
the action rows under them, and the hand as text lines.  The game's presenter groups the hand
(``GamePresenter.group_hand``) and chooses the actions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from bot.presentation.callbacks import tap
from bot.presentation.common import ctext
from bot.presentation.i18n import t
from bot.presentation.markup import MAX_BUTTONS, Button, Keyboard
from engine.cards import card_text

HandGroups = list[tuple[str, list[int]]]  # rows of the hand: (label, cards); "trump" is translated
ActionRows = list[list[tuple[str, str]]]  # rows of (label, callback data) under the cards

T = TypeVar("T")


def chunk(items: Sequence[T], n: int = 8) -> list[list[T]]:
    return [list(items[i : i + n]) for i in range(0, len(items), n)]


def selected_counts(selection: Sequence[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for c in selection:
        out[c] = out.get(c, 0) + 1
    return out


def hand_keyboard(
    lang: str,
    match_id: int,
    deal: int,
    groups: HandGroups,
    selection: Sequence[int],
    actions: ActionRows,
) -> Keyboard:
    sel = selected_counts(selection)
    rows: list[list[Button]] = []
    for _label, cards in groups:
        buttons = []
        seen: dict[int, int] = {}
        for c in cards:
            copy = seen.get(c, 0)
            seen[c] = copy + 1
            label = ctext(lang, card_text(c))
            if sel.get(c, 0) > copy:
                label = "✅" + label
            buttons.append(Button(label, callback_data=tap(match_id, deal, c, copy)))
        rows.extend(chunk(buttons, 8))
    for arow in actions:
        rows.append([Button(text, callback_data=data) for text, data in arow])
    # Telegram: at most 100 buttons
    total = 0
    out: list[list[Button]] = []
    for r in rows:
        if total + len(r) > MAX_BUTTONS:
            break
        out.append(r)
        total += len(r)
    return Keyboard.of(out)


def hand_lines(lang: str, hand: Sequence[int], groups: HandGroups) -> list[str]:
    lines = [t(lang, "hand.yours", n=len(hand))]
    for label, cards in groups:
        text = ctext(lang, " ".join(card_text(c) for c in cards))
        if label == "trump":
            lines.append(f"{t(lang, 'hand.trump')}  {text}")
        elif label:
            lines.append(f"{label}  {text}")
        else:
            for part in chunk(text.split(" "), 14):
                lines.append(" ".join(part))
    return lines
