"""The tournament side's keyboards (``bot.tournaments.ports.TournamentKeyboards``): Telegram buttons
whose callback data the one codec encodes (bot/edge/callbacks.py)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.presentation.tournament.texts import tt


class TelegramTournamentKeyboards:
    def checkin(self, lang: str, tid: int, key: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup([[InlineKeyboardButton(tt(lang, "checkin.button"),
                                                           callback_data=f"T:c:{tid}:{key}")]])

    def dashboard(self, lang: str, tid: int, live: bool) -> InlineKeyboardMarkup:
        """Refresh, and while the message follows the tournament, Stop."""
        row = [InlineKeyboardButton(tt(lang, "dash.refresh"), callback_data=f"T:d:{tid}")]
        if live:
            row.append(InlineKeyboardButton(tt(lang, "dash.stop"), callback_data=f"T:ds:{tid}"))
        return InlineKeyboardMarkup([row])
