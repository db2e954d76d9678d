"""The tournament side's keyboards (``bot.tournaments.ports.TournamentKeyboards``): Telegram buttons
whose callback data the one codec encodes (bot/presentation/callbacks.py)."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.presentation.callbacks import TournamentButton as TB
from bot.presentation.callbacks import TournamentOp as Op
from bot.presentation.tournament.texts import tt


class TelegramTournamentKeyboards:
    def checkin(self, lang: str, tid: int, key: str) -> InlineKeyboardMarkup:
        return InlineKeyboardMarkup(
            [
                [
                    InlineKeyboardButton(
                        tt(lang, "checkin.button"), callback_data=TB(Op.CHECK_IN, tid, word=key).encode()
                    )
                ]
            ]
        )

    def dashboard(self, lang: str, tid: int, live: bool) -> InlineKeyboardMarkup:
        """Refresh, and while the message follows the tournament, Stop."""
        row = [InlineKeyboardButton(tt(lang, "dash.refresh"), callback_data=TB(Op.DASHBOARD, tid).encode())]
        if live:
            row.append(
                InlineKeyboardButton(tt(lang, "dash.stop"), callback_data=TB(Op.DASHBOARD_STOP, tid).encode())
            )
        return InlineKeyboardMarkup([row])
