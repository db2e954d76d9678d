"""Tournament settings: the ``[tournament]`` table of a preset, typed and validated.

Every key, its meaning and its default are in ``KEYS``; ``TournamentSettings.from_mapping``
raises ``OptionError`` naming the key and what it allows (the bot translates it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.errors import OptionError, RuleError

FORMATS = ("single_elimination", "groups_then_knockout", "swiss")
SWISS_BYES = ("win", "draw", "loss")
PRIZE_TABLES = ("none", "by_round_eliminated", "places_1_2_3")
PAGE_WATCH = ("anyone", "participants", "referees")


@dataclass(frozen=True)
class TournamentSettings:
    """Event settings (see engine/presets/*.toml ``[tournament]`` and docs/draw.md)."""

    entrant: str = "pair"  # pair | team
    pairs_per_team: int = 1  # team: pairs per team = tables per team match
    group_quota: int = 0  # entries per union group (0: no quota)
    registered_by: str = "player"  # player | leader
    format: str = "single_elimination"  # single_elimination | groups_then_knockout | swiss
    swiss_rounds: int = 5  # swiss: rounds (every active entry plays each round)
    swiss_bye: str = "win"  # swiss: what a bye scores: win | draw | loss
    swiss_top: int = 0  # swiss: the top K of the standings play a knockout (0: none)
    knockout_size: int = 8  # groups_then_knockout: qualifiers (power of two)
    advance_per_group: int = 2  # groups_then_knockout: preferred qualifiers per group
    groups: int = 0  # groups_then_knockout: group count (0: from the entry count)
    third_place_match: bool = False
    placement_matches: bool = True  # play placement matches where a prize boundary splits a tier
    separate_union_groups: bool = False  # keep one union group apart in round 1 of the draw
    public_page: bool = True  # the bot's web server shows /t/<id> (standings, schedule, results)
    page_hints: bool = False  # the table page hints the cards that may be played (casual tables: always)
    page_watch: str = "anyone"  # who may watch a table on the page: anyone | participants | referees
    seed_by_rating: bool = False  # seed the draw by the players' ratings (engine/tournament/ratings.py)
    # team matches: tables 1+2 (3+4 ...) play the same boards, hands turned; a Swiss of pairs: matches
    # 1+2 (3+4 ...) of each round (engine/tournament/duplicate.py)
    duplicate: bool = False
    late_forfeit_minutes: int = 15
    checkin_opens_minutes: int = 30
    reminder_minutes: tuple[int, ...] = (1440, 15)
    match_slot_minutes: int = 60  # scheduling: minutes reserved for one match
    prize_table: str = "none"  # none | by_round_eliminated | places_1_2_3
    prize_counts: tuple[int, ...] = ()  # places_1_2_3: how many first, second, third prizes
    round_prizes: tuple[str, ...] = ()  # by_round_eliminated: prize of the losers of each round
    round_prizes_from: str = "final"  # final: the last item is the final's loser | first: item 1 = round 1
    champion_prize: str = ""  # prize of the champion ("" = the first place prize)
    souvenir_for_all: bool = False  # everybody without another prize gets "souvenir"
    conduct_violations_to_disqualify: int = 0  # 0: no automatic disqualification
    referees: int = 1

    @property
    def tables_per_match(self) -> int:
        return self.pairs_per_team if self.entrant == "team" else 1

    @property
    def pairs_duplicate(self) -> bool:
        """A Swiss of pairs with duplicate deals: two matches of a round form a comparison
        (engine/tournament/duplicate.py), scheduled in one slot."""
        return self.duplicate and self.entrant == "pair"

    @staticmethod
    def from_mapping(data: Mapping[str, Any]) -> TournamentSettings:
        """Settings from a preset's ``[tournament]`` table (unknown keys are an error)."""
        fields = {f.name: f for f in dataclasses.fields(TournamentSettings)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in fields:
                raise RuleError(
                    "unknown_option",
                    "Unknown option {field}; options: {allowed}",
                    field=key,
                    allowed=", ".join(fields),
                )
            default = fields[key].default
            if isinstance(default, bool):
                if not isinstance(value, bool):
                    raise OptionError(key, value, "true | false")
            elif isinstance(default, int):
                if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                    raise OptionError(key, value, "an integer 0..")
            elif isinstance(default, tuple):
                if not isinstance(value, (list, tuple)):
                    raise OptionError(key, value, "a list")
                value = tuple(value)
            else:
                value = str(value)
            values[key] = value
        settings = TournamentSettings(**values)
        settings.check()
        return settings

    def check(self) -> None:
        def bad(key: str, allowed: str) -> OptionError:
            return OptionError(key, getattr(self, key), allowed)

        if self.entrant not in ("pair", "team"):
            raise bad("entrant", "pair | team")
        if self.pairs_per_team < 1 or (self.entrant == "pair" and self.pairs_per_team != 1):
            raise bad("pairs_per_team", "1 for pairs, 1.. for teams")
        if self.registered_by not in ("player", "leader"):
            raise bad("registered_by", "player | leader")
        if self.format not in FORMATS:
            raise bad("format", " | ".join(FORMATS))
        if self.swiss_rounds < 1:
            raise bad("swiss_rounds", "an integer 1..")
        if self.swiss_bye not in SWISS_BYES:
            raise bad("swiss_bye", " | ".join(SWISS_BYES))
        if self.swiss_top == 1 or self.swiss_top & (self.swiss_top - 1):
            raise bad("swiss_top", "0 (no knockout) or a power of two, 2..")
        if self.format == "swiss" and self.prize_table == "by_round_eliminated" and not self.swiss_top:
            raise bad("prize_table", "none | places_1_2_3 (a Swiss without a knockout eliminates nobody)")
        if self.duplicate and self.entrant == "pair" and self.format != "swiss":
            raise RuleError(
                "duplicate_pairs_need_swiss",
                'duplicate = true for pairs needs format = "swiss" (two matches of a round play the same '
                "deals); a knockout or groups of pairs plays ordinary deals",
            )
        if self.duplicate and self.entrant == "team" and self.pairs_per_team % 2:
            raise RuleError(
                "duplicate_needs_pairs_of_tables",
                "duplicate = true needs team matches with an even number of pairs per team (2, 4 ...): "
                "tables play the same boards two by two; this tournament has {tables} table(s) per match",
                tables=self.tables_per_match,
            )
        if self.knockout_size < 2 or self.knockout_size & (self.knockout_size - 1):
            raise bad("knockout_size", "a power of two, 2..")
        if self.third_place_match and self.format == "groups_then_knockout" and self.knockout_size < 4:
            raise RuleError(
                "third_place_needs_semifinals",
                "A 3rd-place match needs a knockout of 4 or more (a knockout of {size} has no "
                "semi-final losers)",
                size=self.knockout_size,
            )
        if self.advance_per_group < 1:
            raise bad("advance_per_group", "an integer 1..")
        if self.prize_table not in PRIZE_TABLES:
            raise bad("prize_table", " | ".join(PRIZE_TABLES))
        if self.prize_table == "places_1_2_3" and (
            len(self.prize_counts) != 3 or not all(isinstance(c, int) and c >= 0 for c in self.prize_counts)
        ):
            raise bad("prize_counts", "three counts [first, second, third]")
        if self.prize_table == "by_round_eliminated" and not self.round_prizes:
            raise bad("round_prizes", "a list of prize names, one per round")
        if self.page_watch not in PAGE_WATCH:
            raise bad("page_watch", " | ".join(PAGE_WATCH))
        if self.round_prizes_from not in ("final", "first"):
            raise bad("round_prizes_from", "final | first")
        if any(not isinstance(m, int) or m < 0 for m in self.reminder_minutes):
            raise bad("reminder_minutes", "a list of minutes before the start")

    def to_dict(self) -> dict[str, Any]:
        data = dataclasses.asdict(self)
        return {k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}
