"""What the table logic answers, as codes: the edge translates them into the user's language
(bot/edge/refusals.py).  The logic never needs to know who reads the answer nor in which language.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.errors import RuleError


class Why(StrEnum):
    """Why a press or a command changed nothing."""

    STALE = "stale"  # the button is out of date: the match ended, or moved on meanwhile
    TABLE_CLOSED = "table_closed"  # the table is not open (any more)
    TOURNAMENT_TABLE = "tournament_table"  # a tournament table: its seats are the draw's
    NEED_START = "need_start"  # the player has not started the bot in private (their hand goes there)
    NOT_YOUR_TABLE = "not_your_table"  # neither seated there, nor its creator (nor an admin, where they may)
    NOT_SEATED = "not_seated"  # leaving a table one does not sit at
    CANNOT_LEAVE = "cannot_leave"  # the table is not open (any more): nobody leaves it
    STARTED = "started"  # starting a table that plays already
    ONLY_CREATOR_OR_ADMIN = "only_creator_or_admin"  # stopping: its creator, a bot or a group admin only
    TABLE_EXISTS = "table_exists"  # a group has one live table: ``Refusal.table_id`` is it
    RULE = "rule"  # the rules or the database refused: ``Refusal.error`` says why (its code and params)


@dataclass(frozen=True)
class Refusal:
    why: Why
    error: RuleError | None = None  # with ``Why.RULE``
    table_id: int | None = None  # with ``Why.TABLE_EXISTS``

    @staticmethod
    def rule(error: RuleError) -> Refusal:
        return Refusal(Why.RULE, error)


@dataclass(frozen=True)
class Acted:
    """What ``Driver.act`` did: ``applied`` (committed and shown), else ``refusal`` says why not; neither:
    the same press was applied before (a repeated update), nothing to say."""

    applied: bool
    refusal: Refusal | None = None


APPLIED = Acted(True)
REPEATED = Acted(False)
