"""Swiss rounds (issue 20): round 1 from the draw, score pairing, byes, no repeats, union groups,
standings with tie-breaks, withdrawals, late entries, the top-K knockout, corrections."""

from __future__ import annotations

import json

import pytest

from engine.errors import RuleError
from engine.tournament import Tournament, TournamentSettings
from engine.tournament.conduct import ConductRecord
from engine.tournament.draw import verify
from engine.tournament.entries import Entry
from engine.tournament.results import PairingResult, forfeit_result, pair_result
from engine.tournament.swiss import SwissMatch, SwissStage, pair_round
from tests.engine.tournament.helpers import SECRET, pairs


def swiss(count: int, groups: int = 3, **options: object) -> Tournament:
    settings = TournamentSettings.from_mapping({"format": "swiss", **options})
    t = Tournament.create("积分编排", settings, pairs(count, groups))
    t.hold_draw(SECRET)
    return t


def win_for_higher_id(t: Tournament, mid: str) -> PairingResult:
    """A deterministic result: the entry with the lower number wins 14:9 (p0 is the strongest)."""
    a, b = t.sides(mid)
    assert a is not None and b is not None
    return pair_result("a" if int(a[1:]) < int(b[1:]) else "b", 14, 9)


def play_round(t: Tournament) -> list[str]:
    ready = t.ready_matches()
    for mid in ready:
        t.record(mid, win_for_higher_id(t, mid))
    return ready


def pairings(t: Tournament, rnd: int) -> list[tuple[str, str | None]]:
    assert t.swiss is not None
    return [(m.a, m.b) for m in t.swiss.round_matches(rnd)]


def test_round_one_is_the_drawn_order_top_half_against_bottom_half_and_verifiable() -> None:
    t = swiss(10)
    assert t.draw is not None and t.swiss is not None
    order = list(t.draw.order)
    assert pairings(t, 1) == [(order[i], order[i + 5]) for i in range(5)]
    published = t.draw.published()
    assert verify(published).ok
    tampered = json.loads(json.dumps(published))
    tampered["round_1"][0], tampered["round_1"][1] = tampered["round_1"][1], tampered["round_1"][0]
    assert verify(tampered).failed() == ["round_1"]


def test_winners_meet_winners_and_nobody_meets_twice() -> None:
    t = swiss(16, swiss_rounds=4)
    play_round(t)
    assert t.swiss is not None
    points = {r.entry_id: r.points for r in t.swiss_standings().rows}
    for a, b in pairings(t, 2):
        assert b is not None and points[a] == points[b]  # 8 winners, 8 losers: no float needed
    while not t.finished:
        play_round(t)
    seen = set()
    for m in t.swiss.matches:
        key = frozenset((m.a, m.b))
        assert key not in seen
        seen.add(key)
    assert t.swiss.current_round == 4 and len(t.swiss.matches) == 32
    # p0 beats everybody: alone on 8 points after 4 rounds
    top = t.swiss_standings().rows[0]
    assert (top.entry_id, top.points, top.won) == ("p0", 8, 4)


def test_the_next_round_waits_for_every_result_of_the_round() -> None:
    t = swiss(8, swiss_rounds=3)
    first = t.ready_matches()
    for i, mid in enumerate(first[:-1]):
        assert t.record(mid, win_for_higher_id(t, mid)) == []
        assert t.ready_matches() == first[i + 1 :]
    new = t.record(first[-1], forfeit_result("b"))  # a referee's forfeit completes the round
    assert len(new) == 4 and all(m.startswith("S2-") for m in new)
    with pytest.raises(RuleError) as err:
        t.record(first[0], pair_result("a", 14, 2))
    assert err.value.code == "result_already_recorded"


def test_odd_field_one_bye_at_most_each_to_the_lowest_score() -> None:
    t = swiss(9, swiss_rounds=4, swiss_bye="draw")
    assert t.swiss is not None
    byes: list[str] = []
    while not t.finished:
        rnd = t.swiss.current_round
        table = {r.entry_id: r.points for r in t.swiss_standings().rows}
        bye = [m.a for m in t.swiss.round_matches(rnd) if m.b is None]
        assert len(bye) == 1
        if rnd > 1:  # the lowest score among the entries without a bye yet
            free = [e for e in table if e not in byes]
            assert table[bye[0]] == min(table[e] for e in free)
        byes += bye
        play_round(t)
    assert len(byes) == 4 and len(set(byes)) == 4
    row = t.swiss_standings().row(byes[0])
    assert row.byes == 1 and row.points == row.won * 2 + 1  # a bye scores a draw here


def test_a_round_that_cannot_be_paired_changes_nothing_and_the_organiser_can_end_there() -> None:
    t = swiss(4, swiss_rounds=4)
    for _ in range(3):
        play_round(t)  # three rounds: everybody has met everybody
    assert t.swiss is not None and t.swiss.current_round == 3
    assert not t.finished
    # the 4th round was not paired: the last result of round 3 was kept, the stage waits
    assert t.ready_matches() == [] and t.swiss.stalled
    assert all(m.result is not None for m in t.swiss.round_matches(3))
    before = t.to_dict()
    with pytest.raises(RuleError) as err:
        t.swiss.pair_next(t.lot_seed)
    assert err.value.code == "swiss_cannot_pair"
    assert t.to_dict() == before
    t.end_swiss()
    assert t.finished and [r.place for r in t.ranking()] == [1, 2, 3, 4]


def test_same_union_pairings_avoided_when_asked() -> None:
    def same_union(t: Tournament) -> int:
        assert t.swiss is not None
        union = {e.id: e.union_group for e in t.entries}
        return sum(1 for m in t.swiss.matches if m.b is not None and union[m.a] == union[m.b])

    counts = {}
    for separate in (False, True):
        t = swiss(24, groups=2, swiss_rounds=5, separate_union_groups=separate)
        while not t.finished:
            play_round(t)
        counts[separate] = same_union(t)
    assert counts[True] < counts[False]
    assert counts[True] <= 5


def test_pair_round_splits_colleagues_at_the_price_of_one_and_a_half_floats() -> None:
    """Two colleagues lead on 4 points, two others (of two other unions) have 2: splitting the
    colleagues takes two one-win floats (cost 2*4 = 8 > 6), so they meet; one point apart
    (two draws' floats: cost 2*1 < 6) they are split."""
    ranked = ["a1", "a2", "b1", "b2"]
    points = {"a1": 4, "a2": 4, "b1": 2, "b2": 2}
    union = {"a1": "A", "a2": "A", "b1": "B", "b2": "C"}
    pairs, bye = pair_round(ranked, points, {}, set(), union)
    assert bye is None and pairs == [("a1", "a2"), ("b1", "b2")]
    # with a draw between the groups (1 point apart: 2 floats cost 2*1 < 6) the colleagues are split
    points = {"a1": 3, "a2": 3, "b1": 2, "b2": 2}
    pairs, _ = pair_round(ranked, points, {}, set(), union)
    assert sorted(tuple(sorted(p)) for p in pairs) in (
        [("a1", "b1"), ("a2", "b2")],
        [("a1", "b2"), ("a2", "b1")],
    )


def test_inside_a_score_group_top_half_meets_bottom_half() -> None:
    ranked = [f"e{i}" for i in range(8)]
    pairs, bye = pair_round(ranked, dict.fromkeys(ranked, 2), {}, set())
    assert bye is None and pairs == [("e0", "e4"), ("e1", "e5"), ("e2", "e6"), ("e3", "e7")]


def stage(entries: str, *rounds: list[tuple[str, str, PairingResult]]) -> SwissStage:
    st = SwissStage(len(rounds), 2, list(entries), {})
    for r, matches in enumerate(rounds, start=1):
        st.matches += [
            SwissMatch(f"S{r}-M{i}", r, a, b, res) for i, (a, b, res) in enumerate(matches, start=1)
        ]
    return st


def win(levels: int) -> PairingResult:
    return pair_result("a", 14, 14 - levels)


def test_standings_points_then_buchholz() -> None:
    st = stage(
        "ABCDEF",
        [("A", "B", win(4)), ("C", "D", win(4)), ("E", "F", win(2))],
        [("A", "C", win(4)), ("E", "B", win(1)), ("D", "F", win(4))],
    )
    table = st.standings(SECRET)
    # A 4 (Buchholz B0 + C2 = 2), E 4 (F0 + B0 = 0), C 2 (D2 + A4 = 6), D 2 (C2 + F0 = 2),
    # B 0 (A4 + E4 = 8), F 0 (E4 + D2 = 6)
    assert [(r.entry_id, r.points, r.buchholz) for r in table.rows] == [
        ("A", 4, 2),
        ("E", 4, 0),
        ("C", 2, 6),
        ("D", 2, 2),
        ("B", 0, 8),
        ("F", 0, 6),
    ]
    assert {r.tiebreak for r in table.rows} == {"buchholz"}


def test_standings_level_difference_after_buchholz() -> None:
    st = stage("ABCD", [("A", "B", win(4)), ("C", "D", win(2))])
    table = st.standings(SECRET)
    assert [(r.entry_id, r.level_diff, r.tiebreak) for r in table.rows] == [
        ("A", 4, "level_difference"),
        ("C", 2, "level_difference"),
        ("D", -2, "level_difference"),
        ("B", -4, "level_difference"),
    ]


def test_standings_lot_when_all_else_is_level() -> None:
    st = stage("ABCD", [("A", "B", forfeit_result("both")), ("C", "D", forfeit_result("both"))])
    table = st.standings(SECRET)
    assert all(r.points == 0 and r.tiebreak == "lot" for r in table.rows)
    assert [r.lot for r in table.rows] == sorted(r.lot or 0 for r in table.rows)
    other = st.standings(bytes(32))  # another lot seed, another order (the lot decides)
    assert sorted(other.order()) == sorted(table.order())


def test_standings_head_to_head_puts_the_winner_of_the_mutual_match_first() -> None:
    """D and B end level on points, Buchholz and levels; D beat B in round 3: D is ahead."""

    def res(winner: str, levels: int) -> PairingResult:
        return pair_result(winner, 14, 14 - levels) if winner == "a" else pair_result(winner, 14 - levels, 14)

    st = stage(
        "ABCDEFGH",
        [("F", "E", res("a", 2)), ("G", "C", res("b", 1)), ("B", "H", res("b", 2)), ("D", "A", res("b", 1))],
        [("G", "E", res("a", 2)), ("A", "D", res("a", 1)), ("C", "H", res("b", 2)), ("F", "B", res("b", 2))],
        [("H", "E", res("a", 1)), ("B", "D", res("b", 1)), ("G", "F", res("a", 2)), ("A", "C", res("b", 1))],
    )
    table = st.standings(SECRET)
    d, b = table.row("D"), table.row("B")
    assert (d.points, d.buchholz, d.level_diff) == (b.points, b.buchholz, b.level_diff) == (2, 10, -1)
    assert (d.rank, b.rank) == (5, 6)
    assert d.tiebreak == b.tiebreak == "head_to_head" and (d.head_to_head, b.head_to_head) == (2, 0)


def test_withdrawal_forfeits_the_open_match_and_is_never_paired_again() -> None:
    t = swiss(9, swiss_rounds=5)
    play_round(t)
    assert t.swiss is not None
    leaver = t.swiss.round_matches(2)[0].a
    other = t.swiss.round_matches(2)[0].b
    t.withdraw(leaver)
    m = t.swiss.round_matches(2)[0]
    assert m.result is not None and m.result.winner == ("b" if m.a == leaver else "a")
    assert m.result.outcome == "forfeit" and other is not None
    played_before = t.swiss_standings().row(leaver).played
    while not t.finished:
        play_round(t)
    later = [m for m in t.swiss.matches if m.round > 2]
    assert all(leaver not in (m.a, m.b) for m in later)
    row = t.swiss_standings().row(leaver)
    assert row.withdrawn and row.played == played_before >= 1  # its matches stand
    with pytest.raises(RuleError) as err:
        t.withdraw(leaver)
    assert err.value.code == "already_withdrawn"


def test_late_entry_starts_on_zero_points_next_round_without_a_bye() -> None:
    t = swiss(8, swiss_rounds=4)
    play_round(t)
    assert t.swiss is not None
    late = Entry("late", "迟到", "G9", ("x1", "x2"))
    first = t.add_late_entry(late)
    assert first == 3  # round 2 is already paired
    assert all("late" not in (m.a, m.b) for m in t.swiss.round_matches(2))
    play_round(t)
    r3 = [m for m in t.swiss.round_matches(3) if "late" in (m.a, m.b)]
    assert len(r3) == 1
    row = t.swiss_standings().row("late")  # round 3 is paired, not played: its bye does not count yet
    assert (row.played, row.byes, row.points) == (0, 0, 0)  # the missed rounds are no byes
    with pytest.raises(RuleError) as err:
        t.add_late_entry(Entry("late2", "x", "G9", ("x1", "y")))
    assert err.value.code == "player_in_two_entries"


def test_top_four_knockout_after_the_rounds() -> None:
    t = swiss(
        12,
        swiss_rounds=3,
        swiss_top=4,
        third_place_match=True,
        prize_table="places_1_2_3",
        prize_counts=[1, 1, 1],
    )
    for _ in range(3):
        play_round(t)
    assert t.bracket is not None and not t.finished
    top = t.swiss_standings().order()[:4]
    assert [t.sides(mid) for mid in t.ready_matches()] == [(top[0], top[3]), (top[1], top[2])]
    while not t.finished:
        for mid in t.ready_matches():
            t.record(mid, win_for_higher_id(t, mid))
    ranking = t.ranking()
    assert [r.place for r in ranking] == list(range(1, 13))
    assert [r.prize for r in ranking[:4]] == ["first", "second", "third", ""]
    # places 5.. follow the Swiss standings
    rest = [r.entry_id for r in ranking[4:]]
    assert rest == [e for e in t.swiss_standings().order() if e not in top]


def test_correction_changes_standings_not_paired_rounds_and_conflicts_with_a_begun_knockout() -> None:
    t = swiss(8, swiss_rounds=2, swiss_top=2)
    play_round(t)
    assert t.swiss is not None
    r2 = pairings(t, 2)
    mid = t.swiss.round_matches(1)[0].id
    old = t.swiss.match(mid).result
    assert old is not None
    corr = t.correct(mid, pair_result("b" if old.winner == "a" else "a", 14, 3))
    assert corr.applied and pairings(t, 2) == r2
    play_round(t)
    assert t.bracket is not None
    final = t.ready_matches()[0]
    t.mark_started(final)
    finalists = set(t.sides(final))
    # find a correction that changes the top two: flip every round-2 result of a finalist
    for m in t.swiss.round_matches(2):
        if finalists & {m.a, m.b} and m.result is not None:
            flipped = pair_result("b" if m.result.winner == "a" else "a", 14, 2)
            before = t.to_dict()
            corr = t.correct(m.id, flipped)
            if not corr.applied:
                assert corr.conflicts == (final,) and t.to_dict() == before
                forced = t.correct(m.id, flipped, force=True)
                assert forced.applied and forced.voided == (final,)
                assert set(t.sides(t.ready_matches()[0])) != finalists
                return
    pytest.fail("no correction changed the finalists")


def test_disqualification_withdraws_from_the_swiss() -> None:
    t = swiss(8, swiss_rounds=3, conduct_violations_to_disqualify=1)
    assert t.swiss is not None
    m = t.swiss.round_matches(1)[0]
    t.add_conduct(ConductRecord("C1", "violation", m.a, "", m.id, "phone"))
    assert m.result is not None and m.result.outcome == "disqualified" and m.result.winner == "b"
    assert m.a in t.swiss.withdrawn


def test_state_survives_a_round_trip_mid_round() -> None:
    t = swiss(11, swiss_rounds=4, separate_union_groups=True)
    play_round(t)
    t.record(t.ready_matches()[0], pair_result("a", 14, 9))
    t.withdraw(t.ready_matches()[-1] and t.sides(t.ready_matches()[-1])[0] or "")
    back = Tournament.from_dict(json.loads(json.dumps(t.to_dict())))
    assert back.to_dict() == t.to_dict()
    assert back.ready_matches() == t.ready_matches()
    assert back.swiss_standings() == t.swiss_standings()


def test_settings_are_checked() -> None:
    for bad in (
        {"swiss_rounds": 0},
        {"swiss_bye": "maybe"},
        {"swiss_top": 3},
        {"swiss_top": 1},
        {"prize_table": "by_round_eliminated", "round_prizes": ["x"]},
    ):
        with pytest.raises(RuleError):
            TournamentSettings.from_mapping({"format": "swiss", **bad})
    t = Tournament.create(
        "t", TournamentSettings.from_mapping({"format": "swiss", "swiss_top": 16}), pairs(8)
    )
    with pytest.raises(RuleError) as err:
        t.hold_draw(SECRET)
    assert err.value.code == "swiss_top_too_big" and t.draw is None


def test_a_late_entry_of_an_odd_field_plays_its_first_round_instead_of_taking_the_bye() -> None:
    t = swiss(8, swiss_rounds=4)
    assert t.swiss is not None
    first = t.add_late_entry(Entry("late", "迟到", "G9", ("x1", "x2")))  # during round 1
    assert first == 2
    play_round(t)
    r2 = t.swiss.round_matches(2)
    bye = [m.a for m in r2 if m.bye]
    assert len(bye) == 1 and bye[0] != "late"  # lowest-ranked on 0 points, yet it plays
    assert any("late" in (m.a, m.b) for m in r2 if not m.bye)


def test_withdrawals_and_late_entries_are_refused_once_the_rounds_are_over() -> None:
    t = swiss(8, swiss_rounds=2)
    play_round(t)
    assert t.swiss is not None
    with pytest.raises(RuleError) as err:  # the last round is paired: no one can still join
        t.add_late_entry(Entry("late", "迟到", "G9", ("x1", "x2")))
    assert err.value.code == "swiss_last_round"
    play_round(t)
    assert t.finished
    state = t.to_dict()
    with pytest.raises(RuleError) as err:
        t.withdraw("p1")
    assert err.value.code == "swiss_over"
    with pytest.raises(RuleError) as err:
        t.add_late_entry(Entry("late", "迟到", "G9", ("x1", "x2")))
    assert err.value.code == "swiss_over"
    assert t.to_dict() == state  # nothing changed


def test_a_late_entry_is_refused_while_the_next_round_cannot_be_paired() -> None:
    t = swiss(4, swiss_rounds=5)
    assert t.swiss is not None
    for _ in range(3):  # four entries: three rounds meet everybody once
        play_round(t)
    assert t.swiss.stalled and not t.finished
    with pytest.raises(RuleError) as err:
        t.add_late_entry(Entry("late", "迟到", "G9", ("x1", "x2")))
    assert err.value.code == "swiss_stalled"
    assert "late" not in t.swiss.entries
