"""One tournament's pure state: settings, entries, draw, group stage, knockout, conduct.

This is the object the application layer keeps (``to_dict`` / ``from_dict``) and calls:

    t = Tournament.create("教工双升 2026", settings, entries)
    ann = t.announce(secret)          # publish ann.list_hash and ann.commitment
    t.hold_draw(secret)               # then publish t.draw.published()
    t.ready_matches()                 # schedule these (schedule.assign_tables)
    t.mark_started(mid); t.record(mid, result)   # -> matches newly ready
    t.correct(mid, result, force=False)          # referee; conflicts reported
    t.ranking()                       # final ranking with prizes (prizes.final_ranking)

Match ids: group matches ``A-R1-M2``; knockout ``R1-M3`` (main) and ``P3-4-M1`` (3rd
place), ``P5-8-M1`` ... (placement).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleError
from engine.tournament.bracket import Bracket, Correction, prize_boundaries
from engine.tournament.conduct import ConductLog, ConductOutcome, ConductRecord
from engine.tournament.draw import Announcement, DrawOptions, DrawResult, announce, make_draw
from engine.tournament.entries import Entry, validate_entries
from engine.tournament.groups import GroupStage, plan_groups
from engine.tournament.prizes import RankingRow, final_ranking
from engine.tournament.results import PairingResult, disqualification_result
from engine.tournament.settings import TournamentSettings


@dataclass
class Tournament:
    name: str
    settings: TournamentSettings
    entries: list[Entry]
    draw: DrawResult | None = None
    groups: GroupStage | None = None
    bracket: Bracket | None = None
    conduct: ConductLog = field(default_factory=ConductLog)

    @staticmethod
    def create(name: str, settings: TournamentSettings, entries: Sequence[Entry]) -> Tournament:
        validate_entries(entries, settings.entrant, settings.pairs_per_team, settings.group_quota or None)
        return Tournament(name, settings, list(entries),
                          conduct=ConductLog(settings.conduct_violations_to_disqualify))

    # --- draw ------------------------------------------------------------------------

    def draw_options(self) -> DrawOptions:
        """The draw's layout: groups (groups_then_knockout with more entries than the knockout) or a bracket."""
        s = self.settings
        if s.format == "groups_then_knockout":
            groups, _ = plan_groups(len(self.entries), s.knockout_size, s.advance_per_group, s.groups)
            if groups:
                return DrawOptions("groups", False, groups)
        return DrawOptions("single_elimination", s.separate_union_groups, 0)

    def announce(self, secret: bytes) -> Announcement:
        """Freeze the list and commit to ``secret`` (32 random bytes from the caller)."""
        return announce(self.name, self.entries, self.draw_options(), secret)

    def hold_draw(self, secret: bytes) -> DrawResult:
        if self.draw is not None:
            raise RuleError("draw_already_held", "The draw of {name} has been held", name=self.name)
        self.draw = make_draw(self.name, self.entries, self.draw_options(), secret)
        if self.draw.options.format == "groups":
            s = self.settings
            _, advance = plan_groups(len(self.entries), s.knockout_size, s.advance_per_group, s.groups)
            self.groups = GroupStage.build(self.draw.groups, advance)
        else:
            self.bracket = self._new_bracket(list(self.draw.bracket))
            self._auto_results()
        return self.draw

    def _new_bracket(self, slots: list[str | None]) -> Bracket:
        s = self.settings
        wanted: set[int] = set()
        if s.prize_table == "places_1_2_3" and s.placement_matches:
            wanted = prize_boundaries(s.prize_counts)
        return Bracket.build(slots, wanted, s.third_place_match)

    @property
    def lot_seed(self) -> bytes:
        if self.draw is None:
            raise RuleError("no_draw_yet", "The draw has not been held")
        return self.draw.lot_seed

    # --- matches ---------------------------------------------------------------------

    def _stage_of(self, match_id: str) -> str:
        if self.groups is not None and any(m.id == match_id for m in self.groups.matches):
            return "groups"
        if self.bracket is not None and any(m.id == match_id for m in self.bracket.matches):
            return "knockout"
        raise RuleError("unknown_match", "There is no match {match}", match=match_id)

    def ready_matches(self) -> list[str]:
        """Matches that can be played now (entries known, no result)."""
        out: list[str] = []
        if self.groups is not None and self.bracket is None:
            out += [m.id for m in sorted(self.groups.matches, key=lambda m: (m.round, m.id)) if m.result is None]
        if self.bracket is not None:
            out += self.bracket.ready_matches()
        return out

    def sides(self, match_id: str) -> tuple[str | None, str | None]:
        """Entry ids of sides a and b (None: not known yet / empty)."""
        if self._stage_of(match_id) == "groups":
            assert self.groups is not None
            m = self.groups.match(match_id)
            return m.a, m.b
        assert self.bracket is not None
        return self.bracket.entries_of(match_id)

    def mark_started(self, match_id: str) -> None:
        if self._stage_of(match_id) == "knockout":
            assert self.bracket is not None
            self.bracket.mark_started(match_id)

    def record(self, match_id: str, result: PairingResult) -> list[str]:
        """Record a result; returns the matches that became ready (the knockout once the groups end)."""
        before = set(self.ready_matches())
        if self._stage_of(match_id) == "groups":
            assert self.groups is not None
            if self.groups.match(match_id).result is not None:
                raise RuleError("result_already_recorded", "Match {match} already has a result ({state}); correct it",
                                match=match_id, state="done")
            self.groups.record(match_id, result)
            if self.groups.finished and self.bracket is None:
                self.bracket = self._new_bracket(self.groups.knockout_slots(self.lot_seed,
                                                                            self.settings.knockout_size))
        else:
            assert self.bracket is not None
            self.bracket.record(match_id, result)
        self._auto_results()
        return [m for m in self.ready_matches() if m not in before]

    def correct(self, match_id: str, result: PairingResult, force: bool = False) -> Correction:
        """Referee correction.  Group stage: if the knockout has begun and the qualifiers change,
        a conflict is reported (force rebuilds the knockout, voiding its results)."""
        if self._stage_of(match_id) == "knockout":
            assert self.bracket is not None
            return self.bracket.correct(match_id, result, force)
        assert self.groups is not None
        old = self.groups.match(match_id).result
        if old is None:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=match_id)
        changed = self.groups.correct(match_id, result, self.lot_seed)
        if not changed or self.bracket is None:
            return Correction(True, changed)
        begun = [m.id for m in self.bracket.matches if m.started or m.result is not None]
        if begun and not force:
            self.groups.record(match_id, old)
            return Correction(False, True, tuple(begun))
        self.bracket = self._new_bracket(self.groups.knockout_slots(self.lot_seed, self.settings.knockout_size))
        return Correction(True, True, (), tuple(begun), tuple(self.bracket.ready_matches()))

    def reopen(self, match_id: str, force: bool = False) -> Correction:
        """Clear a result so the match is played after all (a lateness forfeit undone by the referee)."""
        if self._stage_of(match_id) == "knockout":
            assert self.bracket is not None
            return self.bracket.reopen(match_id, force)
        assert self.groups is not None
        m = self.groups.match(match_id)
        if m.result is None:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=match_id)
        if self.bracket is not None:
            begun = [k.id for k in self.bracket.matches if k.started or k.result is not None]
            if begun and not force:
                return Correction(False, True, tuple(begun))
            self.bracket = None
            m.result = None
            return Correction(True, True, (), tuple(begun))
        m.result = None
        return Correction(True, True)

    # --- conduct ---------------------------------------------------------------------

    def add_conduct(self, record: ConductRecord) -> ConductOutcome:
        """Record a conduct item; a disqualification ends the entry's match in progress (opponent wins)."""
        outcome = self.conduct.add(record)
        if outcome.newly_disqualified:
            self._auto_results()
        return outcome

    def _auto_results(self) -> None:
        """Ready knockout matches with a disqualified entry are lost by it at once."""
        if self.bracket is None or not self.conduct.limit:
            return
        progress = True
        while progress:
            progress = False
            for mid in self.bracket.ready_matches():
                a, b = self.bracket.entries_of(mid)
                for side, entry in (("a", a), ("b", b)):
                    if entry is not None and self.conduct.disqualified(entry):
                        self.bracket.record(mid, disqualification_result(side, self.settings.tables_per_match,
                                                                         "conduct"))
                        progress = True
                        break
                if progress:
                    break

    # --- outcome ---------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.bracket is not None and self.bracket.finished

    def places(self) -> dict[str, int]:
        out: dict[str, int] = {}
        if self.groups is not None and self.groups.finished:
            out.update(self.groups.places_outside(self.lot_seed, self.settings.knockout_size))
        if self.bracket is not None:
            out.update(self.bracket.places())
        return out

    def ranking(self) -> list[RankingRow]:
        """Final ranking with prizes (partial while the tournament runs)."""
        br = self.bracket
        elim = {e: r for e, (r, _) in br.eliminations().items()} if br else {}
        notes = {e: "disqualified" for e in (x.id for x in self.entries) if self.conduct.disqualified(e)}
        return final_ranking(self.entries, self.settings, self.places(), elim, br.rounds if br else 0,
                             br.champion() if br else None, notes)

    # --- serialisation ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "settings": self.settings.to_dict(),
                "entries": [e.to_dict() for e in self.entries],
                "draw": None if self.draw is None else self.draw.to_dict(),
                "groups": None if self.groups is None else self.groups.to_dict(),
                "bracket": None if self.bracket is None else self.bracket.to_dict(),
                "conduct": self.conduct.to_dict()}

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Tournament:
        return Tournament(
            str(data["name"]), TournamentSettings.from_mapping(data["settings"]),
            [Entry.from_dict(e) for e in data["entries"]],
            None if data.get("draw") is None else DrawResult.from_dict(data["draw"]),
            None if data.get("groups") is None else GroupStage.from_dict(data["groups"]),
            None if data.get("bracket") is None else Bracket.from_dict(data["bracket"]),
            ConductLog.from_dict(data.get("conduct") or {}))
