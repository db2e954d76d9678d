"""Issue 10 "consent": a replacement needs the new partner's acceptance and the replaced partner is told;
the team's roster follows; withdrawing one pair of a team withdraws that pair only, and its leader is told."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from engine.errors import RuleError
from storage import tournaments as ts
from storage.db import Database
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S
from tests.storage.tournaments.test_service import NOW, ORG, make, pair


async def test_a_replacement_waits_for_the_new_partner_and_updates_the_team_roster(db: Database) -> None:
    tid = await make(db, "guandan-team", union_groups=[{"name": "机关", "quota": 1}])
    ids = [await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "机关") for i in range(3)]
    team = await ts.form_team(db, tid, ORG, ids, "机关队")
    offer = await ts.offer_replacement(
        db, tid, ids[0], 1002, 1010, 1001, NOW
    )  # a player asks for their partner
    assert [e.players_json for e in await ts.entries(db, tid) if e.id == ids[0]] == [[1001, 1002]]
    with pytest.raises(RuleError) as exc:
        await ts.accept_replacement(db, offer.token, 1011, NOW)  # someone else with the link
    assert exc.value.code == "not_your_invite"
    entry, old = await ts.accept_replacement(db, offer.token, 1010, NOW)
    assert old == 1002 and entry.players_json == [1001, 1010]
    roster = next(e for e in await ts.entries(db, tid) if e.id == team.id)
    assert 1002 not in roster.players_json and 1010 in roster.players_json
    with pytest.raises(RuleError) as exc:
        await ts.accept_replacement(db, offer.token, 1010, NOW)
    assert exc.value.code == "invite_used"
    with pytest.raises(RuleError) as exc:  # a stranger cannot replace anyone
        await ts.offer_replacement(db, tid, ids[1], 1003, 1012, 1015, NOW)
    assert exc.value.code == "not_allowed"
    assert (await ts.entry_of_user(db, tid, 1002)) is None  # the replaced player is free to register again


async def test_one_pair_leaving_a_team_leaves_the_team_one_pair_short(db: Database) -> None:
    tid = await make(
        db, "guandan-team", union_groups=[{"name": "机关", "quota": 2}, {"name": "理学院", "quota": 1}]
    )
    await ts.grant(db, tid, ORG, 1020, "leader", "机关")
    ids = [await pair(db, tid, 1001 + 2 * i, 1002 + 2 * i, "机关") for i in range(4)]
    team = await ts.form_team(db, tid, 1020, ids[:3], "机关队")
    done = await ts.withdraw(db, tid, ids[1], 1004)
    assert done.team is not None and done.team.id == team.id and done.leaders == [1020]
    active = {e.id: e for e in await ts.entries(db, tid)}
    assert team.id in active and ids[1] not in active  # the team stays; the pair is out
    assert len(active[team.id].players_json) == 4
    for i in range(3, 6):
        await pair(db, tid, 1001 + 2 * i + 6, 1002 + 2 * i + 6, "理学院")
    others = [e.id for e in await ts.entries(db, tid) if e.union_group == "理学院"]
    await ts.form_team(db, tid, ORG, others, "理学院队")
    with pytest.raises(RuleError) as exc:
        await ts.freeze(db, tid, b"\x01" * 32)
    assert exc.value.code == "team_incomplete" and exc.value.params["team"] == "机关队"
    await ts.form_team(db, tid, 1020, [ids[3]], "机关队")  # the leader completes it
    active = {e.id: e for e in await ts.entries(db, tid)}
    assert len(active[team.id].players_json) == 6
    await ts.freeze(db, tid, b"\x01" * 32)


async def test_replace_and_withdraw_in_the_chats(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=14, table_groups=2) as h:
        P = [S.EXTRA_BASE + i for i in range(14)]
        now = h.clock.now()  # type: ignore[attr-defined]
        first = ts.local_text(now + timedelta(days=2), "Asia/Shanghai")
        spec = (
            f'name = "掼蛋团体赛"\npreset = "guandan-team"\nfirst_round = "{first}"\n'
            '[[union_groups]]\nname = "机关"\nquota = 1\n'
        )
        await S.dm(h, ORGANISER_ID, spec, "已从文件创建比赛")
        await S.say(h, ORGANISER_ID, GROUP_ID, "/tournament_group", "开始报名")
        await S.dm(h, ORGANISER_ID, "/role add leader @p13 机关", "添加")
        for i in range(3):
            await S.dm(h, ORGANISER_ID, f"/register @p{2 * i + 1} @p{2 * i + 2} 机关", "报名成功")
        await S.dm(h, P[12], "/team 机关队 1 2 3", "团队已组成")
        # p1 asks p8 to replace p2: nothing changes until p8 accepts; then p2 is told
        await S.dm(h, P[0], "/replace 1 @p2 @p8", "对方接受后生效")
        ask = await h.sim.wait_for_message(P[7], "代替", timeout=15)
        assert (await ts.entry_of_user(S.db(h), 1, P[1])) is not None
        await S.press(h, P[7], P[7], ask, "接受")
        told = await h.sim.wait_for_message(P[1], "代替你", timeout=15)
        assert told.text and "选手8" in told.text
        team = next(e for e in await ts.entries(S.db(h), 1) if e.kind == "team")
        assert P[7] in team.players_json and P[1] not in team.players_json
        # p3 withdraws their pair: the team stays, its leader is told
        await S.dm(h, P[2], "/withdraw", "已退出")
        note = await h.sim.wait_for_message(P[12], "已退出比赛", timeout=15)
        assert note.text and "机关队" in note.text and "2/3" in note.text
        assert (await h.sim.wait_for_message(P[3], "已退出比赛", timeout=15)).text  # and the partner
        assert any(e.kind == "team" for e in await ts.entries(S.db(h), 1))
        h.assert_no_errors()
