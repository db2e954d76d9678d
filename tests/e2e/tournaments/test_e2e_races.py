"""End to end, issue 10 "races": a double tap on 接受邀请 makes one pair; two people opening one invitation
link and accepting make one pair, the inviter in it once; concurrent results reach the bracket (the
service-level races, held deterministically, are in test_integrity.py)."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
P = [S.EXTRA_BASE + i for i in range(6)]


async def _open(h: object) -> str:
    now = h.clock.now()  # type: ignore[attr-defined]
    spec = (
        f'name = "双升赛"\npreset = "shengji-17-deals"\n'
        f'registration_deadline = "{ts.local_text(now + timedelta(days=1), "Asia/Shanghai")}"\n'
    )
    await S.dm(h, ORG, spec, "已从文件创建比赛")  # type: ignore[arg-type]
    ann = await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")  # type: ignore[arg-type]
    choose = await S.follow(h, P[0], S.url_button(ann))  # type: ignore[arg-type]
    invite = (
        choose
        if "https://t.me/" in (choose.text or "")
        else await h.sim.wait_for_message(  # type: ignore[attr-defined]
            P[0], "https://t.me/", after=choose, timeout=15
        )
    )
    return next(w for w in (invite.text or "").split() if w.startswith("https://t.me/"))


async def test_a_double_tap_and_two_people_on_one_invite_make_one_pair(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=6) as h:
        link = await _open(h)
        offers = [await S.follow(h, uid, link, "邀请你作为搭档") for uid in (P[1], P[2])]
        # P[1] taps Accept twice at once, P[2] accepts the same invitation at the same moment
        queries = [
            h.sim.press_button(P[1], P[1], offers[0].message_id, text="接受邀请"),
            h.sim.press_button(P[1], P[1], offers[0].message_id, text="接受邀请"),
            h.sim.press_button(P[2], P[2], offers[1].message_id, text="接受邀请"),
        ]
        answers = await asyncio.gather(*[h.sim.wait_callback_answer(q, 20) for q in queries])
        await S.settle(h)
        pairs = [e for e in await ts.entries(S.db(h), 1) if e.kind == "pair"]
        assert len(pairs) == 1 and pairs[0].players_json[0] == P[0]
        texts = [a.text or "" for a in answers]
        assert sum("报名成功" in t for t in texts) == 1, texts
        assert any("已被使用" in t or "已接受过" in t for t in texts), texts
        listing = await S.dm(h, ORG, "/entries", "参赛名单")
        assert "1 对" in (listing.text or "")
        h.assert_no_errors()
