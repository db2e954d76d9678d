"""End to end against the simulator (issue 20): what a running Swiss of teams refuses, through the commands.

A Swiss of 4 teams (2 pairs each) over 2 rounds, drawn: a player's /withdraw of their pair alone is refused
(``swiss_team_withdraw``: a team leaves the Swiss as a whole, the organiser's /remove of the team), and the
organiser's /register of a late pair is refused (``swiss_late_team``: late entries are for a Swiss of pairs).
Each gets its one translated answer and nothing else, and the stored tournament is the same afterwards.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

from bot.presentation.tournament.texts import tt
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID

SETUP = """name = "团体积分赛"
preset = "guandan-team"
first_round = "{first}"

[tournament]
pairs_per_team = 2
format = "swiss"
swiss_rounds = 2
"""


async def _stored(h: Any) -> tuple[Any, ...]:
    """What the refusals must leave as it was: the engine state, every entry's status, the matches."""
    row = await ts.get_tournament(S.db(h), 1)
    entries = sorted((e.id, e.kind, e.status, e.team_id) for e in await ts.entries(S.db(h), 1))
    matches = sorted((m.match_key, m.side_a, m.side_b, m.status) for m in await ts.matches(S.db(h), 1))
    return row.state_json, row.status, entries, matches


async def _one_answer(h: Any, user_id: int, text: str, expect: str) -> Any:
    """``user_id`` sends ``text`` privately; the bot's only reply there contains ``expect``."""
    before = len(h.sim.bot_messages(user_id))
    answer = await S.dm(h, user_id, text, expect)
    await S.settle(h)
    assert len(h.sim.bot_messages(user_id)) == before + 1, [m.text for m in h.sim.bot_messages(user_id)]
    return answer


async def test_a_swiss_of_teams_refuses_a_pair_leaving_alone_and_a_late_pair(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=18, table_groups=2) as h:
        first = S.local(h, timedelta(days=1))
        await S.dm(h, ORG, SETUP.format(first=first), "已从文件创建比赛")
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS[:2]:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        for i in range(8):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")
        for k in range(4):
            await S.dm(h, ORG, f"/team 队{k + 1} {2 * k + 1} {2 * k + 2}", "团队已组成")
        await S.dm(h, ORG, "/draw", "已完成")
        await S.settle(h)
        assert ts.swiss_running(await ts.get_tournament(S.db(h), 1))
        before = await _stored(h)
        assert sorted(m[0] for m in before[3]) == ["S1-M1", "S1-M2"]

        # a player of a team's pair withdraws it alone: refused, the team leaves as a whole
        pair = next(e for e in await ts.entries(S.db(h), 1) if e.kind == "pair")
        player = int(pair.players_json[0])
        refused = await _one_answer(h, player, "/withdraw", "只能整队退赛")
        assert refused.text == tt("zh", "err.swiss_team_withdraw")
        assert await _stored(h) == before

        # the organiser's late pair: refused, nothing registered (p17 and p18 have started the bot)
        late = await _one_answer(h, ORG, "/register @p17 @p18", "迟到报名只用于固定搭档")
        assert late.text == tt("zh", "err.swiss_late_team")
        assert await _stored(h) == before
        assert await ts.entry_of_user(S.db(h), 1, S.EXTRA_BASE + 16) is None

        h.assert_no_errors()
