"""storage/privacy_repo.py on SQLite and PostgreSQL: forgetting a member moves every record that stays to
a placeholder (substitutes, ratings, entries, seats) and removes the rest; the purge keeps tournament matches."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from sqlalchemy import select, update

from engine.tournament import pair_result
from storage import privacy_repo, user_repo
from storage import tournaments as ts
from storage.db import Database
from storage.models import GameTable, MatchRecord, TableSeat, User
from storage.tournament_models import TournamentMatch
from tests.storage.conftest import db, target  # noqa: F401  (the SQLite and PostgreSQL databases)

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)


def placeholder(n: int, lang: str | None) -> str:
    return f"Deleted player #{n}" if lang == "en" else f"已注销玩家 #{n}"


async def finished_swiss(db: Database) -> int:  # noqa: F811
    for uid in range(1001, 1010):
        await user_repo.upsert_user(db, uid, f"P{uid}", f"u{uid}", "zh-hans", started_bot=True)
    row = await ts.create_tournament(
        db,
        name="一月赛",
        preset_id="shengji-timed-2h",
        created_by=1001,
        settings_overrides={"format": "swiss", "swiss_rounds": 2},
        registration_deadline=NOW + timedelta(days=1),
        first_round_at=NOW + timedelta(days=2),
    )
    await ts.add_table_group(db, row.id, 1001, -500, "桌1")
    for i in range(4):
        inv = await ts.create_invite(db, row.id, 1001 + 2 * i, "", NOW)
        await ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW)
    await ts.freeze(db, row.id, bytes(range(32)))
    await ts.hold_draw(db, row.id)
    low = {str(e.id): min(int(p) for p in e.players_json) for e in await ts.entries(db, row.id)}
    for _ in range(2):
        eng = await ts.engine_state(db, row.id)
        for key in eng.ready_matches():
            m = await ts.get_match(db, row.id, key)
            await ts.record_result(
                db,
                row.id,
                key,
                pair_result("a" if low[m.side_a or ""] < low[m.side_b or ""] else "b", 14, 9),
                None,
            )
    await ts.set_status(db, row.id, "finished")
    return int(row.id)


async def test_forget_moves_the_records_to_a_placeholder(db: Database) -> None:  # noqa: F811
    tid = await finished_swiss(db)
    # 1009 substituted for 1004 in one match (a referee's /substitute)
    entry = next(str(e.id) for e in await ts.entries(db, tid) if 1004 in [int(p) for p in e.players_json])
    key = next(m.match_key for m in await ts.matches(db, tid) if entry in (m.side_a, m.side_b))
    async with db.session() as s:
        await s.execute(
            update(TournamentMatch)
            .where(TournamentMatch.tournament_id == tid, TournamentMatch.match_key == key)
            .values(substitutes={"1004": 1009})
        )
        await s.commit()
    before = (await ts.player_ratings(db)).of("1009", "shengji").games
    assert before >= 1
    assert await privacy_repo.forget_user(db, 1009, placeholder) == 1
    assert await privacy_repo.forget_user(db, 1002, placeholder) == 2
    async with db.session() as s:
        users = {u.id: u for u in (await s.execute(select(User))).scalars().all()}
        subs = (
            await s.execute(
                select(TournamentMatch.substitutes).where(
                    TournamentMatch.tournament_id == tid, TournamentMatch.match_key == key
                )
            )
        ).scalar_one()
    assert 1002 not in users and 1009 not in users
    assert users[-1].first_name == "已注销玩家 #1" and users[-2].first_name == "已注销玩家 #2"
    assert subs == {"1004": -1}
    ratings = await ts.player_ratings(db)
    assert ratings.of("1009", "shengji").games == 0 and ratings.of("-1", "shengji").games == before
    assert ratings.of("1002", "shengji").games == 0 and ratings.of("-2", "shengji").games == 2
    names = sorted(e.name for e in await ts.entries(db, tid, include_withdrawn=True))
    assert "P1001 / 已注销玩家 #2" in names and not any("P1002" in n for n in names)
    eng = await ts.engine_state(db, tid)
    mine = [e for e in eng.entries if "P1001 (1001)" in e.players]
    assert [(e.name, e.players) for e in mine] == [
        ("P1001 / 已注销玩家 #2", ("P1001 (1001)", "已注销玩家 #2 (-2)"))
    ]
    assert not any("P1002" in p or "(1002)" in p for e in eng.entries for p in e.players)
    row = await ts.get_tournament(db, tid)
    assert "P1002" not in json.dumps(row.state_json, ensure_ascii=False)  # the draw's frozen list too
    exported = await privacy_repo.export_user(db, 1002)
    assert exported["user"] is None and exported["tournament_entries"] == []


async def test_forget_is_refused_at_a_live_table_and_purge_keeps_tournament_matches(db: Database) -> None:  # noqa: F811
    await user_repo.upsert_user(db, 1001, "P1001", "u1001", "zh-hans", started_bot=True)
    old = datetime.now(UTC) - timedelta(days=40)
    async with db.session() as s:
        live = GameTable(
            chat_id=-7, preset_id="shengji-17-deals", game="shengji", options_json={}, status="playing"
        )
        casual = GameTable(
            chat_id=-7, preset_id="shengji-17-deals", game="shengji", options_json={}, status="finished"
        )
        cup = GameTable(
            chat_id=-8,
            preset_id="shengji-17-deals",
            game="shengji",
            options_json={},
            status="finished",
            tournament_ref="1/S1-M1",
        )
        s.add_all([live, casual, cup])
        await s.flush()
        s.add(TableSeat(table_id=live.id, seat=0, user_id=1001))
        for table in (casual, cup):
            s.add(
                MatchRecord(
                    table_id=table.id,
                    game="shengji",
                    options_json={},
                    seed=1,
                    status="finished",
                    result_json={},
                    finished_at=old,
                )
            )
        await s.commit()
        live_id, casual_id, cup_id = live.id, casual.id, cup.id
    refused = await privacy_repo.forget_user(db, 1001, placeholder)
    assert refused == privacy_repo.Refusal("table", str(live_id))
    assert (await user_repo.get_user(db, 1001)) is not None
    assert await privacy_repo.purge_casual(db, 30) == 1
    async with db.session() as s:
        tables = set((await s.execute(select(GameTable.id))).scalars().all())
        matches = set((await s.execute(select(MatchRecord.table_id))).scalars().all())
    assert casual_id not in tables and casual_id not in matches
    assert {live_id, cup_id} <= tables and cup_id in matches
