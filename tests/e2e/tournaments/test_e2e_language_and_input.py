"""End to end: an English-speaking player gets English answers; bad input gets a clear answer and
changes nothing; no stack trace reaches a chat (issue 5: every admin/referee command checks the role)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from storage import tournaments as ts
from tests.e2e.harness import ENGLISH_USER, GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
EN = ENGLISH_USER[0]


async def test_english_answers_and_bad_input_change_nothing(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=2) as h:
        await h.start_players([h.handle(EN)])
        deadline = ts.local_text(h.clock.now() + timedelta(hours=1), "Asia/Shanghai")  # type: ignore[attr-defined]
        await S.dm(
            h,
            ORG,
            f'name = "Open"\npreset = "shengji-timed-2h"\nregistration_deadline = "{deadline}"\n'
            '[[union_groups]]\nname = "Admin"\nquota = 1\n',
            "已从文件创建比赛",
        )
        ann = await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        choose = await S.follow(h, EN, S.url_button(ann), "choose your union group")
        await S.press(h, EN, EN, choose, "Admin")
        invite = await h.sim.wait_for_message(EN, "one-time partner invitation", after=choose)
        url = next(w for w in (invite.text or "").split() if w.startswith("https://t.me/"))
        own = await S.follow(h, EN, url, "invites you")
        answer = await S.press(h, EN, EN, own, "Accept")
        assert answer.text == "You cannot be your own partner."
        refused = await S.dm(h, EN, "/draw #1", "not allowed")
        assert refused.text == "You are not allowed to do this."
        # an organiser's bad input: clear answers, nothing changes
        before = len(await ts.audit_log(S.db(h), 1))
        usage = await S.dm(h, ORG, "/result", "用法")
        assert "/result" in (usage.text or "")
        unknown = await S.dm(h, ORG, "/role add referee @nobody", "找不到用户")
        assert unknown.text
        bad_role = await S.dm(h, ORG, f"/role add captain {EN}", "没有角色")
        assert bad_role.text
        no_match = await S.dm(h, ORG, "/forfeit R9-M9 a 迟到", "没有场次 R9-M9")
        assert no_match.text
        assert len(await ts.audit_log(S.db(h), 1)) == before
        # the quota (1 for Admin) is enforced for everyone else once the pair exists
        await S.dm(h, ORG, "/register @p1 @p2 Admin", "报名成功")
        full = await S.follow(h, EN, S.url_button(ann), "choose your union group")
        answer = await S.press(h, EN, EN, full, "Admin")
        assert answer.text == "The quota of Admin (1) is full."
        help_en = await S.dm(h, EN, "/tournament_help", "Tournament commands")
        assert "/undo_forfeit" in (help_en.text or "")
        h.assert_no_errors()
