"""Roles (organiser, referees, union group leaders) and the audit log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from storage.db import Database
from storage.models import utcnow
from storage.tournament_models import (
    TournamentAudit,
    TournamentRole,
)
from storage.tournaments.lookup import _check_group, _err, _get

ROLES = ("organiser", "referee", "chief_referee", "leader")


def _audit(s: AsyncSession, tid: int, actor: int | None, action: str, **detail: Any) -> None:
    s.add(TournamentAudit(tournament_id=tid, actor_id=actor, action=action, detail_json=detail, created_at=utcnow()))


async def audit(db: Database, tid: int, actor: int | None, action: str, **detail: Any) -> None:
    async with db.session() as s:
        _audit(s, tid, actor, action, **detail)
        await s.commit()


async def audit_log(db: Database, tid: int, limit: int = 50) -> list[TournamentAudit]:
    """The newest ``limit`` audit rows, oldest first."""
    async with db.session() as s:
        rows = (await s.execute(select(TournamentAudit).where(TournamentAudit.tournament_id == tid)
                                .order_by(TournamentAudit.id.desc()).limit(limit))).scalars().all()
        return list(reversed(rows))


async def roles_of(db: Database, tid: int, user_id: int) -> set[str]:
    async with db.session() as s:
        return await _roles(s, tid, user_id)


async def _roles(s: AsyncSession, tid: int, user_id: int) -> set[str]:
    rows = (await s.execute(select(TournamentRole.role).where(TournamentRole.tournament_id == tid,
                                                              TournamentRole.user_id == user_id))).scalars().all()
    return set(rows)


async def _require(s: AsyncSession, tid: int, user_id: int | None, allowed: Sequence[str]) -> None:
    if user_id is None:
        return
    if not (await _roles(s, tid, user_id)) & set(allowed):
        raise _err("not_allowed", "You are not allowed to do this")


async def require(db: Database, tid: int, user_id: int, allowed: Sequence[str]) -> None:
    async with db.session() as s:
        await _require(s, tid, user_id, allowed)


async def role_members(db: Database, tid: int, role: str | None = None) -> list[TournamentRole]:
    async with db.session() as s:
        q = select(TournamentRole).where(TournamentRole.tournament_id == tid)
        if role is not None:
            q = q.where(TournamentRole.role == role)
        return list((await s.execute(q.order_by(TournamentRole.id))).scalars().all())


async def grant(db: Database, tid: int, actor: int, user_id: int, role: str, union_group: str = "") -> None:
    """An organiser gives ``user_id`` a role (leader: of ``union_group``)."""
    if role not in ROLES:
        raise _err("bad_role", "Role {role} does not exist; roles: {allowed}", role=role, allowed=", ".join(ROLES))
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("organiser",))
        if role == "leader":
            _check_group(row, union_group)
        else:
            union_group = ""
        exists = (await s.execute(select(TournamentRole).where(
            TournamentRole.tournament_id == tid, TournamentRole.user_id == user_id, TournamentRole.role == role,
            TournamentRole.union_group == union_group))).scalars().first()
        if exists is None:
            s.add(TournamentRole(tournament_id=tid, user_id=user_id, role=role, union_group=union_group,
                                 created_at=utcnow()))
        _audit(s, tid, actor, "grant", user=user_id, role=role, union_group=union_group)
        await s.commit()


async def revoke(db: Database, tid: int, actor: int, user_id: int, role: str) -> None:
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("organiser",))
        if role == "organiser" and user_id == row.created_by:
            raise _err("cannot_remove_creator", "The creator stays an organiser")
        rows = (await s.execute(select(TournamentRole).where(
            TournamentRole.tournament_id == tid, TournamentRole.user_id == user_id,
            TournamentRole.role == role))).scalars().all()
        for r in rows:
            await s.delete(r)
        _audit(s, tid, actor, "revoke", user=user_id, role=role)
        await s.commit()
