"""The engine's tournament state kept on the tournament row, and the match rows that follow it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.tournament import Tournament as Engine
from storage.db import Database
from storage.models import utcnow
from storage.tournament_models import (
    Tournament,
    TournamentMatch,
)
from storage.tournaments.common import error
from storage.tournaments.lookup import get_tournament


def load_engine(row: Tournament) -> Engine:
    if row.state_json is None:
        raise error("no_draw_yet", "The draw has not been held")
    return Engine.from_dict(row.state_json)


async def engine_state(db: Database, tid: int) -> Engine:
    return load_engine(await get_tournament(db, tid))


async def sync_matches(s: AsyncSession, row: Tournament, eng: Engine) -> list[TournamentMatch]:
    """Rows for every ready match (sides known); a row whose sides changed (correction) is updated."""
    ready = eng.ready_matches()
    existing = {  # only the ready matches' rows: a long Swiss has hundreds of played ones
        m.match_key: m
        for m in (
            await s.execute(
                select(TournamentMatch).where(
                    TournamentMatch.tournament_id == row.id, TournamentMatch.match_key.in_(ready)
                )
            )
        )
        .scalars()
        .all()
    }
    new: list[TournamentMatch] = []
    for mid in ready:
        a, b = eng.sides(mid)
        m = existing.get(mid)
        if m is None:
            m = TournamentMatch(
                tournament_id=row.id,
                match_key=mid,
                side_a=a,
                side_b=b,
                status="scheduled",
                table_chats=[],
                game_tables=[],
                table_results={},
                note="",
                created_at=utcnow(),
            )
            s.add(m)
            new.append(m)
        elif (m.status in ("finished", "void") and m.result_json is None) or (m.side_a, m.side_b) != (a, b):
            m.side_a, m.side_b = a, b
            m.status = "scheduled"
            m.start_at = None
            m.table_chats, m.game_tables, m.table_results = [], [], {}
            m.result_json, m.lateness_json = None, None
            new.append(m)
    await s.flush()
    return new


def published_draw(row: Tournament) -> dict[str, Any]:
    eng = load_engine(row)
    assert eng.draw is not None
    return eng.draw.published(reveal=True)
