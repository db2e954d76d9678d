"""Mini App mode: with every person seated on the table page, the group's table message follows the
tricks at most once per WEBAPP_TABLE_EDIT_SECONDS instead of at every trick (Telegram's 20 edits per
minute per group stay for the deal's stages)."""

from __future__ import annotations

import time

from bot.tables import live
from storage import match_repo, table_repo
from tests.webapp.helpers import PageClient, local_table, my_turn, wait_until
from tests.webapp.local_names import GROUP_ID

INTERVAL = 2.0


async def table_message(table):
    row = await match_repo.get_match_row(table.rt.db, table.match_id)
    t = await table_repo.get_table(table.rt.db, row.table_id)
    if t.table_message_id is None:
        return None
    return next((m for m in table.sim.bot_messages(GROUP_ID) if m.message_id == t.table_message_id), None)


async def test_with_every_page_open_the_group_message_follows_tricks_at_most_once_per_interval(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(live, "MINI_APP_EDIT_CARDS", 1)  # the time alone (the cards: the test below)
    async with local_table(
        tmp_path, "/newtable guandan-team deals=1 seed=3 bots=3", WEBAPP_TABLE_EDIT_SECONDS=INTERVAL
    ) as table:
        page = await PageClient.open(table)
        await page.hello(table.init_data(), table.match_id)

        async def shown():
            return await table_message(table)

        message = await wait_until(shown)
        frame = await page.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        edits0, trick0, t0 = len(message.versions), frame["table"]["trick_no"], time.monotonic()
        finished0 = len(frame["table"].get("finish_order") or [])
        for _ in range(12):  # my moves, the three computers' in between (at once: many tricks a second)
            a = frame["me"]["actions"]
            answer = (
                await page.act("pass")
                if a["pass"]
                else await page.act("play", frame["me"]["hand"][-1]["cards"][:1])
            )
            assert answer["ok"]
            frame = await page.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        tricks = frame["table"]["trick_no"] - trick0
        elapsed = time.monotonic() - t0
        finished = len(frame["table"].get("finish_order") or []) - finished0  # a seat out: shown at once
        edits = len(message.versions) - edits0
        assert tricks >= 6, "the moves should have completed several tricks"
        assert edits <= 1 + elapsed / INTERVAL + finished, (edits, tricks, elapsed)
        assert edits < tricks  # not once per trick any more
        # the tricks held back are not lost: once the interval is up the message shows the table as it is
        # (waited for as a state: the held-back render has fired, its task is done, the outbox sent it)
        await wait_until(lambda: not table.rt.live.edit_due(table.match_id) and not table.rt._tasks)
        await table.rt.outbox.flush()
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        settled = len(message.versions)
        async with table.rt.lock(table.match_id):
            await table.rt.live.render_match(table.match_id, everything=True)  # a full render: nothing new
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        assert len(message.versions) == settled
        await page.close()


async def test_with_every_page_open_a_trick_reaches_the_group_only_after_enough_cards(tmp_path, monkeypatch):
    cards = 10
    monkeypatch.setattr(live, "MINI_APP_EDIT_CARDS", cards)
    async with local_table(
        tmp_path, "/newtable guandan-team deals=1 seed=3 bots=3", WEBAPP_TABLE_EDIT_SECONDS=0.0
    ) as table:  # no time limit: only the cards count
        page = await PageClient.open(table)
        await page.hello(table.init_data(), table.match_id)

        async def shown():
            return await table_message(table)

        message = await wait_until(shown)
        frame = await page.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        edits0, trick0 = len(message.versions), frame["table"]["trick_no"]
        finished0 = len(frame["table"].get("finish_order") or [])
        left0 = sum(await hand_sizes(table))
        for _ in range(12):
            a = frame["me"]["actions"]
            answer = (
                await page.act("pass")
                if a["pass"]
                else await page.act("play", frame["me"]["hand"][-1]["cards"][:1])
            )
            assert answer["ok"]
            frame = await page.until(lambda f: my_turn(f) and f["me"]["actions"]["play"])
        async with table.rt.lock(table.match_id):
            pass
        await table.sim.wait_quiet(quiet=0.5, timeout=30)
        tricks = frame["table"]["trick_no"] - trick0
        played = left0 - sum(await hand_sizes(table))
        finished = len(frame["table"].get("finish_order") or []) - finished0
        edits = len(message.versions) - edits0
        assert tricks >= 6 and played >= cards, (tricks, played)
        assert 1 <= edits <= played // cards + finished, (edits, played, tricks)
        await page.close()


async def hand_sizes(table):
    async with table.rt.lock(table.match_id):
        _, m = await match_repo.load_match_row(table.rt.db, table.match_id)
        return [len(h) for h in m.hands]
