"""Swiss rounds on the tournament row: withdrawing an entry between rounds, ending the rounds early.

The pairing itself happens in the engine when a result completes a round (``results.record_result``
then creates the next round's match rows, which the bot schedules and announces).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy.ext.asyncio import AsyncSession

from engine.tournament import Tournament as Engine
from engine.tournament.swiss import SwissStage
from storage.db import Database
from storage.tournament_models import Tournament, TournamentEntry, TournamentMatch
from storage.tournaments.common import add_audit, error, require_role, tournament_row
from storage.tournaments.state import load_engine, sync_matches
from storage.tournaments.tx import retrying, touch


@dataclass
class SwissEnded:
    """What ending the Swiss did: the knockout's first matches (rows, not scheduled yet), finished?"""

    new_matches: list[TournamentMatch]
    finished: bool


async def _organisers_swiss(s: AsyncSession, tid: int, actor: int) -> tuple[Tournament, Engine, SwissStage]:
    """The tournament row, its engine state and Swiss stage, for an organiser (else ``not_allowed``)."""
    row = await tournament_row(s, tid)
    await require_role(s, tid, actor, ("organiser",))
    eng = load_engine(row)
    if eng.swiss is None:
        raise error("not_swiss", "{name} is not a Swiss tournament", name=eng.name)
    return row, eng, eng.swiss


@retrying
async def swiss_withdraw(db: Database, tid: int, entry_id: int, actor: int) -> TournamentEntry:
    """An organiser withdraws an entry from a running Swiss: it is not paired again, its played matches
    stand.  An entry with a match of the current round still to finish is refused (``swiss_match_open``):
    the referee records that match (or its forfeit) first, so no live table is left behind."""
    async with db.session() as s:
        row, eng, stage = await _organisers_swiss(s, tid, actor)
        entry = await s.get(TournamentEntry, entry_id)
        key = str(entry_id)
        if entry is None or entry.tournament_id != tid or key not in stage.entries:
            raise error("unknown_entry", "There is no entry {id}", id=entry_id)
        pending = stage.pending_match(key)
        if pending is not None:
            raise error(
                "swiss_match_open",
                "{entry} still has match {match} to finish; record it first",
                entry=entry.name,
                match=pending.id,
            )
        eng.withdraw(key)
        row.state_json = eng.to_dict()
        entry.status = "withdrawn"
        touch(row)
        add_audit(
            s, tid, actor, "swiss_withdraw", entry=entry.id, name=entry.name, after_round=stage.current_round
        )
        await s.commit()
        return entry


@retrying
async def end_swiss(db: Database, tid: int, actor: int) -> SwissEnded:
    """The organiser ends the Swiss after the current round (a round that cannot be paired, or the day
    is over): once that round is complete the standings are final, or the top-K knockout begins (at once
    when the round is already complete)."""
    async with db.session() as s:
        row, eng, stage = await _organisers_swiss(s, tid, actor)
        rnd = stage.current_round
        eng.end_swiss()
        row.state_json = eng.to_dict()
        add_audit(s, tid, actor, "end_swiss", after_round=rnd)
        new = await sync_matches(s, row, eng)
        if eng.finished:
            row.status = "finished"
        await s.commit()
        return SwissEnded(new, eng.finished)
