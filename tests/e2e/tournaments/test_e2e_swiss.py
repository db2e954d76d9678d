"""End to end against the simulator (issue 20): a Swiss of 7 pairs over 3 rounds from a TOML file.

The draw pairs round 1 (one bye) and the group gets its schedule; a round's next one is paired and
posted with its tables and times only once the round's last result is in (the referee's /result);
nobody meets twice, three different pairs have the byes; /standings shows the Swiss table with its
tie-breaks; the organiser's /remove of an entry with a match still open is refused with the reason;
after the last round the tournament is over with the final ranking; a player's /me shows their
rating, the tournament and the rating graph; /season gives the season table and its files.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID

SWISS = (
    '[tournament]\nformat = "swiss"\nswiss_rounds = 3\nseparate_union_groups = true\n'
    'prize_table = "places_1_2_3"\nprize_counts = [1, 1, 1]\n\n'
    '[[union_groups]]\nname = "机关"\nquota = 4\n[[union_groups]]\nname = "理学院"\nquota = 4\n'
)


async def round_keys(h: object, rnd: int) -> list[str]:
    rows = await ts.matches(S.db(h), 1)  # type: ignore[arg-type]
    return sorted(
        (m.match_key for m in rows if m.match_key.startswith(f"S{rnd}-")), key=lambda k: int(k.split("M")[1])
    )


async def test_a_swiss_end_to_end(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=14, table_groups=3) as h:
        first = S.local(h, timedelta(days=1))
        await S.dm(
            h,
            ORG,
            f'name = "教工积分赛"\npreset = "shengji-17-deals"\nfirst_round = "{first}"\n{SWISS}',
            "已从文件创建比赛",
        )
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        for i in range(7):
            await S.dm(
                h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2} {'机关' if i < 4 else '理学院'}", "报名成功"
            )
        await S.dm(h, ORG, "/draw", "已完成")
        await S.settle(h)
        again = await S.dm(h, ORG, "/draw", "已经抽过签")  # a second /draw: one clear answer
        assert "教工积分赛" in (again.text or "")
        r1 = await round_keys(h, 1)
        assert r1 == ["S1-M1", "S1-M2", "S1-M3"]  # 7 pairs: three matches and a bye
        await S.wait_text(h, GROUP_ID, "S1-M3")
        eng = await ts.engine_state(S.db(h), 1)
        assert eng.swiss is not None
        byes = [m.a for m in eng.swiss.matches if m.b is None]

        met: set[frozenset[str]] = set()
        for rnd in (1, 2, 3):
            keys = await round_keys(h, rnd)
            for m in await ts.matches(S.db(h), 1):
                if m.match_key in keys:
                    pair = frozenset((m.side_a or "", m.side_b or ""))
                    assert pair not in met
                    met.add(pair)
            if rnd == 2:  # the organiser tries to withdraw an entry whose round-2 match is open
                open_match = await ts.get_match(S.db(h), 1, keys[0])
                refused = await S.dm(h, ORG, f"/remove {open_match.side_a}", "尚未结束")
                assert keys[0] in (refused.text or "")
            for i, key in enumerate(keys):
                before = h.sim.last_bot_message(GROUP_ID)
                await S.dm(h, ORG, f"/result {key} a 14 9 记分表", "已")
                await S.settle(h)
                if i < len(keys) - 1:  # the round is not over: nothing of the next round yet
                    assert await round_keys(h, rnd + 1) == []
            if rnd < 3:
                posted = await S.wait_text(h, GROUP_ID, f"S{rnd + 1}-M3", after=before)
                text = posted.text or ""
                assert "赛程" in text and all(f"S{rnd + 1}-M{k}" in text for k in (1, 2, 3))
                assert "桌" in text  # the table groups are named
                eng = await ts.engine_state(S.db(h), 1)
                assert eng.swiss is not None
                byes += [m.a for m in eng.swiss.round_matches(rnd + 1) if m.b is None]
        assert len(byes) == 3 and len(set(byes)) == 3  # one bye each at most

        standings = await S.say(h, ORG, GROUP_ID, "/standings", "积分编排排名")
        assert "对手分" in (standings.text or "") and "第3轮后" in (standings.text or "")
        assert "等级分" in (standings.text or "")  # each entry's rating (its players' mean)
        over = await S.wait_text(h, GROUP_ID, "全部比赛结束")
        assert "一等奖" in (over.text or "")

        # a player's /me: their rating (provisional after 3 tables or fewer), the tournament, the graph
        me = await S.dm(h, S.EXTRA_BASE, "/me", "的战绩")
        text = me.text or ""
        assert "双升" in text and "?" in text and "#1 教工积分赛" in text and "第" in text
        chart = await h.sim.wait_for_message(
            S.EXTRA_BASE, lambda msg: msg.photo is not None, after=me, timeout=15
        )
        assert chart.photo["width"] >= 800
        await S.say(h, S.EXTRA_BASE, GROUP_ID, "/me", "私聊")  # private only

        # the season table over this tournament, with its CSV and Excel files
        season = await S.say(h, ORG, GROUP_ID, "/season 1", "赛季积分榜")
        assert (
            "机关" in (season.text or "") and "理学院" in (season.text or "") and "1. " in (season.text or "")
        )
        files = await S.files_after(h, ORG, GROUP_ID, "/season #1 export", ".xlsx")
        assert set(files) == {"season-1-players.csv", "season-1-groups.csv", "season-1.xlsx"}
        rows = files["season-1-players.csv"].decode("utf-8-sig").splitlines()
        assert len(rows) == 1 + 14 and rows[0].startswith("名次,选手,单位")
        await S.say(h, ORG, GROUP_ID, "/season x", "/season 编号")  # bad input: the usage, nothing else
