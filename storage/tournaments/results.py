"""MatchRecord results: recording, correcting, confirming; forfeits."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.tournament import PairingResult
from engine.tournament import Tournament as Engine
from engine.tournament.results import forfeit_result
from storage.db import Database
from storage.tournament_models import Tournament, TournamentMatch
from storage.tournaments.common import add_audit, error, match_row, require_role, tournament_row
from storage.tournaments.state import load_engine, sync_matches
from storage.tournaments.tx import retrying


@dataclass
class Recorded:
    """What recording a result did: the match row, the matches that became ready (rows), finished?"""

    match: TournamentMatch
    new_matches: list[TournamentMatch]
    finished: bool
    conflicts: tuple[str, ...] = ()
    applied: bool = True


@retrying
async def record_result(
    db: Database,
    tid: int,
    key: str,
    result: PairingResult,
    actor: int | None,
    action: str = "result",
    reason: str = "",
) -> Recorded:
    """Record a match result (a finished table, a forfeit, a referee decision): the bracket advances."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        m = await match_row(s, tid, key)
        rec = await record_in(s, row, m, result, actor, action, reason)
        await s.commit()
        return rec


async def record_in(
    s: AsyncSession,
    row: Tournament,
    m: TournamentMatch,
    result: PairingResult,
    actor: int | None,
    action: str,
    reason: str = "",
) -> Recorded:
    """Record ``result`` inside the caller's transaction (the tournament row's version guards the state)."""
    eng = load_engine(row)
    eng.record(m.match_key, result)
    row.state_json = eng.to_dict()
    m.result_json = result.to_dict()
    m.status = "finished"
    add_audit(
        s,
        row.id,
        actor,
        action,
        match=m.match_key,
        winner=result.winner,
        outcome=result.outcome,
        reason=reason,
    )
    new = await sync_matches(s, row, eng)
    if eng.finished:
        row.status = "finished"
    return Recorded(m, new, eng.finished)


@retrying
async def correct_result(
    db: Database, tid: int, key: str, result: PairingResult, actor: int, reason: str, force: bool = False
) -> Recorded:
    """A referee corrects a recorded result (with a reason); a change of who advances is refused while a
    later match has begun, unless ``force`` (its result is voided)."""
    if not reason.strip():
        raise error("reason_required", "Give a reason")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("referee", "chief_referee", "organiser"))
        eng = load_engine(row)
        m = await match_row(s, tid, key)
        corr = eng.correct(key, result, force)
        if not corr.applied:
            return Recorded(m, [], eng.finished, corr.conflicts, False)
        row.state_json = eng.to_dict()
        m.result_json = result.to_dict()
        m.status = "finished"
        m.confirmed_by = None
        for voided in corr.voided:
            vm = (
                (
                    await s.execute(
                        select(TournamentMatch).where(
                            TournamentMatch.tournament_id == tid, TournamentMatch.match_key == voided
                        )
                    )
                )
                .scalars()
                .first()
            )
            if vm is not None:
                vm.status = "void"
                vm.result_json = None
        add_audit(
            s,
            tid,
            actor,
            "correct",
            match=key,
            winner=result.winner,
            reason=reason,
            advancers_changed=corr.advancers_changed,
            voided=list(corr.voided),
        )
        new = await sync_matches(s, row, eng)
        row.status = "finished" if eng.finished else "running"
        await s.commit()
        return Recorded(m, new, eng.finished)


@retrying
async def confirm_result(db: Database, tid: int, key: str, actor: int) -> TournamentMatch:
    async with db.session() as s:
        await tournament_row(s, tid)
        await require_role(s, tid, actor, ("chief_referee", "organiser"))
        m = await match_row(s, tid, key)
        if m.result_json is None:
            raise error("no_result_to_correct", "Match {match} has no result to correct", match=key)
        m.confirmed_by = actor
        add_audit(s, tid, actor, "confirm", match=key)
        await s.commit()
        return m


def clear_result(eng: Engine, key: str) -> None:
    """Remove a recorded result (engine gap: no public call for it yet)."""
    if eng.groups is not None and any(g.id == key for g in eng.groups.matches):
        if eng.bracket is not None:
            raise error(
                "match_not_ready",
                "Match {match} cannot take a result now ({state})",
                match=key,
                state="knockout begun",
            )
        eng.groups.match(key).result = None
        return
    assert eng.bracket is not None
    fed = [m for m in eng.bracket.matches if any(src.ref == key for src in (m.a, m.b))]
    begun = [m.id for m in fed if m.started or m.result is not None]
    if begun:
        raise error("correction_conflict", "Later matches have begun: {matches}", matches=", ".join(begun))
    node = eng.bracket.match(key)
    node.result = None
    node.started = False


def forfeit(absent: str, tables: int, note: str = "") -> PairingResult:
    if absent not in ("a", "b", "both"):
        raise error("bad_side", "Side {side} is not allowed; allowed: a | b", side=absent)
    return forfeit_result(absent, tables, note)
