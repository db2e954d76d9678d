"""What the organiser's private chat keeps across a restart: the cancel/delete confirmations waiting for
their button (a row with an expiry, used once), and the dashboard messages kept live."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlalchemy import delete, select

from storage.db import Database
from storage.tournament_models import Confirmation, DashboardFollow
from storage.tournaments.common import error, require_role, tournament_row

CONFIRM_MINUTES = 10
OPS = ("cancel", "delete")


async def ask_confirmation(
    db: Database, tid: int, user_id: int, op: str, reason: str, now: datetime, minutes: int = CONFIRM_MINUTES
) -> Confirmation:
    """An organiser asked to cancel or delete ``tid``: the request waits ``minutes`` for its button."""
    if op not in OPS:
        raise error("bad_arguments", "Wrong arguments")
    if not reason.strip():
        raise error("reason_required", "Give a reason")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, user_id, ("organiser",))
        if row.status == "deleted" or (row.status == "cancelled" and op == "cancel"):
            raise error("tournament_ended", "Tournament {name} is over or cancelled", name=row.name)
        item = Confirmation(
            token=secrets.token_hex(8),
            tournament_id=tid,
            user_id=user_id,
            op=op,
            reason=reason.strip(),
            expires_at=now + timedelta(minutes=minutes),
            created_at=now,
        )
        s.add(item)
        await s.commit()
        return item


async def take_confirmation(db: Database, tid: int, token: str, user_id: int, now: datetime) -> Confirmation:
    """The confirmation button of ``token`` pressed by ``user_id``: the request, marked used (once).
    RuleError ``confirm_unknown`` | ``not_allowed`` (someone else's) | ``confirm_used`` | ``confirm_expired``."""
    async with db.session() as s:
        item = (await s.execute(select(Confirmation).where(Confirmation.token == token))).scalar_one_or_none()
        if item is None or item.tournament_id != tid:
            raise error("confirm_unknown", "This confirmation is not known")
        if item.user_id != user_id:
            raise error("not_allowed", "You are not allowed to do this")
        if item.used_at is not None:
            raise error("confirm_used", "This confirmation was already answered")
        if item.expires_at <= now:
            raise error(
                "confirm_expired",
                "This confirmation expired after {minutes} minutes",
                minutes=CONFIRM_MINUTES,
            )
        item.used_at = now
        await s.commit()
        return item


# --- the live dashboards ---------------------------------------------------------------------------


async def follow_dashboard(
    db: Database, tid: int, user_id: int, chat_id: int, message_id: int, lang: str, now: datetime
) -> DashboardFollow:
    """Keep ``message_id`` live for ``user_id`` (the message of an earlier ``/dashboard`` stops following)."""
    async with db.session() as s:
        await s.execute(
            delete(DashboardFollow).where(
                DashboardFollow.tournament_id == tid, DashboardFollow.user_id == user_id
            )
        )
        item = DashboardFollow(
            tournament_id=tid,
            user_id=user_id,
            chat_id=chat_id,
            message_id=message_id,
            lang=lang,
            created_at=now,
        )
        s.add(item)
        await s.commit()
        return item


async def dashboards(db: Database, tid: int | None = None) -> list[DashboardFollow]:
    """The dashboards kept live (of ``tid``, or of every tournament)."""
    async with db.session() as s:
        query = select(DashboardFollow).order_by(DashboardFollow.id)
        if tid is not None:
            query = query.where(DashboardFollow.tournament_id == tid)
        return list((await s.execute(query)).scalars().all())


async def unfollow_dashboard(
    db: Database, tid: int, user_id: int | None = None, message_id: int | None = None
) -> int:
    """Stop keeping dashboards of ``tid`` live (one organiser's, or one message, or all); returns how many."""
    async with db.session() as s:
        query = delete(DashboardFollow).where(DashboardFollow.tournament_id == tid)
        if user_id is not None:
            query = query.where(DashboardFollow.user_id == user_id)
        if message_id is not None:
            query = query.where(DashboardFollow.message_id == message_id)
        done = await s.execute(query)
        await s.commit()
        return int(done.rowcount or 0)  # type: ignore[attr-defined]
