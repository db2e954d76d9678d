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


def _players(seats: list[TableSeat], level: str) -> list[str] | None:
    if len(seats) != 4:
        return None
    out = []
    for x in sorted(seats, key=lambda x: x.seat):
        if x.user_id is not None and not x.is_computer:
            out.append(str(x.user_id))
        elif x.is_computer:
            out.append(computer_key(level, x.seat))
        else:
            return None
    return out


async def casual_games(s: AsyncSession) -> list[CasualGame]:
    """Every rated casual match, oldest first (see the module's doc)."""
    found = (
        await s.execute(
            select(MatchRecord, GameTable)
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
    table_ids = list({t.id for _, t in found})
    seats: dict[int, list[TableSeat]] = {}
    for seat in (await s.execute(select(TableSeat).where(TableSeat.table_id.in_(table_ids)))).scalars():
        seats.setdefault(seat.table_id, []).append(seat)
    out = []
    for m, t in found:
        result = m.result_json or {}
        winner = result.get("winner")
        players = _players(seats.get(t.id, []), str((t.options_json or {}).get("ai", "normal")))
        if winner not in (0, 1) or players is None or all(is_computer(p) for p in players):
            continue
        win = (players[winner], players[winner + 2])
        lose = (players[1 - winner], players[3 - winner])
        assert m.finished_at is not None
        out.append(CasualGame(m.finished_at, TableGame(m.game, win, lose, f"{REF}{m.id}"), m.id, t.chat_id))
    return out


async def casual_games_of(db: Database, user_id: int) -> list[CasualGame]:
    """The rated casual matches ``user_id`` played, oldest first."""
    me = str(user_id)
    async with db.session() as s:
        return [g for g in await casual_games(s) if me in (*g.game.winners, *g.game.losers)]
