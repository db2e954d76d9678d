"""One tournament's pure state: settings, entries, draw, group stage, knockout, conduct.

This is the object the application layer keeps (``to_dict`` / ``from_dict``) and calls:

    t = Tournament.create("教工双升 2026", settings, entries)
    ann = t.announce(secret)          # publish ann.list_hash and ann.commitment
    t.hold_draw(secret)               # then publish t.draw.published()
    t.ready_matches()                 # schedule these (schedule.assign_tables)
    t.mark_started(mid); t.record(mid, result)   # -> matches newly ready
    t.correct(mid, result, force=False)          # referee; conflicts reported
    t.ranking()                       # final ranking with prizes (prizes.final_ranking)

Match ids: group matches ``A-R1-M2``; Swiss rounds ``S3-M12``; knockout ``R1-M3`` (main)
and ``P3-4-M1`` (3rd place), ``P5-8-M1`` ... (placement).

A Swiss (``format = "swiss"``, engine/tournament/swiss.py) pairs the next round inside
:meth:`Tournament.record` once the round is complete; with ``swiss_top`` = K the top K
of the final standings then play a knockout (rank 1 v K ... on the seeding positions).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.errors import RuleError
from engine.tournament.bracket import Bracket, Correction, prize_boundaries
from engine.tournament.conduct import ConductLog, ConductOutcome, ConductRecord
from engine.tournament.draw import Announcement, DrawOptions, DrawResult, announce, bracket_slots, make_draw
from engine.tournament.entries import Entry, validate_entries
from engine.tournament.groups import GroupStage, plan_groups
from engine.tournament.prizes import RankingRow, final_ranking
from engine.tournament.results import PairingResult, disqualification_result
from engine.tournament.settings import TournamentSettings
from engine.tournament.swiss import BYE_POINTS, SwissStage, SwissStandings


@dataclass
class Tournament:
    name: str
    settings: TournamentSettings
    entries: list[Entry]
    draw: DrawResult | None = None
    groups: GroupStage | None = None
    bracket: Bracket | None = None
    conduct: ConductLog = field(default_factory=ConductLog)
    swiss: SwissStage | None = None

    @staticmethod
    def create(name: str, settings: TournamentSettings, entries: Sequence[Entry]) -> Tournament:
        validate_entries(entries, settings.entrant, settings.pairs_per_team, settings.group_quota or None)
        return Tournament(
            name, settings, list(entries), conduct=ConductLog(settings.conduct_violations_to_disqualify)
        )

    # --- draw ------------------------------------------------------------------------

    def draw_options(self) -> DrawOptions:
        """The draw's layout: groups (groups_then_knockout with more entries than the knockout) or a bracket."""
        s = self.settings
        if s.format == "swiss":
            return DrawOptions("swiss", s.separate_union_groups, 0)
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
        s = self.settings
        if s.format == "swiss" and s.swiss_top > len(self.entries):
            raise RuleError(
                "swiss_top_too_big",
                "A knockout of the top {top} needs at least {top} entries",
                top=s.swiss_top,
            )
        self.draw = make_draw(self.name, self.entries, self.draw_options(), secret)
        if self.draw.options.format == "swiss":
            self.swiss = SwissStage.build(
                self.draw.bracket,
                {e.id: e.union_group for e in self.entries},
                s.swiss_rounds,
                BYE_POINTS[s.swiss_bye],
                s.separate_union_groups,
            )
        elif self.draw.options.format == "groups":
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
        if self.swiss is not None and self.swiss.has(match_id):
            return "swiss"
        if self.groups is not None and any(m.id == match_id for m in self.groups.matches):
            return "groups"
        if self.bracket is not None and any(m.id == match_id for m in self.bracket.matches):
            return "knockout"
        raise RuleError("unknown_match", "There is no match {match}", match=match_id)

    def ready_matches(self) -> list[str]:
        """Matches that can be played now (entries known, no result)."""
        out: list[str] = []
        if self.swiss is not None and self.bracket is None:
            out += self.swiss.ready_matches()
        if self.groups is not None and self.bracket is None:
            out += [
                m.id for m in sorted(self.groups.matches, key=lambda m: (m.round, m.id)) if m.result is None
            ]
        if self.bracket is not None:
            out += self.bracket.ready_matches()
        return out

    def result_of(self, match_id: str) -> PairingResult | None:
        """The recorded result of a match (None: none yet)."""
        stage = self._stage_of(match_id)
        if stage == "swiss":
            assert self.swiss is not None
            return self.swiss.match(match_id).result
        if stage == "groups":
            assert self.groups is not None
            return self.groups.match(match_id).result
        assert self.bracket is not None
        return self.bracket.match(match_id).result

    def sides(self, match_id: str) -> tuple[str | None, str | None]:
        """Entry ids of sides a and b (None: not known yet / empty)."""
        stage = self._stage_of(match_id)
        if stage == "swiss":
            assert self.swiss is not None
            sm = self.swiss.match(match_id)
            return sm.a, sm.b
        if stage == "groups":
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
        stage = self._stage_of(match_id)
        if stage == "swiss":  # the newly paired round, or the knockout once the rounds are over
            assert self.swiss is not None
            new = self.swiss.record(match_id, result, self.lot_seed)
            if self.bracket is None:
                self._after_swiss()
                if self.bracket is not None:
                    self._auto_results()
                    return self.bracket.ready_matches()
            return new
        before = set(self.ready_matches())
        if stage == "groups":
            assert self.groups is not None
            if self.groups.match(match_id).result is not None:
                raise RuleError(
                    "result_already_recorded",
                    "Match {match} already has a result ({state}); correct it",
                    match=match_id,
                    state="done",
                )
            self.groups.record(match_id, result)
            if self.groups.finished and self.bracket is None:
                self.bracket = self._new_bracket(
                    self.groups.knockout_slots(self.lot_seed, self.settings.knockout_size)
                )
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
        if self._stage_of(match_id) == "swiss":
            return self._correct_swiss(match_id, result, force)
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
        self.bracket = self._new_bracket(
            self.groups.knockout_slots(self.lot_seed, self.settings.knockout_size)
        )
        return Correction(True, True, (), tuple(begun), tuple(self.bracket.ready_matches()))

    def reopen(self, match_id: str, force: bool = False) -> Correction:
        """Clear a result so the match is played after all (a lateness forfeit undone by the referee)."""
        if self._stage_of(match_id) == "knockout":
            assert self.bracket is not None
            return self.bracket.reopen(match_id, force)
        if self._stage_of(match_id) == "swiss":
            assert self.swiss is not None
            if self.bracket is not None:
                begun = [k.id for k in self.bracket.matches if k.started or k.result is not None]
                if begun and not force:
                    return Correction(False, True, tuple(begun))
                self.bracket = None
                self.swiss.reopen(match_id)
                return Correction(True, True, (), tuple(begun))
            self.swiss.reopen(match_id)
            return Correction(True, True)
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

    # --- Swiss -----------------------------------------------------------------------

    def _swiss_qualifiers(self) -> list[str]:
        assert self.swiss is not None
        gone = set(self.swiss.withdrawn)
        return [e for e in self.swiss.standings(self.lot_seed).order() if e not in gone][
            : self.settings.swiss_top
        ]

    def _after_swiss(self) -> None:
        """Once the Swiss rounds are over, the top K's knockout (when the settings ask for one)."""
        if (
            self.swiss is None
            or self.bracket is not None
            or not self.swiss.finished
            or not self.settings.swiss_top
        ):
            return
        self.bracket = self._new_bracket(bracket_slots(self._swiss_qualifiers(), self.settings.swiss_top))

    def _correct_swiss(self, match_id: str, result: PairingResult, force: bool) -> Correction:
        assert self.swiss is not None
        old = self.swiss.match(match_id).result
        if old is None:
            raise RuleError("no_result_to_correct", "Match {match} has no result to correct", match=match_id)
        before = self._swiss_qualifiers() if self.settings.swiss_top else []
        self.swiss.correct(match_id, result)
        changed = bool(self.settings.swiss_top) and self._swiss_qualifiers() != before
        if not changed or self.bracket is None:
            return Correction(True, changed)
        begun = [m.id for m in self.bracket.matches if m.started or m.result is not None]
        if begun and not force:
            self.swiss.correct(match_id, old)
            return Correction(False, True, tuple(begun))
        self.bracket = None
        self._after_swiss()
        assert self.bracket is not None
        return Correction(True, True, (), tuple(begun), tuple(self.bracket.ready_matches()))

    def swiss_standings(self) -> SwissStandings:
        if self.swiss is None:
            raise RuleError("not_swiss", "{name} is not a Swiss tournament", name=self.name)
        return self.swiss.standings(self.lot_seed)

    def withdraw(self, entry_id: str) -> list[str]:
        """Withdraw an entry from a Swiss (not paired again; a match of the round it has not finished is
        forfeited by it); returns the matches newly ready."""
        if self.swiss is not None and entry_id in self.swiss.withdrawn:
            raise RuleError("already_withdrawn", "Entry {entry} has already withdrawn", entry=entry_id)
        self.check_swiss_on()
        assert self.swiss is not None
        before = set(self.ready_matches())
        self.swiss.withdraw(entry_id, self.settings.tables_per_match, self.lot_seed)
        self._after_swiss()
        return [m for m in self.ready_matches() if m not in before]

    def add_late_entry(self, entry: Entry) -> int:
        """A late entry into a Swiss (checked like the others); returns the first round it is paired in."""
        self.check_swiss_on()
        assert self.swiss is not None
        s = self.settings
        validate_entries([*self.entries, entry], s.entrant, s.pairs_per_team, s.group_quota or None)
        first = self.swiss.add_entry(entry.id, entry.union_group)
        self.entries.append(entry)
        return first

    def check_swiss_on(self) -> None:
        """A Swiss whose rounds are still on (no knockout begun, not finished), else a RuleError."""
        if self.swiss is None:
            raise RuleError("not_swiss", "{name} is not a Swiss tournament", name=self.name)
        if self.bracket is not None or self.swiss.finished:
            raise RuleError("swiss_over", "The Swiss rounds are over")

    def end_swiss(self) -> list[str]:
        """The organiser ends the Swiss after the current round; returns the matches newly ready."""
        if self.swiss is None:
            raise RuleError("not_swiss", "{name} is not a Swiss tournament", name=self.name)
        before = set(self.ready_matches())
        self.swiss.end_rounds()
        self._after_swiss()
        return [m for m in self.ready_matches() if m not in before]

    # --- conduct ---------------------------------------------------------------------

    def add_conduct(self, record: ConductRecord) -> ConductOutcome:
        """Record a conduct item; a disqualification ends the entry's match in progress (opponent wins)."""
        outcome = self.conduct.add(record)
        if outcome.newly_disqualified:
            if (
                self.swiss is not None
                and self.bracket is None
                and outcome.entry_id not in self.swiss.withdrawn
            ):
                self.swiss.withdraw(
                    outcome.entry_id, self.settings.tables_per_match, self.lot_seed, disqualified=True
                )
                self._after_swiss()
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
                        self.bracket.record(
                            mid, disqualification_result(side, self.settings.tables_per_match, "conduct")
                        )
                        progress = True
                        break
                if progress:
                    break

    # --- outcome ---------------------------------------------------------------------

    @property
    def finished(self) -> bool:
        if self.swiss is not None and not self.settings.swiss_top:
            return self.swiss.finished
        return self.bracket is not None and self.bracket.finished

    def places(self) -> dict[str, int]:
        out: dict[str, int] = {}
        if self.swiss is not None and self.swiss.finished:
            top = self.settings.swiss_top
            for row in self.swiss.standings(self.lot_seed).rows:
                if row.rank > top:
                    out[row.entry_id] = row.rank
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
        return final_ranking(
            self.entries,
            self.settings,
            self.places(),
            elim,
            br.rounds if br else 0,
            br.champion() if br else None,
            notes,
        )

    # --- serialisation ---------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "settings": self.settings.to_dict(),
            "entries": [e.to_dict() for e in self.entries],
            "draw": None if self.draw is None else self.draw.to_dict(),
            "groups": None if self.groups is None else self.groups.to_dict(),
            "bracket": None if self.bracket is None else self.bracket.to_dict(),
            "conduct": self.conduct.to_dict(),
            "swiss": None if self.swiss is None else self.swiss.to_dict(),
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Tournament:
        return Tournament(
            str(data["name"]),
            TournamentSettings.from_mapping(data["settings"]),
            [Entry.from_dict(e) for e in data["entries"]],
            None if data.get("draw") is None else DrawResult.from_dict(data["draw"]),
            None if data.get("groups") is None else GroupStage.from_dict(data["groups"]),
            None if data.get("bracket") is None else Bracket.from_dict(data["bracket"]),
            ConductLog.from_dict(data.get("conduct") or {}),
            None if data.get("swiss") is None else SwissStage.from_dict(data["swiss"]),
        )
