"""Lateness (docs/rules.md section 3 "late": 15 min -> forfeit; 10 min -> loss/forfeit) and check-in."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.errors import RuleError
from engine.tournament.lateness import LatenessDecision, checkin_window, decide, undo
from engine.tournament.results import played_table, team_result

START = datetime(2026, 4, 21, 5, 30, tzinfo=UTC)  # 13:30 Asia/Shanghai


def at(minutes: float) -> datetime:
    return START + timedelta(minutes=minutes)


PAIR = [(("a1", "a2"), ("b1", "b2"))]


def test_checkin_opens_30_minutes_before_and_closes_at_the_deadline() -> None:
    window = checkin_window(START, 15)
    assert window.opens == at(-30) and window.deadline == at(15)
    assert not window.is_open(at(-31)) and window.is_open(at(-30)) and window.is_open(at(15))
    assert not window.is_open(at(15.01))


def test_everyone_present_plays() -> None:
    d = decide("R1-M1", START, 15, PAIR, {p: at(-5) for p in ("a1", "a2", "b1", "b2")})
    assert d.action == "play" and d.result() is None


def test_side_incomplete_at_the_deadline_forfeits() -> None:
    """17-deals / timed-2h: 迟到15分钟以弃权论; a pair missing one player is not complete."""
    d = decide("R1-M1", START, 15, PAIR, {"a1": at(0), "a2": at(14), "b1": at(1), "b2": at(16)})
    assert d.action == "forfeit" and d.tables[0].absent_b == ("b2",)
    res = d.result()
    assert res is not None and res.winner == "a" and res.outcome == "forfeit"


def test_arriving_exactly_at_the_limit_counts_as_present() -> None:
    d = decide("R1-M1", START, 10, PAIR, {"a1": at(0), "a2": at(10), "b1": at(0), "b2": at(0)})
    assert d.action == "play"


def test_both_absent_is_a_double_forfeit() -> None:
    d = decide("R1-M1", START, 10, PAIR, {"a1": at(0)})
    assert d.action == "double_forfeit"
    res = d.result()
    assert res is not None and res.double_forfeit and res.winner is None


def test_team_match_decides_each_table() -> None:
    """guandan-team: 遲到十分鍾以上者判負 — a late pair loses its table; the other tables are played."""
    tables = [(("a1", "a2"), ("b1", "b2")), (("a3", "a4"), ("b3", "b4")), (("a5", "a6"), ("b5", "b6"))]
    here = {p: at(0) for t in tables for side in t for p in side}
    del here["a3"]
    d = decide("R1-M1", START, 10, tables, here)
    assert d.action == "partial" and d.result() is None
    lost = d.forfeited_tables()
    assert [(t.table, t.winner) for t in lost] == [(2, "b")]
    final = team_result([played_table("a", 14, 9, 1), *lost, played_table("b", 7, 14, 3)])
    assert final.winner == "b"


def test_referee_undo_turns_the_forfeit_into_play_and_is_recorded() -> None:
    d = decide("R1-M1", START, 15, PAIR, {"a1": at(0), "a2": at(0)})
    u = undo(d, "referee-7", "traffic jam, phoned the referee")
    assert u.action == "undone" and u.result() is None and u.forfeited_tables() == []
    assert u.undone_by == "referee-7"
    assert LatenessDecision.from_dict(u.to_dict()) == u
    with pytest.raises(RuleError) as err:
        undo(u, "referee-7", "again")
    assert err.value.code == "already_undone"
    with pytest.raises(RuleError):
        undo(decide("R1-M1", START, 15, PAIR, {p: at(0) for p in ("a1", "a2", "b1", "b2")}), "r", "x")
