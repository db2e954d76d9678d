"""Tournament logic (pure): entries, the verifiable draw, brackets, groups, results, prizes,
lateness, conduct and schedule helpers.  See docs/draw.md and each module's docstring."""

from engine.tournament.bracket import Bracket, Correction, prize_boundaries
from engine.tournament.conduct import ConductLog, ConductOutcome, ConductRecord
from engine.tournament.draw import DrawOptions, DrawResult, VerifyReport, make_draw, verify
from engine.tournament.entries import Entry, validate_entries
from engine.tournament.groups import GroupStage, Standings, plan_groups
from engine.tournament.lateness import LatenessDecision, checkin_window, decide, undo
from engine.tournament.prizes import RankingRow, final_ranking
from engine.tournament.results import (
    PairingResult,
    TableResult,
    forfeit_result,
    pair_result,
    played_table,
    team_result,
)
from engine.tournament.schedule import Slot, Timer, assign_tables, match_timers
from engine.tournament.settings import TournamentSettings
from engine.tournament.tournament import Tournament

__all__ = [
    "Bracket",
    "ConductLog",
    "ConductOutcome",
    "ConductRecord",
    "Correction",
    "DrawOptions",
    "DrawResult",
    "Entry",
    "GroupStage",
    "LatenessDecision",
    "PairingResult",
    "RankingRow",
    "Slot",
    "Standings",
    "TableResult",
    "Timer",
    "Tournament",
    "TournamentSettings",
    "VerifyReport",
    "assign_tables",
    "checkin_window",
    "decide",
    "final_ranking",
    "forfeit_result",
    "make_draw",
    "match_timers",
    "pair_result",
    "plan_groups",
    "played_table",
    "prize_boundaries",
    "team_result",
    "undo",
    "validate_entries",
    "verify",
]
