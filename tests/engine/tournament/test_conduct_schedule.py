"""Conduct (17-deals: 违例两次取消比赛资格，判对方胜; penalties reversible, decision D9) and schedule helpers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.errors import RuleError
from engine.tournament.conduct import ConductLog, ConductRecord
from engine.tournament.schedule import Slot, Timer, assign_tables, match_timers, reminder_times

T0 = datetime(2026, 6, 18, 6, 0, tzinfo=UTC)


def violation(rid: str, entry: str = "p1", match: str = "R1-M1") -> ConductRecord:
    return ConductRecord(rid, "violation", entry, "u1a", match, "table talk")


def test_second_violation_disqualifies_the_pair() -> None:
    log = ConductLog(limit=2)
    first = log.add(violation("v1"))
    assert not first.disqualified and first.match_result("a") is None
    second = log.add(violation("v2"))
    assert second.disqualified and second.newly_disqualified
    res = second.match_result("a")
    assert res is not None and res.winner == "b" and res.outcome == "disqualified"


def test_reversing_a_violation_reinstates() -> None:
    log = ConductLog(limit=2)
    log.add(violation("v1"))
    log.add(violation("v2"))
    out = log.reverse("v2", "chief", "misheard")
    assert out.reinstated and not out.disqualified and out.active_violations == 1
    with pytest.raises(RuleError) as err:
        log.reverse("v2", "chief", "again")
    assert err.value.code == "already_reversed"
    assert ConductLog.from_dict(log.to_dict()) == log


def test_no_limit_never_disqualifies_and_level_penalties_are_kept() -> None:
    log = ConductLog(limit=0)
    for i in range(5):
        assert not log.add(violation(f"v{i}")).disqualified
    log.add(ConductRecord("l1", "level_penalty", "t1", "x", "A-R1-M1", "signals", levels=1))
    log.add(ConductRecord("l2", "level_penalty", "t1", "x", "A-R1-M1", "signals", levels=2))
    log.reverse("l1", "union", "appeal")
    assert log.level_penalties("A-R1-M1") == {"t1": 2}
    with pytest.raises(RuleError):
        log.add(ConductRecord("w", "shouting", "t1", "x", "m"))


def test_assign_tables_in_waves_when_the_pool_is_short() -> None:
    slots = assign_tables(["m1", "m2", "m3"], T0, ["g1", "g2"], slot_minutes=60)
    assert slots == [
        Slot("m1", ("g1",), T0),
        Slot("m2", ("g2",), T0),
        Slot("m3", ("g1",), T0 + timedelta(minutes=60)),
    ]
    assert Slot.from_dict(slots[2].to_dict()) == slots[2]


def test_team_matches_take_three_tables_each() -> None:
    slots = assign_tables(
        ["m1", "m2"], T0, [f"g{i}" for i in range(1, 6)], tables_per_match=3, slot_minutes=70
    )
    assert slots[0] == Slot("m1", ("g1", "g2", "g3"), T0)
    assert slots[1].start == T0 + timedelta(minutes=70) and len(slots[1].tables) == 3
    with pytest.raises(RuleError) as err:
        assign_tables(["m"], T0, ["g1"], tables_per_match=3)
    assert err.value.code == "not_enough_tables"


def test_busy_tables_are_used_when_free() -> None:
    slots = assign_tables(
        ["m1"], T0, ["g1", "g2"], busy={"g1": T0 + timedelta(minutes=30), "g2": T0 + timedelta(minutes=45)}
    )
    assert slots == [Slot("m1", ("g1",), T0 + timedelta(minutes=30))]


def test_reminders_a_day_and_15_minutes_before_skipping_past_ones() -> None:
    """Issue 5: a private reminder a day before and 15 minutes before (configurable)."""
    assert [t.at for t in reminder_times("m", T0)] == [T0 - timedelta(days=1), T0 - timedelta(minutes=15)]
    late = reminder_times("m", T0, now=T0 - timedelta(hours=2))
    assert [t.minutes_before for t in late] == [15]
    timers = match_timers("m", T0, 10, 30, (60,))
    assert [t.kind for t in timers] == ["reminder", "checkin_open", "lateness_deadline"]
    assert timers[-1].at == T0 + timedelta(minutes=10)
    assert Timer.from_dict(timers[0].to_dict()) == timers[0]
