"""Check-in and lateness (迟到): who forfeits at the deadline, and the referee's undo.

Pure: every time is passed in (aware UTC datetimes); nothing reads a clock.

* Check-in opens ``checkin_opens_minutes`` (30) before the start.
* The deadline is start + ``late_forfeit_minutes`` (15 or 10 per notice: 迟到15分钟以弃权论 /
  比赛开始后10分钟未到场者即视为弃权 / 迟到十分钟以上者判负).  A check-in exactly at the
  deadline counts as present.
* At the deadline, per table: a side is present when all its players checked in by
  the table's deadline (a referee may give one table more time: each table has its own).  Both present: play; one absent: the other wins by forfeit; both
  absent: double forfeit.  A team match decides each table separately and aggregates
  them with results.team_result (a table lost by forfeit is a table lost).
* The referee can undo a forfeit: :func:`undo` turns the decision into ``play`` (the
  match is then played, with whatever start time the scheduler gives it); the
  decision and its undo are plain data for the audit log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from engine.errors import RuleError
from engine.tournament.results import PairingResult, TableResult, forfeit_table, team_result


@dataclass(frozen=True)
class CheckinWindow:
    opens: datetime
    start: datetime
    deadline: datetime

    def is_open(self, now: datetime) -> bool:
        """Check-in accepted from ``opens`` up to the deadline (inclusive)."""
        return self.opens <= now <= self.deadline


def checkin_window(start: datetime, late_forfeit_minutes: int, opens_minutes: int = 30) -> CheckinWindow:
    return CheckinWindow(
        start - timedelta(minutes=opens_minutes), start, start + timedelta(minutes=late_forfeit_minutes)
    )


@dataclass(frozen=True)
class TableDecision:
    table: int
    absent_a: tuple[str, ...]
    absent_b: tuple[str, ...]

    @property
    def absent(self) -> str | None:
        """None (both present), "a", "b" or "both"."""
        if self.absent_a and self.absent_b:
            return "both"
        if self.absent_a:
            return "a"
        if self.absent_b:
            return "b"
        return None


@dataclass(frozen=True)
class LatenessDecision:
    """The decision at the deadline: ``action`` play | forfeit | double_forfeit | undone."""

    match_id: str
    deadline: datetime
    tables: tuple[TableDecision, ...]
    action: str
    undone_by: str = ""
    undo_reason: str = ""

    @property
    def forfeits(self) -> bool:
        return self.action in ("forfeit", "double_forfeit")

    def result(self) -> PairingResult | None:
        """The match result the decision imposes (None when the match is to be played).

        ``partial`` (a team match where some tables are complete and others not) also
        gives None: the complete tables play, and :meth:`forfeited_tables` joins their
        results in results.team_result.
        """
        if not self.forfeits:
            return None
        return team_result([forfeit_table(t.absent or "both", t.table) for t in self.tables])

    def forfeited_tables(self) -> list[TableResult]:
        """TableResult of every table lost by lateness (the others are played)."""
        if self.action == "undone":
            return []
        out = []
        for t in self.tables:
            gone = t.absent
            if gone is not None:
                out.append(forfeit_table(gone, t.table))
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "deadline": self.deadline.isoformat(),
            "action": self.action,
            "tables": [
                {"table": t.table, "absent_a": list(t.absent_a), "absent_b": list(t.absent_b)}
                for t in self.tables
            ],
            "undone_by": self.undone_by,
            "undo_reason": self.undo_reason,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> LatenessDecision:
        return LatenessDecision(
            str(data["match_id"]),
            datetime.fromisoformat(str(data["deadline"])),
            tuple(
                TableDecision(int(t["table"]), tuple(t["absent_a"]), tuple(t["absent_b"]))
                for t in data["tables"]
            ),
            str(data["action"]),
            str(data.get("undone_by", "")),
            str(data.get("undo_reason", "")),
        )


def decide_table(
    table: int,
    deadline: datetime,
    players_a: Sequence[str],
    players_b: Sequence[str],
    checkins: Mapping[str, datetime],
    present: bool = False,
) -> TableDecision:
    """One table at its own deadline: who of each side had not checked in by then.  ``present``: the
    table is already being played (its players sat down), nobody is absent."""
    if present:
        return TableDecision(table, (), ())

    def absent(players: Sequence[str]) -> tuple[str, ...]:
        return tuple(p for p in players if p not in checkins or checkins[p] > deadline)

    return TableDecision(table, absent(players_a), absent(players_b))


def combine(match_id: str, deadline: datetime, tables: Sequence[TableDecision]) -> LatenessDecision:
    """The match's decision from its tables' decisions (play | forfeit | double_forfeit | partial)."""
    rows = tuple(sorted(tables, key=lambda t: t.table))
    states = {t.absent for t in rows}
    if states == {None}:
        action = "play"
    elif states == {"both"}:
        action = "double_forfeit"
    elif None in states:
        action = "partial"  # team match: some tables play, others are forfeited
    else:
        action = "forfeit"
    return LatenessDecision(match_id, deadline, rows, action)


def decide(
    match_id: str,
    start: datetime,
    late_forfeit_minutes: int,
    tables: Sequence[tuple[Sequence[str], Sequence[str]]],
    checkins: Mapping[str, datetime],
) -> LatenessDecision:
    """Decide at the deadline.  ``tables``: per table (1..N) the players of side a and of side b;
    ``checkins``: player -> check-in time (players missing never checked in).  Every table has the
    same deadline here; a table given more time is decided on its own with :func:`decide_table`."""
    deadline = start + timedelta(minutes=late_forfeit_minutes)
    rows = [decide_table(i, deadline, a, b, checkins) for i, (a, b) in enumerate(tables, start=1)]
    return combine(match_id, deadline, rows)


def undo(decision: LatenessDecision, referee: str, reason: str) -> LatenessDecision:
    """The referee undoes a lateness forfeit: the match is played after all."""
    if decision.action == "play":
        raise RuleError("nothing_to_undo", "Match {match} had no lateness forfeit", match=decision.match_id)
    if decision.action == "undone":
        raise RuleError(
            "already_undone", "The forfeit of match {match} was already undone", match=decision.match_id
        )
    return replace(decision, action="undone", undone_by=referee, undo_reason=reason)
