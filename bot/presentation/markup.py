"""Keyboards as neutral data: rows of buttons, each with a label and one of callback data, a link or a
Mini App address.  Presentation builds them; ``bot.delivery`` turns them into the Bot API's inline keyboard
at the point of sending (``bot.delivery.keyboards``), so nothing outside the edge and delivery imports
``telegram``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

MAX_BUTTONS = 100  # Telegram's limit per inline keyboard


@dataclass(frozen=True, slots=True)
class Button:
    """One button: ``text`` and exactly one of ``callback_data`` (a press comes back as a callback),
    ``url`` (a link) or ``web_app`` (the address of a Mini App page, opened inside Telegram)."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    web_app: str | None = None

    def __post_init__(self) -> None:
        if sum(x is not None for x in (self.callback_data, self.url, self.web_app)) != 1:
            raise ValueError(f"a button needs exactly one of callback_data, url, web_app: {self!r}")

    def to_json(self) -> dict[str, object]:
        """The Bot API form (``InlineKeyboardButton``)."""
        if self.callback_data is not None:
            return {"text": self.text, "callback_data": self.callback_data}
        if self.url is not None:
            return {"text": self.text, "url": self.url}
        return {"text": self.text, "web_app": {"url": self.web_app}}


@dataclass(frozen=True, slots=True)
class Keyboard:
    """An inline keyboard: rows of buttons, top to bottom."""

    rows: tuple[tuple[Button, ...], ...]

    @classmethod
    def of(cls, rows: Iterable[Sequence[Button]]) -> Keyboard:
        return cls(tuple(tuple(row) for row in rows))

    def buttons(self) -> list[Button]:
        return [b for row in self.rows for b in row]

    def count(self) -> int:
        return sum(len(row) for row in self.rows)

    def with_row_on_top(self, row: Sequence[Button]) -> Keyboard:
        return Keyboard((tuple(row), *self.rows))

    def with_button_at_end(self, button: Button) -> Keyboard:
        """The button added to the last row (a first row when there is none)."""
        if not self.rows:
            return Keyboard(((button,),))
        return Keyboard((*self.rows[:-1], (*self.rows[-1], button)))

    def to_json(self) -> dict[str, object]:
        """The Bot API form (``InlineKeyboardMarkup``)."""
        return {"inline_keyboard": [[b.to_json() for b in row] for row in self.rows]}
