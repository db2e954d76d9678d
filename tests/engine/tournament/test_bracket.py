"""Single elimination (docs/rules.md section 3; issue 5 "Formats"): byes, 3rd place, forfeits, corrections."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import RuleError
from engine.tournament.bracket import Bracket, prize_boundaries
from engine.tournament.draw import DrawOptions, bracket_size, bracket_slots, make_draw
from engine.tournament.results import PairingResult, forfeit_result, pair_result, referee_result
from tests.engine.tournament.helpers import SECRET, pairs


def bracket_for(count: int, third_place: bool = False, boundaries: tuple[int, ...] = ()) -> Bracket:
    return Bracket.build(bracket_slots([f"e{i}" for i in range(1, count + 1)]), boundaries, third_place)


def play_all(br: Bracket, winner: str = "a") -> None:
    while br.ready_matches():
        br.record(br.ready_matches()[0], pair_result(winner, 14, 9))


@pytest.mark.parametrize("count", range(2, 34))
def test_byes_every_entry_plays_or_gets_a_bye(count: int) -> None:
    """Any number of entries: bracket of the next power of two; byes face the first ranks, never each other."""
    entries = pairs(count)
    draw = make_draw("t", entries, DrawOptions(), SECRET)
    size = bracket_size(count)
    assert len(draw.bracket) == size and size // 2 < count <= size or count == 2
    firsts = draw.first_round()
    assert sorted(x for m in firsts for x in m if x) == sorted(e.id for e in entries)
    assert all(a is not None or b is not None for a, b in firsts)  # no bye meets a bye
    br = Bracket.build(list(draw.bracket))
    byes = [m.id for m in br.matches if m.round == 1 and br.status(m.id) == "walkover"]
    assert len(byes) == size - count
    assert br.rounds == size.bit_length() - 1
    play_all(br)
    assert br.finished and br.champion() is not None


def test_byes_go_to_the_top_seeds() -> None:
    br = Bracket.build(bracket_slots([f"s{i}" for i in range(1, 6)]))  # 5 entries, 3 byes
    walkovers = {
        br.entries_of(m.id)[0] or br.entries_of(m.id)[1]
        for m in br.matches
        if m.round == 1 and br.status(m.id) == "walkover"
    }
    assert walkovers == {"s1", "s2", "s3"}


def test_next_match_is_known_as_soon_as_both_entries_are() -> None:
    br = bracket_for(8)
    assert br.ready_matches() == ["R1-M1", "R1-M2", "R1-M3", "R1-M4"]
    assert br.record("R1-M1", pair_result("a", 14, 5)) == []
    assert br.status("R2-M1") == "waiting"
    assert br.record("R1-M2", pair_result("b", 10, 14)) == ["R2-M1"]
    assert br.entries_of("R2-M1") == ("e1", "e5")


def test_who_meets_whom_in_round_two() -> None:
    """The engine answers "who meets whom in round 2" (rules in engine/ only)."""
    br = bracket_for(8)
    br.record("R1-M1", pair_result("a"))
    pairings = br.pairings(2)
    assert pairings[0] == ("R2-M1", {"e1"}, {"e4", "e5"})
    assert pairings[1] == ("R2-M2", {"e2", "e7"}, {"e3", "e6"})
    assert br.next_match_if_won("R1-M3") == "R2-M2"


def test_bye_entry_is_in_round_two_without_playing() -> None:
    br = bracket_for(3)  # e1 has a bye
    assert br.status("R1-M1") == "walkover"
    assert br.entries_of("R2-M1") == ("e1", None)
    br.record("R1-M2", pair_result("b"))
    assert br.entries_of("R2-M1") == ("e1", "e3")


def test_third_place_match_between_semi_final_losers() -> None:
    br = bracket_for(8, third_place=True)
    play_all(br, "a")
    third = br.match("P3-4-M1")
    assert br.third_place_id == "P3-4-M1"
    assert br.entries_of(third.id) == ("e4", "e3")
    assert br.places() == {"e1": 1, "e2": 2, "e4": 3, "e3": 4, "e8": 5, "e5": 5, "e7": 5, "e6": 5}


def test_without_third_place_match_semi_final_losers_share_third() -> None:
    br = bracket_for(4)
    play_all(br, "b")
    assert sorted(br.places().values()) == [1, 2, 3, 3]


def test_double_forfeit_neither_advances_and_next_opponent_walks_over() -> None:
    """Issue 5: both absent -> both forfeit; the bracket handles a double forfeit."""
    br = bracket_for(8)
    br.record("R1-M1", forfeit_result("both"))
    br.record("R1-M2", pair_result("a"))
    assert br.status("R2-M1") == "walkover"
    assert br.entries_of("R2-M1") == (None, "e4")
    assert "R2-M1" not in br.ready_matches()
    elim = br.eliminations()
    assert elim["e1"] == (1, "R1-M1") and elim["e8"] == (1, "R1-M1")
    play_all(br)
    assert br.finished
    assert br.places()["e1"] == br.places()["e8"] == 8  # last place of their tier


def test_double_forfeit_on_both_sides_of_a_round_two_match_voids_it() -> None:
    br = bracket_for(8)
    br.record("R1-M1", forfeit_result("both"))
    br.record("R1-M2", forfeit_result("both"))
    assert br.status("R2-M1") == "void"
    play_all(br)
    assert br.finished
    assert br.entries_of("R3-M1")[0] is None
    assert br.champion() is not None


def test_double_forfeit_in_the_final_leaves_no_champion() -> None:
    br = bracket_for(4)
    br.record("R1-M1", pair_result("a"))
    br.record("R1-M2", pair_result("a"))
    br.record("R2-M1", forfeit_result("both"))
    assert br.finished and br.champion() is None
    assert br.places() == {"e1": 2, "e2": 2, "e4": 3, "e3": 3}


def test_single_forfeit_awards_the_match() -> None:
    br = bracket_for(4)
    br.record("R1-M1", forfeit_result("a"))
    assert br.entries_of("R2-M1")[0] == "e4"


def test_knockout_refuses_a_draw() -> None:
    br = bracket_for(4)
    with pytest.raises(RuleError) as err:
        br.record("R1-M1", referee_result(None))
    assert err.value.code == "knockout_needs_winner"


def test_result_only_for_a_ready_match() -> None:
    br = bracket_for(4)
    with pytest.raises(RuleError) as err:
        br.record("R2-M1", pair_result("a"))
    assert err.value.code == "match_not_ready"
    br.record("R1-M1", pair_result("a"))
    with pytest.raises(RuleError) as err:
        br.record("R1-M1", pair_result("b"))
    assert err.value.code == "result_already_recorded"


def test_referee_correction_changes_who_advances_before_the_next_match_starts() -> None:
    """Issue 5 referee tools: a corrected result changes who advances when the next match has not started."""
    br = bracket_for(4)
    br.record("R1-M1", pair_result("a", 14, 12))
    br.record("R1-M2", pair_result("a", 14, 3))
    assert br.entries_of("R2-M1") == ("e1", "e2")
    fix = br.correct("R1-M1", pair_result("b", 12, 14, note="miscounted"))
    assert fix.applied and fix.advancers_changed and not fix.conflicts
    assert br.entries_of("R2-M1") == ("e4", "e2")


def test_correction_conflicts_when_the_next_match_has_started() -> None:
    br = bracket_for(4)
    br.record("R1-M1", pair_result("a"))
    br.record("R1-M2", pair_result("a"))
    br.mark_started("R2-M1")
    fix = br.correct("R1-M1", pair_result("b"))
    assert not fix.applied and fix.conflicts == ("R2-M1",)
    assert br.entries_of("R2-M1") == ("e1", "e2")  # unchanged
    forced = br.correct("R1-M1", pair_result("b"), force=True)
    assert forced.applied and forced.voided == ("R2-M1",)
    assert br.entries_of("R2-M1") == ("e4", "e2")
    assert not br.match("R2-M1").started and br.status("R2-M1") == "ready"


def test_correction_keeping_the_winner_only_replaces_the_score() -> None:
    br = bracket_for(4)
    br.record("R1-M1", pair_result("a", 14, 12))
    br.record("R1-M2", pair_result("a"))
    br.record("R2-M1", pair_result("a"))
    fix = br.correct("R1-M1", pair_result("a", 14, 10))
    assert fix.applied and not fix.advancers_changed
    assert br.match("R1-M1").result == pair_result("a", 14, 10)


def test_placement_matches_split_the_quarter_final_losers_for_a_prize_boundary() -> None:
    """shengji-timed-2h: 1 first, 2 second, 3 third -> boundaries 1, 3, 6: a 3rd-place match and 5-8 matches."""
    assert prize_boundaries([1, 2, 3]) == {1, 3, 6}
    br = bracket_for(8, third_place=True, boundaries=(1, 3, 6))
    ids = [m.id for m in br.matches if m.stage == "placement"]
    assert ids == ["P5-8-M1", "P5-8-M2", "P3-4-M1"]
    play_all(br, "a")
    places = br.places()
    assert sorted(places.values()) == [1, 2, 3, 4, 5, 5, 7, 7]
    assert places["e8"] == 5 and places["e5"] == 7


def test_bracket_round_trips_through_json_mid_tournament() -> None:
    br = bracket_for(6, third_place=True)
    br.record(br.ready_matches()[0], pair_result("b", 3, 14))
    br.mark_started(br.ready_matches()[0])
    again = Bracket.from_dict(json.loads(json.dumps(br.to_dict())))
    assert again.to_dict() == br.to_dict()
    assert again.ready_matches() == br.ready_matches()


def test_bracket_needs_a_power_of_two() -> None:
    with pytest.raises(RuleError) as err:
        Bracket.build(["a", "b", "c"])
    assert err.value.code == "bad_bracket_size"


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=2, max_value=40), third=st.booleans(), data=st.data())
def test_property_single_elimination_completes_with_one_champion(
    count: int, third: bool, data: st.DataObject
) -> None:
    """Random entry counts and random results (including forfeits): the bracket always completes;
    without double forfeits there is exactly one champion and every other entry is eliminated once."""
    br = bracket_for(count, third_place=third)
    allow_double = data.draw(st.booleans())
    recorded = 0
    while br.ready_matches():
        mid = data.draw(st.sampled_from(br.ready_matches()))
        kinds = ["a", "b", "forfeit_a", "forfeit_b"] + (["both"] if allow_double else [])
        kind = data.draw(st.sampled_from(kinds))
        result: PairingResult
        if kind in ("a", "b"):
            result = pair_result(kind, 14, 10)
        elif kind == "both":
            result = forfeit_result("both")
        else:
            result = forfeit_result(kind[-1])
        br.record(mid, result)
        recorded += 1
        assert recorded <= 2 * count
    assert br.finished
    entries = {f"e{i}" for i in range(1, count + 1)}
    elim = br.eliminations()
    places = br.places()
    champion = br.champion()
    double = any(m.result is not None and m.result.double_forfeit for m in br.matches)
    losses = dict.fromkeys(entries, 0)
    for m in br.matches:
        if m.stage == "main" and m.result is not None:
            a, b = br.entries_of(m.id)
            for side, entry in (("a", a), ("b", b)):
                if entry is not None and m.result.winner != side:
                    losses[entry] += 1
    assert all(n <= 1 for n in losses.values())  # nobody is knocked out twice
    if not double:
        assert [e for e, n in losses.items() if n == 0] == [champion]
        assert champion is not None
        assert set(elim) == entries - {champion}
        assert places[champion] == 1 and list(places.values()).count(1) == 1
    else:
        assert champion is None or champion not in elim
        assert set(elim) | ({champion} if champion else set()) == entries
    assert set(places) == entries  # every entry ends with a place


def test_undone_lateness_forfeit_reopens_the_match() -> None:
    """Issue 5: the referee can undo a lateness forfeit; the match is then played."""
    br = bracket_for(4)
    br.record("R1-M1", forfeit_result("b"))
    br.record("R1-M2", pair_result("a"))
    fix = br.reopen("R1-M1")
    assert fix.applied and br.status("R1-M1") == "ready" and br.status("R2-M1") == "waiting"
    br.record("R1-M1", pair_result("b", 9, 14))
    assert br.entries_of("R2-M1") == ("e4", "e2")
    br.mark_started("R2-M1")
    blocked = br.reopen("R1-M1")
    assert not blocked.applied and blocked.conflicts == ("R2-M1",)


def test_view_names_rounds_and_shows_candidates() -> None:
    br = bracket_for(5, third_place=True)
    view = {v["id"]: v for v in br.view()}
    assert view["R3-M1"]["round_name"] == "final" and view["R2-M1"]["round_name"] == "semifinal"
    assert view["R1-M1"]["round_name"] == "quarterfinal" and view["R1-M1"]["status"] == "walkover"
    assert view["R1-M1"]["winner"] == "e1"
    assert view["P3-4-M1"]["a_from"] == "loser of R2-M1"
    assert view["R2-M1"]["status"] == "waiting"
