"""Presentation's neutral keyboards (``bot.presentation.markup.Keyboard``) as python-telegram-bot's
``InlineKeyboardMarkup``, at the point of sending (the edge's own PTB keyboards pass through unchanged)."""

from __future__ import annotations

from collections.abc import Mapping

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, TelegramObject, WebAppInfo

from bot.presentation.markup import Button, Keyboard


def button(b: Button) -> InlineKeyboardButton:
    if b.callback_data is not None:
        return InlineKeyboardButton(b.text, callback_data=b.callback_data)
    if b.url is not None:
        return InlineKeyboardButton(b.text, url=b.url)
    return InlineKeyboardButton(b.text, web_app=WebAppInfo(url=b.web_app or ""))


def to_telegram(
    markup: Keyboard | TelegramObject | Mapping[str, object] | None,
) -> InlineKeyboardMarkup | None:
    """The keyboard as python-telegram-bot's (None stays None; a PTB keyboard is returned as it is, the Bot
    API (JSON) form is read back)."""
    if markup is None:
        return None
    if isinstance(markup, Keyboard):
        return InlineKeyboardMarkup([[button(b) for b in row] for row in markup.rows])
    if isinstance(markup, Mapping):
        return InlineKeyboardMarkup.de_json(dict(markup), None)
    if isinstance(markup, InlineKeyboardMarkup):
        return markup
    raise TypeError(f"not an inline keyboard: {type(markup).__name__}")
