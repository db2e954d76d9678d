"""Issue 20, "Figures": a 128-pair Swiss of 7 rounds on the Bot API simulator, from registration to the
prize list, with a referee correction in round 3: the standings recomputed from the stored results equal
the ones announced.

The organiser registers 128 pairs (256 people) and holds the draw through the bot; each round is paired
by the bot once its last result is in.  Every match is really played: its deal is played by the engine's
computer players (``shengji-17-deals`` rules, one deal a match, the baseline level) and the referee
enters the engine's result with /result (winner and levels) -- the 448 deals are played in the test's
process, not card by card through Telegram, which would take about 45,000 messages (the card-by-card
path through the simulator is covered by the whole-tournament and load tests).  In round 3 the referee
corrects a recorded result before the round is over.  At the end, a fresh engine built from the stored
draw and the stored results, round by round, gives the same pairings and the same final ranking as the
announcement of the prize list.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import pytest

from engine.ai.levels import player_for, table_step
from engine.registry import load_preset, new_match
from engine.tournament import PairingResult
from engine.tournament import Tournament as Engine
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
PAIRS, ROUNDS = 128, 7
RULES = replace(load_preset("shengji-17-deals").rules, deals=1)
NORMAL = player_for("shengji", "normal")


def played(key: str) -> tuple[str, int, int]:
    """The engine's result of match ``key``'s deal: (winner side, levels of a, levels of b)."""
    seed = zlib.crc32(key.encode())
    m = new_match("shengji", RULES, seed)
    rng = random.Random(seed)
    while not m.finished:
        m.apply(table_step(m, [NORMAL] * 4, rng))
    result = m.result()
    assert result is not None
    la, lb = result["levels"]
    return ("a" if result["winner"] == 0 else "b"), la, lb


@pytest.mark.slow
@pytest.mark.timeout(900)
async def test_a_128_pair_swiss_of_seven_rounds_from_registration_to_the_prizes(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=2 * PAIRS, table_groups=3) as h:
        first = S.local(h, timedelta(days=1))
        await S.dm(
            h,
            ORG,
            f'name = "全校积分赛"\npreset = "shengji-17-deals"\nfirst_round = "{first}"\n'
            f'[tournament]\nformat = "swiss"\nswiss_rounds = {ROUNDS}\n'
            'prize_table = "places_1_2_3"\nprize_counts = [1, 1, 1]\n',
            "已从文件创建比赛",
        )
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        for i in range(PAIRS):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")
        # the draw of 128 pairs also schedules round 1 and tells 256 players their table before it answers:
        # wait for that answer itself, however long a shared machine takes (the test's timeout bounds it)
        before = h.sim.last_bot_message(ORG)
        h.sim.user_sends_text(ORG, ORG, "/draw")
        await h.sim.wait_for_message(ORG, "已完成", after=before, timeout=600)
        await S.settle(h)
        db = S.db(h)
        corrected = ""
        for rnd in range(1, ROUNDS + 1):
            rows = [m for m in await ts.matches(db, 1) if m.match_key.startswith(f"S{rnd}-")]
            keys = sorted((m.match_key for m in rows if m.side_b), key=lambda k: int(k.split("M")[1]))
            assert len(keys) == PAIRS // 2, (rnd, len(keys))
            for i, key in enumerate(keys):
                side, la, lb = played(key)
                # answered right after the commit: the announcement and, after the round's last result, the
                # next round's scheduling (64 matches, 128 players told their table) follow in the background
                await S.dm(h, ORG, f"/result {key} {side} {la} {lb} 电脑对局", "已")
                if rnd == 3 and i == 0:  # the referee corrects the round's first result: the other side won
                    other = "b" if side == "a" else "a"
                    await S.dm(h, ORG, f"/result {key} {other} {max(la, lb)} {min(la, lb)} 记分表有误", "")
                    corrected = key
            await S.settle(h, timeout=600)  # that follow-up done, however long a shared machine takes
        over = await S.wait_text(h, GROUP_ID, "全部比赛结束", timeout=60)
        announced = [line for line in (over.text or "").split("\n")[1:] if line[:1].isdigit()]
        assert "一等奖" in (over.text or "")

        # the stored results, replayed round by round into a fresh engine from the stored draw
        eng = await ts.engine_state(db, 1)
        assert eng.finished and eng.draw is not None
        fresh = Engine.create(eng.name, eng.settings, eng.entries)
        fresh.hold_draw(eng.draw.secret)
        stored = {m.match_key: m for m in await ts.matches(db, 1)}
        fix = stored[corrected]
        assert fix.result_json is not None
        for rnd in range(1, ROUNDS + 1):
            for key in fresh.ready_matches():
                row = stored[key]
                assert fresh.sides(key) == (row.side_a, row.side_b)  # the same pairings
                assert row.result_json is not None
                fresh.record(key, PairingResult.from_dict(row.result_json))
            if rnd < ROUNDS:
                assert fresh.ready_matches(), rnd
        assert fresh.finished
        assert fresh.ranking() == eng.ranking()  # the whole final table
        recomputed = [f"{r.place}. {r.name}" for r in fresh.ranking()]
        shown = [line.split(" · 等级分")[0].split(" — ")[0].split("（")[0] for line in announced]
        # the announcement's lines (a long list may go on in a further message) are the table's first lines
        assert len(shown) >= 3 and shown == recomputed[: len(shown)], (shown[:5], recomputed[:5])
        h.assert_no_errors()
