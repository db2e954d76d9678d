"""Late entries and withdrawals between Swiss rounds through the tournament service (issue 20): a late pair
joins on 0 points from the next round; a player withdraws their own pair once its match has a result and it
is not paired again; each refusal (a stranger, a match without a result, after the last round) is one
RuleError and changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.errors import RuleError
from engine.tournament import pair_result
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
swiss_rounds = 3
"""


async def swiss_of_eight(db: Database) -> tuple[int, list[int]]:
    row = await ts.create_tournament(db, created_by=ORG, **ts.spec_from_toml(TOML))
    for i in range(5):
        await ts.add_table_group(db, row.id, ORG, -500 - i, f"桌{i + 1}")
    ids = []
    for i in range(8):
        inv = await ts.create_invite(db, row.id, 1001 + 2 * i, "", NOW)
        ids.append((await ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW)).id)
    await ts.freeze(db, row.id, bytes(range(32)))
    await ts.hold_draw(db, row.id)
    await ts.schedule_ready(db, row.id, NOW)
    return row.id, ids


async def play_round(db: Database, tid: int) -> list[str]:
    eng = await ts.engine_state(db, tid)
    new: list[str] = []
    for key in eng.ready_matches():
        rec = await ts.record_result(db, tid, key, pair_result("a", 14, 9), None)
        new += [m.match_key for m in rec.new_matches]
    await ts.schedule_ready(db, tid, NOW + timedelta(days=2))
    return new


async def test_a_late_pair_joins_on_zero_points_from_the_next_round(db: Database) -> None:
    tid, _ = await swiss_of_eight(db)
    with pytest.raises(RuleError) as exc:  # only an organiser adds a late entry
        await ts.swiss_late_entry(db, tid, 1003, [1017, 1018], "")
    assert exc.value.code == "not_allowed"
    late = await ts.swiss_late_entry(db, tid, ORG, [1017, 1018], "", NOW)
    assert late.first_round == 2 and late.entry.status == "active"
    eng = await ts.engine_state(db, tid)
    assert eng.swiss is not None and str(late.entry.id) in eng.swiss.entries
    assert all(str(late.entry.id) not in (m.a, m.b) for m in eng.swiss.round_matches(1))
    with pytest.raises(RuleError) as exc:  # a player already in a pair
        await ts.swiss_late_entry(db, tid, ORG, [1001, 1019], "")
    assert exc.value.code == "partner_already_paired"
    r2 = await play_round(db, tid)
    eng = await ts.engine_state(db, tid)
    assert eng.swiss is not None
    mine = [k for k in r2 if str(late.entry.id) in eng.sides(k)]
    assert len(mine) == 1 and len(r2) == 4  # 9 entries: four matches and a bye (not to the late pair)
    row = eng.swiss_standings().row(str(late.entry.id))
    assert (row.played, row.points, row.byes) == (0, 0, 0)
    await play_round(db, tid)  # round 3, the last, is paired now
    with pytest.raises(RuleError) as exc:
        await ts.swiss_late_entry(db, tid, ORG, [1019, 1020], "")
    assert exc.value.code == "swiss_last_round"
    assert len((await ts.engine_state(db, tid)).entries) == 9  # nothing added


async def test_a_player_withdraws_their_pair_once_its_match_is_over_and_is_not_paired_again(
    db: Database,
) -> None:
    tid, _ = await swiss_of_eight(db)
    eng = await ts.engine_state(db, tid)
    key = eng.ready_matches()[0]
    a, b = eng.sides(key)
    assert a is not None and b is not None
    entry_a = next(e for e in await ts.entries(db, tid) if str(e.id) == a)
    player = int(entry_a.players_json[1])
    with pytest.raises(RuleError) as exc:  # its round-1 match has no result yet
        await ts.swiss_withdraw(db, tid, entry_a.id, player)
    assert exc.value.code == "swiss_match_open" and key in str(exc.value.params)
    with pytest.raises(RuleError) as exc:  # not one of the pair's players, not an organiser
        await ts.swiss_withdraw(db, tid, entry_a.id, 1024)
    assert exc.value.code == "not_allowed"
    eng = await ts.engine_state(db, tid)
    assert eng.swiss is not None and eng.swiss.withdrawn == []  # nothing changed
    await ts.record_result(db, tid, key, pair_result("b", 9, 14), None)
    gone = await ts.swiss_withdraw(db, tid, entry_a.id, player)  # between its rounds: by a player
    assert gone.status == "withdrawn"
    with pytest.raises(RuleError) as exc:
        await ts.swiss_withdraw(db, tid, entry_a.id, ORG)
    assert exc.value.code == "already_withdrawn"
    for _ in range(3):
        new = await play_round(db, tid)
        eng = await ts.engine_state(db, tid)
        assert all(a not in eng.sides(k) for k in new)  # never paired again
    assert eng.finished
    st = eng.swiss_standings().row(a)
    assert st.withdrawn and st.played == 1 and st.lost == 1  # its played match stands
    other = next(e for e in await ts.entries(db, tid) if str(e.id) == b)
    with pytest.raises(RuleError) as exc:  # after the last round
        await ts.swiss_withdraw(db, tid, other.id, ORG)
    assert exc.value.code == "swiss_over"
    with pytest.raises(RuleError) as exc:
        await ts.swiss_late_entry(db, tid, ORG, [1017, 1018], "")
    assert exc.value.code == "swiss_over"
