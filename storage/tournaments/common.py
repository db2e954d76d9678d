"""Helpers every tournament module shares inside one transaction (a session ``s`` the caller opened):
the error with a stable code, reading the tournament and match rows, who sits at a match's tables,
union-group checks, roles and the audit log.  Public on purpose: the modules of this package import
them from here (issue 18), never each other's private names."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.errors import RuleError
from storage.models import utcnow
from storage.tournament_models import (
    Tournament,
    TournamentAudit,
    TournamentEntry,
    TournamentMatch,
    TournamentRole,
)


def error(code: str, english: str, **params: Any) -> RuleError:
    return RuleError(code, english, **params)


async def tournament_row(s: AsyncSession, tid: int) -> Tournament:
    row = await s.get(Tournament, tid)
    if row is None:
        raise error("tournament_not_found", "There is no tournament {id}", id=tid)
    return row


def check_union_group(row: Tournament, union_group: str) -> None:
    names = [g["name"] for g in row.union_groups or []]
    if names and union_group not in names:
        raise error(
            "unknown_union_group",
            "There is no union group {group}; groups: {allowed}",
            group=union_group,
            allowed=", ".join(names),
        )


async def match_row(s: AsyncSession, tid: int, key: str) -> TournamentMatch:
    m = (
        (
            await s.execute(
                select(TournamentMatch).where(
                    TournamentMatch.tournament_id == tid, TournamentMatch.match_key == key
                )
            )
        )
        .scalars()
        .first()
    )
    if m is None:
        raise error("unknown_match", "There is no match {match}", match=key)
    return m


async def seated_players(s: AsyncSession, m: TournamentMatch) -> list[tuple[list[int], list[int]]]:
    a = await s.get(TournamentEntry, int(m.side_a)) if m.side_a else None
    b = await s.get(TournamentEntry, int(m.side_b)) if m.side_b else None
    subs = {
        int(k): int(v) for k, v in (m.substitutes or {}).items()
    }  # a referee-approved substitute sits instead
    pa = [subs.get(int(p), int(p)) for p in a.players_json] if a else []
    pb = [subs.get(int(p), int(p)) for p in b.players_json] if b else []
    tables = max(len(pa), len(pb)) // 2
    return [(pa[2 * i : 2 * i + 2], pb[2 * i : 2 * i + 2]) for i in range(tables)]


def add_audit(s: AsyncSession, tid: int, actor: int | None, action: str, **detail: Any) -> None:
    s.add(
        TournamentAudit(
            tournament_id=tid, actor_id=actor, action=action, detail_json=detail, created_at=utcnow()
        )
    )


async def roles_in(s: AsyncSession, tid: int, user_id: int) -> set[str]:
    rows = (
        (
            await s.execute(
                select(TournamentRole.role).where(
                    TournamentRole.tournament_id == tid, TournamentRole.user_id == user_id
                )
            )
        )
        .scalars()
        .all()
    )
    return set(rows)


async def require_role(s: AsyncSession, tid: int, user_id: int | None, allowed: Sequence[str]) -> None:
    if user_id is None:
        return
    if not (await roles_in(s, tid, user_id)) & set(allowed):
        raise error("not_allowed", "You are not allowed to do this")
