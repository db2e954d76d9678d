"""Reading a tournament's rows: the tournament, its entries, matches, players, table groups, names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.options import options_to_dict
from engine.registry import load_preset
from engine.tournament import Entry, TournamentSettings
from storage.db import Database
from storage.models import GameTable, User
from storage.tournament_models import (
    CheckIn,
    TableGroupLink,
    Tournament,
    TournamentEntry,
    TournamentMatch,
    TournamentRole,
)
from storage.tournaments.common import error, match_row, seated_players, tournament_row

OPEN_STATUSES = ("registration", "closed")  # entries may still change (before the freeze)


async def get_tournament(db: Database, tid: int) -> Tournament:
    async with db.session() as s:
        return await tournament_row(s, tid)


async def tournament_of_group(db: Database, chat_id: int) -> Tournament | None:
    """The newest tournament whose tournament group or table group is this chat."""
    async with db.session() as s:
        row = (
            (
                await s.execute(
                    select(Tournament)
                    .where(Tournament.group_chat_id == chat_id)
                    .order_by(Tournament.id.desc())
                )
            )
            .scalars()
            .first()
        )
        if row is not None:
            return row
        link = (
            (
                await s.execute(
                    select(TableGroupLink)
                    .where(TableGroupLink.chat_id == chat_id)
                    .order_by(TableGroupLink.id.desc())
                )
            )
            .scalars()
            .first()
        )
        return None if link is None else await s.get(Tournament, link.tournament_id)


async def tournaments_of_user(db: Database, user_id: int) -> list[Tournament]:
    """Tournaments where the user has a role or an entry, newest first."""
    async with db.session() as s:
        ids = set(
            (await s.execute(select(TournamentRole.tournament_id).where(TournamentRole.user_id == user_id)))
            .scalars()
            .all()
        )
        for e in (await s.execute(select(TournamentEntry))).scalars().all():
            if user_id in [int(p) for p in e.players_json]:
                ids.add(e.tournament_id)
        if not ids:
            return []
        rows = (
            (await s.execute(select(Tournament).where(Tournament.id.in_(ids)).order_by(Tournament.id.desc())))
            .scalars()
            .all()
        )
        return list(rows)


async def draft_of(db: Database, user_id: int) -> Tournament | None:
    """The tournament ``user_id`` is setting up with the guided set-up (status ``setup``), if any."""
    async with db.session() as s:
        return (
            (
                await s.execute(
                    select(Tournament)
                    .where(Tournament.created_by == user_id, Tournament.status == "setup")
                    .order_by(Tournament.id.desc())
                )
            )
            .scalars()
            .first()
        )


async def all_tournaments(db: Database) -> list[Tournament]:
    async with db.session() as s:
        return list((await s.execute(select(Tournament).order_by(Tournament.id))).scalars().all())


async def table_groups(db: Database, tid: int) -> list[TableGroupLink]:
    async with db.session() as s:
        return list(
            (
                await s.execute(
                    select(TableGroupLink)
                    .where(TableGroupLink.tournament_id == tid)
                    .order_by(TableGroupLink.id)
                )
            )
            .scalars()
            .all()
        )


def settings_of(row: Tournament) -> TournamentSettings:
    return TournamentSettings.from_mapping(row.settings_json)


async def active_entry_rows(s: AsyncSession, tid: int) -> list[TournamentEntry]:
    return list(
        (
            await s.execute(
                select(TournamentEntry)
                .where(TournamentEntry.tournament_id == tid, TournamentEntry.status == "active")
                .order_by(TournamentEntry.id)
            )
        )
        .scalars()
        .all()
    )


def entry_among(
    entries: Sequence[TournamentEntry], user_id: int, kind: str = "pair"
) -> TournamentEntry | None:
    for e in entries:
        if e.kind == kind and user_id in [int(p) for p in e.players_json]:
            return e
    return None


async def user_display_names(s: AsyncSession, ids: Sequence[int]) -> dict[int, str]:
    rows = (await s.execute(select(User).where(User.id.in_(list(ids))))).scalars().all()
    got = {u.id: (u.first_name or u.username or str(u.id)) for u in rows}
    return {i: got.get(i, str(i)) for i in ids}


async def entries(
    db: Database, tid: int, kind: str | None = None, include_withdrawn: bool = False
) -> list[TournamentEntry]:
    async with db.session() as s:
        q = select(TournamentEntry).where(TournamentEntry.tournament_id == tid)
        if not include_withdrawn:
            q = q.where(TournamentEntry.status == "active")
        if kind is not None:
            q = q.where(TournamentEntry.kind == kind)
        return list((await s.execute(q.order_by(TournamentEntry.id))).scalars().all())


async def entry_of_user(db: Database, tid: int, user_id: int) -> TournamentEntry | None:
    async with db.session() as s:
        return entry_among(await active_entry_rows(s, tid), user_id)


def player_label(name: str, user_id: int | str) -> str:
    """A player as the frozen list and the draw file show them: display name and id, ``张伟 (1001)``
    (names alone may repeat; the id makes each one unique and lets a player find themselves)."""
    return f"{name} ({user_id})"


def engine_entry(e: TournamentEntry, names: Mapping[int, str] | None = None) -> Entry:
    """The engine's entry: players as :func:`player_label` when ``names`` are given, else plain ids."""
    players = tuple(
        player_label(names[int(p)], p) if names and int(p) in names else str(p) for p in e.players_json
    )
    return Entry(str(e.id), e.name, e.union_group, players, e.seed_no)


def _kind(row: Tournament) -> str:
    return "team" if row.settings_json.get("entrant") == "team" else "pair"


async def matches(db: Database, tid: int) -> list[TournamentMatch]:
    async with db.session() as s:
        return list(
            (
                await s.execute(
                    select(TournamentMatch)
                    .where(TournamentMatch.tournament_id == tid)
                    .order_by(TournamentMatch.id)
                )
            )
            .scalars()
            .all()
        )


async def unscheduled_matches(db: Database, tid: int) -> list[TournamentMatch]:
    """The matches waiting for a time: ``scheduled`` without ``start_at`` (new, or reset by a correction)."""
    async with db.session() as s:
        return list(
            (
                await s.execute(
                    select(TournamentMatch)
                    .where(
                        TournamentMatch.tournament_id == tid,
                        TournamentMatch.status == "scheduled",
                        TournamentMatch.start_at.is_(None),
                    )
                    .order_by(TournamentMatch.id)
                )
            )
            .scalars()
            .all()
        )


async def get_match(db: Database, tid: int, key: str) -> TournamentMatch:
    async with db.session() as s:
        return await match_row(s, tid, key)


async def get_match_by_id(db: Database, row_id: int) -> TournamentMatch | None:
    async with db.session() as s:
        return await s.get(TournamentMatch, row_id)


async def match_players(db: Database, m: TournamentMatch) -> list[tuple[list[int], list[int]]]:
    """Per table (1..N): the players of side a and of side b."""
    async with db.session() as s:
        return await seated_players(s, m)


async def checkins(db: Database, tid: int, key: str) -> dict[int, datetime]:
    async with db.session() as s:
        rows = (
            (await s.execute(select(CheckIn).where(CheckIn.tournament_id == tid, CheckIn.match_key == key)))
            .scalars()
            .all()
        )
        return {r.user_id: r.at for r in rows}


async def set_match_fields(db: Database, row_id: int, **values: Any) -> TournamentMatch:
    async with db.session() as s:
        m = await s.get(TournamentMatch, row_id)
        if m is None:
            raise error("unknown_match", "There is no match {match}", match=row_id)
        for k, v in values.items():
            setattr(m, k, v)
        await s.commit()
        return m


async def user_names(db: Database, ids: Sequence[int]) -> dict[int, str]:
    async with db.session() as s:
        return await user_display_names(s, ids)


async def find_user(db: Database, text: str) -> User | None:
    """A user by ``@username``, username or numeric id."""
    raw = text.strip().lstrip("@")
    async with db.session() as s:
        if raw.isdigit():
            return await s.get(User, int(raw))
        return (await s.execute(select(User).where(User.username == raw))).scalars().first()


def rule_options(row: Tournament) -> dict[str, Any]:
    """Every game option value of the tournament (preset + overrides), for its tables."""
    preset = load_preset(row.preset_id)
    if row.rule_overrides:
        preset = preset.with_overrides(dict(row.rule_overrides))
    return options_to_dict(preset.rules)


async def active_table_of_ref(db: Database, ref: str) -> int | None:
    """The game table (open, playing or paused) made for ``ref`` (``t<id>:<match>:<table no>``), if any."""
    async with db.session() as s:
        return (
            (
                await s.execute(
                    select(GameTable.id)
                    .where(
                        GameTable.tournament_ref == ref, GameTable.status.in_(("open", "playing", "paused"))
                    )
                    .order_by(GameTable.id.desc())
                )
            )
            .scalars()
            .first()
        )
