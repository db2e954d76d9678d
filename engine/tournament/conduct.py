"""Conduct (赛风): violations and penalties recorded by referees, reversible, as data.

* A *violation* (违例: table talk, signals) is counted against the entry (the pair or
  team) for the whole tournament.  With ``limit`` = ``conduct_violations_to_disqualify``
  (17-deals: 2, "违例两次取消比赛资格，判对方胜") the violation that reaches the limit
  disqualifies the entry: it loses the match in progress (the opponent wins,
  results.disqualification_result) and takes no further part.  ``limit`` 0: never.
* A *level penalty* (guandan-team: 视情节轻重给予扣级) takes levels off a side at the
  table; the game engine applies it, this log keeps it.
* A *warning* is recorded only.
* Any record can be reversed by a referee (with a reason); reversing the violation
  that caused a disqualification reinstates the entry (``reinstated``) — the match
  result it imposed stays until the referee corrects it (bracket correction rules).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine.errors import RuleError
from engine.tournament.results import PairingResult, disqualification_result

KINDS = ("violation", "level_penalty", "warning")


@dataclass(frozen=True)
class ConductRecord:
    id: str
    kind: str
    entry_id: str
    player: str
    match_id: str
    note: str = ""
    levels: int = 0
    reversed: bool = False
    reversed_by: str = ""
    reverse_reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> ConductRecord:
        return ConductRecord(**{k: data[k] for k in ConductRecord.__dataclass_fields__ if k in data})


@dataclass(frozen=True)
class ConductOutcome:
    entry_id: str
    active_violations: int
    disqualified: bool
    newly_disqualified: bool = False
    reinstated: bool = False

    def match_result(self, side: str, tables: int = 1) -> PairingResult | None:
        """The result to record for the match in progress when this made the entry disqualified."""
        if not self.newly_disqualified:
            return None
        return disqualification_result(side, tables, note="conduct")


@dataclass
class ConductLog:
    """All conduct records of a tournament (append-only; reversal marks a record)."""

    limit: int = 0
    records: list[ConductRecord] = field(default_factory=list)

    def active_violations(self, entry_id: str) -> int:
        return sum(
            1 for r in self.records if r.entry_id == entry_id and r.kind == "violation" and not r.reversed
        )

    def disqualified(self, entry_id: str) -> bool:
        return self.limit > 0 and self.active_violations(entry_id) >= self.limit

    def add(self, record: ConductRecord) -> ConductOutcome:
        if record.kind not in KINDS:
            raise RuleError(
                "bad_conduct_kind",
                "Conduct record {kind} is not allowed; allowed: {allowed}",
                kind=record.kind,
                allowed=" | ".join(KINDS),
            )
        if any(r.id == record.id for r in self.records):
            raise RuleError("duplicate_record", "Conduct record {id} already exists", id=record.id)
        was = self.disqualified(record.entry_id)
        self.records.append(record)
        now = self.disqualified(record.entry_id)
        return ConductOutcome(record.entry_id, self.active_violations(record.entry_id), now, now and not was)

    def reverse(self, record_id: str, referee: str, reason: str) -> ConductOutcome:
        for i, r in enumerate(self.records):
            if r.id == record_id:
                if r.reversed:
                    raise RuleError(
                        "already_reversed", "Conduct record {id} is already reversed", id=record_id
                    )
                was = self.disqualified(r.entry_id)
                self.records[i] = replace(r, reversed=True, reversed_by=referee, reverse_reason=reason)
                now = self.disqualified(r.entry_id)
                return ConductOutcome(
                    r.entry_id, self.active_violations(r.entry_id), now, False, was and not now
                )
        raise RuleError("unknown_record", "There is no conduct record {id}", id=record_id)

    def level_penalties(self, match_id: str) -> dict[str, int]:
        """Entry -> levels taken off in ``match_id`` (active records only)."""
        out: dict[str, int] = {}
        for r in self.records:
            if r.kind == "level_penalty" and r.match_id == match_id and not r.reversed:
                out[r.entry_id] = out.get(r.entry_id, 0) + r.levels
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"limit": self.limit, "records": [r.to_dict() for r in self.records]}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> ConductLog:
        return ConductLog(
            int(data.get("limit", 0)), [ConductRecord.from_dict(r) for r in data.get("records", ())]
        )
