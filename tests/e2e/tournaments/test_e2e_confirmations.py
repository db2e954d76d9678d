"""End to end, issue 10: the confirmation of cancelling or deleting a tournament is a stored request, so
a restart between the command and the button keeps it; it expires after ten minutes with a clear
answer and changes nothing, and a button answers once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from engine.errors import RuleError
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S
from tests.e2e.tournaments.test_e2e_locked_tables import drawn_pairs

ORG = ORGANISER_ID


async def test_a_confirmation_survives_a_restart_expires_and_answers_once(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        await drawn_pairs(h)
        ask = await S.dm(h, ORG, "/cancel_tournament 场地临时不能使用", "10 分钟内确认")
        await h.restart()  # the request is a row: the button still means it
        answer = await S.press(h, ORG, ORG, ask, "确定")
        assert "已取消" in (answer.text or "")
        await S.settle(h)
        assert (await ts.get_tournament(S.db(h), 1)).status == "cancelled"
        assert (await h.sim.wait_for_message(GROUP_ID, "已取消：场地临时不能使用", timeout=15)).text
        # the same button again: answered once, nothing more happens
        again = await S.press(h, ORG, ORG, ask, "确定")
        assert "已经回答过" in (again.text or "")

        # a delete left for eleven minutes: expired, nothing changed, and the answer says so
        ask = await S.dm(h, ORG, "/delete_tournament #1 重复创建", "确定要删除比赛")
        h.clock.advance(timedelta(minutes=11))  # type: ignore[attr-defined]
        late = await S.press(h, ORG, ORG, ask, "确定")
        assert "已过期" in (late.text or "") and "10 分钟" in (late.text or "")
        assert (await ts.get_tournament(S.db(h), 1)).status == "cancelled"
        assert "delete" not in [x.action for x in await ts.audit_log(S.db(h), 1)]
        # someone else pressing an organiser's button changes nothing
        ask = await S.dm(h, ORG, "/delete_tournament #1 重复创建", "确定要删除比赛")
        token = str(ask.buttons()[0]["callback_data"]).split(":")[-1]
        with pytest.raises(RuleError) as refused:  # a forged press by another user
            await ts.take_confirmation(S.db(h), 1, token, S.EXTRA_BASE, h.clock.now())  # type: ignore[attr-defined]
        assert refused.value.code == "not_allowed"
        # "No" answers and keeps the tournament; then the organiser's own Yes on a fresh request works
        no = await S.press(h, ORG, ORG, ask, "不了")
        assert "未作更改" in (no.text or "")
        ask = await S.dm(h, ORG, "/delete_tournament #1 重复创建", "确定要删除比赛")
        await S.press(h, ORG, ORG, ask, "确定")
        await S.settle(h)
        assert (await ts.get_tournament(S.db(h), 1)).status == "deleted"
        h.assert_no_errors()
