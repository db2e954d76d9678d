"""The draw: freezing the entry list with a commitment, then drawing with the committed secret."""

from __future__ import annotations

import dataclasses
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from engine.tournament import Tournament as Engine
from engine.tournament import TournamentSettings
from storage.db import Database
from storage.tournament_models import (
    Tournament,
    TournamentMatch,
)
from storage.tournaments.common import add_audit, error, require_role, tournament_row
from storage.tournaments.lookup import (
    OPEN_STATUSES,
    _kind,
    active_entry_rows,
    engine_entry,
    settings_of,
    user_display_names,
)
from storage.tournaments.ratings import seeded_by_rating
from storage.tournaments.state import sync_matches
from storage.tournaments.tx import retrying


def _engine_settings(row: Tournament) -> TournamentSettings:
    # quotas are enforced at registration (per union group); the engine check would use one quota for all
    return dataclasses.replace(settings_of(row), group_quota=0)


async def _frozen_engine(s: AsyncSession, row: Tournament, casual: bool = False) -> Engine:
    rows = [e for e in await active_entry_rows(s, row.id) if e.kind == _kind(row)]
    per = settings_of(row).pairs_per_team
    for e in rows:  # a team a pair has left must be completed (or withdrawn) before the list is frozen
        if e.kind == "team" and len(e.players_json) != 2 * per:
            raise error(
                "team_incomplete",
                "Team {team} has {have} of {need} pairs",
                team=e.name,
                have=len(e.players_json) // 2,
                need=per,
            )
    st = settings_of(row)
    if st.third_place_match and st.format == "single_elimination" and len(rows) <= 2:
        # two entries make a bracket of 2: no semi-final, so no 3rd-place match to play (said, not ignored)
        raise error(
            "third_place_needs_semifinals",
            "A 3rd-place match needs a knockout of 4 or more",
            size=max(2, len(rows)),
        )
    names = await user_display_names(s, [int(p) for e in rows for p in e.players_json])
    entries = [engine_entry(e, names) for e in rows]
    if st.seed_by_rating:  # the seeds are part of the frozen list, so the published draw shows them
        entries = await seeded_by_rating(s, row, entries, rows, casual)
    return Engine.create(row.name, _engine_settings(row), entries)


@retrying
async def freeze(db: Database, tid: int, secret: bytes, actor: int | None = None) -> dict[str, Any]:
    """Freeze the entry list and commit to ``secret``: returns the announcement (list hash, commitment)."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        if row.state_json is not None:
            raise error("draw_already_held", "The draw of {name} has been held", name=row.name)
        if actor is not None:
            await require_role(s, tid, actor, ("organiser",))
        if row.announcement_json is not None:
            return dict(row.announcement_json)
        if row.secret_hex is not None:  # sealed when registration opened: its commitment is already public
            secret = bytes.fromhex(row.secret_hex)
        eng = await _frozen_engine(s, row, db.casual_ratings)
        ann = eng.announce(secret)
        row.announcement_json = ann.to_dict()
        row.secret_hex = secret.hex()
        if row.status in OPEN_STATUSES:
            row.status = "closed"
        add_audit(
            s,
            tid,
            actor,
            "freeze",
            list_hash=ann.list_hash,
            commitment=ann.commitment,
            entries=len(eng.entries),
        )
        await s.commit()
        return ann.to_dict()


@retrying
async def hold_draw(db: Database, tid: int, actor: int | None = None) -> tuple[Engine, list[TournamentMatch]]:
    """Run the draw with the committed secret; creates the ready matches' rows (not scheduled yet)."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        if row.state_json is not None:
            raise error("draw_already_held", "The draw of {name} has been held", name=row.name)
        if row.announcement_json is None or row.secret_hex is None:
            raise error("not_frozen", "Freeze the entry list first")
        eng = await _frozen_engine(s, row, db.casual_ratings)
        eng.hold_draw(bytes.fromhex(row.secret_hex))
        assert eng.draw is not None
        row.state_json = eng.to_dict()
        row.status = "running"
        add_audit(s, tid, actor, "draw", list_hash=eng.draw.list_hash, secret=row.secret_hex)
        new = await sync_matches(s, row, eng)
        await s.commit()
        return eng, new
