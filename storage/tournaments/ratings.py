"""Ratings from the stored tournament results (engine/tournament/ratings.py), and seeding by them.

Nothing is stored: every call replays the results of every tournament in play order (tournament,
then the match's start, then its row), so a referee's correction or a voided match is reflected at
once.  Players are rated as ``str(user id)``; a referee-approved substitute is rated for the tables
they played.  A union's whole history is a few thousand tables: one replay is milliseconds of CPU.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.registry import load_preset
from engine.tournament import PairingResult
from engine.tournament.entries import Entry
from engine.tournament.ratings import (
    EntryRating,
    Ratings,
    TableGame,
    entry_rating,
    match_games,
    replay,
    seed_by_rating,
)
from storage.db import Database
from storage.ratings_cache import replayed
from storage.ratings_casual import casual_games
from storage.tournament_models import Tournament, TournamentEntry, TournamentMatch

_EARLIEST = datetime.min.replace(tzinfo=UTC)


def game_of(row: Tournament) -> str:
    """The game a tournament plays (``shengji`` / ``guandan``), from its preset."""
    return str(load_preset(row.preset_id).game)


async def _rated_games(s: AsyncSession, before_tournament: int | None = None) -> list[TableGame]:
    return [g for _, g in await _timed_games(s, before_tournament)]


async def _timed_games(
    s: AsyncSession, before_tournament: int | None = None
) -> list[tuple[datetime, TableGame]]:
    """The rated tournament tables in play order, each with its match's start (for merging the casual ones)."""
    rows = (await s.execute(select(Tournament).order_by(Tournament.id))).scalars().all()
    games: list[tuple[datetime, TableGame]] = []
    for t in rows:
        if t.state_json is None or (before_tournament is not None and t.id >= before_tournament):
            continue
        game = game_of(t)
        players = {
            str(e.id): [str(p) for p in e.players_json]
            for e in (await s.execute(select(TournamentEntry).where(TournamentEntry.tournament_id == t.id)))
            .scalars()
            .all()
        }
        done = (
            (
                await s.execute(
                    select(TournamentMatch).where(
                        TournamentMatch.tournament_id == t.id, TournamentMatch.result_json.is_not(None)
                    )
                )
            )
            .scalars()
            .all()
        )
        for m in sorted(done, key=lambda m: (m.start_at or m.created_at or datetime.min, m.id)):
            if m.result_json is None or m.status == "void" or not m.side_a or not m.side_b:
                continue
            subs = {str(k): str(v) for k, v in (m.substitutes or {}).items()}
            side_a = [subs.get(p, p) for p in players.get(m.side_a, [])]
            side_b = [subs.get(p, p) for p in players.get(m.side_b, [])]
            at = m.start_at or m.created_at or _EARLIEST
            games += [
                (at, g)
                for g in match_games(
                    game, side_a, side_b, PairingResult.from_dict(m.result_json), f"{t.id}/{m.match_key}"
                )
            ]
    return games


async def _with_casual(
    s: AsyncSession, timed: list[tuple[datetime, TableGame]], casual: bool
) -> list[TableGame]:
    """The tournament tables, with the rated casual matches (``casual``: ``CASUAL_RATINGS``) put in by time
    between them (the tournament tables keep their own order)."""
    if not casual:
        return [g for _, g in timed]
    others = [(c.at, c.game) for c in await casual_games(s)]
    return [g for _, g in heapq.merge(timed, others, key=lambda x: x[0])]


async def player_ratings(db: Database) -> Ratings:
    """Every player's rating per game after every tournament result stored (and, with the database's
    ``casual_ratings`` on, every rated casual match: storage/ratings_casual.py)."""
    async with db.session() as s:
        games = await _with_casual(s, await _timed_games(s), db.casual_ratings)
    # off the event loop, and only the new games when nothing earlier changed (storage/ratings_cache.py)
    return await replayed(db, games)


async def entry_ratings(db: Database, row: Tournament) -> dict[str, EntryRating]:
    """Entry id -> its rating now (the mean of its players' ratings in the tournament's game, provisional
    while one of them is: ``engine.tournament.ratings.entry_rating``), for every entry, withdrawn ones too:
    what the standings, the final ranking and the public page show next to each entry."""
    ratings = await player_ratings(db)
    async with db.session() as s:
        rows = (
            (await s.execute(select(TournamentEntry).where(TournamentEntry.tournament_id == row.id)))
            .scalars()
            .all()
        )
    game = game_of(row)
    out = {}
    for e in rows:
        r = entry_rating(ratings, game, [str(p) for p in e.players_json])
        if r is not None:
            out[str(e.id)] = r
    return out


async def seeded_by_rating(
    s: AsyncSession,
    row: Tournament,
    entries: Sequence[Entry],
    rows: Sequence[TournamentEntry],
    casual: bool = False,
) -> list[Entry]:
    """``entries`` with seed numbers from the ratings of earlier tournaments (``seed_by_rating``; with
    ``casual``, the rated casual matches too)."""
    ratings = replay(await _with_casual(s, await _timed_games(s, before_tournament=row.id), casual))
    players_of = {str(e.id): [str(p) for p in e.players_json] for e in rows}
    return seed_by_rating(entries, ratings, game_of(row), players_of)
