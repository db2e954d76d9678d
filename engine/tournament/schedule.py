"""Schedule helpers: tables and start times for matches; reminder and deadline times as data.

Pure: times are passed in (aware datetimes, UTC inside); the scheduler arms the timers.

Table assignment (:func:`assign_tables`): each table of the pool is free from the round
start (or later, from ``busy``).  Matches are taken in the given order; each gets the
``tables_per_match`` tables that are free earliest (ties: pool order) and starts when
the last of them is free; those tables are then busy for ``slot_minutes``.  So with
enough tables a round starts at once, and otherwise it runs in waves.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from engine.errors import RuleError


@dataclass(frozen=True)
class Slot:
    match_id: str
    tables: tuple[str, ...]
    start: datetime

    def to_dict(self) -> dict[str, Any]:
        return {"match_id": self.match_id, "tables": list(self.tables), "start": self.start.isoformat()}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Slot:
        return Slot(str(data["match_id"]), tuple(data["tables"]), datetime.fromisoformat(str(data["start"])))


def assign_tables(
    match_ids: Sequence[str],
    round_start: datetime,
    table_pool: Sequence[str],
    tables_per_match: int = 1,
    slot_minutes: int = 60,
    busy: Mapping[str, datetime] | None = None,
) -> list[Slot]:
    """Give each match its tables and a start time (see the module docstring)."""
    if len(table_pool) < tables_per_match:
        raise RuleError(
            "not_enough_tables",
            "A match needs {need} tables; the pool has {have}",
            need=tables_per_match,
            have=len(table_pool),
        )
    busy = busy or {}
    free = {t: max(round_start, busy.get(t, round_start)) for t in table_pool}
    order = {t: i for i, t in enumerate(table_pool)}
    out = []
    for mid in match_ids:
        chosen = sorted(table_pool, key=lambda t: (free[t], order[t]))[:tables_per_match]
        start = max(free[t] for t in chosen)
        for t in chosen:
            free[t] = start + timedelta(minutes=slot_minutes)
        out.append(Slot(mid, tuple(sorted(chosen, key=order.__getitem__)), start))
    return out


@dataclass(frozen=True)
class Timer:
    """A timer for the scheduler: ``kind`` reminder | checkin_open | lateness_deadline."""

    match_id: str
    kind: str
    at: datetime
    minutes_before: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "kind": self.kind,
            "at": self.at.isoformat(),
            "minutes_before": self.minutes_before,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Timer:
        return Timer(
            str(data["match_id"]),
            str(data["kind"]),
            datetime.fromisoformat(str(data["at"])),
            int(data.get("minutes_before", 0)),
        )


def reminder_times(
    match_id: str, start: datetime, minutes_before: Sequence[int] = (1440, 15), now: datetime | None = None
) -> list[Timer]:
    """Reminders (default a day and 15 minutes before); those already past at ``now`` are left out."""
    out = [
        Timer(match_id, "reminder", start - timedelta(minutes=m), m)
        for m in sorted(set(minutes_before), reverse=True)
    ]
    return [t for t in out if now is None or t.at > now]


def match_timers(
    match_id: str,
    start: datetime,
    late_forfeit_minutes: int,
    checkin_opens_minutes: int = 30,
    reminder_minutes: Sequence[int] = (1440, 15),
    now: datetime | None = None,
) -> list[Timer]:
    """Every timer of a match, in time order: reminders, check-in opening, lateness deadline."""
    timers = reminder_times(match_id, start, reminder_minutes, now)
    timers.append(
        Timer(
            match_id, "checkin_open", start - timedelta(minutes=checkin_opens_minutes), checkin_opens_minutes
        )
    )
    timers.append(Timer(match_id, "lateness_deadline", start + timedelta(minutes=late_forfeit_minutes)))
    return sorted(timers, key=lambda t: t.at)
