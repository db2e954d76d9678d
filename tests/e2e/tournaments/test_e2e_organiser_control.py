"""End to end, issue 10 "organiser control after creation": edit a time, reschedule, swap and move
matches (the players told, the timers moved), cancel and delete with a confirmation (announced, in the
audit log); later rounds planned from the real match length."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S
from tests.e2e.tournaments.test_e2e_locked_tables import drawn_pairs

ORG = ORGANISER_ID


async def test_edit_reschedule_swap_move_then_cancel(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        m1, m2 = await drawn_pairs(h)
        row = await ts.get_tournament(S.db(h), 1)
        assert m1.start_at == row.first_round_at  # type: ignore[attr-defined]
        # the first round moves by an hour: its matches and their timers move with it
        later = ts.local_text(row.first_round_at + timedelta(hours=1), row.time_zone)
        await S.dm(h, ORG, f"/edit first {later}", "已完成")
        m1 = await S.tournament_match(h, 1, m1.match_key)  # type: ignore[attr-defined]
        assert m1.start_at == row.first_round_at + timedelta(hours=1)
        pending = await S.rt(h).scheduler.pending(S.db(h), "t_start", f"tm:{m1.id}")
        assert [d.due_at for d in pending] == [m1.start_at]
        assert (await h.sim.wait_for_message(GROUP_ID, "第一轮开赛时间改为", timeout=15)).text
        refused = await S.dm(h, ORG, "/edit draw 2020-01-01 10:00", "已经抽过签")
        assert refused.text
        # one match an hour later still; the players of both sides are told
        when = ts.local_text(m1.start_at + timedelta(hours=1), row.time_zone)
        await S.dm(h, ORG, f"/reschedule {m1.match_key} {when}", "已完成")
        ((a, b),) = await ts.match_players(S.db(h), m1)
        for uid in (a[0], b[1]):  # told through the outbox
            assert (await h.sim.wait_for_message(uid, f"改期：{m1.match_key}", timeout=15)).text
        m1 = await S.tournament_match(h, 1, m1.match_key)
        # the two matches swap times and tables; then table 1 of one moves to the other table group
        m2 = await S.tournament_match(h, 1, m2.match_key)  # type: ignore[attr-defined]
        before = (m1.start_at, m1.table_chats, m2.start_at, m2.table_chats)
        await S.dm(h, ORG, f"/swap {m1.match_key} {m2.match_key}", "已完成")
        m1, m2 = await S.tournament_match(h, 1, m1.match_key), await S.tournament_match(h, 1, m2.match_key)
        assert (m2.start_at, m2.table_chats, m1.start_at, m1.table_chats) == before
        other = next(g for g in S.TABLE_GROUPS[:2] if g != int(m1.table_chats[0]))
        await S.dm(h, ORG, f"/move_table {m1.match_key} 1 {other}", "已完成")
        assert (await S.tournament_match(h, 1, m1.match_key)).table_chats == [other]
        refused = await S.dm(h, S.EXTRA_BASE, f"/reschedule #1 {m1.match_key} {when}", "没有权限")
        assert refused.text
        # cancelling asks first; "No" changes nothing, "Yes" cancels, tells everyone, stops the timers
        ask = await S.dm(h, ORG, "/cancel_tournament 场地临时不能使用", "确定要取消比赛")
        await S.press(h, ORG, ORG, ask, "不了")
        assert (await ts.get_tournament(S.db(h), 1)).status == "running"
        ask = await S.dm(h, ORG, "/cancel_tournament 场地临时不能使用", "确定要取消比赛")
        await S.press(h, ORG, ORG, ask, "确定")
        await S.settle(h)
        assert (await ts.get_tournament(S.db(h), 1)).status == "cancelled"
        assert (await h.sim.wait_for_message(GROUP_ID, "已取消：场地临时不能使用", timeout=15)).text
        assert (await h.sim.wait_for_message(a[0], "已取消", timeout=15)).text
        assert not await S.rt(h).scheduler.pending(S.db(h), "t_start", f"tm:{m1.id}")
        actions = [x.action for x in await ts.audit_log(S.db(h), 1)]
        assert {"edit_time", "reschedule", "swap", "move_table", "cancel"} <= set(actions)
        # deleting hides it from every list; its audit log stays
        ask = await S.dm(h, ORG, "/delete_tournament #1 重复创建", "确定要删除比赛")
        await S.press(h, ORG, ORG, ask, "确定")
        await S.settle(h)
        assert (await ts.get_tournament(S.db(h), 1)).status == "deleted"
        gone = await S.dm(h, ORG, "/schedule", "找不到比赛")
        assert gone.text and "delete" in [x.action for x in await ts.audit_log(S.db(h), 1)]
        h.assert_no_errors()


async def test_later_rounds_follow_the_real_match_length() -> None:
    """Issue 10: a fixed 70-minute slot whatever the length; now a time limit plus the lateness limit,
    or about five minutes a deal, at most the preset's slot."""
    from types import SimpleNamespace

    def row(preset: str, **rules: int) -> object:
        built = ts.build_setup(preset, rules)
        return SimpleNamespace(preset_id=preset, rule_overrides=rules, settings_json=built.settings.to_dict())

    def late(r: object) -> int:
        return int(r.settings_json["late_forfeit_minutes"])  # type: ignore[attr-defined]

    fifty, timed, one_deal, seventeen = (
        row("shengji-50min"),
        row("shengji-timed-2h", time_limit_minutes=60),
        row("shengji-17-deals", deals=1),
        row("shengji-17-deals"),
    )
    assert ts.match_minutes(fifty) == 50 + late(fifty)  # type: ignore[arg-type]
    assert ts.match_minutes(timed) == 60 + late(timed)  # type: ignore[arg-type]
    assert ts.match_minutes(one_deal) == 5 + late(one_deal)  # type: ignore[arg-type]
    slot = int(seventeen.settings_json["match_slot_minutes"])  # type: ignore[attr-defined]
    assert ts.match_minutes(seventeen) == min(slot, 17 * 5 + late(seventeen))  # type: ignore[arg-type]
