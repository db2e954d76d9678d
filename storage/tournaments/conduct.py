"""Conduct records (violations, disqualification) and their reversal."""

from __future__ import annotations

from typing import Any

from engine.tournament.conduct import ConductRecord
from storage.db import Database
from storage.tournaments.common import add_audit, error, match_row, require_role, tournament_row
from storage.tournaments.results import Recorded
from storage.tournaments.state import load_engine, sync_matches
from storage.tournaments.tx import retrying


@retrying
async def add_conduct(
    db: Database,
    tid: int,
    key: str,
    side: str,
    actor: int,
    kind: str,
    note: str,
    player: int | None = None,
    levels: int = 0,
) -> tuple[Any, Recorded | None, str]:
    """Record a conduct item against side a/b of a match; a disqualification ends the match in progress."""
    if side not in ("a", "b"):
        raise error("bad_side", "Side {side} is not allowed; allowed: a | b", side=side)
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("referee", "chief_referee", "organiser"))
        eng = load_engine(row)
        m = await match_row(s, tid, key)
        entry_id = m.side_a if side == "a" else m.side_b
        if entry_id is None:
            raise error("unknown_entry", "There is no entry {id}", id=side)
        rid = f"C{len(eng.conduct.records) + 1}"
        was_ready = key in eng.ready_matches()
        outcome = eng.add_conduct(ConductRecord(rid, kind, entry_id, str(player or ""), key, note, levels))
        row.state_json = eng.to_dict()
        add_audit(
            s,
            tid,
            actor,
            "conduct",
            record=rid,
            kind=kind,
            match=key,
            entry=entry_id,
            note=note,
            disqualified=outcome.disqualified,
        )
        rec: Recorded | None = None
        if outcome.newly_disqualified and was_ready and key not in eng.ready_matches():
            res = eng.result_of(key)
            m.result_json = None if res is None else res.to_dict()
            m.status = "finished"
            new = await sync_matches(s, row, eng)
            rec = Recorded(m, new, eng.finished)
            if eng.finished:
                row.status = "finished"
        await s.commit()
        return outcome, rec, rid


@retrying
async def reverse_conduct(db: Database, tid: int, record_id: str, actor: int, reason: str) -> Any:
    if not reason.strip():
        raise error("reason_required", "Give a reason")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("referee", "chief_referee", "organiser"))
        eng = load_engine(row)
        outcome = eng.conduct.reverse(record_id, str(actor), reason)
        row.state_json = eng.to_dict()
        add_audit(
            s, tid, actor, "reverse_conduct", record=record_id, reason=reason, reinstated=outcome.reinstated
        )
        await s.commit()
        return outcome
