"""Round-robin groups and standings (issue 5: match points, table wins, level difference,
head-to-head, then a recorded lot)."""

from __future__ import annotations

import hashlib
import itertools

import pytest

from engine.tournament.draw import lot_values
from engine.tournament.groups import GroupMatch, GroupStage, plan_groups, round_robin, standings
from engine.tournament.results import PairingResult, forfeit_result, played_table, team_result

LOT = hashlib.sha256(b"lot seed").digest()


def team(winner_tables: str, levels: tuple[tuple[int, int], ...] | None = None) -> PairingResult:
    """A 3-table team result from a string like "aab" (table k won by the letter)."""
    levels = levels or tuple((14, 10) if w == "a" else (10, 14) for w in winner_tables)
    return team_result(
        [
            played_table(w, la, lb, i)
            for i, (w, (la, lb)) in enumerate(zip(winner_tables, levels, strict=True), start=1)
        ]
    )


def table(results: dict[tuple[str, str], PairingResult], entries: list[str]) -> list[str]:
    matches = [GroupMatch(f"m{i}", "A", 1, a, b, r) for i, ((a, b), r) in enumerate(results.items())]
    return standings("A", entries, matches, LOT).order()


def test_round_robin_every_pair_meets_once() -> None:
    for n in range(2, 9):
        entries = [f"x{i}" for i in range(n)]
        rounds = round_robin(entries)
        games = [frozenset(p) for r in rounds for p in r]
        assert len(games) == len(set(games)) == n * (n - 1) // 2
        for r in rounds:  # nobody twice in one round
            players = [x for p in r for x in p]
            assert len(players) == len(set(players))


@pytest.mark.parametrize(
    "count,expected",
    [
        (8, (0, 0)),
        (5, (0, 0)),
        (12, (4, 2)),
        (16, (4, 2)),
        (9, (1, 8)),
        (10, (2, 4)),
        (11, (2, 4)),
        (24, (4, 2)),
    ],
)
def test_group_plan_from_the_entry_count(count: int, expected: tuple[int, int]) -> None:
    """guandan-team: preliminary stage to 8, then knockout (第一阶段决出八强)."""
    assert plan_groups(count, 8, 2) == expected


def test_standings_by_match_points_first() -> None:
    res = {("a", "b"): team("aab"), ("a", "c"): team("aab"), ("b", "c"): team("aab")}
    rows = standings(
        "A",
        ["c", "b", "a"],
        [GroupMatch(f"m{i}", "A", 1, x, y, r) for i, ((x, y), r) in enumerate(res.items())],
        LOT,
    ).rows
    assert [r.entry_id for r in rows] == ["a", "b", "c"]
    assert [r.points for r in rows] == [4, 2, 0]
    assert rows[0].tiebreak == "points"


def test_standings_table_wins_break_equal_points() -> None:
    """Three-way tie on points (each won once): tables won decide."""
    res = {("a", "b"): team("aaa"), ("b", "c"): team("aab"), ("c", "a"): team("aab")}
    assert table(res, ["a", "b", "c"]) == ["a", "c", "b"]  # tables: a 3+1=4, c 1+2=3, b 0+2=2


def test_standings_level_difference_breaks_equal_tables() -> None:
    res = {
        ("a", "b"): team("aab", ((14, 2), (14, 2), (2, 14))),  # a +12
        ("b", "c"): team("aab", ((10, 9), (10, 9), (9, 10))),  # b +1
        ("c", "a"): team("aab", ((11, 10), (11, 10), (10, 11))),
    }  # c +1
    order = table(res, ["a", "b", "c"])
    matches = [GroupMatch(f"m{i}", "A", 1, x, y, r) for i, ((x, y), r) in enumerate(res.items())]
    rows = {r.entry_id: r for r in standings("A", ["a", "b", "c"], matches, LOT).rows}
    assert {r.points for r in rows.values()} == {2} and {r.tables_won for r in rows.values()} == {3}
    assert rows["a"].level_diff == 12 - 1 and rows["b"].level_diff == -12 + 1 + 0
    assert order[0] == "a" and order[-1] == "b"


def test_standings_head_to_head_breaks_a_full_tie() -> None:
    """Equal points, tables and levels; the winner of the match between them is ahead."""
    win_a, win_b = ((10, 9), (10, 9), (9, 10)), ((9, 10), (9, 10), (10, 9))
    res = {
        ("a", "b"): team("bba", win_b),
        ("a", "c"): team("aab", win_a),
        ("a", "d"): team("aab", win_a),
        ("b", "c"): team("bba", win_b),
        ("b", "d"): team("aab", win_a),
        ("c", "d"): team("bba", win_b),
    }
    matches = [GroupMatch(f"m{i}", "A", 1, x, y, r) for i, ((x, y), r) in enumerate(res.items())]
    rows = standings("A", ["a", "b", "c", "d"], matches, LOT).rows
    tied = [r for r in rows if r.points == 4]
    assert {r.entry_id for r in tied} == {"a", "b"}
    assert tied[0].tables_won == tied[1].tables_won and tied[0].level_diff == tied[1].level_diff
    assert [r.entry_id for r in tied] == ["b", "a"]  # b beat a
    assert tied[0].tiebreak == "head_to_head" and tied[0].head_to_head == 2
    assert [r.entry_id for r in rows] == ["b", "a", "d", "c"]  # d beat c, the other pair level on the rest


def test_standings_recorded_lot_is_last_and_shown() -> None:
    """A circle a>b>c>a with identical scores: only the recorded lot separates them; its numbers are output."""
    same = ((10, 9), (10, 9), (9, 10))
    res = {("a", "b"): team("aab", same), ("b", "c"): team("aab", same), ("c", "a"): team("aab", same)}
    matches = [GroupMatch(f"m{i}", "A", 1, x, y, r) for i, ((x, y), r) in enumerate(res.items())]
    st = standings("A", ["a", "b", "c"], matches, LOT)
    lots = lot_values(LOT, ["a", "b", "c"])
    assert st.order() == sorted(["a", "b", "c"], key=lots.__getitem__)
    assert all(r.tiebreak == "lot" and r.lot == lots[r.entry_id] for r in st.rows)
    assert st.to_dict()["lot_seed"] == LOT.hex()
    other = standings("A", ["a", "b", "c"], matches, hashlib.sha256(b"another").digest())
    assert sorted(other.order()) == ["a", "b", "c"]


def test_double_forfeit_in_a_group_is_a_loss_for_both() -> None:
    res = {("a", "b"): forfeit_result("both", tables=3), ("a", "c"): team("aaa"), ("b", "c"): team("aaa")}
    matches = [GroupMatch(f"m{i}", "A", 1, x, y, r) for i, ((x, y), r) in enumerate(res.items())]
    rows = {r.entry_id: r for r in standings("A", ["a", "b", "c"], matches, LOT).rows}
    assert rows["a"].lost == 1 and rows["b"].lost == 1 and rows["a"].points == 2


def test_knockout_seeding_crosses_groups() -> None:
    """Four groups, two qualifiers each: A1 v B2, B1 v A2, C1 v D2, D1 v C2; one group's entries in different halves."""
    groups = [[f"{g}{i}" for i in range(1, 4)] for g in "ABCD"]
    stage = GroupStage.build(groups, 2)
    for m in stage.matches:  # lower number always wins: X1 first, X2 second
        stage.record(m.id, team("aaa") if m.a < m.b else team("bbb"))
    slots = stage.knockout_slots(LOT, 8)
    first = {frozenset(slots[i : i + 2]) for i in range(0, 8, 2)}
    assert first == {frozenset(p) for p in (("A1", "B2"), ("B1", "A2"), ("C1", "D2"), ("D1", "C2"))}
    top, bottom = set(slots[:4]), set(slots[4:])
    for g in "ABCD":
        assert (f"{g}1" in top) != (f"{g}2" in top)
    assert top | bottom == {f"{g}{i}" for g in "ABCD" for i in (1, 2)}
    places = stage.places_outside(LOT, 8)
    assert places == {f"{g}3": 9 for g in "ABCD"}


def test_group_stage_round_trips() -> None:
    stage = GroupStage.build([["a", "b", "c"], ["d", "e", "f"]], 2)
    stage.record(stage.matches[0].id, team("aab"))
    assert GroupStage.from_dict(stage.to_dict()).to_dict() == stage.to_dict()
    assert len(stage.matches) == 6
    assert all(len({m.a, m.b}) == 2 for m in stage.matches)
    assert list(itertools.chain.from_iterable(stage.groups.values())) == list("abcdef")
