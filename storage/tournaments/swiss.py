"""Swiss rounds on the tournament row: late entries and withdrawals between rounds, ending the rounds early.

The pairing itself happens in the engine when a result completes a round (``results.record_result``
then creates the next round's match rows, which the bot schedules and announces).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncSession

from engine.tournament import Tournament as Engine
from engine.tournament.swiss import SwissStage
from storage.db import Database
from storage.tournament_models import Tournament, TournamentEntry, TournamentMatch
from storage.tournaments.common import (
    add_audit,
    error,
    require_role,
    roles_in,
    tournament_row,
)
from storage.tournaments.lookup import engine_entry, user_display_names
from storage.tournaments.registration import add_pair_entry
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


@dataclass
class LateEntry:
    """A late entry into a running Swiss: its row and the round it is first paired in."""

    entry: TournamentEntry
    first_round: int


def swiss_running(row: Tournament) -> bool:
    """A Swiss tournament whose draw has been held (late entries and Swiss withdrawals apply)."""
    return row.state_json is not None and (row.settings_json or {}).get("format") == "swiss"


@retrying
async def swiss_withdraw(db: Database, tid: int, entry_id: int, actor: int) -> TournamentEntry:
    """An entry leaves a running Swiss between rounds (an organiser, or one of the pair's players): it is
    not paired again, its played matches stand.  Refused, changing nothing: while the entry has a match of
    the current round still to finish (``swiss_match_open``: it is played first, or the referee records
    its result or forfeit, so no table is left behind), after the Swiss rounds (``swiss_over``), and for a
    pair of a team (``swiss_team_withdraw``: the organiser withdraws the team)."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        eng = load_engine(row)
        stage = eng.swiss
        if stage is None:
            raise error("not_swiss", "{name} is not a Swiss tournament", name=eng.name)
        entry = await s.get(TournamentEntry, entry_id)
        if entry is None or entry.tournament_id != tid:
            raise error("unknown_entry", "There is no entry {id}", id=entry_id)
        organiser = "organiser" in await roles_in(s, tid, actor)
        if not organiser and actor not in [int(p) for p in entry.players_json]:
            raise error("not_allowed", "You are not allowed to do this")
        key = str(entry_id)
        if key not in stage.entries:
            if entry.team_id is not None:
                raise error("swiss_team_withdraw", "A team leaves the Swiss as a whole: ask the organiser")
            raise error("unknown_entry", "There is no entry {id}", id=entry_id)
        if key in stage.withdrawn:
            raise error("already_withdrawn", "Entry {entry} has already withdrawn", entry=entry.name)
        eng.check_swiss_on()
        pending = stage.pending_match(key)
        if pending is not None:
            raise error(
                "swiss_match_open",
                "{entry} still has match {match} to finish; record it first",
                entry=entry.name,
                match=pending.id,
            )
        rnd = stage.current_round
        eng.withdraw(key)
        row.state_json = eng.to_dict()
        entry.status = "withdrawn"
        touch(row)
        add_audit(s, tid, actor, "swiss_withdraw", entry=entry.id, name=entry.name, after_round=rnd)
        await s.commit()
        return entry


@retrying
async def swiss_late_entry(
    db: Database, tid: int, actor: int, players: Sequence[int], union_group: str, now: datetime | None = None
) -> LateEntry:
    """An organiser adds a late pair to a running Swiss: 0 points for the rounds it missed (no byes),
    paired from the next round on.  Refused for a Swiss of teams (``swiss_late_team``), once the last
    round is paired or the rounds are over, and while the next round cannot be paired (engine codes);
    the players are checked as at registration (started the bot, in no other pair, the group's quota)."""
    if len(players) != 2:
        raise error("bad_arguments", "Give two players")
    a, b = int(players[0]), int(players[1])
    if a == b:
        raise error("partner_is_self", "You cannot be your own partner")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("organiser",))
        eng = load_engine(row)
        if eng.swiss is None:
            raise error("not_swiss", "{name} is not a Swiss tournament", name=eng.name)
        if eng.settings.entrant != "pair":
            raise error("swiss_late_team", "Late entries are for a Swiss of pairs")
        eng.check_swiss_on()
        eng.swiss.check_may_join()  # before the players: the round decides first
        entry = await add_pair_entry(s, row, tid, a, b, union_group, actor, now=now)
        names = await user_display_names(s, [a, b])
        first = eng.add_late_entry(engine_entry(entry, names))
        row.state_json = eng.to_dict()
        touch(row)
        add_audit(
            s, tid, actor, "late_entry", entry=entry.id, players=[a, b], union_group=union_group, round=first
        )
        await s.commit()
        return LateEntry(entry, first)


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
