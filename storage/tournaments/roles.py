"""Roles (organiser, referees, union group leaders) and the audit log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select

from storage.db import Database
from storage.models import utcnow
from storage.tournament_models import (
    TournamentAudit,
    TournamentRole,
)
from storage.tournaments.common import (
    add_audit,
    check_union_group,
    error,
    require_role,
    roles_in,
    tournament_row,
)

ROLES = ("organiser", "referee", "chief_referee", "leader")


async def audit(db: Database, tid: int, actor: int | None, action: str, **detail: Any) -> None:
    async with db.session() as s:
        add_audit(s, tid, actor, action, **detail)
        await s.commit()


async def audit_log(db: Database, tid: int, limit: int = 50) -> list[TournamentAudit]:
    """The newest ``limit`` audit rows, oldest first."""
    async with db.session() as s:
        rows = (
            (
                await s.execute(
                    select(TournamentAudit)
                    .where(TournamentAudit.tournament_id == tid)
                    .order_by(TournamentAudit.id.desc())
                    .limit(limit)
                )
            )
            .scalars()
            .all()
        )
        return list(reversed(rows))


async def roles_of(db: Database, tid: int, user_id: int) -> set[str]:
    async with db.session() as s:
        return await roles_in(s, tid, user_id)


async def require(db: Database, tid: int, user_id: int, allowed: Sequence[str]) -> None:
    async with db.session() as s:
        await require_role(s, tid, user_id, allowed)


async def role_members(db: Database, tid: int, role: str | None = None) -> list[TournamentRole]:
    async with db.session() as s:
        q = select(TournamentRole).where(TournamentRole.tournament_id == tid)
        if role is not None:
            q = q.where(TournamentRole.role == role)
        return list((await s.execute(q.order_by(TournamentRole.id))).scalars().all())


async def grant(db: Database, tid: int, actor: int, user_id: int, role: str, union_group: str = "") -> None:
    """An organiser gives ``user_id`` a role (leader: of ``union_group``)."""
    if role not in ROLES:
        raise error(
            "bad_role", "Role {role} does not exist; roles: {allowed}", role=role, allowed=", ".join(ROLES)
        )
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("organiser",))
        if role == "leader":
            check_union_group(row, union_group)
        else:
            union_group = ""
        exists = (
            (
                await s.execute(
                    select(TournamentRole).where(
                        TournamentRole.tournament_id == tid,
                        TournamentRole.user_id == user_id,
                        TournamentRole.role == role,
                        TournamentRole.union_group == union_group,
                    )
                )
            )
            .scalars()
            .first()
        )
        if exists is None:
            s.add(
                TournamentRole(
                    tournament_id=tid,
                    user_id=user_id,
                    role=role,
                    union_group=union_group,
                    created_at=utcnow(),
                )
            )
        add_audit(s, tid, actor, "grant", user=user_id, role=role, union_group=union_group)
        await s.commit()


async def revoke(db: Database, tid: int, actor: int, user_id: int, role: str) -> None:
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("organiser",))
        if role == "organiser" and user_id == row.created_by:
            raise error("cannot_remove_creator", "The creator stays an organiser")
        rows = (
            (
                await s.execute(
                    select(TournamentRole).where(
                        TournamentRole.tournament_id == tid,
                        TournamentRole.user_id == user_id,
                        TournamentRole.role == role,
                    )
                )
            )
            .scalars()
            .all()
        )
        for r in rows:
            await s.delete(r)
        add_audit(s, tid, actor, "revoke", user=user_id, role=role)
        await s.commit()
