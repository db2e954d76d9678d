"""A duplicate Swiss of pairs end to end (issue 20): six pairs, two Swiss rounds of two deals with
``duplicate = true``, set up from a TOML file, checked in and played out by their twelve people through the
Bot API simulator and the real bot, three table groups.  Shengji on SQLite, Guandan (the guandan-team preset
with ``entrant = "pair"``) on PostgreSQL.

* each round's matches 1 and 2 form the comparison: both start in one slot on two tables with one seed
  (turns 0 and 1), the first complete table held until its partner is complete; match 3, left over, plays
  ordinary deals (here a referee's /result stands for its play);
* a table deals board *d* + 1 only once its partner table has finished board *d* (the live announcer is
  wrapped to see every deal begin), and nothing said at a table (its group and its players' private chats)
  shows a hand of a board before that table deals it;
* the seeds come only once both tables are over; each table's boards are checked from its revealed seeds
  and salts and the commitments it showed with ``python -m bot.verify_deal --board-turn``; the two tables
  hold the same four hands turned one seat;
* each match's stored duplicate total is side a's steps at both tables summed (``deal_score``), the winner
  follows it, and ``/standings`` shows the points that follow from those winners;
* round 2 is paired only once the referee's result of match 3 is in; after round 1 the pairs who won their
  table are rated above those who lost it, and the final standings show each pair's rating as the stored
  table results give it (provisional).
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
from bot.presentation.tournament.text import entry_label
from bot.tables.review import deal_records
from bot.verify_deal import main as verify_main
from bot.webapp.bridge import RuntimeBridge
from engine.cards import card_text
from engine.fairness import commitment
from engine.registry import load_preset
from engine.tournament.duplicate import deal_score
from engine.tournament.ratings import entry_rating, match_games, replay
from engine.tournament.results import PairingResult
from storage import match_repo, table_repo
from storage import tournaments as ts
from tests.e2e.harness import GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S

ORG = ORGANISER_ID
DEALS = 2
PAIRS = 6

SETUP = """name = "复式积分赛"
preset = "{preset}"
first_round = "{first}"

[rules]
deals = {deals}

[tournament]
entrant = "pair"
pairs_per_team = 1
format = "swiss"
swiss_rounds = 2
duplicate = true

[[union_groups]]
name = "机关"
quota = 3
[[union_groups]]
name = "理学院"
quota = 3
"""

REVEAL = re.compile(r"第 (\d+) 副：种子 (\d+) · salt ([0-9a-f]{32})")
COMMIT = re.compile(r"🔒 本副承诺 ([0-9a-f]{16})")
ROW = re.compile(r"^(\d+)\. (.+?) (\d+)分 · (\d+)胜(\d+)平(\d+)负 · 对手分(\d+) · 级差[+-]\d+(.*)$")


def _verified_hands(capsys: pytest.CaptureFixture[str], args: list[str]) -> list[set[str]]:
    """``python -m bot.verify_deal`` with ``args``: it says VERIFIED; the four hands it prints (S, E, N, W)."""
    assert verify_main(args) == 0
    out = capsys.readouterr().out
    assert "VERIFIED" in out and "NOT VERIFIED" not in out and "FAIL" not in out, out
    hands = {}
    for line in out.splitlines():
        seat, sep, rest = line.partition(" (")
        if sep and seat in ("S", "E", "N", "W"):
            hands[seat] = set(rest.split("): ", 1)[1].split())
    return [hands[s] for s in ("S", "E", "N", "W")]


def _words(text: str | None) -> Counter[str]:
    return Counter((text or "").split())


def _shows(words: Counter[str], hand: Counter[str]) -> bool:
    """Does a message (its ``_words``) show every card of ``hand``?"""
    return all(words[card] >= n for card, n in hand.items())


def _distinct(found: list[Any]) -> list[Any]:
    out: list[Any] = []
    for x in found:
        if x not in out:
            out.append(x)
    return out


async def _keys(h: Any, rnd: int) -> list[str]:
    rows = await ts.matches(S.db(h), 1)
    return sorted(
        (m.match_key for m in rows if m.match_key.startswith(f"S{rnd}-")), key=lambda k: int(k.split("M")[1])
    )


class Watch:
    """The live announcer wrapped: where the simulator's transcript stood when each table began a deal, and
    every deal begun while its partner table had not finished the deal before (the documented rule)."""

    def __init__(self, h: Any) -> None:
        self.h = h
        self.db = S.db(h)
        self.partner: dict[int, int] = {}  # table id -> its comparison partner's table id
        self.begun: dict[tuple[int, int], int] = {}  # (table id, deal no) -> a seq before it began
        self.over: dict[int, int] = {}  # table id -> first seq after its match ended
        self.early: list[tuple[int, int, int]] = []
        live = S.rt(h).live
        self.original = live.announce
        live.announce = self.announce

    def seq(self) -> int:
        return self.h.sim.events[-1].seq + 1 if self.h.sim.events else 0

    async def announce(self, match_id: int, events: list[Any], *args: Any, **kwargs: Any) -> Any:
        db = self.db
        got = await match_repo.get_match_row(db, match_id)
        table = None if got is None else got.table_id
        for ev in events:
            if table not in self.partner:
                continue
            if ev.kind == "match_over":
                self.over[table] = self.seq()
            if ev.kind == "deal_started":
                d = int(ev.data["deal_no"])
                self.begun.setdefault((table, d), self.seq())
                other = await match_repo.current_match(db, self.partner[table])
                if other is None or other.status == "open":
                    self.early.append((table, d, -1))
                    continue
                _, om = await match_repo.match_state(db, other.id)
                if len(om.history) < d - 1 and not om.finished:
                    self.early.append((table, d, len(om.history)))
        return await self.original(match_id, events, *args, **kwargs)


async def _start_slot(h: Any, watch: Watch, odd: str, even: str) -> None:
    """Comparison ``odd`` + ``even`` (one slot): check-in opens, all but one player check in, the start comes
    and both tables open, the odd one complete but held for its partner; the last player checks in and both
    tables play (watched from their first deal)."""
    rows = [await S.tournament_match(h, 1, k) for k in (odd, even)]
    assert rows[0].start_at == rows[1].start_at, [(m.match_key, m.start_at) for m in rows]
    h.clock.set(rows[0].start_at - timedelta(minutes=30))
    await S.run_due(h)
    people = [[u for a, b in await S.match_people(h, 1, k) for u in (*a, *b)] for k in (odd, even)]
    await S.check_in(h, 1, odd, people[0])
    await S.check_in(h, 1, even, people[1][:-1])
    await S.run_due(h, timedelta(minutes=30))
    rows = [await S.tournament_match(h, 1, k) for k in (odd, even)]
    one, two = (int(m.game_tables[0]) for m in rows)
    assert await match_repo.current_match(S.db(h), one) is None  # complete, but not started alone
    watch.partner[one], watch.partner[two] = two, one
    for t in (one, two):  # a Shengji match's first deal begins with the match (no deal_started event)
        watch.begun[(t, 1)] = watch.seq()
    await S.check_in(h, 1, even, people[1][-1:])

    async def playing() -> bool:
        for t in (one, two):
            row = await match_repo.current_match(S.db(h), t)
            if row is None or row.status != "playing":
                return False
        return True

    assert await S.eventually(playing), (odd, even)


async def _comparison(
    h: Any, watch: Watch, capsys: pytest.CaptureFixture[str], preset: str, odd: str, even: str
) -> tuple[int, int]:
    """Matches ``odd`` and ``even`` (one comparison, already playing) are played out at the same time; every
    check of the module docstring on them; returns the two matches' stored duplicate total (side a's)."""
    db = S.db(h)
    game = load_preset(preset).game
    ms = [await S.tournament_match(h, 1, k) for k in (odd, even)]
    tables = [int(m.game_tables[0]) for m in ms]
    assert watch.partner[tables[0]] == tables[1]
    rows = [await match_repo.current_match(db, t) for t in tables]
    assert rows[0] is not None and rows[1] is not None
    assert rows[0].seed == rows[1].seed  # one comparison seed
    assert [r.options_json["board_turn"] for r in rows] == [0, 1]
    chats = {}
    for t in tables:
        table = await table_repo.get_table(db, t)
        assert table is not None
        chats[t] = {int(table.chat_id)} | {
            int(s.user_id) for s in await table_repo.get_seats(db, t) if s.user_id
        }

    # a player of one match may not watch the other match's table on the page (it plays the same deals)
    bridge = RuntimeBridge(S.rt(h))
    people = [[u for a, b in await S.match_people(h, 1, k) for u in (*a, *b)] for k in (odd, even)]
    assert not await bridge.may_watch(rows[0].id, people[1][0])
    assert not await bridge.may_watch(rows[1].id, people[0][-1])
    other = [u for a, b in await S.match_people(h, 1, odd.split("-")[0] + "-M3") for u in (*a, *b)]
    assert await bridge.may_watch(rows[0].id, other[0])  # a player of the round's ordinary match may

    await asyncio.gather(*(S.play_table(h, t, timeout=240) for t in tables))
    for k in (odd, even):
        await S.table_recorded(h, 1, k, 1)
    await S.settle(h)
    assert not [e for e in watch.early if e[0] in tables], watch.early  # lockstep held

    # the seeds, revealed in each table group once both tables were over, checked with bot.verify_deal
    hands: dict[int, dict[int, list[set[str]]]] = {}
    boards: dict[int, dict[int, tuple[int, str]]] = {t: {} for t in tables}  # deal -> (redeals, seed)
    for turn, (m, t) in enumerate(zip(ms, tables, strict=True)):
        group = int(m.table_chats[0])
        said = [
            e
            for e in h.sim.events
            if e.chat_id == group and e.kind in ("send", "edit") and e.seq >= watch.begun[(t, 1)]
        ]  # (the group's earlier matches left out)
        revealed = [e.seq for e in said if REVEAL.search(e.text or "")]
        assert revealed and min(revealed) > max(watch.over[x] for x in tables), (m.match_key, revealed)
        reveals = _distinct([x for e in said for x in REVEAL.findall(e.text or "")])
        # the commitments the table showed while it played (a Shengji redeal shows one more)
        commits = {c for e in said if e.seq < watch.over[t] for c in COMMIT.findall(e.text or "")}
        row = await match_repo.current_match(db, t)
        assert row is not None
        actions = [a.action for a in await match_repo.action_log(db, row.id)]
        records = deal_records(game, row.options_json, row.seed, actions)
        assert [int(d) for d, _, _ in reveals] == [r.deal_no for r in records] == list(range(1, DEALS + 1))
        hands[t] = {}
        for (_, seed, salt), rec in zip(reveals, records, strict=True):
            shown = commitment(int(seed), bytes.fromhex(salt))[:16]
            assert shown in commits and rec.hands is not None, (m.match_key, rec.deal_no, commits)
            args = ["--preset", preset, "--seed", seed, "--salt", salt, "--commitment", shown]
            args += ["--board-turn", str(turn)]
            if rec.first_drawer is not None:  # Shengji: the seat that drew first (the /review file says it)
                args += ["--first-drawer", str(rec.first_drawer)]
            got = _verified_hands(capsys, args)
            assert got == [{card_text(c) for c in hand} for hand in rec.hands]  # the cards the players got
            hands[t][rec.deal_no] = got
            boards[t][rec.deal_no] = (rec.redeals, seed)
    one, two = hands[tables[0]], hands[tables[1]]
    for d in range(1, DEALS + 1):  # the even table's seat s holds what seat s - 1 held at the odd table:
        if boards[tables[0]][d][0] != boards[tables[1]][d][0]:
            # a Shengji deal dealt again at one table only (nobody declared): that table played another
            # seed, as documented (compared under its number with the cards each table really played)
            assert boards[tables[0]][d][1] != boards[tables[1]][d][1]
            continue
        assert boards[tables[0]][d][1] == boards[tables[1]][d][1]  # both tables revealed the same seed
        assert two[d] == [one[d][(s - 1) % 4] for s in range(4)]  # its side a holds the odd side b's cards

    # nothing at a table shows a hand of a board before that table deals it (and does once it is dealt)
    for t in tables:
        row = await match_repo.current_match(db, t)
        assert row is not None
        actions = [a.action for a in await match_repo.action_log(db, row.id)]
        said_at = [
            (e.seq, _words(e.text))
            for e in h.sim.events
            if e.chat_id in chats[t] and e.kind in ("send", "edit")
        ]
        for rec in deal_records(game, row.options_json, row.seed, actions):
            if rec.hands is None or not rec.finished:
                continue
            start = watch.begun[(t, rec.deal_no)]
            for seat in range(4):
                hand = Counter(ctext("zh", " ".join(card_text(c) for c in rec.hands[seat])).split())
                where = (t, rec.deal_no, seat)
                assert not any(_shows(words, hand) for seq, words in said_at if seq < start), where
                assert any(_shows(words, hand) for seq, words in said_at if seq >= start), where

    # the result: per deal side a's steps at the odd table plus at the even table, summed; the winner follows
    histories = []
    for t in tables:
        row = await match_repo.current_match(db, t)
        assert row is not None
        _, played = await match_repo.match_state(db, row.id)
        histories.append(list(played.history))
    finished = {int(s["deal_no"]) for s in histories[1]}
    total = sum(
        deal_score(game, a) + deal_score(game, b)
        for a in histories[0]
        for b in histories[1]
        if int(a["deal_no"]) == int(b["deal_no"]) and int(a["deal_no"]) in finished
    )
    got = []
    for m in [await S.tournament_match(h, 1, k) for k in (odd, even)]:
        assert m.result_json is not None
        dup = m.result_json["extra"]["duplicate"]
        assert dup["total"] == total and len(dup["boards"]) == DEALS
        own = m.result_json["tables"][0]["winner"]
        if total:
            assert (m.result_json["winner"], m.result_json["decided_by"]) == (
                "a" if total > 0 else "b",
                "duplicate",
            )
        else:
            assert m.result_json["winner"] == own
        got.append(dup["total"])
    return got[0], got[1]


@pytest.mark.parametrize(
    ("backend", "preset"),
    [("sqlite", "shengji-17-deals"), pytest.param("postgresql", "guandan-team", marks=pytest.mark.postgres)],
)
async def test_a_duplicate_swiss_of_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], backend: str, preset: str
) -> None:
    game = load_preset(preset).game
    async with S.tournament_harness(tmp_path, extra_players=2 * PAIRS, table_groups=3, backend=backend) as h:
        await S.dm(
            h,
            ORG,
            SETUP.format(preset=preset, deals=DEALS, first=S.local(h, timedelta(days=2))),
            "已从文件创建比赛",
        )
        await S.say(h, ORG, GROUP_ID, "/tournament_group", "开始报名")
        for gid in S.TABLE_GROUPS:
            await S.say(h, ORG, gid, "/table_register", "比赛桌")
        for i in range(PAIRS):
            group = "机关" if i % 2 else "理学院"
            await S.dm(h, ORG, f"/register @p{2 * i + 1} @p{2 * i + 2} {group}", "报名成功")
        await S.dm(h, ORG, "/draw", "已完成")
        await S.settle(h)
        watch = Watch(h)
        wins: Counter[str] = Counter()  # entry id -> match wins
        table_wins: Counter[str] = Counter()  # entry id -> tables won
        for rnd in (1, 2):
            keys = await _keys(h, rnd)
            assert keys == [f"S{rnd}-M{i}" for i in (1, 2, 3)]
            await S.schedule_posted(h, *keys)
            rows = {k: await S.tournament_match(h, 1, k) for k in keys}
            assert len({m.start_at for m in rows.values()}) == 1  # three tables: one slot
            # matches 1 and 2 form the comparison; the odd match 3 plays ordinary deals (no turn): here a
            # referee's result stands for it
            await _start_slot(h, watch, keys[0], keys[1])
            odd = await S.tournament_match(h, 1, keys[2])
            if odd.game_tables and odd.game_tables[0] is not None:
                table = await table_repo.get_table(S.db(h), int(odd.game_tables[0]))
                assert table is not None and (table.options_json or {}).get("board_turn", -1) == -1
            await _comparison(h, watch, capsys, preset, keys[0], keys[1])
            if rnd == 1:  # the comparison's results are in, match 3's is not: nothing of round 2 yet
                assert await _keys(h, 2) == []
            said = "a 14 9" if rnd == 1 else "b 9 14"
            await S.dm(h, ORG, f"/result {keys[2]} {said} 记分表", "已")
            await S.settle(h)
            for k in keys:
                m = await S.tournament_match(h, 1, k)
                assert m.result_json is not None
                wins[m.side_a if m.result_json["winner"] == "a" else m.side_b] += 1
                table_wins[m.side_a if m.result_json["tables"][0]["winner"] == "a" else m.side_b] += 1
            if rnd == 1:
                await S.schedule_posted(h, "S2-M1", "S2-M2", "S2-M3")  # paired once round 1 is all in
                # the standings after round 1: each comparison pair's rating from its one table
                after1 = await _standings(h, ts.load_engine(await ts.get_tournament(S.db(h), 1)))
                played = {x for k in keys[:2] for x in (rows[k].side_a, rows[k].side_b)}
                up = {after1[e][3] for e in played if table_wins[e]}
                down = {after1[e][3] for e in played if not table_wins[e]}
                assert len(up) == len(down) == 1 and int(up.pop().rstrip("?")) > int(down.pop().rstrip("?"))

        # the final standings: the points follow the stored winners, each pair's rating is the one the stored
        # tables give (recomputed here), and the pairs who won their table in round 1 were rated above the rest
        t = ts.load_engine(await ts.get_tournament(S.db(h), 1))
        final = await _standings(h, t)
        assert len(final) == PAIRS
        for e, (points, won, lost, _) in final.items():
            assert (points, won, lost) == (2 * wins[e], wins[e], 2 - wins[e]), (e, final[e])
        done = sorted(await ts.matches(S.db(h), 1), key=lambda m: (m.start_at, m.id))
        players = {e.id: [str(p) for p in e.players] for e in t.entries}
        ratings = replay(
            g
            for m in done
            for g in match_games(
                game, players[m.side_a], players[m.side_b], PairingResult.from_dict(m.result_json)
            )
        )
        for e, (*_, shown) in final.items():
            rated = entry_rating(ratings, game, players[e])
            assert rated is not None and shown == rated.text() and shown.endswith("?"), (
                e,
                shown,
            )  # provisional
        assert len({r for *_, r in final.values()}) > 1
        h.assert_no_errors()


async def _standings(h: Any, t: Any) -> dict[str, tuple[int, int, int, str]]:
    """What /standings in the tournament group shows: entry id -> (points, won, lost, rating as shown)."""
    label = {entry_label(t, e.id, "zh", with_group=False): e.id for e in t.entries}
    standings = await S.say(h, ORG, GROUP_ID, "/standings", "积分编排排名")
    text = standings.text or ""
    assert "等级分：" in text, text  # the note saying what the ratings are
    shown: dict[str, tuple[int, int, int, str]] = {}
    for line in text.splitlines():
        found = ROW.match(line)
        if found:
            rating = re.search(r"等级分(\d+\??)", found.group(8))
            assert rating, line
            points, won, lost = int(found.group(3)), int(found.group(4)), int(found.group(6))
            shown[label[found.group(2)]] = (points, won, lost, rating.group(1))
    return shown


async def test_the_guided_set_up_makes_a_duplicate_swiss_of_pairs(tmp_path: Path) -> None:
    """The organiser's /tournament dialogue: pairs, then at the format step "积分编排 · 复式", two rounds, no
    knockout, two deals a match; the confirmation says how the duplicate comparisons work and the tournament
    is a Swiss of pairs with duplicate deals."""
    async with S.tournament_harness(tmp_path, extra_players=0, table_groups=0) as h:
        await S.dm(h, ORG, "/tournament", "比赛名称")
        presets = await S.dm(h, ORG, "复式积分赛", "选择比赛规程")
        await S.press(h, ORG, ORG, presets, "双升 · 17 副制")
        options = await h.sim.wait_for_message(ORG, "规则选项", after=presets)
        await S.press(h, ORG, ORG, options, "保留默认")
        entrant = await h.sim.wait_for_message(ORG, "参赛形式", after=options)
        await S.press(h, ORG, ORG, entrant, "固定搭档")
        tz = await h.sim.wait_for_message(ORG, "时区", after=entrant)
        await S.press(h, ORG, ORG, tz, "保留默认")
        await h.sim.wait_for_message(ORG, "参赛单位", after=tz)
        await S.dm(h, ORG, "机关 3，理学院 3", "报名截止时间")
        await S.dm(h, ORG, S.local(h, timedelta(hours=2)), "抽签时间")
        await S.dm(h, ORG, S.local(h, timedelta(hours=3)), "第一轮开赛时间")
        fmt = await S.dm(h, ORG, S.local(h, timedelta(days=1)), "赛制")
        await S.press(h, ORG, ORG, fmt, "积分编排 · 复式：每轮两场一组打同样的牌")
        await h.sim.wait_for_message(ORG, "积分编排的轮数", after=fmt)
        top = await S.dm(h, ORG, "2", "前几名进行淘汰赛")
        await S.press(h, ORG, ORG, top, "不设淘汰赛")
        await h.sim.wait_for_message(ORG, "每场比赛长度", after=top)
        await S.dm(h, ORG, "2副", "迟到判负时间")
        gap = await S.dm(h, ORG, "15", "间隔多少分钟")
        await S.press(h, ORG, ORG, gap, "保留默认")
        prizes = await h.sim.wait_for_message(ORG, "奖项", after=gap)
        await S.press(h, ORG, ORG, prizes, "保留默认")
        confirm = await h.sim.wait_for_message(ORG, "请确认", after=prizes)
        text = confirm.text or ""
        assert "积分编排" in text and "共 2 轮" in text and "不设淘汰赛" in text, text
        assert "每轮第 1、2 场（第 3、4 场……）打同样的牌" in text and "2 副" in text, text
        await S.press(h, ORG, ORG, confirm, "✅ 创建")
        await h.sim.wait_for_message(ORG, "已创建", after=confirm)
        row = await ts.get_tournament(S.db(h), 1)
        s = row.settings_json
        assert (s["entrant"], s["format"], s["swiss_rounds"], s["duplicate"]) == ("pair", "swiss", 2, True)
        assert not s.get("swiss_top") and ts.rule_options(row)["deals"] == 2
        h.assert_no_errors()
