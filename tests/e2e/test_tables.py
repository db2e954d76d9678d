"""End-to-end: tables, seats, languages, commands, a blocked player (issue 4, Bot)."""

from __future__ import annotations

import asyncio

from bot.devtools.autodrive import drive
from bot.edge.refusals import refusal_text
from bot.presentation.keyboards import seat_name
from storage import match_repo, message_repo, table_repo
from tests.e2e.test_play import JOIN, open_table, rt


async def test_commands_are_registered_in_both_languages(harness):
    keys = list(harness.sim.commands)
    texts = [c["description"] for k in keys for c in harness.sim.commands[k]]
    assert len(keys) >= 2
    assert any(x == "帮助" for x in texts) and any(x == "Help" for x in texts)


async def test_player_who_never_started_the_bot_gets_a_link_then_is_seated(harness):
    h = harness
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable guandan-team deals=1")
    await h.sim.wait_for_message(h.group_id, lambda m: "开始" in str(m.reply_markup), after=last, timeout=15)
    answer = await h.stranger.tap(h.group_id, "入座 北")
    assert "私聊" in (answer.text or "")
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    seats = await table_repo.get_seats(rt(h).db, table.id)
    assert seats[2].user_id is None
    note = await h.sim.wait_for_message(h.group_id, lambda m: "打开私聊" in str(m.reply_markup), timeout=10)
    assert "陈静" in note.text
    h.stranger.open_link_button(h.group_id, "打开私聊")
    reply = await h.sim.wait_for_message(h.stranger.user_id, lambda m: "入座" in (m.text or ""), timeout=10)
    assert "北" in reply.text
    seats = await table_repo.get_seats(rt(h).db, table.id)
    assert seats[2].user_id == h.stranger.user_id


async def test_lang_switches_the_hand_message_to_english(harness):
    h = harness
    p0 = h.players[0]
    before = h.sim.last_bot_message(p0.user_id)
    p0.dm("/lang en")
    m = await h.sim.wait_for_message(p0.user_id, after=before, timeout=10)
    assert m.text == "Language: English"
    await open_table(h, "/newtable guandan-team deals=1")
    hand = await h.sim.wait_for_message(p0.user_id, lambda m: "Your cards" in (m.text or ""), timeout=20)
    assert "you are S" in hand.text
    other = await h.sim.wait_for_message(
        h.players[1].user_id, lambda m: "你的牌" in (m.text or ""), timeout=20
    )
    assert other is not None


async def test_blocked_player_is_reported_to_the_table(harness):
    h = harness
    h.players[3].block()
    await open_table(h, "/newtable guandan-team deals=1")
    note = await h.sim.wait_for_message(h.group_id, lambda m: "无法私信" in (m.text or ""), timeout=20)
    assert "刘洋" in note.text
    match_id = (
        await match_repo.current_match(
            rt(h).db, (await table_repo.open_table_in_chat(rt(h).db, h.group_id)).id
        )
    ).id
    await drive(
        h.sim,
        lambda: rt(h),
        match_id,
        {0: h.players[0].user_id, 1: h.players[1].user_id, 2: h.players[2].user_id},
        stop=lambda m: m.turns() and m.turns()[0].seat == 3,
        timeout=60,
    )
    await h.settle()
    assert len([m for m in h.group_messages() if "无法私信" in (m.text or "")]) == 1
    # they start the bot again: their hand arrives
    before = h.sim.last_bot_message(h.players[3].user_id)
    h.sim.unblock_bot(h.players[3].user_id)
    await h.sim.wait_for_message(
        h.players[3].user_id, lambda m: "你的牌" in (m.text or ""), after=before, timeout=10
    )
    h.assert_no_errors()


async def test_table_pauses_after_redeals_and_a_player_resumes_it(harness):
    """Product: after three redeals in a row with no declaration the table pauses; a player resumes it."""
    h = harness
    match_id = await open_table(h, "/newtable shengji-17-deals deals=1 bid_window_seconds=0 seed=4")
    # the announcement names the count (the table message, also with the resume button, just says paused)
    note = await h.sim.wait_for_message(
        h.group_id, lambda m: "暂停" in (m.text or "") and "连续" in (m.text or ""), timeout=60
    )
    assert "连续 3 次" in note.text
    await h.sim.wait_for_message(
        h.group_id, lambda m: "暂停" in (m.text or "") and m.reply_markup, timeout=20
    )
    version = (await match_repo.get_match_row(rt(h).db, match_id)).version
    await h.settle()
    assert (
        await match_repo.get_match_row(rt(h).db, match_id)
    ).version == version  # nothing moves while paused
    answer = await h.players[2].tap(h.group_id, "▶️ 继续")
    assert answer.text == "继续打牌"
    for _ in range(100):
        if (await match_repo.get_match_row(rt(h).db, match_id)).version > version:
            break
        await asyncio.sleep(0.05)
    assert (await match_repo.get_match_row(rt(h).db, match_id)).version > version
    h.assert_no_errors()


async def test_match_time_limit_ends_the_match_after_the_deal_in_progress(harness):
    """docs/rules.md 1.8 / D2: when the match time is up the deal in progress finishes, then the match ends."""
    h = harness
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable shengji-50min bid_window_seconds=0 bots=4 seed=9")
    await h.sim.wait_for_message(
        h.group_id, lambda m: "轮到" in (m.text or "") or "发牌" in (m.text or ""), after=last, timeout=20
    )
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    row = await match_repo.current_match(rt(h).db, table.id)
    fired = await rt(h).scheduler.trigger("match_time", f"match:{row.id}:time")
    assert fired == 1
    await h.sim.wait_for_message(h.group_id, lambda m: "比赛时间到" in (m.text or ""), timeout=20)
    end = await h.sim.wait_for_message(h.group_id, lambda m: "比赛结束" in (m.text or ""), timeout=120)
    assert "时间到" in end.text
    summaries = [m for m in h.group_messages() if "副结束" in (m.text or "") and "比赛" not in (m.text or "")]
    assert len(summaries) <= 2
    await h.settle()
    assert not rt(h).driver.remembers(row.id)  # an ended match leaves nothing in the bot's memory maps
    h.assert_no_errors()


async def test_deleted_table_message_is_sent_again(harness):
    """Someone deletes the live table message: the bot notices at its next edit and posts a new one."""
    h = harness
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable guandan-team deals=1 bots=4 seed=3")
    first = await h.sim.wait_for_message(
        h.group_id, lambda m: "掼蛋" in (m.text or ""), after=last, timeout=20
    )
    first.deleted = True  # as if an admin deleted it
    again = await h.sim.wait_for_message(
        h.group_id, lambda m: "掼蛋" in (m.text or "") and not m.deleted, after=first, timeout=30
    )
    assert again.message_id != first.message_id
    await h.sim.wait_for_message(h.group_id, lambda m: "比赛结束" in (m.text or ""), timeout=120)
    h.assert_no_errors()


async def test_a_table_message_deleted_as_the_match_ends_is_sent_again(harness, monkeypatch):
    """The bot learns of the deletion at its next edit; when its computer players have finished the match by
    the time it looks the message up (a loaded machine: this test holds the look-up until then), the group
    still gets the table message again, showing how the match ended."""
    h = harness
    db = rt(h).db
    table_ids: list[int] = []
    looked_up = asyncio.Event()
    find_message_ref = message_repo.find_message_ref

    async def after_the_end(db, chat_id, message_id):
        while (await table_repo.get_table(db, table_ids[0])).status != "finished":
            await asyncio.sleep(0.02)
        looked_up.set()
        return await find_message_ref(db, chat_id, message_id)

    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable guandan-team deals=1 bots=4 seed=3")
    first = await h.sim.wait_for_message(
        h.group_id, lambda m: "掼蛋" in (m.text or ""), after=last, timeout=20
    )
    table_ids.append((await table_repo.open_table_in_chat(db, h.group_id)).id)
    monkeypatch.setattr(message_repo, "find_message_ref", after_the_end)
    first.deleted = True
    await asyncio.wait_for(looked_up.wait(), 60)

    async def replaced() -> int | None:  # the table's message is a new one (a later deletion is noticed too)
        mid = (await table_repo.get_table(db, table_ids[0])).table_message_id
        return mid if mid is not None and mid != first.message_id else None

    try:
        mid = await h.sim.wait_for(replaced, 30)
    except TimeoutError:
        shown = [
            (m.message_id, m.deleted, (m.text or "")[:40])
            for m in h.sim.bot_messages(h.group_id, include_deleted=True)
        ]
        raise AssertionError(f"no new table message recorded; the group shows {shown}") from None
    again = h.sim.message(h.group_id, mid)
    assert not again.deleted and "掼蛋" in again.text
    assert "第 1 副" in again.text and "电脑1" in again.text  # the deal's final table, not the lobby
    h.assert_no_errors()


async def test_ask_counts_is_answered_in_the_group(harness):
    """docs/rules.md 2.4 (不问不报): a player asks the counts; the answer is public."""
    h = harness
    match_id = await open_table(h, "/newtable guandan-team deals=1 seed=3")
    p = h.players[1]
    msg = await h.sim.wait_for_message(
        p.user_id, lambda m: f"q:{match_id}:" in str(m.reply_markup), timeout=20
    )
    data = next(d for d in msg.callback_data() if str(d).startswith("q:"))
    await p.press_and_wait(p.user_id, msg.message_id, data)
    note = await h.sim.wait_for_message(h.group_id, lambda m: "问张数" in (m.text or ""), timeout=20)
    assert "王芳" in note.text and ">10" in note.text
    h.assert_no_errors()


async def test_group_admin_sets_the_group_language(harness):
    h = harness
    last = h.sim.last_bot_message(h.group_id)
    h.players[1].say(h.group_id, "/lang en")  # not an admin
    m = await h.sim.wait_for_message(h.group_id, after=last, timeout=10)
    assert "管理员" in m.text
    h.players[0].say(h.group_id, "/lang en")  # the group's owner
    m = await h.sim.wait_for_message(h.group_id, after=m, timeout=10)
    assert m.text == "This group's language: English"
    h.players[0].say(h.group_id, "/newtable guandan-team deals=1")
    lobby = await h.sim.wait_for_message(
        h.group_id, lambda x: "Join S" in str(x.reply_markup), after=m, timeout=10
    )
    assert "Guandan" in lobby.text
    # a Chinese-speaking player still gets Chinese answers
    answer = await h.players[1].tap(h.group_id, "Join E")
    assert answer.text == "已入座 东"


async def test_guandan_move_clock_with_forfeit_deal_forfeits_the_deal(harness):
    """D6 on_timeout = forfeit_deal in Guandan: the player who runs out of time loses the deal (not auto-played)."""
    h = harness
    last = h.sim.last_bot_message(h.group_id)
    match_id = await open_table(h, "/newtable guandan-team deals=2 play_clock=1 on_timeout=forfeit_deal")
    note = await h.sim.wait_for_message(
        h.group_id, lambda m: "超时" in (m.text or ""), after=last, timeout=30
    )
    assert "本副判负" in note.text and "自动出牌" not in note.text
    await h.sim.wait_for_message(
        h.group_id, lambda m: "第 1 副结束" in (m.text or ""), after=last, timeout=20
    )
    records = await match_repo.action_log(rt(h).db, match_id)
    assert any(r.action.startswith("sys forfeit_deal") for r in records)


async def test_two_players_taking_one_seat_at_once_only_one_gets_it(harness):
    """Seats: two people pressing the same free seat at the same moment: one sits, the other is told it is taken."""
    from types import SimpleNamespace

    h = harness
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable guandan-team deals=1")
    await h.sim.wait_for_message(h.group_id, lambda m: "开始" in str(m.reply_markup), after=last, timeout=15)
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    people = [SimpleNamespace(id=p.user_id, language_code="zh-hans") for p in h.players[1:3]]
    for seat in range(3):
        outcomes = await asyncio.gather(*[rt(h).lobby.join(table.id, seat, u.id) for u in people])
        answers = [None if o is None else refusal_text("zh", o) for o in outcomes]  # as the edge says it
        seated = [u.id for u, a in zip(people, answers, strict=True) if a is None]
        assert len(seated) == 1, answers
        refused = next(a for a in answers if a is not None)
        assert "已经有人" in refused
        assert (await table_repo.get_seats(rt(h).db, table.id))[seat].user_id == seated[0]
        await rt(h).lobby.leave(table.id, SimpleNamespace(id=seated[0], language_code="zh-hans"))


async def test_leave_frees_the_seat_and_leave_or_stop_without_a_table_say_so(harness):
    """/leave in the lobby frees the sender's seat; a second /leave says they are not seated;
    /leave and /stop in a group with no open table point to /newtable."""
    h = harness
    p0, p1 = h.players[0], h.players[1]
    for command in ("/leave", "/stop"):
        last = h.sim.last_bot_message(h.group_id)
        p1.say(h.group_id, command)
        answer = await h.sim.wait_for_message(
            h.group_id, lambda m: "/newtable" in (m.text or ""), after=last, timeout=10
        )
        assert "没有牌桌" in answer.text
    last = h.sim.last_bot_message(h.group_id)
    p0.say(h.group_id, "/newtable guandan-team deals=1")
    await h.sim.wait_for_message(h.group_id, lambda m: "开始" in str(m.reply_markup), after=last, timeout=15)
    await p1.tap(h.group_id, JOIN.format(seat=seat_name("zh", 1)))
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    assert await table_repo.seat_of_user(rt(h).db, table.id, p1.user_id) is not None
    p1.say(h.group_id, "/leave")
    for _ in range(100):
        if await table_repo.seat_of_user(rt(h).db, table.id, p1.user_id) is None:
            break
        await asyncio.sleep(0.05)
    assert await table_repo.seat_of_user(rt(h).db, table.id, p1.user_id) is None
    last = h.sim.last_bot_message(h.group_id)
    p1.say(h.group_id, "/leave")
    await h.sim.wait_for_message(h.group_id, lambda m: "你没有入座" in (m.text or ""), after=last, timeout=10)
    h.assert_no_errors()


async def test_start_pressed_twice_at_once_starts_one_match_and_answers_each_press_once(harness):
    """Two seated people press ▶️ 开始 at the same moment: one match starts; one press is told the table starts,
    the other that it has started already (not that it takes no seats), and each press is answered exactly once."""
    from sqlalchemy import func, select

    from storage.models import MatchRecord

    h = harness
    last = h.sim.last_bot_message(h.group_id)
    h.players[0].say(h.group_id, "/newtable guandan-team deals=1")
    await h.sim.wait_for_message(h.group_id, lambda m: "开始" in str(m.reply_markup), after=last, timeout=15)
    for seat in range(2):
        await h.players[seat].tap(h.group_id, JOIN.format(seat=seat_name("zh", seat)))
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    answers_before = h.sim.stats.calls["answerCallbackQuery"]
    lobby, button = h.sim.find_button(h.group_id, "▶️ 开始")
    queries = [p.press(h.group_id, lobby.message_id, str(button["callback_data"])) for p in h.players[:2]]
    await h.sim.wait_for(lambda: all(h.sim.callback_queries[q].answered for q in queries), timeout=15)
    texts = sorted(str(h.sim.callback_queries[q].text) for q in queries)
    assert texts == sorted(["开局!", "这桌已经开局了"]), texts
    await h.settle()
    assert h.sim.stats.calls["answerCallbackQuery"] - answers_before == 2  # no press answered twice
    async with rt(h).db.session() as s:
        matches = (
            await s.execute(
                select(func.count()).select_from(MatchRecord).where(MatchRecord.table_id == table.id)
            )
        ).scalar()
    assert matches == 1
    seats = await table_repo.get_seats(rt(h).db, table.id)
    assert [s.is_computer for s in seats] == [False, False, True, True]  # the empty seats went to computers
    h.assert_no_errors()
