"""Check-in and the lateness rule: who is present, forfeits at the deadline, undoing them."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from engine.tournament.lateness import LatenessDecision, checkin_window, decide
from engine.tournament.lateness import undo as undo_decision
from storage.db import Database
from storage.tournament_models import (
    CheckIn,
    TournamentMatch,
)
from storage.tournaments.lookup import _err, _get, _match, _match_players, settings_of
from storage.tournaments.results import Recorded, _clear_result, record_result
from storage.tournaments.roles import _audit, _require
from storage.tournaments.state import _sync_matches, load_engine
from storage.tournaments.times import local_text


async def check_in(db: Database, tid: int, key: str, user_id: int, now: datetime) -> TournamentMatch:
    """A player checks in for their match (from ``checkin_opens_minutes`` before the start to the deadline)."""
    async with db.session() as s:
        row = await _get(s, tid)
        m = await _match(s, tid, key)
        players = {p for a, b in await _match_players(s, m) for p in (*a, *b)}
        if user_id not in players:
            raise _err("not_your_match", "You do not play in match {match}", match=key)
        if m.status not in ("scheduled", "open") or m.start_at is None:
            raise _err("checkin_closed", "Check-in for match {match} is closed", match=key)
        st = settings_of(row)
        window = checkin_window(m.start_at, st.late_forfeit_minutes, st.checkin_opens_minutes)
        if now < window.opens:
            raise _err("checkin_not_open", "Check-in opens at {time}", time=local_text(window.opens, row.time_zone))
        if now > window.deadline:
            raise _err("checkin_closed", "Check-in for match {match} is closed", match=key)
        old = (await s.execute(select(CheckIn).where(CheckIn.tournament_id == tid, CheckIn.match_key == key,
                                                     CheckIn.user_id == user_id))).scalars().first()
        if old is None:
            s.add(CheckIn(tournament_id=tid, match_key=key, user_id=user_id, at=now))
        await s.commit()
        return m


async def decide_lateness(db: Database, tid: int, key: str) -> tuple[LatenessDecision, Recorded | None]:
    """At the lateness deadline: a side not complete forfeits (both absent: double forfeit)."""
    async with db.session() as s:
        row = await _get(s, tid)
        m = await _match(s, tid, key)
        if m.start_at is None:
            raise _err("match_not_ready", "Match {match} is not ready to start", match=key)
        st = settings_of(row)
        tables = await _match_players(s, m)
        ins = {str(u): at for u, at in (await s.execute(select(CheckIn.user_id, CheckIn.at).where(
            CheckIn.tournament_id == tid, CheckIn.match_key == key))).all()}
        dec = decide(key, m.start_at, st.late_forfeit_minutes,
                     [([str(p) for p in a], [str(p) for p in b]) for a, b in tables], ins)
        m.lateness_json = dec.to_dict()
        _audit(s, tid, None, "lateness", match=key, decision=dec.action)
        await s.commit()
    if dec.forfeits:
        result = dec.result()
        assert result is not None
        rec = await record_result(db, tid, key, result, None, "lateness_forfeit")
        return dec, rec
    if dec.action == "partial":
        async with db.session() as s:
            m = await _match(s, tid, key)
            m.table_results = {**m.table_results, **{str(t.table): t.to_dict() for t in dec.forfeited_tables()}}
            await s.commit()
    return dec, None


async def undo_lateness(db: Database, tid: int, key: str, actor: int, reason: str) -> TournamentMatch:
    """A referee undoes a lateness forfeit: the match is to be played after all (its result is cleared
    while no later match fed by it has begun)."""
    if not reason.strip():
        raise _err("reason_required", "Give a reason")
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("referee", "chief_referee", "organiser"))
        m = await _match(s, tid, key)
        if m.lateness_json is None:
            raise _err("nothing_to_undo", "Match {match} had no lateness forfeit", match=key)
        dec = undo_decision(LatenessDecision.from_dict(m.lateness_json), str(actor), reason)
        eng = load_engine(row)
        if m.result_json is not None and m.result_json.get("outcome") in ("forfeit", "double_forfeit"):
            _clear_result(eng, key)
            row.state_json = eng.to_dict()
            m.result_json = None
        m.lateness_json = dec.to_dict()
        m.table_results = {k: v for k, v in m.table_results.items()
                           if not (k.isdigit() and isinstance(v, dict) and v.get("absent"))}
        m.status = "scheduled"
        _audit(s, tid, actor, "undo_forfeit", match=key, reason=reason)
        await _sync_matches(s, row, eng)
        row.status = "running"
        await s.commit()
        return m
