"""A union's season table over the tournaments the organiser names (``/season 3 5 7``).

Per player (a pair's two players, a team's players each): the tournaments played, matches won,
drawn and lost (byes and walkovers not counted), the season's points — match points, win 2, draw 1,
loss 0, summed over every match played — and the best place.  Order: points, then matches won, then
the best place, then the player id.  Per union group: the same sums over its players' entries (an
entry counts once, not once per player), ordered the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.tournament.tournament import Tournament


@dataclass(frozen=True)
class SeasonRow:
    key: str  # player id, or union group name
    union_group: str
    tournaments: int
    won: int
    drawn: int
    lost: int
    points: int
    best_place: int | None


def _entry_matches(t: Tournament) -> list[tuple[str, str, int, int]]:
    """(entry a, entry b, points of a, points of b) of every match played (Swiss, groups, knockout)."""
    out = []
    if t.swiss is not None:
        out += [
            (m.a, m.b, m.result.match_points("a"), m.result.match_points("b"))
            for m in t.swiss.matches
            if m.b is not None and m.result is not None
        ]
    if t.groups is not None:
        out += [
            (m.a, m.b, m.result.match_points("a"), m.result.match_points("b"))
            for m in t.groups.matches
            if m.result is not None
        ]
    if t.bracket is not None:
        for m in t.bracket.matches:
            a, b = t.bracket.entries_of(m.id)
            if m.result is not None and a is not None and b is not None:
                out.append((a, b, m.result.match_points("a"), m.result.match_points("b")))
    return out


def _tally(rows: dict[str, dict[str, int]], key: str, got: int, other: int) -> None:
    r = rows[key]
    r["points"] += got
    r["won"] += got > other
    r["drawn"] += got == other == 1
    r["lost"] += got < other or got == other == 0


def season_table(
    tournaments: Sequence[tuple[Tournament, Mapping[str, Sequence[str]]]],
) -> tuple[list[SeasonRow], list[SeasonRow]]:
    """(players, union groups) over ``tournaments``: each a tournament and entry id -> its player ids."""
    players: dict[str, dict[str, int]] = {}
    groups: dict[str, dict[str, int]] = {}
    union_of: dict[str, str] = {}
    best: dict[str, int] = {}
    best_group: dict[str, int] = {}
    played_in: dict[str, set[int]] = {}
    group_in: dict[str, set[int]] = {}

    def blank() -> dict[str, int]:
        return {"won": 0, "drawn": 0, "lost": 0, "points": 0}

    for n, (t, people) in enumerate(tournaments):
        entries = {e.id: e for e in t.entries}
        places = t.places() if t.finished else {}
        for eid, ids in people.items():
            e = entries.get(eid)
            if e is None:
                continue
            groups.setdefault(e.union_group, blank())
            group_in.setdefault(e.union_group, set()).add(n)
            for p in ids:
                players.setdefault(p, blank())
                played_in.setdefault(p, set()).add(n)
                union_of[p] = e.union_group
                if eid in places:
                    best[p] = min(best.get(p, places[eid]), places[eid])
            if eid in places:
                best_group[e.union_group] = min(best_group.get(e.union_group, places[eid]), places[eid])
        for a, b, pa, pb in _entry_matches(t):
            for eid, got, other in ((a, pa, pb), (b, pb, pa)):
                e = entries.get(eid)
                if e is None:
                    continue
                if e.union_group in groups:
                    _tally(groups, e.union_group, got, other)
                for p in people.get(eid, ()):
                    _tally(players, p, got, other)

    def rows(
        table: dict[str, dict[str, int]],
        seen: dict[str, set[int]],
        places: dict[str, int],
        union: Mapping[str, str] | None,
    ) -> list[SeasonRow]:
        out = [
            SeasonRow(
                k,
                union.get(k, "") if union is not None else k,
                len(seen.get(k, ())),
                v["won"],
                v["drawn"],
                v["lost"],
                v["points"],
                places.get(k),
            )
            for k, v in table.items()
        ]
        return sorted(out, key=lambda r: (-r.points, -r.won, r.best_place or 10**9, r.key))

    return rows(players, played_in, best, union_of), rows(groups, group_in, best_group, None)
