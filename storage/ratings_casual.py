"""Casual matches in the ratings (``CASUAL_RATINGS``, off by default; docs/organiser-guide.md 5b).

What is rated: a finished match of a casual table (``/newtable``: no tournament, no practice table, no
fixed seed — whoever knows a fixed or public seed knows the deals) with a winner.  Who sat where is the
table's seats: a table holds one match, and its seats change only while it is open (``table_repo``
refuses a seat change once the match has started), so ``table_seats`` is the record of each casual
match's seating.  Seats 0 and 2 are side 0, seats 1 and 3 side 1 (``result_json["winner"]``).  A
computer seat plays as ``ai:<level>#<seat>`` at the table's level (``ai`` option): a fixed rating,
never changed (engine/tournament/ratings.py); a match of four computers is not rated.

Nothing is stored for the ratings: like the tournament results they are replayed from the stored
matches, in time order with the tournament tables, so switching the setting off takes the casual
matches out again, and a casual match deleted by the retention purge (``CASUAL_RETENTION_DAYS``) no
longer counts.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.tournament.ratings import TableGame, computer_key, is_computer
from storage.db import Database
from storage.models import GameTable, MatchRecord, TableSeat

REF = "casual/"  # a casual game's history reference: ``casual/<match id>``


@dataclass(frozen=True)
class CasualGame:
    """One rated casual match: when it finished, its rated game, and its table's chat."""

    at: datetime
    game: TableGame
    match_id: int
    chat_id: int


def _players(seats: list[tuple[int, int | None, bool]], level: str) -> list[str] | None:
    """The four seats' rating keys in seat order (seat, user id, computer), or None when one is empty."""
    if len(seats) != 4:
        return None
    out = []
    for seat, user_id, computer in sorted(seats):
        if user_id is not None and not computer:
            out.append(str(user_id))
        elif computer:
            out.append(computer_key(level, seat))
        else:
            return None
    return out


async def casual_games(s: AsyncSession) -> list[CasualGame]:
    """Every rated casual match, oldest first (see the module's doc).  Columns, not ORM rows: a union's
    casual play may be tens of thousands of matches (docs/performance.md, "Ratings")."""
    found = (
        await s.execute(
            select(
                MatchRecord.id,
                MatchRecord.game,
                MatchRecord.result_json,
                MatchRecord.finished_at,
                GameTable.id,
                GameTable.chat_id,
                GameTable.options_json,
            )
            .join(GameTable, GameTable.id == MatchRecord.table_id)
            .where(
                GameTable.tournament_ref.is_(None),
                GameTable.practice.is_(False),
                GameTable.fixed_seed.is_(None),
                MatchRecord.status == "finished",
                MatchRecord.result_json.is_not(None),
                MatchRecord.finished_at.is_not(None),
            )
            .order_by(MatchRecord.finished_at, MatchRecord.id)
        )
    ).all()
    if not found:
        return []
    seats: dict[int, list[tuple[int, int | None, bool]]] = {}
    rows = await s.execute(
        select(TableSeat.table_id, TableSeat.seat, TableSeat.user_id, TableSeat.is_computer)
        .join(GameTable, GameTable.id == TableSeat.table_id)
        .where(GameTable.tournament_ref.is_(None))
    )
    for table_id, seat, user_id, computer in rows.all():
        seats.setdefault(int(table_id), []).append((int(seat), user_id, bool(computer)))
    out = []
    for match_id, game, result, finished_at, table_id, chat_id, options in found:
        winner = (result or {}).get("winner")
        players = _players(seats.get(int(table_id), []), str((options or {}).get("ai", "normal")))
        if winner not in (0, 1) or players is None or all(is_computer(p) for p in players):
            continue
        win = (players[winner], players[winner + 2])
        lose = (players[1 - winner], players[3 - winner])
        out.append(
            CasualGame(
                finished_at, TableGame(str(game), win, lose, f"{REF}{match_id}"), int(match_id), int(chat_id)
            )
        )
    return out


async def casual_games_of(db: Database, user_id: int) -> list[CasualGame]:
    """The rated casual matches ``user_id`` played, oldest first."""
    me = str(user_id)
    async with db.session() as s:
        return [g for g in await casual_games(s) if me in (*g.game.winners, *g.game.losers)]
