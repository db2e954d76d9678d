"""Ratings from the stored tournament results (engine/tournament/ratings.py), and seeding by them.

Nothing is stored: every call replays the results of every tournament in play order (tournament,
then the match's start, then its row), so a referee's correction or a voided match is reflected at
once.  Players are rated as ``str(user id)``; a referee-approved substitute is rated for the tables
they played.  A union's whole history is a few thousand tables: one replay is milliseconds of CPU.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.registry import load_preset
from engine.tournament import PairingResult
from engine.tournament.entries import Entry
from engine.tournament.ratings import Ratings, TableGame, match_games, replay, seed_by_rating
from storage.db import Database
from storage.tournament_models import Tournament, TournamentEntry, TournamentMatch


def game_of(row: Tournament) -> str:
    """The game a tournament plays (``shengji`` / ``guandan``), from its preset."""
    return str(load_preset(row.preset_id).game)


async def _rated_games(s: AsyncSession, before_tournament: int | None = None) -> list[TableGame]:
    rows = (await s.execute(select(Tournament).order_by(Tournament.id))).scalars().all()
    games: list[TableGame] = []
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
            games += match_games(
                game, side_a, side_b, PairingResult.from_dict(m.result_json), f"{t.id}/{m.match_key}"
            )
    return games


async def player_ratings(db: Database) -> Ratings:
    """Every player's rating per game after every tournament result stored."""
    async with db.session() as s:
        return replay(await _rated_games(s))


async def seeded_by_rating(
    s: AsyncSession, row: Tournament, entries: Sequence[Entry], rows: Sequence[TournamentEntry]
) -> list[Entry]:
    """``entries`` with seed numbers from the ratings of earlier tournaments (``seed_by_rating``)."""
    ratings = replay(await _rated_games(s, before_tournament=row.id))
    players_of = {str(e.id): [str(p) for p in e.players_json] for e in rows}
    return seed_by_rating(entries, ratings, game_of(row), players_of)
