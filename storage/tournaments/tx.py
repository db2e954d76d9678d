"""Concurrent changes to one tournament: conditional updates, retried on the fresh row.

Every UPDATE of a ``Tournament`` row is conditional on its ``version`` (the mapper's
``version_id_col``): when two transactions read the same row and both change it (a result recorded
while a referee reverses a conduct record, two registrations checking one quota), the second one's
UPDATE matches no row and SQLAlchemy raises ``StaleDataError``; nothing of that transaction is kept.
``retrying`` runs the whole service call again, which reads the row afresh, re-checks the rules
(the quota, the invite, the bracket) and either succeeds on top of the other change or refuses with
the usual ``RuleError``.  ``touch`` makes a transaction take the version without changing anything
else (registrations: the quota is counted, then the version taken, so two cannot both fit).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import ParamSpec, TypeVar

from sqlalchemy.orm.exc import StaleDataError

from engine.errors import RuleError
from storage.models import utcnow
from storage.tournament_models import Tournament

log = logging.getLogger(__name__)

ATTEMPTS = 8
P = ParamSpec("P")
R = TypeVar("R")


def retrying(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Run a service call (one transaction) again when another transaction changed its tournament first."""

    @functools.wraps(fn)
    async def run(*args: P.args, **kwargs: P.kwargs) -> R:
        for attempt in range(ATTEMPTS):
            try:
                return await fn(*args, **kwargs)
            except StaleDataError:
                log.info("%s: the tournament changed meanwhile, retrying (%d)", fn.__name__, attempt + 1)
                await asyncio.sleep(0.005 * (attempt + 1))
        raise RuleError("busy", "Many changes at once; try again")

    return run


def touch(row: Tournament) -> None:
    """Take the tournament's version in this transaction (a conflicting one is retried)."""
    row.updated_at = utcnow()
