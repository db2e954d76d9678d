"""Scheduling matches on the table groups, and marking a match begun."""

from __future__ import annotations

from datetime import datetime, timedelta

from sqlalchemy import select

from engine.errors import RuleError
from engine.tournament.duplicate import swiss_partner
from storage.db import Database
from storage.tournament_models import TableGroupLink, Tournament, TournamentMatch
from storage.tournaments.common import error, tournament_row
from storage.tournaments.lookup import rule_options, settings_of
from storage.tournaments.state import load_engine
from storage.tournaments.tx import retrying

MINUTES_PER_DEAL = 5


def match_minutes(row: Tournament) -> int:
    """How long a match is planned to take, from its real length: a time limit plus the lateness limit
    (a late start eats into the table's time); a number of deals at about five minutes a deal, plus the
    lateness limit, at most the preset's ``match_slot_minutes``; otherwise the preset's slot."""
    settings = settings_of(row)
    options = rule_options(row)
    limit = int(options.get("time_limit_minutes") or 0)
    deals = int(options.get("deals") or 0)
    if limit:
        return limit + settings.late_forfeit_minutes
    if deals:
        return min(settings.match_slot_minutes, deals * MINUTES_PER_DEAL + settings.late_forfeit_minutes)
    return settings.match_slot_minutes


@retrying
async def schedule_ready(db: Database, tid: int, now: datetime) -> list[TournamentMatch]:
    """Give every unscheduled match a start time and table groups (greedy: tables free earliest, and an
    entry never plays two matches at once).  Round 1 starts at ``first_round_at``; later matches at
    least ``round_gap_minutes`` from now.  RuleError ``not_enough_tables`` when the pool is too small."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        settings = settings_of(row)
        pool = [
            g.chat_id
            for g in (
                await s.execute(
                    select(TableGroupLink)
                    .where(TableGroupLink.tournament_id == tid)
                    .order_by(TableGroupLink.id)
                )
            )
            .scalars()
            .all()
        ]
        per = settings.tables_per_match
        pairs_duplicate = settings.pairs_duplicate
        need = 2 if pairs_duplicate else per  # the two matches of a comparison play at once
        if len(pool) < need:
            raise error(
                "not_enough_tables",
                "A match needs {need} tables; the pool has {have}",
                need=need,
                have=len(pool),
            )
        rows = list(
            (
                await s.execute(
                    select(TournamentMatch)
                    .where(TournamentMatch.tournament_id == tid)
                    .order_by(TournamentMatch.id)
                )
            )
            .scalars()
            .all()
        )
        slot = timedelta(minutes=match_minutes(row))
        earliest = now + timedelta(minutes=row.round_gap_minutes)
        if (
            row.first_round_at is not None
            and row.first_round_at > earliest
            or row.first_round_at is not None
            and not any(m.start_at for m in rows)
            and row.first_round_at > now
        ):
            earliest = row.first_round_at
        free = dict.fromkeys(pool, earliest)
        busy_entry: dict[str, datetime] = {}
        for m in rows:
            if m.start_at is not None and m.status in ("scheduled", "open", "playing"):
                for c in m.table_chats:
                    free[int(c)] = max(free.get(int(c), earliest), m.start_at + slot)
                for e in (m.side_a, m.side_b):
                    if e:
                        busy_entry[e] = max(busy_entry.get(e, earliest), m.start_at + slot)
        order = {c: i for i, c in enumerate(pool)}
        todo = [m for m in rows if m.start_at is None and m.status == "scheduled"]
        todo.sort(key=lambda m: _round_key(m.match_key))
        for unit in _units(todo, pairs_duplicate):
            chosen = sorted(pool, key=lambda c: (free[c], order[c]))[: per * len(unit)]
            sides = [e for m in unit for e in (m.side_a, m.side_b) if e]
            start = max([free[c] for c in chosen] + [busy_entry.get(e, earliest) for e in sides])
            chosen = sorted(chosen, key=order.__getitem__)
            for i, m in enumerate(unit):
                m.start_at = start
                m.table_chats = chosen[i * per : (i + 1) * per]
            for c in chosen:
                free[c] = start + slot
            for e in sides:
                busy_entry[e] = start + slot
        await s.commit()
        return todo


def _units(todo: list[TournamentMatch], pairs_duplicate: bool) -> list[list[TournamentMatch]]:
    """The matches to schedule, one by one; a Swiss of pairs with duplicate deals schedules the two
    matches of a comparison (``S<r>-M<2k-1>``, ``S<r>-M<2k>``) as one, in the same slot."""
    if not pairs_duplicate:
        return [[m] for m in todo]
    by_key = {m.match_key: m for m in todo if m.side_a and m.side_b}
    out: list[list[TournamentMatch]] = []
    taken: set[str] = set()
    for m in todo:
        if m.match_key in taken:
            continue
        other = swiss_partner(m.match_key, by_key)
        if other is not None and other not in taken:
            taken.add(other)
            out.append([m, by_key[other]])
        else:
            out.append([m])
    return out


def _round_key(key: str) -> tuple[int, int, int, str]:
    """Schedule order: by round (``R2-M1``, ``A-R2-M1``, Swiss ``S2-M1``), main before placement, then the
    match number (``S2-M10`` after ``S2-M9``)."""
    parts = key.split("-")
    rnd = next((int(p[1:]) for p in parts if p[:1] in ("R", "S") and p[1:].isdigit()), 99)
    index = next((int(p[1:]) for p in reversed(parts) if p.startswith("M") and p[1:].isdigit()), 0)
    return (rnd, 1 if key.startswith("P") else 0, index, key)


@retrying
async def mark_started(db: Database, tid: int, key: str) -> None:
    """The match's tables have begun: a later correction upstream then conflicts with it (bracket rules)."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        if row.state_json is None:
            return
        eng = load_engine(row)
        try:
            eng.mark_started(key)
        except RuleError:
            return
        row.state_json = eng.to_dict()
        await s.commit()
