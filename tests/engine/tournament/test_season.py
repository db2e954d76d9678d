"""The season table (issue 20): players and union groups over the named tournaments."""

from __future__ import annotations

from engine.tournament import Tournament, TournamentSettings
from engine.tournament.entries import Entry
from engine.tournament.results import pair_result
from engine.tournament.season import season_table
from tests.engine.tournament.helpers import SECRET


def played(name: str, entries: list[Entry], winner_of: dict[str, int]) -> Tournament:
    """A 2-round Swiss where the entry with the higher ``winner_of`` strength wins every match."""
    t = Tournament.create(
        name, TournamentSettings.from_mapping({"format": "swiss", "swiss_rounds": 2}), entries
    )
    t.hold_draw(SECRET)
    while not t.finished:
        for mid in t.ready_matches():
            a, b = t.sides(mid)
            assert a is not None and b is not None
            t.record(mid, pair_result("a" if winner_of[a] > winner_of[b] else "b", 14, 9))
    return t


def test_season_sums_players_and_union_groups_over_the_tournaments() -> None:
    one = [
        Entry("a", "A", "机关", ("1", "2")),
        Entry("b", "B", "机关", ("3", "4")),
        Entry("c", "C", "理学院", ("5", "6")),
        Entry("d", "D", "理学院", ("7", "8")),
    ]
    two = [
        Entry("w", "W", "机关", ("1", "3")),
        Entry("x", "X", "理学院", ("5", "2")),
        Entry("y", "Y", "理学院", ("7", "8")),
        Entry("z", "Z", "机关", ("4", "6")),
    ]
    t1 = played("一月", one, {"a": 4, "b": 3, "c": 2, "d": 1})
    t2 = played("二月", two, {"w": 4, "x": 3, "y": 2, "z": 1})
    people = lambda es: {e.id: list(e.players) for e in es}  # noqa: E731
    players, groups = season_table([(t1, people(one)), (t2, people(two))])
    by = {r.key: r for r in players}
    # player 1 won all four matches (pair a, then pair w): 8 points, first in both
    assert (by["1"].tournaments, by["1"].won, by["1"].lost, by["1"].points, by["1"].best_place) == (
        2,
        4,
        0,
        8,
        1,
    )
    assert players[0].key == "1" and by["1"].union_group == "机关"
    assert by["8"].won <= 1 and by["8"].points < by["2"].points  # D lost every match of the first
    assert sum(r.won for r in players) == sum(
        r.lost for r in players
    )  # every match: one winner, one loser ×2
    g = {r.key: r for r in groups}
    assert set(g) == {"机关", "理学院"} and g["机关"].tournaments == 2
    assert g["机关"].won + g["理学院"].won == 8 and g["机关"].points >= g["理学院"].points
