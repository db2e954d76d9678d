"""A referee's /result is answered right after its commit; what it sets going (the announcement, the
players' messages, a round's next one scheduled) follows in the background, and a stop before that is
done loses nothing: after the restart the bot does it (docs/architecture.md, "A referee's result:
answered first").

A Swiss of 4 pairs over 2 rounds: round 1's first result as usual; for its last result the follow-up is
held (it waits for an event that never comes, as a slow machine would keep it busy): the organiser's
answer comes all the same, with the result stored and round 2 paired but not yet scheduled; the bot
is restarted with the follow-up still held; the new process announces the result, schedules round 2,
posts it and tells each player their table.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.tournaments.results import FOLLOW_UP
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID


async def test_a_result_is_answered_first_and_its_follow_up_survives_a_restart(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=8, table_groups=2) as h:
        await S.four_pair_swiss(h, "跟进赛")
        db = S.db(h)
        r1 = sorted(m.match_key for m in await ts.matches(db, 1) if m.match_key.startswith("S1-"))
        assert r1 == ["S1-M1", "S1-M2"]
        before = h.sim.last_bot_message(GROUP_ID)
        await S.dm(h, ORG, "/result S1-M1 a 14 9 记分表", "已完成")
        await S.wait_text(h, GROUP_ID, "S1-M1", after=before)  # the follow-up announced it
        await S.settle(h)

        # the round's last result: its follow-up is held as a slow machine would hold it
        tb = h.app.bot_data["tournaments"]
        reached, never = asyncio.Event(), asyncio.Event()

        async def held(*args: Any, **kwargs: Any) -> None:
            reached.set()
            await never.wait()

        tb.results.after_result = held
        before = h.sim.last_bot_message(GROUP_ID)
        await S.dm(h, ORG, "/result S1-M2 b 8 13 记分表", "已完成")  # answered while the follow-up waits
        await asyncio.wait_for(reached.wait(), 15)
        m = await ts.get_match(db, 1, "S1-M2")
        assert m.result_json is not None and m.result_json["winner"] == "b"  # committed before the answer
        r2 = [m for m in await ts.matches(db, 1) if m.match_key.startswith("S2-")]
        assert len(r2) == 2 and all(m.start_at is None for m in r2)  # paired, not scheduled yet
        assert [d.kind for d in await S.rt(h).scheduler.pending(db, FOLLOW_UP)] == []  # claimed: running

        await h.restart()  # the held follow-up is cancelled: its row is pending again, the new bot runs it
        await S.settle(h)
        assert await S.rt(h).scheduler.pending(S.db(h), FOLLOW_UP) == []
        announced = await S.wait_text(h, GROUP_ID, "S1-M2", after=before)
        assert "记分表" in (announced.text or "")  # the referee's result, with its reason
        posted = await S.wait_text(h, GROUP_ID, "S2-M2", after=before)
        assert "赛程" in (posted.text or "") and "S2-M1" in (posted.text or "")
        r2 = [m for m in await ts.matches(S.db(h), 1) if m.match_key.startswith("S2-")]
        assert all(m.start_at is not None and m.table_chats for m in r2)  # scheduled on the table groups
        for m in r2:  # each player told their table, once for each round
            for pa, pb in await ts.match_players(S.db(h), m):
                for uid in (*pa, *pb):
                    assert len(S.find(h, uid, "你的下一场")) == 2, uid
        h.assert_no_errors()
