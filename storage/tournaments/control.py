"""The organiser's control after creation: edit times, reschedule, swap or move matches, cancel or
delete a tournament, take a re-imported file as an update of the same tournament.  Every change is
audited; the bot announces it and re-arms the timers (bot/tournaments/control.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from storage.db import Database
from storage.tournament_models import TableGroupLink, Tournament, TournamentMatch
from storage.tournaments.common import add_audit, error, match_row, require_role, tournament_row
from storage.tournaments.setup import build_setup
from storage.tournaments.times import check_time_order, local_text
from storage.tournaments.tx import retrying

ORGANISER = ("organiser",)
TIME_FIELDS = {"deadline": "registration_deadline", "draw": "draw_at", "first": "first_round_at"}
ENDED = ("cancelled", "deleted", "finished")


def _movable(m: TournamentMatch) -> None:
    if m.status != "scheduled" or m.start_at is None:
        raise error("match_begun", "Match {match} has begun or is not scheduled", match=m.match_key)


@dataclass
class Edited:
    """A time edit: the tournament, and the round-1 matches that moved with the first round."""

    row: Tournament
    moved: list[TournamentMatch]


@retrying
async def edit_time(db: Database, tid: int, actor: int, what: str, when: datetime) -> Edited:
    """Change the registration deadline, the draw time or the first round (``what``: deadline | draw |
    first); the order deadline <= draw <= first round is kept.  Round-1 matches not begun move with the
    first round."""
    if what not in TIME_FIELDS:
        raise error("bad_time_field", "Write deadline, draw or first")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ORGANISER)
        if row.status in ENDED:
            raise error("tournament_ended", "Tournament {name} is over or cancelled", name=row.name)
        if what in ("deadline", "draw") and row.state_json is not None:
            raise error("draw_already_held", "The draw of {name} has been held", name=row.name)
        field = TIME_FIELDS[what]
        times = {
            "registration_deadline": row.registration_deadline,
            "draw_at": row.draw_at,
            "first_round_at": row.first_round_at,
            field: when,
        }
        check_time_order(times["registration_deadline"], times["draw_at"], times["first_round_at"])
        old = getattr(row, field)
        setattr(row, field, when)
        if what == "deadline" and row.status == "closed" and row.announcement_json is None:
            row.status = "registration"  # a later deadline reopens registration
        moved: list[TournamentMatch] = []
        if what == "first" and old is not None:
            for m in (
                await s.execute(
                    select(TournamentMatch).where(
                        TournamentMatch.tournament_id == tid,
                        TournamentMatch.status == "scheduled",
                        TournamentMatch.start_at == old,
                    )
                )
            ).scalars():
                m.start_at = when
                moved.append(m)
        add_audit(
            s,
            tid,
            actor,
            "edit_time",
            what=what,
            old=local_text(old, row.time_zone),
            new=local_text(when, row.time_zone),
            moved=[m.match_key for m in moved],
        )
        await s.commit()
        return Edited(row, moved)


@retrying
async def reschedule(db: Database, tid: int, actor: int, key: str, when: datetime) -> TournamentMatch:
    """Move a match not begun to a new start time."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ORGANISER)
        m = await match_row(s, tid, key)
        _movable(m)
        old = m.start_at
        m.start_at = when
        add_audit(
            s,
            tid,
            actor,
            "reschedule",
            match=key,
            old=local_text(old, row.time_zone),
            new=local_text(when, row.time_zone),
        )
        await s.commit()
        return m


@retrying
async def swap(
    db: Database, tid: int, actor: int, first: str, second: str
) -> tuple[TournamentMatch, TournamentMatch]:
    """Two matches not begun exchange their start times and tables."""
    async with db.session() as s:
        await tournament_row(s, tid)
        await require_role(s, tid, actor, ORGANISER)
        a, b = await match_row(s, tid, first), await match_row(s, tid, second)
        if a.id == b.id:
            raise error("bad_arguments", "Give two matches")
        _movable(a)
        _movable(b)
        a.start_at, b.start_at = b.start_at, a.start_at
        a.table_chats, b.table_chats = list(b.table_chats), list(a.table_chats)
        add_audit(s, tid, actor, "swap", matches=[first, second])
        await s.commit()
        return a, b


@retrying
async def move_table(
    db: Database, tid: int, actor: int, key: str, table: int, chat_id: int
) -> TournamentMatch:
    """Table ``table`` (1..N) of a match not begun goes to another table group of the pool."""
    async with db.session() as s:
        await tournament_row(s, tid)
        await require_role(s, tid, actor, ORGANISER)
        m = await match_row(s, tid, key)
        _movable(m)
        pool = {
            g.chat_id
            for g in (
                await s.execute(select(TableGroupLink).where(TableGroupLink.tournament_id == tid))
            ).scalars()
        }
        if chat_id not in pool:
            raise error("unknown_table_group", "That group is not one of the tournament's table groups")
        chats = list(m.table_chats)
        if not 1 <= table <= len(chats):
            raise error("unknown_table", "Match {match} has tables 1 to {count}", match=key, count=len(chats))
        old = chats[table - 1]
        chats[table - 1] = chat_id
        m.table_chats = chats
        add_audit(s, tid, actor, "move_table", match=key, table=table, old=old, new=chat_id)
        await s.commit()
        return m


@retrying
async def cancel(db: Database, tid: int, actor: int, reason: str, delete: bool = False) -> Tournament:
    """Cancel (or delete: cancelled and hidden from every list) a tournament; the row and its audit log
    stay.  The bot then stops its timers and tables and announces it."""
    if not reason.strip():
        raise error("reason_required", "Give a reason")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ORGANISER)
        if row.status == "deleted" or (row.status == "cancelled" and not delete):
            raise error("tournament_ended", "Tournament {name} is over or cancelled", name=row.name)
        row.status = "deleted" if delete else "cancelled"
        add_audit(s, tid, actor, "delete" if delete else "cancel", reason=reason)
        await s.commit()
        return row


UPDATABLE = (
    "name",
    "preset_id",
    "rule_overrides",
    "settings_overrides",
    "union_groups",
    "time_zone",
    "registration_deadline",
    "draw_at",
    "first_round_at",
    "round_gap_minutes",
    "invite_hours",
)


@retrying
async def update_from_spec(db: Database, tid: int, actor: int, spec: Mapping[str, Any]) -> Tournament:
    """A tournament file sent again (it carries ``id``): the same tournament takes its set-up, before the
    entry list is frozen; afterwards only the times of what has not happened yet may change."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ORGANISER)
        if row.status in ENDED:
            raise error("tournament_ended", "Tournament {name} is over or cancelled", name=row.name)
        if row.announcement_json is not None:
            raise error("registration_closed", "Registration is closed")
        built = build_setup(
            str(spec["preset_id"]), spec.get("rule_overrides"), spec.get("settings_overrides")
        )
        row.name = str(spec["name"])
        row.preset_id = built.preset_id
        row.rule_overrides = dict(built.rule_overrides)
        row.settings_json = built.settings.to_dict()
        row.union_groups = [
            {"name": str(g["name"]), "quota": int(g.get("quota", 0))} for g in spec.get("union_groups", [])
        ]
        row.time_zone = str(spec.get("time_zone", row.time_zone))
        for key in ("registration_deadline", "draw_at", "first_round_at"):
            setattr(row, key, spec.get(key))
        for key in ("round_gap_minutes", "invite_hours"):
            if key in spec:
                setattr(row, key, int(spec[key]))
        add_audit(s, tid, actor, "reimport", name=row.name, preset=row.preset_id)
        await s.commit()
        return row
