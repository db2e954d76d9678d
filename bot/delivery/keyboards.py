"""Presentation's neutral keyboards (``bot.presentation.markup.Keyboard``) as python-telegram-bot's
``InlineKeyboardMarkup``, at the point of sending (the edge's own PTB keyboards pass through unchanged)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.presentation.markup import Button, Keyboard

Markup = Keyboard | InlineKeyboardMarkup  # what the outbox accepts as a message's keyboard


def button(b: Button) -> InlineKeyboardButton:
    if b.callback_data is not None:
        return InlineKeyboardButton(b.text, callback_data=b.callback_data)
    if b.url is not None:
        return InlineKeyboardButton(b.text, url=b.url)
    return InlineKeyboardButton(b.text, web_app=WebAppInfo(url=b.web_app or ""))


def to_telegram(markup: Markup | None) -> InlineKeyboardMarkup | None:
    """The keyboard as python-telegram-bot's (None stays None; a PTB keyboard is returned as it is)."""
    if markup is None or isinstance(markup, InlineKeyboardMarkup):
        return markup
    return InlineKeyboardMarkup([[button(b) for b in row] for row in markup.rows])
