"""Two bot processes behind one webhook (issue 9): real ``python -m bot`` processes in webhook mode, PostgreSQL (a
fresh database per test, on the server of TEST_DATABASE_URL), Redis at 127.0.0.1:6379, and a round-robin
splitter in front of them (tests/multiproc/harness.py)."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest
from sqlalchemy import select
from sqlalchemy.ext.asyncio import create_async_engine

from bot.devtools.loadtest import players
from bot.devtools.simulator import SimulatorError, SimUserHandle
from bot.presentation.render import _pub
from bot.webapp.auth import sign_init_data
from storage.models import ActionRecord, Deadline
from tests.multiproc.harness import DEV_SECRET, bots

pytestmark = [pytest.mark.postgres, pytest.mark.redis]  # skipped without them (tests/conftest.py)


def hand_messages(sim, user_id: int) -> list:
    return [m for m in sim.bot_messages(user_id) if "你的牌" in (m.text or "")]


async def play_tables(group, count: int, seed: int, preset: str = "shengji-17-deals") -> list[players.Table]:
    sim = group.sim
    tables = players.make_tables(count, seed)
    players.populate(sim, tables)
    observer = players.Observer(sim, tables)
    db = create_async_engine(group.database_url)
    stop = asyncio.Event()
    try:
        await asyncio.gather(*(players.set_up(sim, db, table, preset, 1) for table in tables))

        async def play(table: players.Table) -> None:
            await players.play(sim, db, observer, table, think=0.0, type_share=0.3, stop=stop)

        try:
            await asyncio.wait_for(asyncio.gather(*(play(table) for table in tables)), timeout=240)
        except TimeoutError:
            raise AssertionError(
                f"the deals did not end: {[(t.actions, t.seq) for t in tables]}; {group.state()}"
            ) from None
    finally:
        stop.set()
        await db.dispose()
    return tables


async def test_tables_play_with_consecutive_updates_on_different_processes():
    async with bots(2) as group:
        tables = await play_tables(group, 2, 7)
        sim, splitter = group.sim, group.splitter
        await group.settle()
        for table in tables:
            # every move committed in order, the deal played to its end (the replica applied each action)
            assert table.finished and len(table.plays) >= 40
            # each player got one hand message per deal dealt (a redeal deals again), never a second one from the
            # other process
            dealt = 1 + int(_pub(table.replica.public_view()).get("redeal") or 0)
            for uid in table.user_ids:
                assert len(hand_messages(sim, uid)) == dealt, uid
            # and the group's table message ends showing the end (no older state edited in last)
            board = [m for m in sim.bot_messages(table.group_id) if "🃏" in (m.text or "")][-1]
            assert "本副结束" in board.text, board.text
        # the updates alternated between the processes
        by_process = splitter.count_by_process()
        assert by_process[0] > 50 and by_process[1] > 50
        assert abs(by_process[0] - by_process[1]) <= 1
        assert sim.stats.calls["getUpdates"] == 0 and sim.webhook_stats.delivered == len(splitter.handled)
        assert group.errors() == []


async def action_log(url: str) -> list[tuple[int, int, str, int | None, str | None]]:
    engine = create_async_engine(url)
    try:
        async with engine.connect() as conn:
            rows = (
                await conn.execute(
                    select(
                        ActionRecord.match_id,
                        ActionRecord.seq,
                        ActionRecord.action,
                        ActionRecord.actor_user_id,
                        ActionRecord.dedupe_key,
                    ).order_by(ActionRecord.match_id, ActionRecord.seq)
                )
            ).all()
    finally:
        await engine.dispose()
    return [tuple(r) for r in rows]


async def test_a_page_on_b_follows_moves_handled_by_a_and_an_update_delivered_to_both_is_applied_once():
    async with bots(2) as group:
        sim, splitter = group.sim, group.splitter
        tables = players.make_tables(1, 11)
        players.populate(sim, tables)
        observer = players.Observer(sim, tables)
        table = tables[0]
        db = create_async_engine(group.database_url)
        stop = asyncio.Event()
        playing = None
        try:
            # 1. every update to process A; a spectator's page on process B follows the match through the relay
            splitter.pin = 0
            await players.set_up(sim, db, table, "shengji-17-deals", 1)
            playing = asyncio.create_task(
                players.play(sim, db, observer, table, think=0.0, type_share=0.3, stop=stop)
            )
            init = sign_init_data(DEV_SECRET, {"id": 555, "first_name": "观众", "language_code": "zh-hans"})
            async with (
                aiohttp.ClientSession() as session,
                session.ws_connect(group.page_url(1) + "/ws") as ws,
            ):
                await ws.send_json({"type": "hello", "init": init, "match": table.match_id})
                frames: list[dict] = []
                # until the page has shown a card a person played (their update handled by A)
                while not (table.plays and frames and frames[-1].get("version", 0) >= table.plays[0].seq):
                    frames.append(await asyncio.wait_for(ws.receive_json(), 60))
            assert (
                splitter.count_by_process()[1] == 0
            )  # B handled no update: it heard of the moves through Redis
            assert frames[0]["type"] == "hello" and frames[0]["seat"] is None
            states = [f for f in frames if f.get("type") == "state"]
            assert len(states) >= 3 and all("me" not in state for state in states)  # a spectator: no hand
            versions = [state["version"] for state in states]
            assert versions == sorted(set(versions))

            # 2. from now on every update reaches both processes
            splitter.pin = None
            splitter.mode = "both"
            first_move = max(splitter.bodies) + 1
            moved = table.actions
            await sim.wait_for(lambda: table.actions >= moved + 30 or playing.done(), timeout=240)
            stop.set()  # the people stop after 30 more moves (taps, presses and typed plays)
            await playing
            log: list = []

            async def settled() -> bool:  # every move made is committed
                log[:] = await action_log(group.database_url)
                return len([row for row in log if row[3] is not None]) >= table.actions

            await sim.wait_for(settled, timeout=60)
            await group.settle()
        finally:
            stop.set()
            if playing is not None:
                await asyncio.gather(playing, return_exceptions=True)
            await db.dispose()
        assert table.retries == 0
        moves = [u for u in splitter.bodies if u >= first_move]
        assert len(moves) >= 30
        assert all(splitter.handled[u] == [0, 1] for u in moves)  # both answered 200 to each of them ...
        taken = group.log(0).count("was taken by another process") + group.log(1).count(
            "was taken by another process"
        )
        assert taken == len(moves)  # ... and one of the two dropped it
        people = [row for row in log if row[3] is not None]
        assert len(people) == table.actions  # each person's move applied once
        keys = [row[4] for row in people]
        assert len(set(keys)) == len(keys)

        # Below the webhook: the same button press (same callback query) as a new update, sent to both processes,
        # is refused by apply_action's dedupe key (and the button's version): the log does not change.
        presses = [
            splitter.bodies[u]
            for u in moves
            if "callback_query" in splitter.bodies[u]
            and str(splitter.bodies[u]["callback_query"]["data"]).startswith("p:")
        ][-3:]  # Play
        assert presses
        answers = sim.stats.calls["answerCallbackQuery"]
        fresh = max(splitter.bodies) + 1000
        for i, body in enumerate(presses):
            for process in (0, 1):
                assert await splitter.post(process, {**body, "update_id": fresh + 2 * i + process}) == 200
        await sim.wait_for(
            lambda: sim.stats.calls["answerCallbackQuery"] >= answers + 2 * len(presses), timeout=30
        )
        assert await action_log(group.database_url) == log
        assert group.errors() == []


async def test_an_expired_move_clock_is_acted_on_once_even_after_both_processes_restart():
    async with bots(2) as group:
        sim = group.sim
        human = 200_001
        sim.add_user(human, "张伟", language_code="zh-hans", started=True)
        group_id = -1_004_000_000_001
        sim.add_group(group_id, "计时桌", [human], [human])
        db = create_async_engine(group.database_url)
        try:
            handle = SimUserHandle(sim, human)
            handle.start()
            await sim.wait_for_message(human, timeout=60)
            sim.user_sends_text(
                human,
                group_id,
                "/newtable guandan-team deals=1 bots=3 play_clock=20 "
                "tribute_clock=0 return_clock=0 on_timeout=forfeit_deal",
            )
            await sim.wait_for(lambda: _has_button(sim, group_id, "入座 南"), timeout=60)
            await handle.tap(group_id, "入座 南")
            await sim.wait_for(lambda: "南  张伟" in (sim.last_bot_message(group_id).text or ""), timeout=60)
            await handle.tap(group_id, "▶️ 开始")
            # the computers play until it is South's turn: South's clock is a pending deadline in the database
            clock, seat = await _wait_pending_clock(db, timeout=120)  # computers have no clock
            # both processes stop before it expires and start again: each re-arms the pending deadline
            await asyncio.gather(*(p.stop() for p in group.processes))
            assert (await _deadline(db, clock))[0] == "pending"
            await asyncio.gather(*(group.restart(i) for i in range(2)))
            forfeit = "超时, 本副判负"
            await sim.wait_for(
                lambda: any(forfeit in (m.text or "") for m in sim.bot_messages(group_id)), timeout=60
            )
            await sim.wait_for(
                lambda: any("🏆 比赛结束" in text for text in sim.seen_texts(group_id)), timeout=60
            )
            # the row is marked fired when the handler returns, which may be a moment after its messages
            # went out (a loaded machine): wait for that, then it must be fired, not failed or pending again
            status, fired_at = await _wait_deadline_settled(db, clock, timeout=60)
            assert status == "fired" and fired_at is not None
        finally:
            await db.dispose()
        log = await action_log(group.database_url)
        assert [row[2] for row in log if "forfeit" in row[2]] == [
            f"sys forfeit_deal {seat}"
        ]  # one action ...
        assert len([m for m in sim.bot_messages(group_id) if forfeit in (m.text or "")]) == 1  # ... one note
        # both processes did start again and re-armed it (each logs its start-up), one of them ran it
        assert all("Application started" in group.log(i) for i in range(2))
        assert group.errors() == []


def _has_button(sim, chat_id: int, label: str) -> bool:
    try:
        sim.find_button(chat_id, label)
    except SimulatorError:
        return False
    return True


async def _wait_pending_clock(db, timeout: float) -> tuple[int, int]:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        async with db.connect() as conn:
            rows = (
                await conn.execute(
                    select(Deadline.id, Deadline.payload_json).where(
                        Deadline.kind == "move_clock", Deadline.status == "pending"
                    )
                )
            ).all()
        for deadline_id, payload in rows:
            return int(deadline_id), int(payload["seat"])
        await asyncio.sleep(0.1)
    raise TimeoutError(f"no move clock within {timeout} s")


async def _wait_deadline_settled(db, deadline_id: int, timeout: float) -> tuple[str, object]:
    """The deadline's status once its handler has finished (no longer ``running``)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    status, fired_at = await _deadline(db, deadline_id)
    while status == "running" and loop.time() < until:
        await asyncio.sleep(0.1)
        status, fired_at = await _deadline(db, deadline_id)
    return status, fired_at


async def _deadline(db, deadline_id: int) -> tuple[str, object]:
    async with db.connect() as conn:
        row = (
            await conn.execute(select(Deadline.status, Deadline.fired_at).where(Deadline.id == deadline_id))
        ).one()
    return str(row.status), row.fired_at


async def test_a_tap_undone_on_the_other_process_shows_in_the_hand_message():
    """B showed the hand; a tap answered by A selects a card; the same tap answered by B unselects it: the hand
    message shows no selection (B's memory of what it last showed there is out of date: it must edit anyway)."""
    async with bots(2, TAP_EDIT_DELAY=0) as group:
        sim, splitter = group.sim, group.splitter
        splitter.pin = 1  # B starts the match and shows the hands
        human = 200_003
        sim.add_user(human, "李娜", language_code="zh-hans")
        group_id = -1_004_000_000_003
        sim.add_group(group_id, "点牌", [human], [human])
        handle = SimUserHandle(sim, human)
        handle.start()
        await sim.wait_for_message(human, timeout=60)
        sim.user_sends_text(
            human,
            group_id,
            "/newtable guandan-team deals=1 bots=3 play_clock=0 tribute_clock=0 return_clock=0",
        )
        await sim.wait_for(lambda: _has_button(sim, group_id, "入座 南"), timeout=60)
        await handle.tap(group_id, "入座 南")
        await sim.wait_for(lambda: "南  李娜" in (sim.last_bot_message(group_id).text or ""), timeout=60)
        await handle.tap(group_id, "▶️ 开始")

        def my_turn_hand():
            hands = hand_messages(sim, human)
            return hands[-1] if hands and "👉" in (hands[-1].text or "") else None

        hand = await sim.wait_for(my_turn_hand, timeout=60)  # shown by B (it handled everything so far)
        await group.settle()
        tap = next(str(d) for d in hand.callback_data() if str(d).startswith("s:"))
        splitter.pin = 0
        await sim.press_and_wait(human, human, hand.message_id, tap, timeout=30)  # A: the card is selected
        await sim.wait_for(lambda: "✅" in str(hand.reply_markup), timeout=30)
        splitter.pin = 1
        await sim.press_and_wait(human, human, hand.message_id, tap, timeout=30)  # B: unselected again
        await sim.wait_for(lambda: "✅" not in str(hand.reply_markup), timeout=30)
        await group.settle()
        assert "✅" not in str(hand.reply_markup)
        assert splitter.count_by_process()[0] == 1
        assert group.errors() == []
