"""A stop between storing a round's times and arming its matches' timers loses nothing: the round's times
are one commit, each match's timers (reminders, check-in, start, lateness) a row each after it; a match
left with a time and no timers would never open its check-in, start or forfeit anyone.  At start-up the
bot arms the timers of every scheduled match of a running tournament whose start timer is not armed
(``MatchTimers.resume_unarmed``).

A Swiss of 4 pairs: the draw schedules round 1 for tomorrow; S1-M2's timer rows are removed, as a stop
right after the times' commit leaves them; after the restart S1-M2 has the same timers as S1-M1, and when
the clock reaches its check-in opening, the check-in opens in the tournament group for both matches.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import delete

from storage import tournaments as ts
from storage.models import Deadline
from tests.e2e.harness import GROUP_ID, E2EHarness
from tests.e2e.tournaments import support as S


async def kinds_of(h: E2EHarness, match_id: int) -> list[str]:
    pending = await S.rt(h).scheduler.pending(S.db(h))
    return sorted(d.kind for d in pending if d.ref == f"tm:{match_id}")


async def test_a_round_whose_timers_a_stop_cut_off_is_armed_at_start_up(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=8, table_groups=2) as h:
        await S.four_pair_swiss(h, "计时赛")
        m1 = await ts.get_match(S.db(h), 1, "S1-M1")
        m2 = await ts.get_match(S.db(h), 1, "S1-M2")
        armed = await kinds_of(h, m1.id)
        assert "t_start" in armed and "t_checkin" in armed and "t_late" in armed, armed
        assert m2.start_at is not None and await kinds_of(h, m2.id) == armed

        # the state a stop right after the round's times were committed leaves: S1-M2 has a time, no timers
        async with S.db(h).session() as s:
            await s.execute(delete(Deadline).where(Deadline.ref == f"tm:{m2.id}"))
            await s.commit()
        await h.restart()
        await S.settle(h)
        assert await kinds_of(h, m2.id) == armed  # armed again at start-up, like its neighbour
        assert await kinds_of(h, m1.id) == armed  # and S1-M1's own left as they were (not doubled)

        before = h.sim.last_bot_message(GROUP_ID)
        st = ts.settings_of(await ts.get_tournament(S.db(h), 1))
        opens = m2.start_at - timedelta(minutes=st.checkin_opens_minutes)
        await S.run_due(h, opens - S.rt(h).scheduler.now() + timedelta(seconds=1))
        for key in ("S1-M1", "S1-M2"):
            await S.wait_text(h, GROUP_ID, f"签到开始：{key}", after=before)
        h.assert_no_errors()
