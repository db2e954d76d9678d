"""Named seasons: create one, add and remove its tournaments, find the season a chat means, and the
inputs of its table (engine/tournament/season.py computes it).

Who may do what (checked here, refused with a ``RuleError`` code, nothing changed):

* create: an organiser of any tournament, or a bot admin (``may_create`` is decided by the caller);
* add / remove tournaments: the season's creator only; a tournament added must play the season's game,
  be one the creator organises, and not be deleted;
* anyone may read a season's table.

Which season ``/season`` without an argument means (``current_season``): in a group, the newest season
created in that group, else the newest season holding the tournament linked to the group; in a private
chat, the newest season the user created or that holds a tournament where the user has a role or an entry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.errors import RuleError
from engine.tournament import Tournament as Engine
from storage.db import Database
from storage.models import utcnow
from storage.season_models import Season, SeasonTournament
from storage.tournament_models import Tournament, TournamentEntry, TournamentRole
from storage.tournaments.ratings import game_of
from storage.tournaments.state import load_engine

GAMES = ("shengji", "guandan")
NAME_MAX = 64


@dataclass(frozen=True)
class SeasonView:
    """A season and its tournaments (id, name, whether the draw is held), oldest tournament first."""

    id: int
    name: str
    game: str
    created_by: int
    chat_id: int | None
    tournaments: tuple[tuple[int, str, bool], ...]


@dataclass(frozen=True)
class SeasonInput:
    """What the season table is computed from: per tournament with a draw, its row, its engine state and
    entry id -> player ids (engine/tournament/season.py ``season_table``)."""

    rows: tuple[Tournament, ...]
    tables: tuple[tuple[Engine, Mapping[str, Sequence[str]]], ...]


def _refuse(code: str, message: str, **params: object) -> RuleError:
    return RuleError(code, message, **params)


async def _season(s: AsyncSession, season_id: int) -> Season:
    row = await s.get(Season, season_id)
    if row is None:
        raise _refuse("season_not_found", "There is no season {season}", season=f"S{season_id}")
    return row


async def _view(s: AsyncSession, row: Season) -> SeasonView:
    found = (
        await s.execute(
            select(Tournament.id, Tournament.name, Tournament.state_json.is_not(None), Tournament.status)
            .join(SeasonTournament, SeasonTournament.tournament_id == Tournament.id)
            .where(SeasonTournament.season_id == row.id)
            .order_by(Tournament.id)
        )
    ).all()
    return SeasonView(
        row.id,
        row.name,
        row.game,
        row.created_by,
        row.chat_id,
        tuple((int(t), str(n), bool(drawn)) for t, n, drawn, status in found if status != "deleted"),
    )


async def create_season(
    db: Database, name: str, game: str, created_by: int, chat_id: int | None
) -> SeasonView:
    """A new season with no tournament.  RuleError ``season_bad_game``, ``season_bad_name`` (empty or longer
    than 64 characters), ``season_name_taken`` (the creator has a season of that name already)."""
    name = " ".join(name.split())
    if game not in GAMES:
        raise _refuse("season_bad_game", "Unknown game {game}", game=game)
    if not name or len(name) > NAME_MAX:
        raise _refuse("season_bad_name", "A season's name is 1 to {n} characters", n=NAME_MAX)
    async with db.session() as s:
        taken = (
            await s.execute(
                select(Season.id).where(
                    Season.created_by == created_by, func.lower(Season.name) == name.lower()
                )
            )
        ).first()
        if taken is not None:
            raise _refuse(
                "season_name_taken", "You have a season named {name} already (S{id})", name=name, id=taken[0]
            )
        row = Season(name=name, game=game, created_by=created_by, chat_id=chat_id, created_at=utcnow())
        s.add(row)
        await s.commit()
        return SeasonView(row.id, row.name, row.game, row.created_by, row.chat_id, ())


async def get_season(db: Database, season_id: int) -> SeasonView:
    """RuleError ``season_not_found``."""
    async with db.session() as s:
        return await _view(s, await _season(s, season_id))


async def season_by_name(db: Database, name: str, chat_id: int | None = None) -> SeasonView | None:
    """The season called ``name`` (case-insensitive): the newest of this chat's, else the newest of all."""
    name = " ".join(name.split()).lower()
    async with db.session() as s:
        rows = (
            (
                await s.execute(
                    select(Season).where(func.lower(Season.name) == name).order_by(Season.id.desc())
                )
            )
            .scalars()
            .all()
        )
        if not rows:
            return None
        mine = [r for r in rows if chat_id is not None and r.chat_id == chat_id]
        return await _view(s, (mine or list(rows))[0])


async def _editable(s: AsyncSession, season_id: int, user_id: int) -> Season:
    row = await _season(s, season_id)
    if row.created_by != user_id:
        raise _refuse("season_not_yours", "Only the season's creator may change it")
    return row


async def _organises(s: AsyncSession, tid: int, user_id: int) -> bool:
    found = (
        await s.execute(
            select(TournamentRole.id).where(
                TournamentRole.tournament_id == tid,
                TournamentRole.user_id == user_id,
                TournamentRole.role == "organiser",
            )
        )
    ).first()
    return found is not None


async def organises_any(db: Database, user_id: int) -> bool:
    """Whether ``user_id`` is an organiser of some tournament (who may create a season, besides bot admins)."""
    async with db.session() as s:
        found = (
            await s.execute(
                select(TournamentRole.id).where(
                    TournamentRole.user_id == user_id, TournamentRole.role == "organiser"
                )
            )
        ).first()
        return found is not None


async def add_tournaments(db: Database, season_id: int, user_id: int, tids: Sequence[int]) -> SeasonView:
    """Add ``tids`` to the season, all or none.  RuleError: ``season_not_found``, ``season_not_yours``,
    ``season_no_tournament`` (none, or deleted), ``season_wrong_game``, ``season_not_organiser`` (the creator
    does not organise that tournament), ``season_already_in``."""
    async with db.session() as s:
        season = await _editable(s, season_id, user_id)
        have = set(
            (
                await s.execute(
                    select(SeasonTournament.tournament_id).where(SeasonTournament.season_id == season_id)
                )
            )
            .scalars()
            .all()
        )
        for tid in dict.fromkeys(tids):
            t = await s.get(Tournament, tid)
            if t is None or t.status == "deleted":
                raise _refuse("season_no_tournament", "There is no tournament {id}", id=tid)
            if game_of(t) != season.game:
                raise _refuse("season_wrong_game", "Tournament {id} plays {game}", id=tid, game=game_of(t))
            if not await _organises(s, tid, user_id):
                raise _refuse("season_not_organiser", "You do not organise tournament {id}", id=tid)
            if tid in have:
                raise _refuse("season_already_in", "Tournament {id} is in the season already", id=tid)
            have.add(tid)
            s.add(
                SeasonTournament(
                    season_id=season_id, tournament_id=tid, added_by=user_id, created_at=utcnow()
                )
            )
        await s.commit()
        return await _view(s, season)


async def remove_tournaments(db: Database, season_id: int, user_id: int, tids: Sequence[int]) -> SeasonView:
    """Take ``tids`` out of the season, all or none.  RuleError: ``season_not_found``, ``season_not_yours``,
    ``season_not_in``."""
    async with db.session() as s:
        season = await _editable(s, season_id, user_id)
        have = set(
            (
                await s.execute(
                    select(SeasonTournament.tournament_id).where(SeasonTournament.season_id == season_id)
                )
            )
            .scalars()
            .all()
        )
        for tid in tids:
            if tid not in have:
                raise _refuse("season_not_in", "Tournament {id} is not in the season", id=tid)
        await s.execute(
            delete(SeasonTournament).where(
                SeasonTournament.season_id == season_id, SeasonTournament.tournament_id.in_(list(tids))
            )
        )
        await s.commit()
        return await _view(s, season)


async def _tournaments_of_user(s: AsyncSession, user_id: int) -> set[int]:
    ids = set(
        (await s.execute(select(TournamentRole.tournament_id).where(TournamentRole.user_id == user_id)))
        .scalars()
        .all()
    )
    for tid, players in (
        await s.execute(select(TournamentEntry.tournament_id, TournamentEntry.players_json))
    ).all():
        if str(user_id) in {str(p) for p in players or ()}:
            ids.add(int(tid))
    return ids


async def seasons_for(
    db: Database, user_id: int, chat_id: int | None, group_tournament: int | None
) -> list[SeasonView]:
    """The seasons a chat is about, newest first: in a group (``chat_id``), the seasons created there and
    those holding the group's tournament; in a private chat (``chat_id`` None), the user's own seasons and
    those holding a tournament the user has a role or an entry in."""
    async with db.session() as s:
        if chat_id is not None:
            holding = {group_tournament} if group_tournament is not None else set()
            own = Season.chat_id == chat_id
        else:
            holding = await _tournaments_of_user(s, user_id)
            own = Season.created_by == user_id
        ids = set((await s.execute(select(Season.id).where(own))).scalars().all())
        if holding:
            ids |= set(
                (
                    await s.execute(
                        select(SeasonTournament.season_id).where(SeasonTournament.tournament_id.in_(holding))
                    )
                )
                .scalars()
                .all()
            )
        if not ids:
            return []
        if chat_id is not None:  # the group's own seasons first, then the others, each newest first
            rows = (await s.execute(select(Season).where(Season.id.in_(ids)))).scalars().all()
            ordered = sorted(rows, key=lambda r: (r.chat_id != chat_id, -r.id))
        else:
            ordered = list(
                (
                    await s.execute(select(Season).where(Season.id.in_(ids)).order_by(Season.id.desc()))
                ).scalars()
            )
        return [await _view(s, r) for r in ordered]


async def current_season(
    db: Database, user_id: int, chat_id: int | None, group_tournament: int | None
) -> SeasonView | None:
    """The season ``/season`` without an argument shows (see the module's doc), or None."""
    found = await seasons_for(db, user_id, chat_id, group_tournament)
    return found[0] if found else None


async def season_input(db: Database, tids: Sequence[int]) -> SeasonInput:
    """The rows and engine states of ``tids`` (in that order) whose draw is held and that are not deleted;
    the others are left out (a tournament that has not begun has nothing to count)."""
    rows: list[Tournament] = []
    tables: list[tuple[Engine, Mapping[str, Sequence[str]]]] = []
    async with db.session() as s:
        for tid in dict.fromkeys(tids):
            row = await s.get(Tournament, tid)
            if row is None or row.state_json is None or row.status == "deleted":
                continue
            entries = (
                await s.execute(select(TournamentEntry).where(TournamentEntry.tournament_id == tid))
            ).scalars()
            people = {str(e.id): [str(p) for p in e.players_json] for e in entries}
            rows.append(row)
            tables.append((load_engine(row), people))
    return SeasonInput(tuple(rows), tuple(tables))
