"""Issue 10, "Tests": one whole guandan-team tournament through the Bot API simulator and the real bot, from
the set-up file to the prizes, each step checked by what people see in their chats.

Three union groups (quota: two teams of three pairs each) -> two round-robin groups of three teams -> a
knockout of four (semi-finals, final, third-place match); each team match is three simultaneous tables
in three table groups.  Covered on the way: /edit of a time, the exported file sent back as an update of
the same tournament, invitations with a double tap and two people on one link, a quota race of three
people pressing at once, teams formed and their members told, /entries, the verifiable draw, per-table
lateness (a late player inside the limit while the match's first table plays; a pair that never comes),
locked tables, a result and a /reverse at the same moment, standings, results, export and prizes.
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
P = [S.EXTRA_BASE + i for i in range(42)]
REFEREE, CHIEF = P[40], P[41]
OUTSIDER = STRANGER[0]
UNIONS = ["机关", "理学院", "医学院"]
TEAMS = {
    "机关": ("机关一队", "机关二队"),
    "理学院": ("理学院一队", "理学院二队"),
    "医学院": ("医学院一队", "=医学院二队"),
}

SETUP = """name = "教工掼蛋团体赛"
preset = "guandan-team"
registration_deadline = "{deadline}"
draw_at = "{draw}"
first_round = "{first}"
round_gap_minutes = 30

[rules]
deals = 1

[tournament]
groups = 2
advance_per_group = 2
knockout_size = 4
third_place_match = true

[[union_groups]]
name = "机关"
quota = 2
[[union_groups]]
name = "理学院"
quota = 2
[[union_groups]]
name = "医学院"
quota = 2
"""


async def _finish(
    h: object, key: str, winners: list[int], levels: list[tuple[int, int]] | None = None
) -> None:
    """The tables of ``key`` still in play end (winner side 0 = a, 1 = b) as the engine would end them."""
    m = await S.tournament_match(h, 1, key)  # type: ignore[arg-type]
    for k, side in enumerate(winners):
        if str(k + 1) in m.table_results or m.game_tables[k] is None:
            continue
        la, lb = levels[k] if levels else ((14, 9) if side == 0 else (9, 14))
        await S.finish_table(h, int(m.game_tables[k]), side, (la, lb))  # type: ignore[arg-type]


async def _decided(h: object, key: str) -> object:
    async def check() -> object:
        m = await S.tournament_match(h, 1, key)  # type: ignore[arg-type]
        return m if m.result_json is not None else None

    return await S.eventually(check)


@pytest.mark.parametrize("backend", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
async def test_whole_guandan_team_tournament(tmp_path: Path, backend: str) -> None:
    async with S.tournament_harness(tmp_path, extra_players=42, table_groups=3, backend=backend) as h:
        db = S.db(h)
        # --- set-up from a file; the announcement carries the draw's commitment -------------------------
        spec = SETUP.format(
            deadline=S.local(h, timedelta(hours=2)),
            draw=S.local(h, timedelta(hours=3)),
            first=S.local(h, timedelta(days=1)),
        )
        created = await S.send_file(h, ORG, spec, "掼蛋团体赛.toml", "已从文件创建比赛 #1")
        assert "机关 2，理学院 2，医学院 2" in (created.text or "")
        ann = await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        commitment = (await ts.get_tournament(db, 1)).commitment
        assert commitment and commitment in (ann.text or "")
        for gid in S.TABLE_GROUPS:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        await S.dm(h, ORG, f"/role add referee {REFEREE}", "添加")
        await S.dm(h, ORG, f"/role add chief_referee {CHIEF}", "添加")

        # --- /edit a time after creation: the group is told -------------------------------------------
        row = await ts.get_tournament(db, 1)
        first = row.first_round_at + timedelta(hours=1)
        await S.dm(h, ORG, f"/edit first {ts.local_text(first, row.time_zone)}", "已完成")
        await S.wait_text(h, GROUP_ID, "第一轮开赛时间改为")

        # --- the exported file, edited, sent back: an update of the same tournament, not a copy ---------
        files = await S.files_after(h, ORG, ORG, "/export", ".toml")
        toml_name = next(n for n in files if n.endswith(".toml"))
        text = files[toml_name].decode("utf-8")
        assert "id = 1" in text and ts.local_text(first, row.time_zone) in text  # the edited time is in it
        edited = text.replace("round_gap_minutes = 30", "round_gap_minutes = 20")
        await S.send_file(h, ORG, edited, toml_name, "已按文件更新比赛 #1")
        await S.wait_text(h, GROUP_ID, "设置已由组织者更新")
        tournaments = await ts.all_tournaments(db)
        assert len(tournaments) == 1 and tournaments[0].round_gap_minutes == 20
        assert tournaments[0].first_round_at == first and tournaments[0].commitment == commitment

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
        await S.wait_text(h, P[0], "接受了你的邀请")
        pairs = [e for e in await ts.entries(db, 1) if e.kind == "pair"]
        assert len(pairs) == 1 and pairs[0].players_json[0] == P[0]
        partner = int(pairs[0].players_json[1])
        spare = P[2] if partner == P[1] else P[1]  # the one who was refused registers with someone else
        await S.dm(h, ORG, f"/register {spare} {P[3]} 机关", "报名成功")
        for i in (4, 6, 8, 10):
            await S.dm(h, ORG, f"/register {P[i]} {P[i + 1]} 机关", "报名成功")

        # --- a quota race: 理学院 (2 teams: 6 pairs) has room for one more pair; three partners press
        #     接受邀请 at the same moment ---------------------------------------------------------------------
        for i in (12, 14, 16, 18, 20):
            await S.dm(h, ORG, f"/register {P[i]} {P[i + 1]} 理学院", "报名成功")
        inviters, partners = [P[22], P[36], P[37]], [P[23], P[38], P[39]]
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
        assert sum("理学院 的名额（6）已满" in a for a in answers) == 2, answers
        science = [e for e in await ts.entries(db, 1, "pair") if e.union_group == "理学院"]
        assert len(science) == 6  # the quota held
        late_comer = await S.follow(h, P[24], S.url_button(ann), "请选择你的单位")
        full = await S.press(h, P[24], P[24], late_comer, "理学院")
        assert "名额" in (full.text or "")
        for i in range(24, 36, 2):
            await S.dm(h, ORG, f"/register {P[i]} {P[i + 1]} 医学院", "报名成功")
        assert len(S.find(h, ORG, "📝 新报名")) == 2  # registrations by invitation reach the organiser

        # --- teams: formed by the union groups' pairs; every member is told; /entries counts apart -------
        await S.dm(h, ORG, f"/role add leader {P[0]} 机关", "添加")
        listing = await S.dm(h, P[0], "/team", "已报名搭档")
        assert "理学院" not in (listing.text or "")  # a leader sees their own group's pairs
        by_union: dict[str, list[int]] = {}
        for e in await ts.entries(db, 1, "pair"):
            by_union.setdefault(e.union_group, []).append(e.id)
        for union in UNIONS:
            who = P[0] if union == "机关" else ORG
            for n, team in enumerate(TEAMS[union]):
                ids = " ".join(str(i) for i in by_union[union][3 * n : 3 * n + 3])
                await S.dm(h, who, f"/team {team} {ids}", "团队已组成")
        told = await S.wait_text(h, P[0], "你已加入")
        assert "机关一队" in (told.text or "") and h.name(P[5]) in (told.text or "")
        listing = await S.dm(h, ORG, "/entries", "参赛名单")
        assert "6 队，18 对" in (listing.text or "")

        # --- the deadline closes registration; the draw reveals the secret committed at the opening -----
        await S.run_due(h, timedelta(hours=2, minutes=1))
        await S.wait_text(h, GROUP_ID, "报名已截止，共 6 个参赛队")
        await S.run_due(h, timedelta(hours=1))
        frozen = await S.wait_text(h, GROUP_ID, "名单 SHA-256")
        doc = await h.sim.wait_for_message(
            GROUP_ID, lambda m: m.document is not None and m.document["filename"] == "draw-1.json", timeout=20
        )
        published = S.published_from(doc)
        assert published["commitment"] == commitment and commitment in (frozen.text or "")
        assert verify(published, {"list_hash": published["list_hash"], "commitment": commitment}).ok
        names = {p for e in published["entries"] for p in e["players"]}
        assert f"{h.name(P[0])} ({P[0]})" in names and all(re.fullmatch(r".+ \(\d+\)", p) for p in names)
        await S.wait_text(h, GROUP_ID, "🗓 赛程")
        rows = await ts.matches(db, 1)
        assert sorted(r.match_key for r in rows) == [f"{g}-R{r}-M1" for g in "AB" for r in (1, 2, 3)]
        assert all(len(r.table_chats) == 3 for r in rows)
        assert len({r.start_at for r in rows}) == 6  # three table groups: one team match at a time
        entry_names = {str(e.id): e.name for e in await ts.entries(db, 1, include_withdrawn=True)}

        # --- match A: table 1 complete at the start; table 2's late player comes inside the limit;
        #     table 3's pair of side a never comes --------------------------------------------------------
        ma = await S.tournament_match(h, 1, "A-R1-M1")
        assert ma.start_at == first
        h.clock.set(ma.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        tables = await S.match_people(h, 1, "A-R1-M1")
        late, never_pair = tables[1][1][0], tables[2][0]
        await S.check_in(
            h, 1, "A-R1-M1", [p for a, b in tables for p in (*a, *b) if p != late and p not in never_pair]
        )
        await S.run_due(h, timedelta(minutes=30))
        ma = await S.tournament_match(h, 1, "A-R1-M1")
        statuses = [(await table_repo.get_table(db, int(t))).status for t in ma.game_tables]  # type: ignore[union-attr]
        assert statuses == ["playing", "open", "open"]
        people = await ts.user_names(db, [late, *never_pair])
        missing = f"A-R1-M1 第 3 桌等待签到：{people[never_pair[0]]}、{people[never_pair[1]]}"
        await S.wait_text(h, GROUP_ID, missing)
        await S.wait_text(h, ORG, missing)  # the organiser sees who is missing
        await S.wait_text(h, ORG, f"A-R1-M1 第 2 桌等待签到：{people[late]}")

        # --- locked tables: no lobby buttons, an outsider's link, an opponent's Start, a player's /leave ---
        t3 = await table_repo.get_table(db, int(ma.game_tables[2]))
        assert t3 is not None and t3.chat_id == S.TABLE_GROUPS[2]
        lobby = next(x for x in h.sim.bot_messages(t3.chat_id) if x.message_id == t3.table_message_id)
        assert lobby.buttons() == [] and "比赛桌" in (lobby.text or "")
        refused = await S.follow(h, OUTSIDER, S.bot_link(h, f"join_{t3.id}_0"), "比赛桌")
        assert refused.text
        opponent = tables[2][1][0]
        start = S.forge_press(
            h, opponent, t3.chat_id, lobby.message_id, TableButton(TableOp.START, t3.id).encode()
        )
        assert "比赛桌" in ((await h.sim.wait_callback_answer(start, 20)).text or "")
        await S.say(h, opponent, t3.chat_id, "/leave", "比赛桌")
        seats = [s.user_id for s in await table_repo.get_seats(db, t3.id)]
        assert seats == [never_pair[0], tables[2][1][0], never_pair[1], tables[2][1][1]]
        assert (await table_repo.get_table(db, t3.id)).status == "open"  # type: ignore[union-attr]

        # 5 minutes late, inside the 10-minute limit, while table 1 plays: accepted; table 2 starts
        h.clock.advance(timedelta(minutes=5))  # type: ignore[attr-defined]
        await S.check_in(h, 1, "A-R1-M1", [late])
        await S.wait_text(h, late, "你的牌")  # their table has begun: the hand arrives
        assert (await table_repo.get_table(db, int(ma.game_tables[1]))).status == "playing"  # type: ignore[union-attr]
        # at the limit table 3 is lost; the notice names the team and both players
        await S.run_due(h, timedelta(minutes=5, seconds=1))
        notice = (await S.wait_text(h, GROUP_ID, "⚠️ A-R1-M1 第 3 桌")).text or ""
        assert (
            entry_names[ma.side_a] in notice
            and people[never_pair[0]] in notice
            and people[never_pair[1]] in notice
        )
        assert "其余桌照常进行" in notice
        await S.wait_text(h, never_pair[0], "⚠️ A-R1-M1 第 3 桌")  # the players are told too
        # tables 1 and 2 end: a wins table 1, b table 2; with the forfeit side b wins 2:1, winner first
        await _finish(h, "A-R1-M1", [0, 1])
        ma = await _decided(h, "A-R1-M1")
        assert ma is not None and ma.result_json["winner"] == "b"  # type: ignore[attr-defined]
        line = f"{entry_names[ma.side_b]} 胜 {entry_names[ma.side_a]}（2:1）"  # type: ignore[attr-defined]
        await S.wait_text(h, GROUP_ID, f"🏁 A组 第1轮（A-R1-M1）：{line}")
        mine = await S.wait_text(h, tables[0][1][0], "你的比赛结果")
        assert line in (mine.text or "")

        # --- match B-R1-M1: everybody on time; side a wins --------------------------------------------------
        mb = await S.tournament_match(h, 1, "B-R1-M1")
        h.clock.set(mb.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        await S.check_in(
            h, 1, "B-R1-M1", [p for a, b in await S.match_people(h, 1, "B-R1-M1") for p in (*a, *b)]
        )
        await S.run_due(h, timedelta(minutes=30))
        # table 1 is played out by its four people typing their cards (one deal); tables 2 and 3 end as
        # the engine would end them, both won by side a
        mb = await S.tournament_match(h, 1, "B-R1-M1")
        played = await S.play_table(h, int(mb.game_tables[0]))
        await S.table_recorded(h, 1, "B-R1-M1", 1)
        await _finish(h, "B-R1-M1", [0, 0, 0])
        mb = await _decided(h, "B-R1-M1")
        assert mb is not None and mb.result_json["winner"] == "a"  # type: ignore[attr-defined]
        assert mb.result_json["tables"][0]["winner"] == "ab"[int(played["winner"])]  # type: ignore[attr-defined]
        await S.wait_text(h, GROUP_ID, "🏁 B组 第1轮（B-R1-M1）：")
        # the rest of the group stage is recorded by the chief referee; levels against the winner are a typo
        typo = await S.say(h, CHIEF, GROUP_ID, "/result A-R2-M1 b 14 11 裁判记录", "级数与胜方不符")
        assert "未作更改" in (typo.text or "")
        assert (await S.tournament_match(h, 1, "A-R2-M1")).result_json is None
        for key in ("A-R2-M1", "B-R2-M1", "A-R3-M1", "B-R3-M1"):
            await S.say(
                h,
                CHIEF,
                GROUP_ID,
                f"/result {key} {'a 14 11' if key.startswith('A') else 'b 11 14'} 裁判记录",
                f"裁判更正 {key}",
            )
        await S.schedule_posted(h, "R1-M1", "R1-M2")  # the group stage is over: the semi-finals follow

        # --- standings with translated columns --------------------------------------------------------------
        standings = await S.say(h, P[3], GROUP_ID, "/standings", "积分")
        text = standings.text or ""
        assert "A组" in text and "B组" in text and "级差" in text and "胜桌" in text and "[" not in text
        # the ranking so far lists the two teams out (third in their groups), not the four still playing
        ranking = text.split("排名：")[-1]
        assert ranking.count("纪念奖") == 2 and "-." not in ranking, ranking

        # --- semi-finals; a violation in one, then a result and its /reverse at the same moment ---------
        await S.settle(h)
        group_keys = {f"{g}-R{r}-M1" for g in "AB" for r in (1, 2, 3)}
        semis = sorted(m.match_key for m in await ts.matches(db, 1) if m.match_key not in group_keys)
        assert len(semis) == 2, semis
        sf1, sf2 = semis
        await S.say(h, REFEREE, GROUP_ID, f"/violation {sf2} a 桌上交流", "C1")
        before = h.sim.last_bot_message(GROUP_ID)
        h.sim.user_sends_text(CHIEF, GROUP_ID, f"/result {sf1} b 裁判记录")
        h.sim.user_sends_text(REFEREE, GROUP_ID, "/reverse C1 误判")
        await S.wait_text(h, GROUP_ID, "撤销处罚 C1", after=before)
        await S.wait_text(h, GROUP_ID, f"裁判更正 {sf1}", after=before)
        await S.settle(h)
        state = await ts.engine_state(db, 1)
        assert state.bracket is not None and state.bracket.match(sf1).result is not None  # never lost
        # the semi-final's losers still have the third-place match: not told their tournament is over
        loser = (await S.match_people(h, 1, sf1))[0][0][0]
        told = (await S.wait_text(h, loser, f"你的比赛结果：半决赛 第1场（{sf1}）")).text or ""
        assert "下一场" in told and "全部结束" not in told, told
        assert state.conduct.records[0].reversed_by == str(REFEREE)
        # the other semi-final is played: the final and the third-place match follow (the bracket goes on)
        m2 = await S.tournament_match(h, 1, sf2)
        h.clock.set(m2.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        await S.check_in(h, 1, sf2, [p for a, b in await S.match_people(h, 1, sf2) for p in (*a, *b)])
        await S.run_due(h, timedelta(minutes=30))
        await _finish(h, sf2, [1, 0, 1], [(10, 14), (14, 12), (13, 14)])
        assert await _decided(h, sf2)
        await S.schedule_posted(h, "R2-M1", "P3-4-M1")
        later = [m for m in await ts.matches(db, 1) if m.match_key not in group_keys | {sf1, sf2}]
        assert len(later) == 2 and all(m.start_at is not None for m in later)
        for m in later:
            await S.say(h, CHIEF, GROUP_ID, f"/result {m.match_key} a 裁判记录", f"裁判更正 {m.match_key}")
        await S.settle(h)

        # --- prizes, results winner first with rounds by name, export -----------------------------------
        prizes = (await S.wait_text(h, GROUP_ID, "全部比赛结束")).text or ""
        assert all(p in prizes for p in ("一等奖", "二等奖", "三等奖"))
        results = await S.say(h, P[3], GROUP_ID, "/results", "已完成比赛")
        text = results.text or ""
        assert "决赛" in text and "半决赛" in text and "三四名决赛" in text
        m1 = await S.tournament_match(h, 1, sf1)
        assert f"{entry_names[m1.side_b]} 胜 {entry_names[m1.side_a]}（3:0）" in text
        files = await S.files_after(h, CHIEF, GROUP_ID, "/export", ".toml")
        matches_csv = next(v for k, v in files.items() if k.endswith("对阵.csv")).decode("utf-8-sig")
        table = list(csv.reader(io.StringIO(matches_csv)))
        col = table[0].index("牌桌")
        assert all("比赛桌1" in r[col] and "比赛桌3" in r[col] for r in table[1:]), table
        everything = b"".join(v for k, v in files.items() if k.endswith(".csv")).decode("utf-8-sig")
        assert "'=医学院二队" in everything
        assert not any(
            cell.startswith("=")
            for k, v in files.items()
            if k.endswith(".csv")
            for r in csv.reader(io.StringIO(v.decode("utf-8-sig")))
            for cell in r
        )
        assert any(k.endswith(".xlsx") for k in files)
        h.assert_no_errors()
