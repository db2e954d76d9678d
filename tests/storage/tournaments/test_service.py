"""Tournament service on a real database: set-up, roles and audit, registration errors, draw, schedule,
check-in and lateness, results and corrections, conduct (docs/rules.md section 3, issue 5)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from engine.errors import RuleError
from engine.tournament import pair_result, verify
from storage import tournaments as ts
from storage.db import Database

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
ORG = 1001


async def make(db: Database, preset: str = "shengji-50min", **kw: object) -> int:
    args: dict = {
        "name": "教工双升",
        "preset_id": preset,
        "created_by": ORG,
        "union_groups": [
            {"name": "机关", "quota": 2},
            {"name": "理学院", "quota": 2},
            {"name": "医学院", "quota": 2},
        ],
        "registration_deadline": NOW + timedelta(days=1),
        "first_round_at": NOW + timedelta(days=2),
    }
    args.update(kw)
    row = await ts.create_tournament(db, **args)  # type: ignore[arg-type]
    for i in range(3):
        await ts.add_table_group(db, row.id, ORG, -500 - i, f"桌{i + 1}")
    return row.id


async def pair(db: Database, tid: int, a: int, b: int, group: str) -> int:
    inv = await ts.create_invite(db, tid, a, group, NOW)
    return (await ts.accept_invite(db, inv.token, b, NOW)).id


def code(exc: pytest.ExceptionInfo[RuleError]) -> str:
    return exc.value.code


async def test_toml_spec_validates_with_clear_errors_and_round_trips(db: Database) -> None:
    text = """
name = "2026 教工双升"
preset = "shengji-timed-2h"
registration_deadline = "2026-12-01 18:00"
first_round = 2026-12-03T09:00:00
[rules]
time_limit_minutes = 90
[tournament]
late_forfeit_minutes = 10
[[union_groups]]
name = "机关"
quota = 3
"""
    spec = ts.spec_from_toml(text)
    assert spec["registration_deadline"] == datetime(2026, 12, 1, 10, 0, tzinfo=UTC)  # Asia/Shanghai = UTC+8
    assert spec["first_round_at"] == datetime(2026, 12, 3, 1, 0, tzinfo=UTC)
    row = await ts.create_tournament(db, created_by=ORG, **spec)
    assert row.settings_json["late_forfeit_minutes"] == 10
    again = ts.spec_from_toml(ts.spec_to_toml(row))
    assert again["rule_overrides"] == {"time_limit_minutes": 90}
    assert again["union_groups"] == [{"name": "机关", "quota": 3}]
    for bad, want in (
        ('name = "x"\npreset = "nope"', "unknown_preset"),
        ('name = "x"\npreset = "guandan-team"\ncolour = 1', "unknown_spec_key"),
        ('preset = "guandan-team"', "missing_spec_key"),
        ('name = "x"\npreset = "guandan-team"\n[tournament]\nlate_forfeit_minutes = "ten"', "bad_option"),
        ('name = "x"\npreset = "guandan-team"\n[rules]\nno_such_rule = 1', None),
        ('name = "x"\npreset = "guandan-team"\ndraw_at = "tomorrow"', "bad_time"),
        ("name = ", "bad_toml"),
        (
            'name = "x"\npreset = "guandan-team"\ndraw_at = "2026-12-01 10:00"\n'
            'registration_deadline = "2026-12-02 10:00"',
            "times_out_of_order",
        ),
    ):
        with pytest.raises(RuleError) as exc:
            ts.spec_from_toml(bad)
        if want:
            assert code(exc) == want


async def test_roles_are_checked_and_every_change_is_audited(db: Database) -> None:
    tid = await make(db)
    with pytest.raises(RuleError) as exc:
        await ts.grant(db, tid, 1002, 1003, "referee")
    assert code(exc) == "not_allowed"
    await ts.grant(db, tid, ORG, 1003, "referee")
    await ts.grant(db, tid, ORG, 1004, "leader", "机关")
    with pytest.raises(RuleError):
        await ts.grant(db, tid, ORG, 1004, "leader", "没有这个组")
    with pytest.raises(RuleError) as exc:
        await ts.revoke(db, tid, ORG, ORG, "organiser")
    assert code(exc) == "cannot_remove_creator"
    assert await ts.roles_of(db, tid, 1003) == {"referee"}
    actions = [a.action for a in await ts.audit_log(db, tid)]
    assert actions[0] == "create" and actions.count("grant") == 2 and "table_group" in actions


async def test_registration_errors_issue_5(db: Database) -> None:
    tid = await make(db)
    inv = await ts.create_invite(db, tid, 1001, "机关", NOW)
    with pytest.raises(RuleError) as exc:
        await ts.accept_invite(db, inv.token, 1001, NOW)
    assert code(exc) == "partner_is_self"
    await ts.accept_invite(db, inv.token, 1002, NOW)
    with pytest.raises(RuleError) as exc:
        await ts.accept_invite(db, inv.token, 1003, NOW)
    assert code(exc) == "invite_used"
    with pytest.raises(RuleError) as exc:
        await ts.create_invite(db, tid, 1002, "机关", NOW)
    assert code(exc) == "already_registered"
    inv2 = await ts.create_invite(db, tid, 1003, "机关", NOW)
    with pytest.raises(RuleError) as exc:
        await ts.accept_invite(db, inv2.token, 1001, NOW)
    assert code(exc) == "partner_already_paired"
    with pytest.raises(RuleError) as exc:
        await ts.accept_invite(db, inv2.token, 1004, NOW + timedelta(days=3))
    assert code(exc) in ("invite_expired", "deadline_passed")
    await ts.accept_invite(db, inv2.token, 1004, NOW)
    with pytest.raises(RuleError) as exc:  # quota 2 for 机关
        await ts.create_invite(db, tid, 1005, "机关", NOW)
    assert code(exc) == "quota_full"
    with pytest.raises(RuleError) as exc:
        await ts.create_invite(db, tid, 1005, "理学院", NOW + timedelta(days=1, seconds=1))
    assert code(exc) == "deadline_passed"
    with pytest.raises(RuleError) as exc:
        await ts.register_pair(db, tid, ORG, [1005, 999], "理学院", NOW)
    assert code(exc) == "partner_not_started"
    with pytest.raises(RuleError) as exc:
        await ts.register_pair(db, tid, 1005, [1005, 1006], "理学院", NOW)
    assert code(exc) == "not_allowed"
    e = await ts.register_pair(db, tid, ORG, [1005, 1006], "理学院", NOW)
    offer = await ts.offer_replacement(db, tid, e.id, 1006, 1007, ORG, NOW)
    assert (await ts.entry_of_user(db, tid, 1006)) is not None  # nothing changes before 1007 accepts
    entry, old = await ts.accept_replacement(db, offer.token, 1007, NOW)
    assert old == 1006 and entry.players_json == [1005, 1007]
    await ts.withdraw(db, tid, e.id, 1005)
    assert len(await ts.entries(db, tid)) == 2


async def test_invite_expires(db: Database) -> None:
    tid = await make(db, invite_hours=1)
    inv = await ts.create_invite(db, tid, 1001, "机关", NOW)
    with pytest.raises(RuleError) as exc:
        await ts.accept_invite(db, inv.token, 1002, NOW + timedelta(hours=2))
    assert code(exc) == "invite_expired"


async def test_draw_is_verifiable_and_freezes_the_list(db: Database) -> None:
    tid = await make(db)
    for i, g in enumerate(["机关", "机关", "理学院", "理学院", "医学院"]):
        await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, g)
    ann = await ts.freeze(db, tid, bytes(range(32)))
    with pytest.raises(RuleError) as exc:
        await ts.create_invite(db, tid, 1020, "医学院", NOW)
    assert code(exc) == "registration_closed"
    eng, new = await ts.hold_draw(db, tid)
    published = ts.published_draw(await ts.get_tournament(db, tid))
    assert verify(published, ann).ok
    assert eng.bracket is not None and eng.bracket.size == 8
    # 5 pairs in a bracket of 8: three byes; one first-round match, and two bye-holders meet in round 2 at once
    assert sorted(m.match_key[:2] for m in new) == ["R1", "R2"]


async def test_schedule_lateness_undo_and_correction_changes_who_advances(db: Database) -> None:
    tid = await make(db, "shengji-timed-2h", union_groups=[])
    for i in range(4):
        await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "")
    await ts.freeze(db, tid, b"\x07" * 32)
    eng, new = await ts.hold_draw(db, tid)
    rows = await ts.schedule_ready(db, tid, NOW)
    assert len(rows) == 2 and all(r.start_at == NOW + timedelta(days=2) for r in rows)
    assert rows[0].table_chats != rows[1].table_chats
    m = rows[0]
    (a1, a2), (b1, b2) = (await ts.match_players(db, m))[0]
    with pytest.raises(RuleError) as exc:
        await ts.check_in(db, tid, m.match_key, a1, m.start_at - timedelta(minutes=31))
    assert code(exc) == "checkin_not_open"
    for p in (a1, a2, b1):
        await ts.check_in(db, tid, m.match_key, p, m.start_at - timedelta(minutes=5))
    lat = await ts.decide_lateness(db, tid, m.match_key)
    assert lat.decision is not None and lat.decision.action == "forfeit"
    assert lat.recorded is not None and lat.recorded.match.result_json["winner"] == "a"
    with pytest.raises(RuleError) as exc:
        await ts.undo_lateness(db, tid, m.match_key, 1003 if a1 != 1003 else 1004, "arrived")
    assert code(exc) == "not_allowed"
    await ts.grant(db, tid, ORG, 1020, "referee")
    await ts.undo_lateness(db, tid, m.match_key, 1020, "network trouble, arrived at 12 min")
    assert m.match_key in (await ts.engine_state(db, tid)).ready_matches()
    # both matches played; the referee corrects the first: the other side advances
    r1 = await ts.record_result(db, tid, m.match_key, pair_result("a", 9, 7), None)
    other = rows[1].match_key
    r2 = await ts.record_result(db, tid, other, pair_result("b", 5, 8), None)
    final = r2.new_matches[0]
    assert final.side_a == m.side_a
    corr = await ts.correct_result(db, tid, m.match_key, pair_result("b", 7, 9), 1020, "score sheet error")
    assert corr.applied
    final = await ts.get_match(db, tid, final.match_key)
    assert final.side_a == m.side_b
    del r1, eng, new


async def test_double_forfeit_and_conduct_disqualification(db: Database) -> None:
    tid = await make(db, "shengji-17-deals", union_groups=[])
    for i in range(4):
        await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "")
    await ts.freeze(db, tid, b"\x01" * 32)
    await ts.hold_draw(db, tid)
    rows = await ts.schedule_ready(db, tid, NOW)
    lat = await ts.decide_lateness(db, tid, rows[0].match_key)
    assert lat.decision is not None and lat.decision.action == "double_forfeit" and lat.recorded is not None
    await ts.grant(db, tid, ORG, 1020, "referee")
    out1, rec1, _ = await ts.add_conduct(db, tid, rows[1].match_key, "a", 1020, "violation", "table talk")
    assert not out1.disqualified and rec1 is None
    out2, rec2, _ = await ts.add_conduct(db, tid, rows[1].match_key, "a", 1020, "violation", "signals")
    assert out2.newly_disqualified and rec2 is not None
    assert rec2.match.result_json["winner"] == "b"
    # the winner of match 2 has a walkover in the final (double forfeit in match 1): the tournament is over
    state = await ts.engine_state(db, tid)
    assert state.finished and state.bracket is not None and state.bracket.champion() == rows[1].side_b


async def test_team_event_leader_forms_teams(db: Database) -> None:
    tid = await make(
        db, "guandan-team", union_groups=[{"name": "机关", "quota": 1}, {"name": "理学院", "quota": 1}]
    )
    ids = [await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "机关" if i < 3 else "理学院") for i in range(6)]
    await ts.grant(db, tid, ORG, 1020, "leader", "机关")
    with pytest.raises(RuleError) as exc:
        await ts.form_team(db, tid, 1020, ids[3:], "理学院队")
    assert code(exc) == "not_allowed"
    with pytest.raises(RuleError) as exc:
        await ts.form_team(db, tid, 1020, ids[:2], "机关队")
    assert code(exc) == "wrong_team_size"
    t1 = await ts.form_team(db, tid, 1020, ids[:3], "机关队")
    assert len(t1.players_json) == 6
    await ts.form_team(db, tid, ORG, ids[3:], "理学院队")
    await ts.freeze(db, tid, b"\x02" * 32)
    eng, new = await ts.hold_draw(db, tid)
    assert [e.name for e in eng.entries] == ["机关队", "理学院队"]
    rows = await ts.schedule_ready(db, tid, NOW)
    assert len(rows[0].table_chats) == 3  # pair k v pair k at three simultaneous tables
    assert len(await ts.match_players(db, rows[0])) == 3


async def test_team_partial_lateness_forfeits_only_the_incomplete_table_and_undo_restores_it(
    db: Database,
) -> None:
    tid = await make(
        db, "guandan-team", union_groups=[{"name": "机关", "quota": 1}, {"name": "理学院", "quota": 1}]
    )
    ids = [await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "机关" if i < 3 else "理学院") for i in range(6)]
    await ts.form_team(db, tid, ORG, ids[:3], "机关队")
    await ts.form_team(db, tid, ORG, ids[3:], "理学院队")
    await ts.freeze(db, tid, b"\x03" * 32)
    await ts.hold_draw(db, tid)
    (m,) = await ts.schedule_ready(db, tid, NOW)
    tables = await ts.match_players(db, m)
    assert m.start_at is not None
    for k, (a, b) in enumerate(tables, start=1):
        for p in (*a, *b):
            if not (k == 2 and p == b[0]):  # one player of side b's pair 2 never comes
                await ts.check_in(db, tid, m.match_key, p, m.start_at)
    lat = await ts.decide_lateness(db, tid, m.match_key)
    assert lat.decision is not None and lat.decision.action == "partial" and lat.recorded is None
    m = await ts.get_match(db, tid, m.match_key)
    assert list(m.table_results) == ["2"] and m.table_results["2"]["winner"] == "a"
    await ts.undo_lateness(db, tid, m.match_key, ORG, "arrived")
    m = await ts.get_match(db, tid, m.match_key)
    assert m.table_results == {}


async def test_correction_conflicts_once_the_next_match_has_begun_and_force_voids_it(db: Database) -> None:
    tid = await make(db, "shengji-17-deals", union_groups=[])
    for i in range(4):
        await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "")
    await ts.freeze(db, tid, b"\x09" * 32)
    await ts.hold_draw(db, tid)
    r1, r2 = await ts.schedule_ready(db, tid, NOW)
    await ts.record_result(db, tid, r1.match_key, pair_result("a"), None)
    rec = await ts.record_result(db, tid, r2.match_key, pair_result("a"), None)
    final = rec.new_matches[0]
    await ts.mark_started(db, tid, final.match_key)
    await ts.grant(db, tid, ORG, 1020, "referee")
    refused = await ts.correct_result(db, tid, r1.match_key, pair_result("b"), 1020, "sheet")
    assert not refused.applied and refused.conflicts == (final.match_key,)
    assert (await ts.get_match(db, tid, final.match_key)).side_a == r1.side_a
    with pytest.raises(RuleError) as exc:
        await ts.correct_result(db, tid, r1.match_key, pair_result("b"), 1020, "  ")
    assert code(exc) == "reason_required"
    forced = await ts.correct_result(db, tid, r1.match_key, pair_result("b"), 1020, "sheet", force=True)
    assert forced.applied
    final = await ts.get_match(db, tid, final.match_key)
    assert final.side_a == r1.side_b and final.status == "scheduled" and final.start_at is None


async def test_union_group_leader_registers_pairs_of_their_own_group_before_the_deadline(
    db: Database,
) -> None:
    tid = await make(db)
    await ts.grant(db, tid, ORG, 1010, "leader", "理学院")
    e = await ts.register_pair(db, tid, 1010, [1001, 1002], "理学院", NOW)
    assert e.union_group == "理学院"
    with pytest.raises(RuleError) as exc:
        await ts.register_pair(db, tid, 1010, [1003, 1004], "机关", NOW)
    assert code(exc) == "not_allowed"
    with pytest.raises(RuleError) as exc:
        await ts.register_pair(db, tid, 1010, [1003, 1004], "理学院", NOW + timedelta(days=2))
    assert code(exc) == "deadline_passed"
    await ts.register_pair(
        db, tid, ORG, [1003, 1004], "理学院", NOW + timedelta(days=2)
    )  # organiser: until the draw
