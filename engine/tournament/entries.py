"""Tournament entries: a fixed pair, or a union group's team of N fixed pairs.

An entry is what the draw places and what a bracket or a group table lists.  Ids are
strings chosen by storage (for example ``str(row_id)``); names are display names.
``players`` lists the players in table order: a pair has two; a team of N pairs has
2*N, pair k (1-based) being ``players[2k-2:2k]`` and playing at table k of every team
match.  ``seed_no`` (1 = top seed) is optional; seeded entries are placed by seed,
unseeded ones by the draw (see docs/draw.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.errors import RuleError

ENTRANT_KINDS = ("pair", "team")


@dataclass(frozen=True)
class Entry:
    """One entrant: a pair, or a team of ``len(players) // 2`` pairs from one union group."""

    id: str
    name: str
    union_group: str
    players: tuple[str, ...]
    seed_no: int | None = None

    @property
    def pair_count(self) -> int:
        return len(self.players) // 2

    def pairs(self) -> list[tuple[str, str]]:
        """The pairs in table order (pair 1 plays table 1)."""
        return [(self.players[i], self.players[i + 1]) for i in range(0, len(self.players) - 1, 2)]

    def pair_players(self, table: int) -> tuple[str, str]:
        """The two players of pair ``table`` (1-based)."""
        return self.pairs()[table - 1]

    def to_dict(self) -> dict[str, Any]:
        """Canonical plain form (also the form hashed by the draw)."""
        return {
            "id": self.id,
            "name": self.name,
            "union_group": self.union_group,
            "players": list(self.players),
            "seed_no": self.seed_no,
        }

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Entry:
        seed = data.get("seed_no")
        return Entry(
            str(data["id"]),
            str(data["name"]),
            str(data.get("union_group", "")),
            tuple(str(p) for p in data.get("players", ())),
            None if seed is None else int(seed),
        )


def validate_entries(
    entries: Sequence[Entry], entrant: str = "pair", pairs_per_team: int = 1, group_quota: int | None = None
) -> None:
    """Check an entry list before the draw; RuleError with a stable code on the first problem.

    * ids unique (``duplicate_entry``), at least two entries (``too_few_entries``);
    * a pair has 2 players, a team ``2 * pairs_per_team`` (``wrong_team_size``);
    * a player appears in one entry only (``player_in_two_entries``);
    * seed numbers unique and positive (``bad_seed``);
    * at most ``group_quota`` entries per union group when a quota is set (``quota_full``).
    """
    if entrant not in ENTRANT_KINDS:
        raise RuleError(
            "bad_entrant",
            "Entrant kind {kind} is not allowed; allowed: {allowed}",
            kind=entrant,
            allowed=" | ".join(ENTRANT_KINDS),
        )
    size = 2 if entrant == "pair" else 2 * pairs_per_team
    seen: set[str] = set()
    players: dict[str, str] = {}
    seeds: set[int] = set()
    per_group: dict[str, int] = {}
    for e in entries:
        if e.id in seen:
            raise RuleError("duplicate_entry", "Entry {entry} is listed twice", entry=e.id)
        seen.add(e.id)
        if len(e.players) != size:
            raise RuleError(
                "wrong_team_size",
                "Entry {entry} has {count} players; it needs {size}",
                entry=e.name,
                count=len(e.players),
                size=size,
            )
        for p in e.players:
            if p in players:
                raise RuleError(
                    "player_in_two_entries",
                    "Player {player} is in {first} and {second}",
                    player=p,
                    first=players[p],
                    second=e.name,
                )
            players[p] = e.name
        if e.seed_no is not None:
            if e.seed_no < 1 or e.seed_no in seeds:
                raise RuleError(
                    "bad_seed",
                    "Seed number {seed} of {entry} is not allowed (positive, unique)",
                    seed=e.seed_no,
                    entry=e.name,
                )
            seeds.add(e.seed_no)
        per_group[e.union_group] = per_group.get(e.union_group, 0) + 1
        if group_quota is not None and per_group[e.union_group] > group_quota:
            raise RuleError(
                "quota_full",
                "Union group {group} may enter {quota} entries",
                group=e.union_group,
                quota=group_quota,
            )
    if len(entries) < 2:
        raise RuleError(
            "too_few_entries", "A tournament needs at least 2 entries; it has {count}", count=len(entries)
        )


def entries_by_id(entries: Iterable[Entry]) -> dict[str, Entry]:
    return {e.id: e for e in entries}
