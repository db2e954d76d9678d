"""Duplicate deals end to end (issue 20, "Figures"): a Guandan team match of two pairs a side with
``duplicate = true`` played out by its eight people through the Bot API simulator and the real bot.

* both tables get the same deal hands with the sides swapped, checked from the seeds and salts each table
  group revealed (and the commitment it showed) with ``python -m bot.verify_deal``;
* neither table begins a board before the other has finished the one before, and no message or edit at
  table 2 (its group and its four players' private chats) shows a hand of a board before table 2 deals it;
* the match result is the documented comparison of the boards' level steps.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.presentation.common import ctext
from bot.tables.review import deal_records
from bot.verify_deal import main as verify_main
from bot.webapp.bridge import RuntimeBridge
from engine.cards import card_text
from engine.tournament.duplicate import deal_score
from storage import match_repo, table_repo
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
DEALS = 2

SETUP = """name = "复式掼蛋"
preset = "guandan-team"
first_round = "{first}"

[rules]
deals = {deals}

[tournament]
pairs_per_team = 2
duplicate = true
knockout_size = 2
third_place_match = false

[[union_groups]]
name = "机关"
quota = 1
[[union_groups]]
name = "理学院"
quota = 1
"""

REVEAL = re.compile(r"第 \d+ 副：种子 (\d+) · salt ([0-9a-f]{32})")
COMMIT = re.compile(r"🔒 本副承诺 ([0-9a-f]{16})")


def _verified_hands(capsys: pytest.CaptureFixture[str], args: list[str]) -> list[set[str]]:
    assert verify_main(args) == 0
    out = capsys.readouterr().out
    assert "VERIFIED" in out and "NOT VERIFIED" not in out and "FAIL" not in out, out
    hands = {}
    for line in out.splitlines():
        seat, sep, rest = line.partition(" (")
        if sep and seat in ("S", "E", "N", "W"):
            hands[seat] = set(rest.split("): ", 1)[1].split())
    return [hands[s] for s in ("S", "E", "N", "W")]


def _shows(text: str | None, hand: Counter[str]) -> bool:
    """Does a message show every card of ``hand`` (its "你的牌 (n):" block, or anywhere in it)?"""
    words = Counter((text or "").replace("\n", " ").split())
    return all(words[card] >= n for card, n in hand.items())


def _distinct(found: list[str]) -> list[str]:
    out: list[str] = []
    for x in found:
        if x not in out:
            out.append(x)
    return out


async def test_a_duplicate_team_match_deals_the_same_boards_turned_in_lockstep(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    async with S.tournament_harness(tmp_path, extra_players=8, table_groups=2) as h:
        first = ts.local_text(h.clock.now() + timedelta(days=2), "Asia/Shanghai")  # type: ignore[attr-defined]
        await S.dm(h, ORG, SETUP.format(first=first, deals=DEALS), "已从文件创建比赛")
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS[:2]:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        for i, group in enumerate(["机关", "机关", "理学院", "理学院"]):
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2} {group}", "报名成功")
        await S.dm(h, ORG, "/team 机关队 1 2", "团队已组成")
        await S.dm(h, ORG, "/team 理学院队 3 4", "团队已组成")
        await S.dm(h, ORG, "/draw", "已完成")
        await S.settle(h)
        (m,) = await ts.matches(S.db(h), 1)
        h.clock.set(m.start_at - timedelta(minutes=30))  # type: ignore[attr-defined]
        await S.run_due(h)
        note = S.find(h, GROUP_ID, f"签到开始：{m.match_key}")[-1]
        people = await S.match_people(h, 1, m.match_key)
        # table 1's four check in first: it waits for table 2 (the two tables start together)
        for uid in (*people[0][0], *people[0][1]):
            await S.press(h, uid, GROUP_ID, note, "签到")
        await S.run_due(h, timedelta(minutes=30))  # the start: both tables open, table 2 is not complete
        m = await S.tournament_match(h, 1, m.match_key)
        t1, t2 = (int(x) for x in m.game_tables)
        assert await match_repo.current_match(S.db(h), t1) is None  # not started alone
        # every deal that begins: where the simulator's transcript stands, and how far the other table is
        begun: dict[tuple[int, int], int] = {}
        behind: list[tuple[int, int, int]] = []
        over: dict[int, int] = {}  # table -> where the transcript stood when its match ended
        live = S.rt(h).live
        original = live.announce

        async def watched(match_id: int, events: list[Any], *args: Any, **kwargs: Any) -> Any:
            for ev in events:
                got = await match_repo.get_match_row(S.db(h), match_id)
                if ev.kind == "match_over" and got is not None and got.table_id in (t1, t2):
                    over[1 if got.table_id == t1 else 2] = h.sim.events[-1].seq + 1
                if ev.kind == "deal_started" and got is not None and got.table_id in (t1, t2):
                    k, d = (1 if got.table_id == t1 else 2), int(ev.data["deal_no"])
                    begun[(k, d)] = h.sim.events[-1].seq + 1 if h.sim.events else 0
                    other = await match_repo.current_match(S.db(h), t2 if k == 1 else t1)
                    if other is None:
                        behind.append((k, d, -1))
                        continue
                    _, om = await match_repo.match_state(S.db(h), other.id)
                    if len(om.history) < d - 1 and not om.finished:
                        behind.append((k, d, len(om.history)))
            return await original(match_id, events, *args, **kwargs)

        live.announce = watched
        for uid in (*people[1][0], *people[1][1]):
            await S.press(h, uid, GROUP_ID, note, "签到")
        await S.settle(h)
        rows = [await match_repo.current_match(S.db(h), t) for t in (t1, t2)]
        assert rows[0] is not None and rows[1] is not None
        assert rows[0].seed == rows[1].seed  # one comparison seed
        assert [r.options_json["board_turn"] for r in rows] == [0, 1]
        chats = {
            k: {int(table.chat_id)}
            | {int(s.user_id) for s in await table_repo.get_seats(S.db(h), t) if s.user_id}
            for k, t in ((1, t1), (2, t2))
            if (table := await table_repo.get_table(S.db(h), t)) is not None
        }

        # a player of one table may not watch the other on the page (it plays the same deals); others may
        bridge = RuntimeBridge(S.rt(h))
        assert not await bridge.may_watch(rows[0].id, people[1][0][0])
        assert not await bridge.may_watch(rows[1].id, people[0][1][1])
        assert await bridge.may_watch(rows[0].id, S.EXTRA_BASE + 99)

        await asyncio.gather(S.play_table(h, t1, timeout=240), S.play_table(h, t2, timeout=240))
        assert not behind, behind  # no table ever began a board its partner had not reached

        await S.table_recorded(h, 1, m.match_key, 2)
        await S.settle(h)
        # the boards, from what each table group revealed once both tables were over, checked with bot.verify_deal
        hands: dict[int, list[list[set[str]]]] = {}
        for k, t in ((1, t1), (2, t2)):
            group = int(m.table_chats[k - 1])
            said = [e for e in h.sim.events if e.chat_id == group and e.kind in ("send", "edit")]
            texts = [e.text or "" for e in said]
            assert not any("🔑 种子" in text for text in texts)  # no deal summary reveals a seed
            revealed = [e.seq for e in said if REVEAL.search(e.text or "")]
            assert revealed and min(revealed) > max(over.values()) and len(over) == 2
            reveals = _distinct([f"{s} {x}" for text in texts for s, x in REVEAL.findall(text)])
            commits = _distinct([c for text in texts for c in COMMIT.findall(text)])
            assert len(reveals) == DEALS and len(commits) >= DEALS, (reveals, commits)
            hands[k] = []
            for reveal, commit in zip(reveals, commits, strict=False):
                seed, salt = reveal.split()
                args = ["--preset", "guandan-team", "--seed", seed, "--salt", salt, "--commitment", commit]
                hands[k].append(_verified_hands(capsys, [*args, "--board-turn", str(k - 1)]))
            row = await match_repo.current_match(S.db(h), t)
            assert row is not None
            actions = [a.action for a in await match_repo.action_log(S.db(h), row.id)]
            for rec in deal_records("guandan", row.options_json, row.seed, actions)[:DEALS]:
                assert rec.hands is not None
                dealt = [{card_text(c) for c in hand} for hand in rec.hands]
                assert dealt == hands[k][rec.deal_no - 1]  # the hands the players got are the revealed ones
        for d in range(DEALS):
            one, two = hands[1][d], hands[2][d]
            assert two[2] == one[1] and two[0] == one[3]  # table 2's N/S hold table 1's E/W hands
            assert two[1] == one[0] and two[3] == one[2]

        # nothing at table 2 shows a board's hand before table 2 deals it (and does once it is dealt)
        _, m2 = await match_repo.match_state(S.db(h), rows[1].id)
        for d in range(1, DEALS + 1):
            row2 = await match_repo.current_match(S.db(h), t2)
            assert row2 is not None
            actions = [a.action for a in await match_repo.action_log(S.db(h), row2.id)]
            rec = deal_records("guandan", row2.options_json, row2.seed, actions)[d - 1]
            assert rec.hands is not None
            for seat in range(4):
                hand = Counter(ctext("zh", " ".join(card_text(c) for c in rec.hands[seat])).split())
                at_t2 = [e for e in h.sim.events if e.chat_id in chats[2] and e.kind in ("send", "edit")]
                before = [e for e in at_t2 if e.seq < begun[(2, d)]]
                after = [e for e in at_t2 if e.seq >= begun[(2, d)]]
                assert not any(_shows(e.text, hand) for e in before), (d, seat)
                assert any(_shows(e.text, hand) for e in after), (d, seat)  # (the check can fail)

        # the result: each board's signed level steps at both tables, summed
        await S.table_recorded(h, 1, m.match_key, 2)
        m = await S.tournament_match(h, 1, m.match_key)
        _, m1 = await match_repo.match_state(S.db(h), rows[0].id)
        total = sum(
            deal_score("guandan", a) + deal_score("guandan", b)
            for a, b in zip(m1.history, m2.history, strict=False)
        )
        assert m.result_json is not None
        assert m.result_json["extra"]["duplicate"]["total"] == total
        if total:
            assert m.result_json["winner"] == ("a" if total > 0 else "b")
            assert m.result_json["decided_by"] == "duplicate"
            assert S.find(
                h, GROUP_ID, f"同牌比较 {min(len(m1.history), len(m2.history))} 副，净胜 {abs(total)} 级"
            )
        h.assert_no_errors()
