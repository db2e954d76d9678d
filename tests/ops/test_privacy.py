"""Members' data (issue 21): /privacy, /mydata, /forget and the retention purge of finished casual matches,
through the Bot API simulator and the real bot (tests/e2e/harness.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import select

from bot.tournaments import views
from engine.tournament import pair_result
from storage import tournaments as ts
from storage import user_repo
from storage.models import ActionRecord, GameTable, MatchRecord, User
from tests.e2e.test_fuzz import forge_press

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)


def rt(h: Any) -> Any:
    return h.app.bot_data["runtime"]


def document_of(message: Any) -> dict[str, Any]:
    return json.loads(bytes(message.document["bytes"]).decode("utf-8"))


async def mydata(h: Any, player: Any) -> dict[str, Any]:
    before = h.sim.last_bot_message(player.user_id)
    player.dm("/mydata")
    message = await h.sim.wait_for_message(
        player.user_id, lambda m: m.document is not None, after=before, timeout=30
    )
    assert message.document["filename"].endswith(".json")
    return document_of(message)


async def seated_table(h: Any) -> int:
    """张伟 opens a table in the group and sits; 王芳 sits too (the table is open: live)."""
    zhang, wang = h.players[0], h.players[1]
    zhang.say(h.group_id, "/newtable shengji-17-deals")
    await h.sim.wait_for_message(h.group_id, "入座", timeout=30)
    await zhang.tap(h.group_id, "入座")
    await wang.tap(h.group_id, "入座")
    await h.settle()
    from storage import table_repo

    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    assert table is not None
    return int(table.id)


async def test_privacy_notice_says_what_is_kept_in_the_members_language(harness_factory) -> None:
    async with harness_factory() as h:
        zhang, emma = h.players[0], h.english_user
        zhang.dm("/privacy")
        zh = await h.sim.wait_for_message(zhang.user_id, "隐私说明", timeout=30)
        for word in ("Telegram", "用户名", "积分", "/mydata", "/forget", "已注销玩家"):
            assert word in (zh.text or "")
        emma.start()
        await h.sim.wait_for_message(emma.user_id, lambda m: True, timeout=30)
        emma.dm("/privacy")
        en = await h.sim.wait_for_message(emma.user_id, "Privacy", timeout=30)
        for word in ("Telegram id", "username", "ratings", "/mydata", "/forget", "kept"):
            assert word in (en.text or "")
        h.assert_no_errors()


async def test_mydata_sends_the_members_data_and_no_one_elses(harness_factory) -> None:
    async with harness_factory() as h:
        table_id = await seated_table(h)
        data = await mydata(h, h.players[0])
        assert data["user"]["telegram_id"] == 1001 and data["user"]["first_name"] == "张伟"
        assert data["user"]["username"] == "zhangwei"
        assert [(t["table_id"], t["seat"]) for t in data["tables"]] == [(table_id, 0)]
        raw = json.dumps(data, ensure_ascii=False)
        assert (
            "王芳" not in raw and "wangfang" not in raw and "1002" not in raw
        )  # 王芳 sits at the same table
        h.assert_no_errors()


async def test_forget_is_refused_while_seated_at_a_live_table_and_changes_nothing(harness_factory) -> None:
    async with harness_factory() as h:
        table_id = await seated_table(h)
        zhang = h.players[0]
        before = h.sim.last_bot_message(zhang.user_id)
        zhang.dm("/forget")
        refused = await h.sim.wait_for_message(zhang.user_id, "不能删除", after=before, timeout=30)
        assert f"第 {table_id} 桌" in (refused.text or "") and not refused.buttons()
        user = await user_repo.get_user(rt(h).db, zhang.user_id)
        assert user is not None and user.first_name == "张伟" and user.username == "zhangwei"
        h.assert_no_errors()


async def finished_tournament(h: Any) -> int:
    """A two-round Swiss of four pairs (张伟/王芳 first), every result stored, the tournament ended."""
    db = rt(h).db
    for uid in (1005, 1006, 1007, 1008):
        await user_repo.upsert_user(db, uid, f"选手{uid}", None, "zh-hans", started_bot=True)
    org = h.players[0].user_id
    row = await ts.create_tournament(
        db,
        name="一月赛",
        preset_id="shengji-timed-2h",
        created_by=org,
        settings_overrides={"format": "swiss", "swiss_rounds": 2},
        registration_deadline=NOW + timedelta(days=1),
        first_round_at=NOW + timedelta(days=2),
    )
    await ts.link_group(db, row.id, org, h.group_id)
    for i in range(4):
        inv = await ts.create_invite(db, row.id, 1001 + 2 * i, "", NOW)
        await ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW)
    return int(row.id)


async def play_out(h: Any, tid: int) -> None:
    db = rt(h).db
    await ts.freeze(db, tid, bytes(range(32)))
    await ts.hold_draw(db, tid)
    low = {str(e.id): min(int(p) for p in e.players_json) for e in await ts.entries(db, tid)}
    for _ in range(2):
        eng = await ts.engine_state(db, tid)
        for key in eng.ready_matches():
            m = await ts.get_match(db, tid, key)
            a_wins = low[m.side_a or ""] < low[m.side_b or ""]
            await ts.record_result(db, tid, key, pair_result("a" if a_wins else "b", 14, 9), None)
    if (await ts.get_tournament(db, tid)).status != "finished":
        await ts.set_status(db, tid, "finished")


async def test_forget_after_confirmation_leaves_a_placeholder_in_the_standings(harness_factory) -> None:
    async with harness_factory() as h:
        db = rt(h).db
        wang = h.players[1]
        tid = await finished_tournament(h)
        # registered in a tournament that has not ended: refused, with its name
        before = h.sim.last_bot_message(wang.user_id)
        wang.dm("/forget")
        refused = await h.sim.wait_for_message(wang.user_id, "不能删除", after=before, timeout=30)
        assert "一月赛" in (refused.text or "")
        await play_out(h, tid)
        assert (await ts.player_ratings(db)).of("1002", "shengji").games == 2
        # asked first; Cancel changes nothing
        before = h.sim.last_bot_message(wang.user_id)
        wang.dm("/forget")
        await h.sim.wait_for_message(wang.user_id, "确定删除", after=before, timeout=30)
        answer = await wang.tap(wang.user_id, "取消")
        assert answer.text and "没有改动" in answer.text
        assert (await user_repo.get_user(db, wang.user_id)) is not None
        wang.dm("/forget")
        await h.sim.wait_for_message(wang.user_id, "确定删除", after=before, timeout=30)
        answer = await wang.tap(wang.user_id, "确认删除")
        assert answer.text and "已删除" in answer.text
        # the user row is gone; the records point at a placeholder with a negative id
        async with db.session() as s:
            users = {u.id: u for u in (await s.execute(select(User))).scalars().all()}
        assert 1002 not in users
        placeholder = users[-1]
        assert placeholder.first_name == "已注销玩家 #1" and placeholder.username is None
        names = [e.name for e in await ts.entries(db, tid, include_withdrawn=True)]
        assert "张伟 / 已注销玩家 #1" in names and not any("王芳" in n for n in names)
        ratings = await ts.player_ratings(db)
        assert ratings.of("1002", "shengji").games == 0 and ratings.of("-1", "shengji").games == 2
        # the standings (the group's /standings) show the placeholder
        h.players[0].say(h.group_id, "/standings")
        standings = await h.sim.wait_for_message(h.group_id, "已注销玩家 #1", timeout=30)
        assert "王芳" not in (standings.text or "")
        eng = await ts.engine_state(db, tid)
        text = views.standings_text(
            "en", eng, views.names_of(await ts.entries(db, tid, include_withdrawn=True))
        )
        assert "王芳" not in text
        # writing again (a typed text: the handlers store its sender, the in-memory "already stored" copy was
        # dropped): a new, fresh user from what Telegram sends now, the old records not linked back
        before = h.sim.last_bot_message(wang.user_id)
        wang.dm("你好")
        await h.sim.wait_for_message(wang.user_id, lambda m: True, after=before, timeout=30)
        data = await mydata(h, wang)
        assert (
            data["user"]["first_name"] == "王芳"
            and data["tournament_entries"] == []
            and data["ratings"] == {}
        )
        h.assert_no_errors()


async def test_mydata_and_forget_in_a_group_get_one_clear_answer(harness_factory) -> None:
    async with harness_factory() as h:
        zhang = h.players[0]
        before = h.sim.last_bot_message(h.group_id)
        zhang.say(h.group_id, "/forget")
        await h.sim.wait_for_message(h.group_id, "私聊中使用 /forget", after=before, timeout=30)
        zhang.say(h.group_id, "/mydata")
        await h.sim.wait_for_message(h.group_id, "私聊中使用 /mydata", after=before, timeout=30)
        await h.settle()
        after = [
            m for m in h.sim.bot_messages(h.group_id) if before is None or m.message_id > before.message_id
        ]
        assert len(after) == 2 and all(m.document is None and not m.buttons() for m in after)
        user = await user_repo.get_user(rt(h).db, zhang.user_id)
        assert user is not None and user.first_name == "张伟"
        h.assert_no_errors()


async def test_retention_purge_removes_old_casual_matches_and_keeps_tournament_ones(harness_factory) -> None:
    async with harness_factory(CASUAL_RETENTION_DAYS=30) as h:
        runtime = rt(h)
        assert runtime.scheduler._aps.get_job("casual_purge") is not None  # scheduled (every hour)
        now = datetime.now(UTC)

        async def match(ref: str | None, finished_days_ago: float) -> int:
            async with runtime.db.session() as s:
                table = GameTable(
                    chat_id=h.group_id,
                    preset_id="shengji-17-deals",
                    game="shengji",
                    options_json={},
                    status="finished",
                    tournament_ref=ref,
                )
                s.add(table)
                await s.flush()
                row = MatchRecord(
                    table_id=table.id,
                    game="shengji",
                    options_json={},
                    seed=1,
                    status="finished",
                    result_json={},
                    finished_at=now - timedelta(days=finished_days_ago),
                )
                s.add(row)
                await s.flush()
                s.add(
                    ActionRecord(match_id=row.id, seq=1, action="0 pass", actor_user_id=1001, events_json=[])
                )
                await s.commit()
                return int(row.id)

        old_casual = await match(None, 40)
        recent_casual = await match(None, 2)
        old_tournament = await match("1/S1-M1", 40)
        assert await runtime.purge_casual() == 1
        async with runtime.db.session() as s:
            left = set((await s.execute(select(MatchRecord.id))).scalars().all())
            actions = set((await s.execute(select(ActionRecord.match_id))).scalars().all())
        assert old_casual not in left and old_casual not in actions
        assert {recent_casual, old_tournament} <= left
        h.assert_no_errors()


async def test_forged_and_expired_forget_presses_are_answered_and_change_nothing(harness_factory) -> None:
    async with harness_factory() as h:
        zhang = h.players[0]
        zhang.dm("/forget")
        asked = await h.sim.wait_for_message(zhang.user_id, "确定删除", timeout=30)
        answers = [
            await h.sim.wait_callback_answer(
                forge_press(h.sim, zhang.user_id, zhang.user_id, asked.message_id, data), 30
            )
            for data in ("pv:forget:abc", "pv:nothing", "pv:forget:1")  # forged, unknown, a stale stamp
        ]
        assert all(a.text for a in answers)
        assert "过期" in (answers[2].text or "") and answers[2].show_alert
        user = await user_repo.get_user(rt(h).db, zhang.user_id)
        assert user is not None and user.first_name == "张伟"
        h.assert_no_errors()
