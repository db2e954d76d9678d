"""End to end against the simulator (issue 20): late entries and withdrawals between Swiss rounds in chat.

A Swiss of 6 pairs over 3 rounds: during round 1 the organiser's /register is a late entry (0 points,
paired from round 2; its players are told); a player's /withdraw while their match has no result is
refused with the reason and changes nothing; once the result is in, their /withdraw takes them out (the
partner is told) and round 2 is paired without them and with the late pair; a stranger's /remove is
refused; after the last round is paired a late entry is refused with one translated line."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID

SWISS = '[tournament]\nformat = "swiss"\nswiss_rounds = 3\n'


async def round_sides(h: object, rnd: int) -> dict[str, tuple[str | None, str | None]]:
    rows = await ts.matches(S.db(h), 1)  # type: ignore[arg-type]
    return {m.match_key: (m.side_a, m.side_b) for m in rows if m.match_key.startswith(f"S{rnd}-")}


async def test_late_entry_and_withdrawal_between_swiss_rounds(tmp_path: Path) -> None:
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
        for i in range(6):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")
        await S.dm(h, ORG, "/draw", "已完成")
        await S.settle(h)
        r1 = await round_sides(h, 1)
        assert sorted(r1) == ["S1-M1", "S1-M2", "S1-M3"]

        # a late pair during round 1: 0 points, from round 2; its players are told
        late = await S.dm(h, ORG, "/register @p13 @p14", "迟到报名")
        assert "第 2 轮" in (late.text or "")
        await S.wait_text(h, S.EXTRA_BASE + 12, "迟到报名加入")
        eng = await ts.engine_state(S.db(h), 1)
        late_id = eng.entries[-1].id
        assert eng.swiss is not None and eng.swiss.joined == {late_id: 2}

        # a player of S1-M1's side a withdraws while the match has no result: refused, nothing changes
        leaver = r1["S1-M1"][0] or ""
        entry = next(e for e in await ts.entries(S.db(h), 1) if str(e.id) == leaver)
        player, partner = (int(p) for p in entry.players_json)
        refused = await S.dm(h, player, "/withdraw", "尚未结束")
        assert "S1-M1" in (refused.text or "")
        assert (await ts.engine_state(S.db(h), 1)).swiss.withdrawn == []  # type: ignore[union-attr]
        stranger = await S.dm(h, S.EXTRA_BASE + 2, f"/remove {leaver}", "没有权限")
        assert stranger.text

        for i, key in enumerate(sorted(r1)):
            await S.dm(h, ORG, f"/result {key} a 14 9 记分表", "已")
            await S.settle(h)
            if i == 0:  # its match is over, the round is not: the player withdraws between rounds
                gone = await S.dm(h, player, "/withdraw", "已退出积分编排")
                assert entry.name in (gone.text or "")
                await S.wait_text(h, partner, "已退出积分编排")
        await S.wait_text(h, GROUP_ID, "S2-M3")
        r2 = await round_sides(h, 2)
        in_r2 = {e for sides in r2.values() for e in sides if e}
        assert leaver not in in_r2 and late_id in in_r2 and len(in_r2) == 6  # 5 left + the late pair
        assert all(b is not None for _, b in r2.values())  # six entries: no bye

        for key in sorted(r2):
            await S.dm(h, ORG, f"/result {key} a 14 9 记分表", "已")
            await S.settle(h)
        await S.wait_text(h, GROUP_ID, "S3-M3")
        assert leaver not in {e for s in (await round_sides(h, 3)).values() for e in s if e}
        # the last round is paired: a late entry is refused with one line, nothing is added
        no = await S.dm(h, ORG, "/register @p1 @p2", "最后一轮已编排")
        assert no.text
        assert len((await ts.engine_state(S.db(h), 1)).entries) == 7
