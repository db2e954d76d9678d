"""Issue 10, "Tests": one whole shengji-17-deals tournament (fixed pairs, single elimination with a
third-place match) through the Bot API simulator and the real bot, from the guided set-up to the prizes,
each step checked by what people see in their chats; then a second tournament cancelled and deleted.

Eight pairs from three union groups (quotas), one deal a match so the final can be played out by its four
people typing their cards.  Covered on the way: /edit of the draw time, the exported file sent back as an
update, invitations with a double tap and two people on one link, a quota race, the verifiable draw, /swap,
/move_table, /reschedule, a late pair inside the limit that plays, a pair that never comes and forfeits,
locked tables, /substitute, /extend, /pause and /resume, a result and a /reverse at the same moment,
standings, results, export and prizes; cancel and delete with their confirmations.
Run on SQLite and on PostgreSQL (a fresh database: the races meet a server with real concurrency).
"""

from __future__ import annotations

import asyncio
import csv
import io
import re
from datetime import timedelta
from pathlib import Path

import pytest

from bot.presentation.callbacks import TableButton, TableOp
from engine.tournament import verify
from storage import table_repo
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID, STRANGER
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
P = [S.EXTRA_BASE + i for i in range(25)]
SUB = P[20]  # never registered: the referee's substitute
REFEREE, CHIEF = P[23], P[24]
OUTSIDER = STRANGER[0]
SECOND_GROUP = -1001000000009
FORMULA_NAME = "=SUM(A1:A9)"


async def _guided_setup(h: object) -> None:
    """The organiser's /tournament dialogue, every step answered as the notice says (one deal a match)."""
    await S.dm(h, ORG, "/tournament", "比赛名称")  # type: ignore[arg-type]
    presets = await S.dm(h, ORG, "继续教育学院 双升", "选择比赛规程")  # type: ignore[arg-type]
    await S.press(h, ORG, ORG, presets, "双升 · 17 副制")  # type: ignore[arg-type]
    sim = h.sim  # type: ignore[attr-defined]
    options = await sim.wait_for_message(ORG, "规则选项", after=presets)
    await S.press(h, ORG, ORG, options, "保留默认")  # type: ignore[arg-type]
    entrant = await sim.wait_for_message(ORG, "参赛形式", after=options)
    await S.press(h, ORG, ORG, entrant, "保留默认")  # type: ignore[arg-type]
    tz = await sim.wait_for_message(ORG, "时区", after=entrant)
    await S.press(h, ORG, ORG, tz, "保留默认")  # type: ignore[arg-type]
    await sim.wait_for_message(ORG, "参赛单位", after=tz)
    await S.dm(h, ORG, "机关 3，理学院 3，医学院 3", "报名截止时间")  # type: ignore[arg-type]
    await S.dm(h, ORG, S.local(h, timedelta(hours=2)), "抽签时间")  # type: ignore[arg-type]
    await S.dm(h, ORG, S.local(h, timedelta(hours=3)), "第一轮开赛时间")  # type: ignore[arg-type]
    fmt = await S.dm(h, ORG, S.local(h, timedelta(days=1)), "赛制")  # type: ignore[arg-type]
    await S.press(h, ORG, ORG, fmt, "单败淘汰 + 三四名决赛")  # type: ignore[arg-type]
    await sim.wait_for_message(ORG, "每场比赛长度", after=fmt)
    await S.dm(h, ORG, "1副", "迟到判负时间")  # type: ignore[arg-type]
    gap = await S.dm(h, ORG, "15", "间隔多少分钟")  # type: ignore[arg-type]
    await S.press(h, ORG, ORG, gap, "保留默认")  # type: ignore[arg-type]
    prizes = await sim.wait_for_message(ORG, "奖项", after=gap)
    await S.press(h, ORG, ORG, prizes, "保留默认")  # type: ignore[arg-type]
    confirm = await sim.wait_for_message(ORG, "请确认", after=prizes)
    text = confirm.text or ""
    assert "机关 3，理学院 3，医学院 3" in text and "1 副" in text and "三四名决赛" in text, text
    await S.press(h, ORG, ORG, confirm, "✅ 创建")  # type: ignore[arg-type]
    await sim.wait_for_message(ORG, "已创建", after=confirm)


async def _decided(h: object, key: str, tid: int = 1) -> object:
    async def check() -> object:
        m = await S.tournament_match(h, tid, key)  # type: ignore[arg-type]
        return m if m.result_json is not None else None

    return await S.eventually(check)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def test_whole_shengji_seventeen_deals_tournament(tmp_path: Path, backend: str) -> None:
    async with S.tournament_harness(tmp_path, extra_players=25, table_groups=3, backend=backend) as h:
        db = S.db(h)
        h.sim.users[P[15]].first_name = FORMULA_NAME  # a name a spreadsheet would take for a formula
        await S.dm(h, P[15], "/start", "")
        # --- guided set-up; the group, the table groups, the referees ------------------------------------
        await _guided_setup(h)
        ann = await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        commitment = (await ts.get_tournament(db, 1)).commitment
        assert commitment and commitment in (ann.text or "")
        for gid in S.TABLE_GROUPS[:2]:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        await S.dm(h, ORG, f"/role add referee {REFEREE}", "添加")
        await S.dm(h, ORG, f"/role add chief_referee {CHIEF}", "添加")

        # --- /edit: the draw an hour later; the group is told ----------------------------------------------
        row = await ts.get_tournament(db, 1)
        draw = row.draw_at + timedelta(hours=1)
        await S.dm(h, ORG, f"/edit draw {ts.local_text(draw, row.time_zone)}", "已完成")
        await S.wait_text(h, GROUP_ID, f"抽签时间改为 {ts.local_text(draw, row.time_zone)}")
        refused = await S.dm(h, P[0], f"/edit #1 draw {ts.local_text(draw, row.time_zone)}", "没有权限")
        assert refused.text

        # --- the exported file with 医学院's quota lowered to 2, sent back: the same tournament ----------
        files = await S.files_after(h, ORG, ORG, "/export", ".toml")
        name = next(n for n in files if n.endswith(".toml"))
        text = files[name].decode("utf-8")
        assert "id = 1" in text and "deals = 1" in text
        edited = text.replace('name = "医学院"\nquota = 3', 'name = "医学院"\nquota = 2')
        assert edited != text
        updated = await S.send_file(h, ORG, edited, name, "已按文件更新比赛 #1")
        assert "机关 3，理学院 3，医学院 2" in (updated.text or "")
        await S.wait_text(h, GROUP_ID, "设置已由组织者更新")
        (only,) = await ts.all_tournaments(db)
        assert only.draw_at == draw and only.commitment == commitment and only.rule_overrides["deals"] == 1

        # --- registration: a double tap on 接受邀请 and a second person on the same link: one pair --------
        link = await S.invite_of(h, P[0], ann, "机关")
        offers = [await S.follow(h, uid, link, "邀请你作为搭档") for uid in (P[1], P[2])]
        queries = [
            h.sim.press_button(P[1], P[1], offers[0].message_id, text="接受邀请"),
            h.sim.press_button(P[1], P[1], offers[0].message_id, text="接受邀请"),
            h.sim.press_button(P[2], P[2], offers[1].message_id, text="接受邀请"),
        ]
        answers = [
            a.text or "" for a in await asyncio.gather(*[h.sim.wait_callback_answer(q, 20) for q in queries])
        ]
        assert sum("报名成功" in a for a in answers) == 1, answers
        assert any("已被使用" in a or "已接受过" in a for a in answers), answers
        (pair,) = await ts.entries(db, 1)
        assert pair.players_json[0] == P[0]
        spare = P[2] if int(pair.players_json[1]) == P[1] else P[1]
        await S.dm(h, ORG, f"/register {spare} {P[3]} 机关", "报名成功")
        await S.dm(h, ORG, f"/register {P[15]} {P[14]} 机关", "报名成功")
        # --- a quota race: 理学院 has room for one more pair; three partners press at the same moment ----
        await S.dm(h, ORG, f"/register {P[4]} {P[5]} 理学院", "报名成功")
        await S.dm(h, ORG, f"/register {P[6]} {P[7]} 理学院", "报名成功")
        inviters, partners = [P[8], P[16], P[17]], [P[9], P[18], P[19]]
        links = [await S.invite_of(h, uid, ann, "理学院") for uid in inviters]
        offers = [
            await S.follow(h, uid, url, "邀请你作为搭档") for uid, url in zip(partners, links, strict=True)
        ]
        queries = [
            h.sim.press_button(uid, uid, o.message_id, text="接受邀请")
            for uid, o in zip(partners, offers, strict=True)
        ]
        answers = [
            a.text or "" for a in await asyncio.gather(*[h.sim.wait_callback_answer(q, 20) for q in queries])
        ]
        assert sum("报名成功" in a for a in answers) == 1, answers
        assert sum("理学院 的名额（3）已满" in a for a in answers) == 2, answers
        assert len([e for e in await ts.entries(db, 1) if e.union_group == "理学院"]) == 3
        # 医学院's quota is 2 since the file was sent back
        await S.dm(h, ORG, f"/register {P[10]} {P[11]} 医学院", "报名成功")
        await S.dm(h, ORG, f"/register {P[12]} {P[13]} 医学院", "报名成功")
        full = await S.dm(h, ORG, f"/register {P[21]} {P[22]} 医学院", "名额")
        assert "医学院 的名额（2）已满" in (full.text or "")
        listing = await S.dm(h, ORG, "/entries", "参赛名单")
        assert "8 对" in (listing.text or "") and "队" not in (listing.text or "").split("\n")[0]

        # --- the deadline closes registration; the draw waits for its edited time --------------------------
        await S.run_due(h, timedelta(hours=2, minutes=1))
        await S.wait_text(h, GROUP_ID, "报名已截止，共 8 个参赛对")
        await S.run_due(h, timedelta(hours=1))
        assert not S.find(h, GROUP_ID, "名单 SHA-256")  # the old draw time: nothing
        await S.run_due(h, timedelta(hours=1))
        frozen = await S.wait_text(h, GROUP_ID, "名单 SHA-256")
        doc = await h.sim.wait_for_message(
            GROUP_ID, lambda m: m.document is not None and m.document["filename"] == "draw-1.json", timeout=20
        )
        published = S.published_from(doc)
        assert published["commitment"] == commitment and commitment in (frozen.text or "")
        assert verify(published, {"list_hash": published["list_hash"], "commitment": commitment}).ok
        players = {p for e in published["entries"] for p in e["players"]}
        assert f"{FORMULA_NAME} ({P[15]})" in players and all(re.fullmatch(r".+ \(\d+\)", p) for p in players)
        names = {str(e.id): e.name for e in await ts.entries(db, 1, include_withdrawn=True)}
        qf = {m.match_key: m for m in await ts.matches(db, 1)}
        assert sorted(qf) == ["R1-M1", "R1-M2", "R1-M3", "R1-M4"]
        first = qf["R1-M1"].start_at
        assert qf["R1-M2"].start_at == first and qf["R1-M3"].start_at == qf[
            "R1-M4"
        ].start_at == first + timedelta(
            minutes=20
        )  # two table groups; a one-deal match is planned as 5 + 15 minutes

        # --- the organiser moves matches: /swap, /move_table to a table group registered now, /reschedule --
        await S.dm(h, ORG, "/swap R1-M2 R1-M3", "已完成")
        swapped = await S.tournament_match(h, 1, "R1-M3")
        assert swapped.start_at == first and swapped.table_chats == [S.TABLE_GROUPS[1]]
        told = await S.wait_text(h, (await S.match_people(h, 1, "R1-M2"))[0][0][0], "改期：R1-M2")
        assert ts.local_text(first + timedelta(minutes=20), "Asia/Shanghai") in (told.text or "")
        await S.say(h, ORG, S.TABLE_GROUPS[2], "/table_register", "共 3 个桌群")
        await S.dm(h, ORG, "/move_table R1-M4 1 比赛桌3", "已完成")
        await S.wait_text(h, (await S.match_people(h, 1, "R1-M4"))[0][1][0], "R1-M4 第 1 桌改到「比赛桌3」")
        later = first + timedelta(minutes=30)
        await S.dm(h, ORG, f"/reschedule R1-M4 {ts.local_text(later, 'Asia/Shanghai')}", "已完成")
        assert (await S.tournament_match(h, 1, "R1-M4")).start_at == later
        actions = {a.action for a in await ts.audit_log(db, 1)}
        assert {"edit_time", "reimport", "swap", "move_table", "reschedule"} <= actions

        # --- slot 1: R1-M1's side b is 5 minutes late (inside 15) and plays; R1-M3's side b never comes ---
        h.clock.set(first - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        ((a1, b1),) = await S.match_people(h, 1, "R1-M1")
        ((a3, b3),) = await S.match_people(h, 1, "R1-M3")
        await S.check_in(h, 1, "R1-M1", a1)
        await S.check_in(h, 1, "R1-M3", a3)
        await S.run_due(h, timedelta(minutes=30))
        people = await ts.user_names(db, [*b1, *b3])
        await S.wait_text(h, ORG, f"R1-M1 第 1 桌等待签到：{people[b1[0]]}、{people[b1[1]]}")
        # locked tables: no lobby buttons; an outsider's link, an opponent's Start and a /leave are refused
        m3 = await S.tournament_match(h, 1, "R1-M3")
        t3 = await table_repo.get_table(db, int(m3.game_tables[0]))
        assert t3 is not None and t3.status == "open" and t3.chat_id == S.TABLE_GROUPS[1]
        lobby = next(x for x in h.sim.bot_messages(t3.chat_id) if x.message_id == t3.table_message_id)
        assert lobby.buttons() == [] and "比赛桌" in (lobby.text or "")
        assert (await S.follow(h, OUTSIDER, S.bot_link(h, f"join_{t3.id}_1"), "比赛桌")).text
        start = S.forge_press(
            h, a3[0], t3.chat_id, lobby.message_id, TableButton(TableOp.START, t3.id).encode()
        )
        assert "比赛桌" in ((await h.sim.wait_callback_answer(start, 20)).text or "")
        await S.say(h, a3[1], t3.chat_id, "/leave", "比赛桌")
        assert [s.user_id for s in await table_repo.get_seats(db, t3.id)] == [a3[0], b3[0], a3[1], b3[1]]
        assert (await table_repo.get_table(db, t3.id)).status == "open"  # type: ignore[union-attr]
        h.clock.advance(timedelta(minutes=5))  # type: ignore[attr-defined]
        await S.check_in(h, 1, "R1-M1", b1)
        await S.wait_text(h, b1[0], "你的牌")  # the late pair's table has begun: the hand arrives
        m1 = await S.tournament_match(h, 1, "R1-M1")
        assert m1.status == "playing"
        # the referee pauses and resumes the table; a player may not
        assert (await S.say(h, a1[0], GROUP_ID, "/pause R1-M1", "没有权限")).text
        await S.say(h, REFEREE, GROUP_ID, "/pause R1-M1", "暂停")
        await S.wait_text(h, S.TABLE_GROUPS[0], "R1-M1 比赛暂停")  # the table group too
        await S.say(h, REFEREE, GROUP_ID, "/resume R1-M1", "继续")
        # R1-M3's side b never came: at the limit the pair forfeits; the notice names it and its players
        await S.run_due(h, timedelta(minutes=10, seconds=1))
        forfeit = (await S.wait_text(h, GROUP_ID, "⚠️ R1-M3：")).text or ""
        assert names[m3.side_b] in forfeit and people[b3[0]] in forfeit and "迟到超过 15 分钟" in forfeit
        await S.wait_text(h, b3[0], "迟到超过 15 分钟")  # the pair is told too
        # R1-M1 ends: side b (the late pair) wins 14:9 -- written winner first with the winner's score first
        await S.finish_table(h, int(m1.game_tables[0]), 1, (9, 14))
        line = f"{names[m1.side_b]} 胜 {names[m1.side_a]}（14:9）"
        await S.wait_text(h, GROUP_ID, f"🏁 第1轮 第1场（R1-M1）：{line}")

        # --- slot 2: R1-M2 with a referee's substitute; R1-M4 with a lateness limit extended --------------
        h.clock.set(first + timedelta(minutes=20 - 30))  # type: ignore[attr-defined]
        await S.run_due(h)
        ((a2, b2),) = await S.match_people(h, 1, "R1-M2")
        absent = a2[0]
        assert (await S.dm(h, a2[1], f"/substitute R1-M2 {absent} {SUB} 生病", "没有权限")).text
        await S.dm(h, REFEREE, f"/substitute R1-M2 {absent} {SUB} 生病", "已完成")
        assert (await S.wait_text(h, SUB, "代替")).text and (await S.wait_text(h, absent, "代替")).text
        await S.check_in(h, 1, "R1-M2", [SUB, a2[1], *b2])
        await S.run_due(h, timedelta(minutes=30))
        m2 = await S.tournament_match(h, 1, "R1-M2")
        assert m2.status == "playing"
        t2 = await table_repo.get_table(db, int(m2.game_tables[0]))
        assert [s.user_id for s in await table_repo.get_seats(db, t2.id)] == [SUB, b2[0], a2[1], b2[1]]  # type: ignore[union-attr]
        await S.finish_table(h, int(m2.game_tables[0]), 0, (14, 12))
        # the substitute is told their match is over; the player they stood in for hears the result and
        # that the pair's next match will follow (it is theirs again)
        done = await S.wait_text(h, SUB, "你的比赛结果")
        assert "替补的这场比赛已结束" in (done.text or "") and "下一场" not in (done.text or "")
        back = await S.wait_text(h, absent, "你的比赛结果")
        assert "R1-M2" in (back.text or "") and "下一场" in (back.text or "")
        ((a4, b4),) = await S.match_people(h, 1, "R1-M4")
        await S.check_in(h, 1, "R1-M4", [*a4, b4[0]])
        await S.run_due(h, timedelta(minutes=10))  # R1-M4 starts at first + 30
        await S.dm(h, REFEREE, "/extend R1-M4 5", "已完成")
        await S.wait_text(h, GROUP_ID, "延长 R1-M4 第 1 桌的迟到时限 5 分钟")
        await S.run_due(h, timedelta(minutes=16))  # past the 15 minutes, inside the 20
        assert (await S.tournament_match(h, 1, "R1-M4")).result_json is None
        await S.check_in(h, 1, "R1-M4", [b4[1]])
        await S.wait_text(h, b4[1], "你的牌")
        m4 = await S.tournament_match(h, 1, "R1-M4")
        assert m4.status == "playing" and m4.table_chats == [S.TABLE_GROUPS[2]]
        await S.finish_table(h, int(m4.game_tables[0]), 1, (10, 14))
        actions = {a.action for a in await ts.audit_log(db, 1)}
        assert {"substitute", "extend_lateness", "pause", "resume", "lateness_forfeit"} <= actions, actions

        # --- semi-finals: a violation in one; a result of the other and the /reverse at the same moment ---
        assert await _decided(h, "R1-M4")
        await S.schedule_posted(h, "R2-M1", "R2-M2")
        sf = {m.match_key: m for m in await ts.matches(db, 1) if m.match_key.startswith("R2-")}
        assert sorted(sf) == ["R2-M1", "R2-M2"], sorted(sf)
        await S.say(h, REFEREE, GROUP_ID, "/violation R2-M2 a 桌上交流", "C1")
        before = h.sim.last_bot_message(GROUP_ID)
        h.sim.user_sends_text(CHIEF, GROUP_ID, "/result R2-M1 b 10 14 裁判记录")
        h.sim.user_sends_text(REFEREE, GROUP_ID, "/reverse C1 误判")
        await S.wait_text(h, GROUP_ID, "撤销处罚 C1", after=before)
        await S.wait_text(h, GROUP_ID, "裁判更正 R2-M1", after=before)
        await S.settle(h)
        state = await ts.engine_state(db, 1)
        assert state.bracket is not None and state.bracket.match("R2-M1").result is not None  # never lost
        assert state.conduct.records[0].reversed_by == str(REFEREE)
        await S.say(h, CHIEF, GROUP_ID, "/result R2-M2 a 14 8 裁判记录", "裁判更正 R2-M2")
        await S.schedule_posted(h, "R3-M1", "P3-4-M1")
        rest = {m.match_key: m for m in await ts.matches(db, 1) if m.match_key in ("R3-M1", "P3-4-M1")}
        assert len(rest) == 2 and all(m.start_at for m in rest.values())  # the bracket goes on
        await S.say(h, CHIEF, GROUP_ID, "/result P3-4-M1 b 9 14 裁判记录", "裁判更正 P3-4-M1")

        # --- the final, played out: its four people check in and type their cards (one deal) -------------
        final = rest["R3-M1"]
        h.clock.set(final.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        ((fa, fb),) = await S.match_people(h, 1, "R3-M1")
        await S.check_in(h, 1, "R3-M1", [*fa, *fb])
        await S.run_due(h, timedelta(minutes=30))
        final = await S.tournament_match(h, 1, "R3-M1")
        assert final.status == "playing"
        # the manual clock stands still while they play: each of the four speaks in the bid window (a bid
        # or 不亮), so the window closes by its own step once all have passed, never by the clock; moving
        # the clock by real time here raced the people on a slow machine (the window closed before the
        # first bid was stored: a redeal; three in a row pause the table and the match never finished)
        played = await S.play_table(h, int(final.game_tables[0]))
        final = await _decided(h, "R3-M1")
        assert final is not None and final.result_json["winner"] == "ab"[int(played["winner"])]  # type: ignore[attr-defined]
        await S.settle(h)

        # --- prizes, standings, results (rounds by name, winner first), export ---------------------------
        over = [await S.wait_text(h, GROUP_ID, "全部比赛结束")]
        assert "代表参加学院比赛" in (over[-1].text or "")
        champion = final.side_a if final.result_json["winner"] == "a" else final.side_b  # type: ignore[attr-defined]
        assert f"1. {names[champion]} — 代表参加学院比赛" in (over[-1].text or "")
        standings = await S.say(h, P[3], GROUP_ID, "/standings", "排名")
        assert f"1. {names[champion]}" in (standings.text or "")
        results = (await S.say(h, P[3], GROUP_ID, "/results", "已完成比赛")).text or ""
        assert (
            "决赛（R3-M1）" in results
            and "半决赛 第1场（R2-M1）" in results
            and "三四名决赛（P3-4-M1）" in results
        )
        sf1 = await S.tournament_match(h, 1, "R2-M1")
        assert f"{names[sf1.side_b]} 胜 {names[sf1.side_a]}（14:10）" in results
        assert "R1-M3" in results and "（弃权）" in results
        files = await S.files_after(h, CHIEF, GROUP_ID, "/export", ".toml")
        matches_csv = next(v for k, v in files.items() if k.endswith("对阵.csv")).decode("utf-8-sig")
        table = list(csv.reader(io.StringIO(matches_csv)))
        col, key_col = table[0].index("牌桌"), table[0].index("场次")
        by_key = {r[key_col]: r[col] for r in table[1:]}
        assert by_key["R1-M4"] == "比赛桌3" and by_key["R1-M1"] == "比赛桌1", by_key
        cells = [
            c
            for k, v in files.items()
            if k.endswith(".csv")
            for r in csv.reader(io.StringIO(v.decode("utf-8-sig")))
            for c in r
        ]
        assert any(c.startswith("'" + FORMULA_NAME) for c in cells) and not any(
            c.startswith("=") for c in cells
        )

        # --- a second tournament: cancelled, then deleted, each after a confirmation ---------------------
        h.sim.add_group(SECOND_GROUP, "重复比赛通知群", [P[21], P[22]], [ORG])
        await S.dm(
            h,
            ORG,
            f'name = "重复创建的比赛"\npreset = "shengji-17-deals"\n'
            f'registration_deadline = "{S.local(h, timedelta(days=1))}"\n',
            "已从文件创建比赛 #2",
        )
        await S.say(h, ORG, SECOND_GROUP, "/tournament_group 2", "开始报名")
        await S.dm(h, ORG, f"/register #2 {P[21]} {P[22]}", "报名成功")
        ask = await S.dm(h, ORG, "/cancel_tournament #2 重复创建", "确定要取消比赛")
        assert (await S.press(h, ORG, ORG, ask, "不了")).text == "未作更改。"
        assert (await ts.get_tournament(db, 2)).status == "registration"
        ask = await S.dm(h, ORG, "/cancel_tournament #2 重复创建", "确定要取消比赛")
        await S.press(h, ORG, ORG, ask, "确定")
        await S.wait_text(h, SECOND_GROUP, "「重复创建的比赛」已取消：重复创建")
        await S.wait_text(h, ORG, "「重复创建的比赛」已取消", after=ask)
        await S.wait_text(h, P[21], "已取消：重复创建")
        ask = await S.dm(h, ORG, "/delete_tournament #2 重复创建", "确定要删除比赛")
        await S.press(h, ORG, ORG, ask, "确定")
        await S.wait_text(h, SECOND_GROUP, "「重复创建的比赛」已删除")
        await S.wait_text(h, ORG, "「重复创建的比赛」已删除", after=ask)  # the organiser's answer
        audit = await S.dm(h, ORG, "/audit #2", "操作记录（最近")
        assert " cancel " in (audit.text or "") and " delete " in (audit.text or "")
        assert (await ts.get_tournament(db, 1)).status == "finished"
        h.assert_no_errors()
