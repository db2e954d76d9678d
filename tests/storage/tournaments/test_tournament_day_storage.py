"""The stored side of issue 10's tournament-day features, on SQLite and PostgreSQL: confirmations with
an expiry (used once, only by whoever asked), the dashboards kept live (one per organiser and
tournament), and a substitute seated at a table in play (rules.md D25) in one transaction."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.errors import RuleError
from storage import table_repo
from storage import tournaments as ts
from storage.db import Database
from tests.storage.tournaments.test_integrity import drawn
from tests.storage.tournaments.test_service import NOW, ORG


async def code_of(call: object) -> str:
    with pytest.raises(RuleError) as err:
        await call  # type: ignore[misc]
    return err.value.code


async def test_a_confirmation_expires_is_used_once_and_only_by_its_organiser(db: Database) -> None:
    tid, _ = await drawn(db)
    assert await code_of(ts.ask_confirmation(db, tid, ORG, "cancel", "  ", NOW)) == "reason_required"
    assert await code_of(ts.ask_confirmation(db, tid, 1003, "cancel", "rain", NOW)) == "not_allowed"
    item = await ts.ask_confirmation(db, tid, ORG, "delete", "rain", NOW)
    assert item.expires_at == NOW + timedelta(minutes=ts.CONFIRM_MINUTES)
    assert await code_of(ts.take_confirmation(db, tid, item.token, 1003, NOW)) == "not_allowed"
    assert await code_of(ts.take_confirmation(db, tid + 1, item.token, ORG, NOW)) == "confirm_unknown"
    late = NOW + timedelta(minutes=ts.CONFIRM_MINUTES)
    assert await code_of(ts.take_confirmation(db, tid, item.token, ORG, late)) == "confirm_expired"
    taken = await ts.take_confirmation(db, tid, item.token, ORG, late - timedelta(seconds=1))
    assert (taken.op, taken.reason) == ("delete", "rain")
    assert await code_of(ts.take_confirmation(db, tid, item.token, ORG, NOW)) == "confirm_used"


async def test_one_live_dashboard_per_organiser_and_tournament(db: Database) -> None:
    tid, _ = await drawn(db)
    await ts.follow_dashboard(db, tid, ORG, ORG, 10, "zh", NOW)
    await ts.follow_dashboard(db, tid, ORG, ORG, 11, "en", NOW)  # a new /dashboard takes the place
    await ts.follow_dashboard(db, tid, 1003, 1003, 12, "zh", NOW)
    assert [(f.user_id, f.message_id, f.lang) for f in await ts.dashboards(db, tid)] == [
        (ORG, 11, "en"),
        (1003, 12, "zh"),
    ]
    assert await ts.unfollow_dashboard(db, tid, ORG, message_id=10) == 0  # an old message: nothing followed
    assert await ts.unfollow_dashboard(db, tid, ORG, message_id=11) == 1
    assert await ts.unfollow_dashboard(db, tid) == 1
    assert await ts.dashboards(db) == []


async def test_a_substitute_takes_a_seat_in_play_in_one_transaction(db: Database) -> None:
    tid, (r1, r2) = await drawn(db)
    await ts.grant(db, tid, ORG, 1020, "referee")
    ((a, b),) = await ts.match_players(db, r1)
    table = await table_repo.insert_table(
        db, -1, "shengji-17-deals", "shengji", {}, ORG, tournament_ref=f"t{tid}:{r1.match_key}:1"
    )
    for seat, uid in enumerate((a[0], b[0], a[1], b[1])):
        await table_repo.seat_user(db, table.id, seat, uid)
    await table_repo.set_table_status(db, table.id, "playing")
    await ts.set_match_fields(db, r1.id, game_tables=[table.id], status="playing")
    # someone at another live table may not substitute
    other = await table_repo.insert_table(
        db, -2, "shengji-17-deals", "shengji", {}, ORG, tournament_ref=f"t{tid}:{r2.match_key}:1"
    )
    await table_repo.seat_user(db, other.id, 0, 1015)
    assert await code_of(ts.substitute(db, tid, r1.match_key, b[0], 1015, 1020)) == "substitute_busy"
    assert await code_of(ts.substitute(db, tid, r1.match_key, b[0], 999, 1020)) == "partner_not_started"
    sub = await ts.substitute(db, tid, r1.match_key, b[0], 1016, 1020, "ill")
    assert (sub.table, sub.game_table, sub.seat, sub.in_play) == (1, table.id, 1, True)
    assert [s.user_id for s in await table_repo.get_seats(db, table.id)] == [a[0], 1016, a[1], b[1]]
    assert (await ts.match_players(db, sub.match))[0][1] == [1016, b[1]]
    last = (await ts.audit_log(db, tid))[-1]
    assert last.action == "substitute" and last.detail_json["in_play"] and last.detail_json["seat"] == 1
    # a table that is over takes no substitute
    await ts.set_match_fields(db, r1.id, table_results={"1": {"table": 1, "winner": "a"}})
    assert await code_of(ts.substitute(db, tid, r1.match_key, 1016, 1017, 1020)) == "table_over"
