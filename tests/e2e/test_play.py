"""End-to-end: the real bot against the simulator (issue 4, "End-to-end tests")."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.devtools.autodrive import TableDrivePaused, drive
from bot.presentation.callbacks import ResumeButton
from bot.presentation.keyboards import seat_name
from engine.cards import counts_of, parse_cards
from engine.errors import RuleError
from engine.registry import match_from_stored
from storage import match_repo, table_repo
from storage.models import MatchRecord as MatchRow

JOIN = "入座 {seat}"


def rt(h):
    return h.app.bot_data["runtime"] if h.app is not None else None


async def open_table(h, command: str, seats: int = 4):
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, command)
    await h.sim.wait_for_message(h.group_id, lambda m: "开始" in str(m.reply_markup), after=last, timeout=15)
    for seat in range(seats):
        await h.players[seat].tap(h.group_id, JOIN.format(seat=seat_name("zh", seat)))
    await h.players[0].tap(h.group_id, "▶️ 开始")
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    for _ in range(100):
        row = await match_repo.current_match(rt(h).db, table.id)
        if row is not None:
            return row.id
        await asyncio.sleep(0.05)
    raise AssertionError("no match started")


async def match_at_turn(h, match_id: int, seat: int | None = None):
    """The match once ``seat`` (or any seat) has a required turn: the table's own steps (the dealing) go on
    after its start, so a quiet moment of the Bot API says nothing about whose turn it is."""
    for _ in range(600):
        _, m = await match_repo.load_match_row(rt(h).db, match_id)
        if any(tr.required and seat in (None, tr.seat) for tr in m.turns()):
            return m
        await asyncio.sleep(0.05)
    raise AssertionError(f"{'no seat' if seat is None else f'seat {seat} never'} got a turn")


def hand_section_cards(text: str) -> list[int]:
    """The cards listed under "你的牌 (n):" in a hand message (labels such as 主 / ♠ skipped)."""
    lines = text.split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("你的牌"))
    out: list[int] = []
    for line in lines[start + 1 :]:
        for word in line.split():
            with contextlib.suppress(RuleError):
                out.extend(parse_cards(word))
    return out


async def cards_ever_held(h, match_id: int) -> list[list[int]]:
    """Per seat, the most copies of each card kind the seat ever held (replaying the stored log)."""
    row = await match_repo.get_match_row(rt(h).db, match_id)
    actions = [r.action for r in await match_repo.action_log(rt(h).db, match_id)]
    m = match_from_stored(row.game, row.options_json, row.seed)
    held = [[0] * 54 for _ in range(4)]
    for action in actions:
        m.apply(action)
        for seat in range(4):
            c = counts_of(m.hands[seat])
            held[seat] = [max(a, b) for a, b in zip(held[seat], c, strict=True)]
    return held


def users(h):
    return {i: p.user_id for i, p in enumerate(h.players)}


async def test_computer_match_of_each_game_has_no_429(harness_factory):
    """Rate limits: four computer players finish a deal of each game with zero 429 answers."""
    async with harness_factory() as h:
        for command in (
            "/newtable shengji-17-deals deals=1 bid_window_seconds=0 bots=4",
            "/newtable guandan-team deals=1 bots=4",
        ):
            last = h.sim.last_bot_message(h.group_id)
            h.players[0].say(h.group_id, command)
            await h.sim.wait_for_message(
                h.group_id, lambda m: "比赛结束" in (m.text or ""), after=last, timeout=120
            )
        await h.settle()
        cards = rt(h).driver.metrics.cards_played
        report = h.calls_report(cards)
        print("calls report (two computer deals):", report)
        assert report["rate_limited_429"] == 0
        assert cards > 150
        h.assert_no_errors()


async def test_full_shengji_deal_between_four_people_and_privacy(harness):
    """A full Shengji deal played by four people (typed plays) to the deal summary; hands stay private."""
    h = harness
    match_id = await open_table(h, "/newtable shengji-17-deals deals=1 bid_window_seconds=60 seed=5")
    # seats 0 and 2 use the hand keyboard (tap cards, then Play / Bury / No bid), seats 1 and 3 type
    await drive(h.sim, lambda: rt(h), match_id, users(h), timeout=240, buttons=frozenset({0, 2}))
    await h.sim.wait_for_message(h.group_id, lambda m: "第 1 副结束" in (m.text or ""), timeout=20)
    await h.settle()
    records = await match_repo.action_log(rt(h).db, match_id)
    by_button = [r.action for r in records if (r.dedupe_key or "").startswith("cb:")]
    typed = [r.action for r in records if (r.dedupe_key or "").startswith("upd:")]
    assert any(" play " in a for a in by_button) and any(" play " in a for a in typed)
    # privacy: every version of every hand message shows only cards its own seat held at some point
    held = await cards_ever_held(h, match_id)
    for seat, p in enumerate(h.players):
        for m in h.sim.bot_messages(p.user_id):
            for v in m.versions:
                if "你的牌" not in (v.text or ""):
                    continue
                assert f"你是 {seat_name('zh', seat)}" in v.text
                shown = counts_of(hand_section_cards(v.text))
                assert all(shown[k] <= held[seat][k] for k in range(54)), (seat, v.text)
    # nothing private in the group, ever; the buried kitty is shown to the dealer only
    for m in h.group_messages():
        for v in m.versions:
            assert "你的牌" not in (v.text or "") and "你扣的底" not in (v.text or "")
    kitty_seen_by = {
        p.user_id
        for p in h.players
        for m in h.sim.bot_messages(p.user_id)
        for v in m.versions
        if "你扣的底" in (v.text or "")
    }
    assert len(kitty_seen_by) <= 1
    assert await match_repo.replay_check(rt(h).db, match_id)
    h.assert_no_errors()


async def test_full_guandan_deal_between_four_people(harness):
    h = harness
    match_id = await open_table(h, "/newtable guandan-team deals=1 seed=3")
    await drive(h.sim, lambda: rt(h), match_id, users(h), timeout=240, buttons=frozenset({1, 3}))
    await h.sim.wait_for_message(h.group_id, lambda m: "第 1 副结束" in (m.text or ""), timeout=20)
    assert await match_repo.replay_check(rt(h).db, match_id)
    h.assert_no_errors()


async def test_guandan_each_player_gets_one_hand_message_per_deal_and_none_for_deal_0(harness):
    """Guandan: after a deal each player's private chat holds exactly one hand message, for deal 1;
    no dead "第 0 副" hand message is sent before the first deal."""
    h = harness
    match_id = await open_table(h, "/newtable guandan-team deals=1 seed=3")
    await drive(h.sim, lambda: rt(h), match_id, users(h), timeout=240)
    await h.sim.wait_for_message(h.group_id, lambda m: "第 1 副结束" in (m.text or ""), timeout=20)
    await h.settle()
    for seat, p in enumerate(h.players):
        hands = [
            m
            for m in h.sim.bot_messages(p.user_id, include_deleted=True)
            if any("你的牌" in (v.text or "") for v in m.versions)
        ]
        assert len(hands) == 1, (seat, [m.versions[0].text for m in hands])
        texts = [v.text or "" for v in hands[0].versions]
        assert all(x.startswith("第 1 副") for x in texts), (seat, texts)
        assert not any(
            "第 0 副" in (v.text or "")
            for m in h.sim.bot_messages(p.user_id, include_deleted=True)
            for v in m.versions
        )
    h.assert_no_errors()


async def test_simulated_people_never_type_a_play_twice(harness_factory):
    """The driver (demo people) waits for its move to be stored before deciding again: four people typing a
    Guandan or a Shengji deal (with its bid window) never get "还没轮到你" for a repeated play."""
    async with harness_factory(rate_scale=20) as h:
        await _typed_deal_without_repeats(h, "/newtable guandan-team deals=1 seed=3")
    async with harness_factory(rate_scale=20) as h:
        await _typed_deal_without_repeats(
            h, "/newtable shengji-17-deals deals=1 bid_window_seconds=60 seed=5"
        )


async def _typed_deal_without_repeats(h, command):
    match_id = await open_table(h, command)
    sent: list[tuple[int, str]] = []
    await drive(
        h.sim, lambda: rt(h), match_id, users(h), timeout=240, on_action=lambda s, x: sent.append((s, x))
    )
    await h.sim.wait_for_message(h.group_id, lambda m: "第 1 副结束" in (m.text or ""), timeout=20)
    await h.settle()
    assert sent
    for p in h.players:
        assert not [m.text for m in h.sim.bot_messages(p.user_id) if "还没轮到你" in (m.text or "")]
    assert not [m.text for m in h.group_messages() if "还没轮到你" in (m.text or "")]
    h.assert_no_errors()


async def test_bad_input_gets_clear_answers_and_changes_nothing(harness):
    h = harness
    p0 = h.players[0]
    last = h.sim.last_bot_message(h.group_id)
    p0.say(h.group_id, "/newtable no-such-preset")
    m = await h.sim.wait_for_message(h.group_id, after=last, timeout=10)
    assert "没有规则 no-such-preset" in m.text and "shengji-17-deals" in m.text
    last = m
    p0.say(h.group_id, "/newtable shengji-17-deals colour=red")
    m = await h.sim.wait_for_message(h.group_id, after=last, timeout=10)
    assert "没有选项 colour" in m.text
    last = m
    p0.say(h.group_id, "/newtable shengji-17-deals deals=999")
    m = await h.sim.wait_for_message(h.group_id, after=last, timeout=10)
    assert "deals=999" in m.text
    # a user who is not seated presses Start: not their table
    last = h.sim.last_bot_message(h.group_id)
    p0.say(h.group_id, "/newtable guandan-team deals=1 seed=3")
    await h.sim.wait_for_message(h.group_id, lambda m: "开始" in str(m.reply_markup), after=last, timeout=15)
    answer = await h.stranger.tap(h.group_id, "▶️ 开始")
    assert "这不是你的牌桌" in (answer.text or "")
    assert (
        await match_repo.current_match(
            rt(h).db, (await table_repo.open_table_in_chat(rt(h).db, h.group_id)).id
        )
        is None
    )
    p0.say(h.group_id, "/stop")
    await h.settle()
    match_id = await open_table(h, "/newtable guandan-team deals=1 seed=3")
    await h.settle()
    row0 = await match_repo.get_match_row(rt(h).db, match_id)
    # garbage text in a private chat
    before = h.sim.last_bot_message(p0.user_id)
    p0.dm("hello there")
    m = await h.sim.wait_for_message(p0.user_id, after=before, timeout=10)
    assert "看不懂" in m.text
    # the leader types two singles of different ranks: not a combination; a card nobody gave them
    eng = await match_at_turn(h, match_id)
    leader = eng.turns()[0].seat
    lp = h.players[leader]
    hand = eng.seat_view(leader)["hand"]
    plain = [c for c in hand if c not in ("BJ", "SJ") and c != "♥" + eng.seat_view(leader)["level_text"]]
    a = plain[0]
    b = next(c for c in plain if c[1:] != a[1:])
    before = h.sim.last_bot_message(lp.user_id)
    lp.dm(f"{a} {b}")
    m = await h.sim.wait_for_message(lp.user_id, after=before, timeout=10)
    assert "不成牌型" in m.text or "不连续" in m.text, m.text
    missing = next(c for c in ("♠3", "♠4", "♥9", "♦K", "♣Q", "♠5", "♦6") if c not in hand)
    before = h.sim.last_bot_message(lp.user_id)
    lp.dm(missing)
    m = await h.sim.wait_for_message(lp.user_id, after=before, timeout=10)
    assert "你没有" in m.text, m.text
    # somebody whose turn it is not
    other = h.players[(leader + 1) % 4]
    before = h.sim.last_bot_message(other.user_id)
    other.dm(eng.seat_view((leader + 1) % 4)["hand"][-1])
    m = await h.sim.wait_for_message(other.user_id, after=before, timeout=10)
    assert "还没轮到你" in m.text or "没轮到" in m.text, m.text
    hand_msg = next(m for m in reversed(h.sim.bot_messages(p0.user_id)) if "你的牌" in (m.text or ""))
    data = hand_msg.reply_markup["inline_keyboard"][0][0]["callback_data"]
    # tapping a card only selects it (✅): no action is applied
    await p0.press_and_wait(p0.user_id, hand_msg.message_id, data)
    await h.settle()
    row1 = await match_repo.get_match_row(rt(h).db, match_id)
    assert row1.version == row0.version
    # the table is stopped: its hand buttons are stale now
    last = h.sim.last_bot_message(h.group_id)
    p0.say(h.group_id, "/stop")
    await h.sim.wait_for_message(h.group_id, lambda m: "已结束" in (m.text or ""), after=last, timeout=10)
    answer = await p0.press_and_wait(p0.user_id, hand_msg.message_id, data)
    assert "过期" in (answer.text or "")
    assert (await match_repo.get_match_row(rt(h).db, match_id)).version == row0.version
    assert not rt(h).driver.remembers(match_id)  # a stopped match leaves nothing in the bot's memory maps
    h.assert_no_errors()


@pytest.mark.parametrize(
    "command,stop_at",
    [
        ("/newtable guandan-team deals=1 seed=3", 20),
        ("/newtable shengji-17-deals deals=1 bid_window_seconds=60 seed=5", 60),
    ],
)
async def test_restart_mid_deal_continues_without_loss(harness, command, stop_at):
    """Restart: the Application stops mid-deal; a new one on the same database finishes the deal."""
    h = harness
    match_id = await open_table(h, command)
    await drive(h.sim, lambda: rt(h), match_id, users(h), stop=lambda m: len(m.log) >= stop_at, timeout=120)
    await h.stop_bot()
    db = await _db(h)
    async with db.session() as s:
        version = (await s.get(MatchRow, match_id)).version
    before = [(r.seq, r.action) for r in await match_repo.action_log(db, match_id)]
    await db.dispose()
    await h.start_bot()
    # nothing stored before the stop is lost or changed (a deadline that came due while the bot was down,
    # e.g. a 1 s bid window, may already have added its action after the restart)
    row = await match_repo.get_match_row(rt(h).db, match_id)
    assert row.version >= version
    after = [(r.seq, r.action) for r in await match_repo.action_log(rt(h).db, match_id)]
    assert after[: len(before)] == before and len(before) == version
    await drive(h.sim, lambda: rt(h), match_id, users(h), timeout=240)
    await h.sim.wait_for_message(h.group_id, lambda m: "第 1 副结束" in (m.text or ""), timeout=20)
    assert await match_repo.replay_check(rt(h).db, match_id)
    summaries = [m for m in h.group_messages() if "第 1 副结束" in (m.text or "")]
    assert len(summaries) == 1
    h.assert_no_errors()


async def _db(h):
    from storage.db import open_database

    return await open_database(h.database_url)


async def test_restart_mid_clock_the_clock_fires_once(harness_factory):
    """Restart while a move clock runs: it is re-armed from the database and fires once."""
    async with harness_factory() as h:
        match_id = await open_table(h, "/newtable guandan-team deals=1 play_clock=2")

        async def armed():  # the dealing goes on without calls: wait for the clock itself
            return await rt(h).scheduler.pending(rt(h).db, "move_clock") or None

        pending = await h.sim.wait_for(armed, 20, "no move clock was armed")
        assert len(pending) == 1
        version = int(pending[0].payload["version"])  # the clock belongs to this version (a 2 s clock may
        # already have run out on a slow machine before the restart: it must still fire once)
        table_msg = await h.sim.wait_for_message(h.group_id, "⏱ 2s (截止 ", timeout=20)
        assert "轮到" in (table_msg.text or "")
        await h.restart()
        # the auto-play is folded into the table message (no note of its own in the group)
        await h.sim.wait_for_message(h.group_id, lambda m: "超时自动出牌" in (m.text or ""), timeout=20)
        await h.settle()
        records = await match_repo.action_log(rt(h).db, match_id)
        timed_out = [r for r in records if (r.dedupe_key or "").startswith("clock:")]
        assert [r.seq for r in timed_out][:1] == [version + 1]
        noted = [m for m in h.group_messages() if any("超时" in (v.text or "") for v in m.versions)]
        assert [m.message_id for m in noted] == [table_msg.message_id]


async def test_double_press_applies_once(harness):
    """Two presses of one button (sent before the bot answers either) apply one action."""
    h = harness
    match_id = await open_table(h, "/newtable guandan-team deals=1 seed=3")
    await h.settle()
    eng = await match_at_turn(h, match_id)
    leader = eng.turns()[0].seat
    lowest = eng.auto_action(leader).split(None, 2)[2]
    h.players[leader].dm(lowest)
    nxt = (leader + 1) % 4
    p = h.players[nxt]
    msg = await h.sim.wait_for_message(
        p.user_id, lambda m: f"x:{match_id}:" in str(m.reply_markup), timeout=10
    )
    data = next(d for d in msg.callback_data() if str(d).startswith("x:"))
    version = (await match_repo.get_match_row(rt(h).db, match_id)).version
    q1 = h.sim.press_button(p.user_id, p.user_id, msg.message_id, data)
    q2 = h.sim.press_button(p.user_id, p.user_id, msg.message_id, data)
    await h.sim.wait_callback_answer(q1)
    answer2 = await h.sim.wait_callback_answer(q2)
    await h.settle()
    assert (await match_repo.get_match_row(rt(h).db, match_id)).version == version + 1
    assert "还没轮到你" in (answer2.text or "") or answer2.text is None
    h.assert_no_errors()


async def test_guandan_second_deal_with_tribute_through_buttons(harness_factory):
    """Guandan deal 2 starts with tribute and return (docs/rules.md 2.6): paid and returned through the keyboard."""
    async with harness_factory(rate_scale=60) as h:
        await _tribute_game(h)


async def _tribute_game(h):
    match_id = await open_table(h, "/newtable guandan-team deals=2 seed=11")
    await drive(h.sim, lambda: rt(h), match_id, users(h), timeout=300, buttons=frozenset({0, 1, 2, 3}))
    await h.sim.wait_for_message(h.group_id, lambda m: "第 2 副结束" in (m.text or ""), timeout=30)
    records = await match_repo.action_log(rt(h).db, match_id)
    by_button = [r.action for r in records if (r.dedupe_key or "").startswith("cb:")]
    print("actions through buttons:", len(by_button), "of", len([r for r in records if r.actor_user_id]))
    assert any(" tribute " in a for a in by_button) and any(" return " in a for a in by_button)
    assert any(" play " in a for a in by_button) and any(a.endswith(" pass") for a in by_button)
    assert await match_repo.replay_check(rt(h).db, match_id)
    h.assert_no_errors()


async def test_driving_a_table_that_paused_fails_at_once_with_the_reason(harness):
    """A Shengji table whose first deal nobody can declare in pauses (one redeal allowed before the pause);
    drive, playing all four seats, says so with the reason instead of waiting its time out for a move.

    Why the pause is certain: with seed 153 no seat ever holds a joker and a level card together (this
    preset declares with both), at any draw or after the last, which the engine is asked below for the
    stored seed and options. So neither drive (it declares in the bid window when the computer player
    would) nor anyone else can declare, the window closes with no bid and no dealer, the deal is dealt
    again, and one redeal in a row pauses the table. (With a seed where a seat can declare, e.g. 5, drive
    declares in the zero-second window when it reads the match before the table's step closes it: a race
    between its poll and the table's tick, so the table paused only now and then.)"""
    h = harness
    match_id = await open_table(
        h, "/newtable shengji-17-deals deals=1 bid_window_seconds=0 max_redeals_before_pause=1 seed=153"
    )
    row = await match_repo.get_match_row(rt(h).db, match_id)
    m = match_from_stored(row.game, row.options_json, row.seed)
    while m.phase == "dealing":
        assert not any(m.legal_bids(seat) for seat in range(4))
        m.apply("sys deal")
    assert m.phase == "window" and not any(m.legal_bids(seat) for seat in range(4))

    with pytest.raises(TableDrivePaused, match=r"the table paused \(no_bid_redeals\)"):
        # the time is only a bound: had drive missed the pause it would end in TimeoutError, not this
        await drive(h.sim, lambda: rt(h), match_id, users(h), timeout=120)
    _, m = await match_repo.load_match_row(rt(h).db, match_id)
    assert (m.phase, m.paused_reason) == ("paused", "no_bid_redeals")
    resume = ResumeButton(match_id).encode()  # the group is told, with the button that goes on
    await h.sim.wait_for_message(h.group_id, lambda msg: resume in msg.callback_data(), timeout=20)
    actions = [r.action for r in await match_repo.action_log(rt(h).db, match_id)]
    assert not any(" bid " in a for a in actions) and actions.count("sys close_bidding") == 1
    h.assert_no_errors()
