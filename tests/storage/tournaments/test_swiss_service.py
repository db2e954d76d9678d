"""A Swiss tournament through the tournament service on a real database (issue 20): the TOML file's
``format = "swiss"``, the verifiable draw, round 1's rows, the next round's rows created only when the
last result of a round (a referee's forfeit included) is in, scheduled after the round, a withdrawal
between rounds, and the organiser ending the rounds into the top-4 knockout."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.errors import RuleError
from engine.tournament import pair_result, verify
from storage import tournaments as ts
from storage.db import Database

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
ORG = 1001

TOML = """
name = "教工双升积分编排"
preset = "shengji-timed-2h"
registration_deadline = "2026-12-01 18:00"
first_round = "2026-12-03 09:00"
[tournament]
format = "swiss"
swiss_rounds = 4
swiss_top = 4
third_place_match = true
separate_union_groups = true
[[union_groups]]
name = "机关"
quota = 4
[[union_groups]]
name = "理学院"
quota = 4
[[union_groups]]
name = "医学院"
quota = 4
"""


async def pair(db: Database, tid: int, a: int, b: int, group: str) -> int:
    inv = await ts.create_invite(db, tid, a, group, NOW)
    return (await ts.accept_invite(db, inv.token, b, NOW)).id


async def test_a_swiss_through_the_service(db: Database) -> None:
    spec = ts.spec_from_toml(TOML)
    row = await ts.create_tournament(db, created_by=ORG, **spec)
    assert row.settings_json["format"] == "swiss" and row.settings_json["swiss_rounds"] == 4
    tid = row.id
    for i in range(5):
        await ts.add_table_group(db, tid, ORG, -500 - i, f"桌{i + 1}")
    groups = ["机关", "理学院", "医学院"]
    ids = [await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, groups[i % 3]) for i in range(9)]
    ann = await ts.freeze(db, tid, bytes(range(32)))
    eng, new = await ts.hold_draw(db, tid)
    assert verify(ts.published_draw(await ts.get_tournament(db, tid)), ann).ok
    assert eng.swiss is not None
    assert sorted(m.match_key for m in new) == [f"S1-M{i}" for i in range(1, 5)]  # 9 pairs: 4 matches + a bye
    rows = await ts.schedule_ready(db, tid, NOW)
    assert len(rows) == 4 and all(r.start_at == NOW + timedelta(days=2) for r in rows)
    first = [r.match_key for r in rows]

    # a withdrawal with a match to finish is refused; nothing changes
    entry_in_r1 = int(rows[0].side_a or 0)
    with pytest.raises(RuleError) as exc:
        await ts.swiss_withdraw(db, tid, entry_in_r1, ORG)
    assert exc.value.code == "swiss_match_open"

    for key in first[:-1]:
        rec = await ts.record_result(db, tid, key, pair_result("a", 14, 9), None)
        assert rec.new_matches == [] and not rec.finished
    rec = await ts.record_result(db, tid, first[-1], ts.forfeit("b", 1), 1001)
    assert sorted(m.match_key for m in rec.new_matches) == [f"S2-M{i}" for i in range(1, 5)]
    later = await ts.schedule_ready(db, tid, NOW + timedelta(days=2, hours=2))
    assert {m.match_key for m in later} == {m.match_key for m in rec.new_matches}
    r1_pairs = {frozenset((m.side_a, m.side_b)) for m in rows}
    assert all(frozenset((m.side_a, m.side_b)) not in r1_pairs for m in later)

    # during round 2: an entry whose round-2 match is over withdraws; it is not paired in round 3
    m2 = later[0]
    await ts.record_result(db, tid, m2.match_key, pair_result("b", 9, 14), None)
    leaver = int(m2.side_a or 0)
    gone = await ts.swiss_withdraw(db, tid, leaver, ORG)
    assert gone.status == "withdrawn"
    for m in later[1:]:
        rec = await ts.record_result(db, tid, m.match_key, pair_result("a", 14, 9), None)
    r3 = rec.new_matches
    assert r3 and all(str(leaver) not in (m.side_a, m.side_b) for m in r3)
    assert sum(1 for m in r3 for _ in (m.side_a, m.side_b)) == 8  # 8 active entries: 4 matches, no bye

    # the organiser ends the Swiss after round 3 (while it is played): no round 4, the top 4's semi-finals
    with pytest.raises(RuleError) as exc:
        await ts.end_swiss(db, tid, 1003)
    assert exc.value.code == "not_allowed"
    ended = await ts.end_swiss(db, tid, ORG)
    assert ended.new_matches == [] and not ended.finished
    for m in r3:
        rec = await ts.record_result(db, tid, m.match_key, pair_result("a", 14, 9), None)
    assert sorted(m.match_key for m in rec.new_matches) == ["R1-M1", "R1-M2"]
    eng = await ts.engine_state(db, tid)
    assert eng.swiss is not None and eng.swiss.current_round == 3
    top = eng.swiss_standings().order()[:4]
    assert str(leaver) not in top
    assert [eng.sides(k) for k in ("R1-M1", "R1-M2")] == [(top[0], top[3]), (top[1], top[2])]
    del ids
