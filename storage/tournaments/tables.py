"""A match's tables under the referee: a substitute for an absent player, more time for one table.

A tournament table's seats are bound to the drawn entries' players; only a referee changes who sits
(a substitute approved for this match, kept on the match row and in the audit log), before the table
begins or while it plays (the table's seat changes in the same transaction).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select

from storage.db import Database
from storage.models import GameTable, TableSeat, User
from storage.tournament_models import TournamentMatch
from storage.tournaments.common import (
    add_audit,
    error,
    match_row,
    require_role,
    seated_players,
    tournament_row,
)
from storage.tournaments.lateness import table_deadline, table_of_player
from storage.tournaments.tx import retrying

REFEREES = ("referee", "chief_referee", "organiser")


LIVE = ("open", "playing", "paused")


@dataclass(frozen=True)
class Substituted:
    """A substitute seated: the match, the table number, and (when the table exists) its game table,
    the seat taken and whether the table was already in play then."""

    match: TournamentMatch
    table: int
    game_table: int | None
    seat: int | None
    in_play: bool


@retrying
async def substitute(
    db: Database, tid: int, key: str, old: int, new: int, actor: int, reason: str = ""
) -> Substituted:
    """A referee seats ``new`` instead of ``old`` for match ``key`` (rules.md D25): before ``old``'s table
    has begun, or while it plays (``new`` takes the seat for the rest of the match).  ``new`` must have
    started the bot, not play in this match, and not sit at another live table.  The match's players,
    the table's seat and the audit row change in one transaction."""
    async with db.session() as s:
        await tournament_row(s, tid)
        await require_role(s, tid, actor, REFEREES)
        m = await match_row(s, tid, key)
        tables = await seated_players(s, m)
        k = table_of_player(tables, old)
        if k is None:
            raise error("not_in_match", "That player does not play in match {match}", match=key)
        if m.status in ("finished", "void") or m.result_json is not None or str(k) in m.table_results:
            raise error("table_over", "Table {table} of {match} is over", table=k, match=key)
        user = await s.get(User, new)
        if user is None or not user.started_bot:
            raise error("partner_not_started", "{name} has not started the bot yet", name=str(new))
        if table_of_player(tables, new) is not None:
            raise error("already_in_match", "That player already plays in match {match}", match=key)
        busy = await s.execute(
            select(TableSeat.id)
            .join(GameTable, GameTable.id == TableSeat.table_id)
            .where(TableSeat.user_id == new, GameTable.status.in_(LIVE))
            .limit(1)
        )
        if busy.first() is not None:
            raise error(
                "substitute_busy", "{name} sits at another table now", name=user.first_name or str(new)
            )
        table_id = m.game_tables[k - 1] if k - 1 < len(m.game_tables) else None
        seat, in_play = None, False
        table = await s.get(GameTable, int(table_id)) if table_id is not None else None
        if table is not None and table.status in LIVE:
            row = (
                await s.execute(
                    select(TableSeat).where(TableSeat.table_id == table.id, TableSeat.user_id == old)
                )
            ).scalar_one_or_none()
            if row is not None:
                row.user_id = new
                seat, in_play = row.seat, table.status != "open"
        subs = {k2: v for k2, v in (m.substitutes or {}).items() if int(v) != old}
        original = next((int(k2) for k2, v in (m.substitutes or {}).items() if int(v) == old), old)
        subs[str(original)] = new
        m.substitutes = subs
        add_audit(
            s,
            tid,
            actor,
            "substitute",
            match=key,
            table=k,
            old=old,
            new=new,
            reason=reason,
            in_play=in_play,
            seat=seat,
        )
        await s.commit()
        return Substituted(m, k, int(table.id) if table is not None else None, seat, in_play)


@retrying
async def extend_lateness(
    db: Database, tid: int, key: str, table: int | None, minutes: int, actor: int, now: datetime
) -> tuple[TournamentMatch, dict[int, datetime]]:
    """A referee gives table ``table`` (None: every table not decided yet) ``minutes`` more before the
    lateness rule applies; returns the match and each extended table's new deadline."""
    if minutes <= 0 or minutes > 240:
        raise error("bad_minutes", "Send a number of minutes (a whole number from 1 to {max})", max=240)
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, REFEREES)
        m = await match_row(s, tid, key)
        if m.start_at is None or m.status in ("finished", "void"):
            raise error("match_not_ready", "Match {match} is not ready to start", match=key)
        count = len(await seated_players(s, m))
        chosen = list(range(1, count + 1)) if table is None else [table]
        if any(not 1 <= k <= count for k in chosen):
            raise error("unknown_table", "Match {match} has tables 1 to {count}", match=key, count=count)
        chosen = [k for k in chosen if str(k) not in m.table_results and table_deadline(row, m, k) >= now]
        if not chosen:
            raise error("lateness_decided", "The lateness of match {match} has been decided", match=key)
        extra = dict(m.late_extra or {})
        for k in chosen:
            extra[str(k)] = int(extra.get(str(k), 0)) + minutes
        m.late_extra = extra
        add_audit(s, tid, actor, "extend_lateness", match=key, tables=chosen, minutes=minutes)
        await s.commit()
        return m, {k: table_deadline(row, m, k) for k in chosen}
