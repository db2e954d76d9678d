"""The table logic's answers (bot/tables/outcomes.py) in the user's language."""

from __future__ import annotations

from bot.presentation.i18n import rule_error, t
from bot.tables.outcomes import Refusal, Why
from bot.tournaments import locked

_KEYS = {
    Why.STALE: "err.stale",
    Why.TABLE_CLOSED: "err.table_closed",
    Why.NEED_START: "join.need_start",
    Why.NOT_YOUR_TABLE: "err.not_your_table",
    Why.NOT_SEATED: "err.not_seated",
    Why.CANNOT_LEAVE: "err.cannot_leave",
    Why.STARTED: "start.already",
    Why.ONLY_CREATOR_OR_ADMIN: "err.only_creator_or_admin",
}


def refusal_text(lang: str, refusal: Refusal) -> str:
    """Why a press or a command changed nothing, in ``lang``."""
    if refusal.why is Why.RULE and refusal.error is not None:
        return rule_error(lang, refusal.error)
    if refusal.why is Why.TOURNAMENT_TABLE:
        return locked.refusal(lang)
    if refusal.why is Why.TABLE_EXISTS:
        return t(lang, "newtable.exists", table=refusal.table_id)
    return t(lang, _KEYS.get(refusal.why, "err.stale"))
