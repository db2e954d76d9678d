"""Bad input answered once and clearly: what a user typed is echoed short, rule errors keep to that.

``bot.presentation.echo.clip`` shortens any user text shown back (one line, at most ``ECHO_MAX``
characters); ``rule_error_clipped`` translates a ``RuleError`` with its text-like params clipped, so 5,000 × "x"
typed as a play comes back as a 30-character echo followed by the hint, not a 4,096-character wall.
"""

from __future__ import annotations

from bot.presentation.echo import ECHO_MAX, clip
from bot.presentation.i18n import rule_error
from engine.cards import parse_cards
from engine.errors import RuleError
from storage import match_repo
from storage.db import Database


def rule_error_clipped(lang: str, err: RuleError) -> str:
    """``bot.presentation.i18n.rule_error`` with every long string param clipped to ``ECHO_MAX`` characters."""
    params = {k: clip(v) if isinstance(v, str) and len(v) > ECHO_MAX else v for k, v in err.params.items()}
    return rule_error(lang, RuleError(err.code, err.template, **params))


async def card_left_my_hand(db: Database, match_id: int, seat: int, card: int) -> bool:
    """Whether ``seat`` gave ``card`` away in the deal in play (played, buried, paid or returned it): a press on
    it is "already played"; a card the seat never held is "not your card" (a forged or misdirected press)."""
    gone: list[int] = []
    for record in reversed(await match_repo.action_log(db, match_id)):
        if record.action == "sys next_deal":
            break
        words = record.action.split(None, 2)
        if len(words) == 3 and words[0] == str(seat) and words[1] in ("play", "bury", "tribute", "return"):
            try:
                gone += parse_cards(words[2].split(" as ")[0])
            except RuleError:
                continue
    return card in gone
