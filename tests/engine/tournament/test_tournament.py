"""The Tournament object: set-up checks, draw to ranking, storage round trips, referee actions."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import OptionError, RuleError
from engine.tournament.conduct import ConductRecord
from engine.tournament.draw import verify
from engine.tournament.entries import Entry
from engine.tournament.results import pair_result, played_table, team_result
from engine.tournament.settings import TournamentSettings
from engine.tournament.tournament import Tournament
from tests.engine.tournament.helpers import SECRET, pairs, preset_settings, teams


def test_every_preset_has_valid_tournament_settings() -> None:
    for preset in ("shengji-17-deals", "shengji-timed-2h", "shengji-50min", "guandan-team"):
        s = preset_settings(preset)
        assert TournamentSettings.from_mapping(s.to_dict()) == s
    assert preset_settings("guandan-team").tables_per_match == 3
    assert preset_settings("shengji-50min").group_quota == 2


def test_settings_errors_name_the_key() -> None:
    with pytest.raises(OptionError) as err:
        TournamentSettings.from_mapping({"format": "ladder"})
    assert err.value.field == "format"
    with pytest.raises(RuleError) as err2:
        TournamentSettings.from_mapping({"colour": "red"})
    assert err2.value.code == "unknown_option"
    with pytest.raises(OptionError):
        TournamentSettings.from_mapping({"knockout_size": 6})


def test_entry_checks_quota_team_size_and_duplicates() -> None:
    """shengji-50min: each union group enters 2 pairs; guandan-team: teams of 3 pairs."""
    with pytest.raises(RuleError) as err:
        Tournament.create("x", preset_settings("shengji-50min"), pairs(6, groups=2))
    assert err.value.code == "quota_full"
    with pytest.raises(RuleError) as err:
        Tournament.create("x", preset_settings("guandan-team"), teams(4, pairs_per_team=2))
    assert err.value.code == "wrong_team_size"
    twice = pairs(3) + [Entry("p9", "Again", "G0", ("u0a", "zz"))]
    with pytest.raises(RuleError) as err:
        Tournament.create("x", preset_settings("shengji-17-deals"), twice)
    assert err.value.code == "player_in_two_entries"
    with pytest.raises(RuleError) as err:
        Tournament.create("x", preset_settings("shengji-17-deals"), pairs(1))
    assert err.value.code == "too_few_entries"


def test_team_pairs_play_at_their_table_number() -> None:
    team = teams(1)[0]
    assert team.pair_count == 3 and team.pair_players(2) == ("t0p2", "t0p3")


def test_announce_then_draw_verifies_against_the_announcement() -> None:
    t = Tournament.create("双升", preset_settings("shengji-50min"), pairs(10, groups=5))
    ann = t.announce(SECRET)
    draw = t.hold_draw(SECRET)
    assert verify(draw.published(), ann.to_dict()).ok
    with pytest.raises(RuleError):
        t.hold_draw(SECRET)


def test_union_groups_apart_through_the_settings() -> None:
    s = dataclasses.replace(preset_settings("shengji-50min"), separate_union_groups=True)
    entries = pairs(16, groups=8)
    t = Tournament.create("双升", s, entries)
    t.hold_draw(SECRET)
    group = {e.id: e.union_group for e in entries}
    assert t.bracket is not None
    for mid in t.bracket.ready_matches():
        a, b = t.sides(mid)
        assert a is not None and b is not None and group[a] != group[b]


def test_state_survives_a_json_round_trip_mid_tournament() -> None:
    t = Tournament.create("掼蛋", preset_settings("guandan-team"), teams(12))
    t.hold_draw(SECRET)
    for mid in t.ready_matches()[:5]:
        t.record(mid, team_result([played_table("a", 14, 10, k) for k in (1, 2, 3)]))
    again = Tournament.from_dict(json.loads(json.dumps(t.to_dict(), ensure_ascii=False)))
    assert again.to_dict() == t.to_dict()
    assert again.ready_matches() == t.ready_matches()


def test_knockout_is_built_when_the_last_group_match_ends() -> None:
    t = Tournament.create("掼蛋", preset_settings("guandan-team"), teams(12))
    t.hold_draw(SECRET)
    assert t.groups is not None and len(t.groups.groups) == 4
    newly: list[str] = []
    while t.bracket is None:
        newly = t.record(t.ready_matches()[0], team_result([played_table("b", 9, 14, k) for k in (1, 2, 3)]))
    assert newly == ["R1-M1", "R1-M2", "R1-M3", "R1-M4"]


def test_group_correction_after_the_knockout_began_is_a_conflict() -> None:
    t = Tournament.create("掼蛋", preset_settings("guandan-team"), teams(12))
    t.hold_draw(SECRET)
    assert t.groups is not None
    while t.bracket is None:
        mid = t.ready_matches()[0]
        m = t.groups.match(mid)
        t.record(mid, team_result([played_table("a" if m.a < m.b else "b", 14, 10, k) for k in (1, 2, 3)]))
    t.mark_started("R1-M1")
    # overturn every match of group A: the last-placed team of A now tops it
    worst = t.groups.standings("A", t.lot_seed).order()[-1]
    group_a = [m for m in t.groups.matches if m.group == "A" and worst in (m.a, m.b)]
    for m in group_a:
        side = "a" if m.a == worst else "b"
        fix = t.correct(m.id, team_result([played_table(side, 14, 2, k) for k in (1, 2, 3)]))
        if not fix.applied:
            break
    assert not fix.applied and fix.conflicts == ("R1-M1",)
    forced = t.correct(
        group_a[-1].id,
        team_result([played_table("a" if group_a[-1].a == worst else "b", 14, 2, k) for k in (1, 2, 3)]),
        force=True,
    )
    assert forced.applied and forced.voided == ("R1-M1",)
    assert t.bracket is not None and worst in t.bracket.entries()


def test_second_violation_ends_the_match_and_the_opponent_advances() -> None:
    """17-deals notice 十一: 违例两次取消比赛资格，判对方胜."""
    t = Tournament.create("17", preset_settings("shengji-17-deals"), pairs(4))
    t.hold_draw(SECRET)
    assert t.bracket is not None
    mid = t.ready_matches()[0]
    a, b = t.sides(mid)
    assert a is not None and b is not None
    t.add_conduct(ConductRecord("v1", "violation", a, "x", mid, "table talk"))
    assert t.bracket.match(mid).result is None
    out = t.add_conduct(ConductRecord("v2", "violation", a, "x", mid, "table talk"))
    assert out.newly_disqualified
    res = t.bracket.match(mid).result
    assert res is not None and res.winner == "b" and res.outcome == "disqualified"
    other = t.ready_matches()[0]
    t.record(other, pair_result("a", 14, 11))
    while t.ready_matches():
        t.record(t.ready_matches()[0], pair_result("a", 14, 11))
    rows = {r.entry_id: r for r in t.ranking()}
    assert rows[a].note == "disqualified" and rows[a].eliminated_round == 1


def test_reopening_a_group_match_before_the_knockout() -> None:
    t = Tournament.create("掼蛋", preset_settings("guandan-team"), teams(12))
    t.hold_draw(SECRET)
    mid = t.ready_matches()[0]
    t.record(mid, team_result([played_table("a", 14, 10, k) for k in (1, 2, 3)]))
    assert mid not in t.ready_matches()
    assert t.reopen(mid).applied and mid in t.ready_matches()


@settings(max_examples=25, deadline=None)
@given(count=st.integers(min_value=2, max_value=20), data=st.data())
def test_property_team_event_always_ends_with_first_second_third(count: int, data: st.DataObject) -> None:
    """guandan-team with random table results (no double forfeits): one first, one second, one third prize."""
    t = Tournament.create("掼蛋", preset_settings("guandan-team"), teams(count))
    t.hold_draw(SECRET)
    steps = 0
    while t.ready_matches():
        mid = data.draw(st.sampled_from(t.ready_matches()))
        tables = [
            played_table(
                data.draw(st.sampled_from("ab")),
                data.draw(st.integers(2, 14)),
                data.draw(st.integers(2, 14)),
                k,
            )
            for k in (1, 2, 3)
        ]
        t.record(mid, team_result(tables))
        steps += 1
        assert steps < 300
    assert t.finished
    prizes = [r.prize for r in t.ranking()]
    assert len(prizes) == count
    expected = ["first", "second", "third"][: min(count, 3) if count != 2 else 2]
    assert prizes[: len(expected)] == expected
    assert prizes.count("first") == 1 and all(p == "souvenir" for p in prizes[len(expected) :])
