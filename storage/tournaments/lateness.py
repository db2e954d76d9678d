"""Check-in and the lateness rule, table by table: who is present, forfeits at each table's deadline,
undoing them.

Each table of a match has its own deadline: the match's start + ``late_forfeit_minutes`` + the extra
minutes a referee gave that table (``TournamentMatch.late_extra``).  A player may check in until their
own table's deadline, whatever the other tables of a team match are doing.  At a deadline every table
due and not decided yet is decided (engine ``decide_table``): complete tables play, a table with a side
missing is lost by that side; once every table has a result the match result is recorded in the same
transaction as the decision, so a crash can never leave a decision without its result.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from engine.tournament.lateness import LatenessDecision, TableDecision, checkin_window, combine, decide_table
from engine.tournament.lateness import undo as undo_decision
from engine.tournament.results import TableResult, forfeit_table, team_result
from storage.db import Database
from storage.models import GameTable
from storage.tournament_models import CheckIn, Tournament, TournamentMatch
from storage.tournaments.common import (
    add_audit,
    error,
    match_row,
    require_role,
    seated_players,
    tournament_row,
)
from storage.tournaments.lookup import settings_of
from storage.tournaments.results import Recorded, clear_result, record_in
from storage.tournaments.state import load_engine, sync_matches
from storage.tournaments.times import local_text
from storage.tournaments.tx import retrying

STARTED = ("playing", "paused", "finished")


def table_deadline(row: Tournament, m: TournamentMatch, table: int) -> datetime:
    """When table ``table`` (1..N) of match ``m`` is decided: start + lateness limit + the table's extra time."""
    assert m.start_at is not None
    extra = int((m.late_extra or {}).get(str(table), 0))
    return m.start_at + timedelta(minutes=settings_of(row).late_forfeit_minutes + extra)


def table_of_player(tables: list[tuple[list[int], list[int]]], user_id: int) -> int | None:
    for k, (a, b) in enumerate(tables, start=1):
        if user_id in a or user_id in b:
            return k
    return None


@retrying
async def check_in(db: Database, tid: int, key: str, user_id: int, now: datetime) -> TournamentMatch:
    """A player checks in for their match: from ``checkin_opens_minutes`` before the start until their own
    table's deadline, as long as their table has not been decided."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        m = await match_row(s, tid, key)
        tables = await seated_players(s, m)
        k = table_of_player(tables, user_id)
        if k is None:
            raise error("not_your_match", "You do not play in match {match}", match=key)
        if (
            m.status not in ("scheduled", "open", "playing")
            or m.start_at is None
            or str(k) in m.table_results
        ):
            raise error("checkin_closed", "Check-in for match {match} is closed", match=key)
        st = settings_of(row)
        window = checkin_window(m.start_at, st.late_forfeit_minutes, st.checkin_opens_minutes)
        if now < window.opens:
            raise error(
                "checkin_not_open", "Check-in opens at {time}", time=local_text(window.opens, row.time_zone)
            )
        if now > table_deadline(row, m, k):
            raise error("checkin_closed", "Check-in for match {match} is closed", match=key)
        old = (
            (
                await s.execute(
                    select(CheckIn).where(
                        CheckIn.tournament_id == tid, CheckIn.match_key == key, CheckIn.user_id == user_id
                    )
                )
            )
            .scalars()
            .first()
        )
        if old is None:
            s.add(CheckIn(tournament_id=tid, match_key=key, user_id=user_id, at=now))
            try:
                await s.commit()
            except IntegrityError:  # the same press twice at once: one check-in is kept
                await s.rollback()
        return m


@dataclass
class Lateness:
    """What a lateness deadline decided: the match's decision so far, the tables decided now (their
    forfeits to announce), the tables still waiting (a later deadline), the result if now complete."""

    decision: LatenessDecision | None
    new_tables: tuple[TableDecision, ...]
    waiting: tuple[int, ...]
    recorded: Recorded | None

    @property
    def new_forfeits(self) -> tuple[TableDecision, ...]:
        return tuple(t for t in self.new_tables if t.absent is not None)


@retrying
async def decide_lateness(db: Database, tid: int, key: str, now: datetime | None = None) -> Lateness:
    """At a deadline (``now``; None: the match's common deadline): decide every table due and not decided
    yet; when every table has a result, record the match result.  One transaction; doing it again
    decides nothing new (a deadline run twice after a restart changes nothing)."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        m = await match_row(s, tid, key)
        if m.start_at is None:
            raise error("match_not_ready", "Match {match} is not ready to start", match=key)
        prior = LatenessDecision.from_dict(m.lateness_json) if m.lateness_json else None
        if (
            m.result_json is not None
            or m.status in ("finished", "void")
            or (prior and prior.action == "undone")
        ):
            return Lateness(prior, (), (), None)
        tables = await seated_players(s, m)
        ins = {
            str(u): at
            for u, at in (
                await s.execute(
                    select(CheckIn.user_id, CheckIn.at).where(
                        CheckIn.tournament_id == tid, CheckIn.match_key == key
                    )
                )
            ).all()
        }
        decided = {t.table: t for t in (prior.tables if prior else ())}
        limit = now or m.start_at + timedelta(minutes=settings_of(row).late_forfeit_minutes)
        new: list[TableDecision] = []
        waiting: list[int] = []
        for k, (a, b) in enumerate(tables, start=1):
            if k in decided:
                continue
            deadline = table_deadline(row, m, k)
            if deadline > limit:
                waiting.append(k)
                continue
            game = None
            if k - 1 < len(m.game_tables) and m.game_tables[k - 1] is not None:
                game = await s.get(GameTable, int(m.game_tables[k - 1]))
            sat = game is not None and game.status in STARTED
            t = decide_table(k, deadline, [str(p) for p in a], [str(p) for p in b], ins, present=sat)
            decided[k] = t
            new.append(t)
        if not new:
            return Lateness(prior, (), tuple(waiting), None)
        last = max(table_deadline(row, m, k) for k in decided)
        dec = combine(key, last, list(decided.values()))
        m.lateness_json = dec.to_dict()
        forfeited = {
            str(t.table): forfeit_table(t.absent, t.table).to_dict() for t in new if t.absent is not None
        }
        if forfeited:
            m.table_results = {**m.table_results, **forfeited}
        add_audit(
            s,
            tid,
            None,
            "lateness",
            match=key,
            decision=dec.action,
            tables=[
                {"table": t.table, "absent_a": list(t.absent_a), "absent_b": list(t.absent_b)} for t in new
            ],
        )
        rec: Recorded | None = None
        done = {kk: TableResult.from_dict(v) for kk, v in m.table_results.items() if kk.isdigit()}
        if len(done) == len(tables) and all(r.absent is not None for r in done.values()):
            rec = await record_in(s, row, m, team_result(list(done.values())), None, "lateness_forfeit")
        await s.commit()
        return Lateness(dec, tuple(new), tuple(waiting), rec)


@retrying
async def undo_lateness(db: Database, tid: int, key: str, actor: int, reason: str) -> TournamentMatch:
    """A referee undoes a lateness forfeit: the match is to be played after all (its result is cleared
    while no later match fed by it has begun)."""
    if not reason.strip():
        raise error("reason_required", "Give a reason")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("referee", "chief_referee", "organiser"))
        m = await match_row(s, tid, key)
        if m.lateness_json is None:
            raise error("nothing_to_undo", "Match {match} had no lateness forfeit", match=key)
        dec = undo_decision(LatenessDecision.from_dict(m.lateness_json), str(actor), reason)
        eng = load_engine(row)
        if m.result_json is not None and m.result_json.get("outcome") in ("forfeit", "double_forfeit"):
            clear_result(eng, key)
            row.state_json = eng.to_dict()
            m.result_json = None
        m.lateness_json = dec.to_dict()
        m.table_results = {
            k: v
            for k, v in m.table_results.items()
            if not (k.isdigit() and isinstance(v, dict) and v.get("absent"))
        }
        m.status = "scheduled"
        add_audit(s, tid, actor, "undo_forfeit", match=key, reason=reason)
        await sync_matches(s, row, eng)
        row.status = "running"
        await s.commit()
        return m
