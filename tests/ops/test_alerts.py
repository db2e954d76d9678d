"""Alerts to the bot's admins (bot/boot/alerts.py): told once per kind per ten minutes, privately."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError

from bot.boot.alerts import EVERY, Alerts
from storage.db import open_database

ALERT_ZH = "运维提醒"


def rt(h):
    return h.app.bot_data["runtime"]


def alerts_in(h, chat_id: int) -> list[str]:
    return [m.text for m in h.sim.bot_messages(chat_id) if ALERT_ZH in (m.text or "")]


async def wait_until(condition, timeout: float = 30.0) -> None:
    async def poll() -> None:
        while not condition():
            await asyncio.sleep(0.02)

    await asyncio.wait_for(poll(), timeout)


async def test_telegram_answering_429_tells_the_admin_once(harness_factory):
    async with harness_factory(BOT_ADMIN_IDS="1002") as h:
        admin, organiser = h.players[1], h.players[0]
        h.sim.faults.answer(429, count=3, chat_id=h.group_id, retry_after=1)
        organiser.say(h.group_id, "/newtable shengji-17-deals")
        await h.sim.wait_for_message(h.group_id, "入座", timeout=30)
        await h.sim.wait_for_message(admin.user_id, ALERT_ZH, timeout=30)
        # more 429s within ten minutes: counted, not told again
        h.sim.faults.answer(429, count=3, chat_id=h.group_id, retry_after=1)
        organiser.say(h.group_id, "/help")
        await wait_until(lambda: h.sim.faults.answered == 6 and rt(h).outbox.stats.retry_after >= 6)
        await rt(h).alerts.check()
        await h.settle()
        told = alerts_in(h, admin.user_id)
        assert len(told) == 1 and "429" in told[0]
        assert alerts_in(h, organiser.user_id) == [] and alerts_in(h, h.group_id) == []
        assert [kind for kind, _ in rt(h).alerts.sent] == ["rate_limited"]


class _Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _runtime(admins=()) -> SimpleNamespace:
    sent: list[tuple[int, str]] = []
    runtime = SimpleNamespace(
        outbox=SimpleNamespace(),
        admin_ids=frozenset(admins),
        scheduler=None,
        db=None,
        sent=sent,
        tasks=[],
        settings=SimpleNamespace(WEBAPP_RELAY_URL=None, TELEGRAM_LIMITS_URL=None),
    )
    runtime.messages = SimpleNamespace(send=lambda chat, body: sent.append((chat, body)))
    runtime.spawn = lambda coro: runtime.tasks.append(asyncio.ensure_future(coro))
    runtime.group_lang = lambda: "zh"

    async def user_lang(user_id):
        return "en"

    runtime.user_lang = user_lang
    return runtime


async def test_one_alert_per_kind_per_ten_minutes_to_each_admin():
    runtime, clock = _runtime(admins=(7, 8)), _Clock()
    alerts = Alerts(runtime, clock=clock)
    assert alerts.raise_("rate_limited", count=1)
    assert not alerts.raise_("rate_limited", count=2)  # within ten minutes
    assert alerts.raise_("outbox", queued=30000, bound=20000)  # another kind is told
    clock.now += EVERY
    assert alerts.raise_("rate_limited", count=5)
    await asyncio.gather(*runtime.tasks)
    assert sorted(chat for chat, _ in runtime.sent) == [7, 7, 7, 8, 8, 8]
    assert all(body.startswith("⚠️ Ops alert") for _, body in runtime.sent)


async def test_a_deadline_late_by_more_than_five_seconds_is_an_alert():
    alerts = Alerts(_runtime(), clock=_Clock())
    alerts.late("move_clock", 4.9)
    assert alerts.sent == []
    alerts.late("move_clock", 7.2)
    assert [kind for kind, _ in alerts.sent] == ["scheduler_late"] and "7 s late" in alerts.sent[0][1]


async def test_a_database_error_is_an_alert(tmp_path):
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    runtime = _runtime()
    runtime.db, runtime.outbox = db, None
    alerts = Alerts(runtime, clock=_Clock())
    alerts.watch()
    try:
        async with db.engine.connect() as conn:
            with pytest.raises(Exception, match="no_such_table"):
                await conn.execute(text("SELECT * FROM no_such_table"))
        assert [kind for kind, _ in alerts.sent] == ["database"] and "no_such_table" in alerts.sent[0][1]
    finally:
        await alerts.stop()
        await db.dispose()


async def test_a_unique_key_race_lost_is_no_alert(tmp_path):
    """Two requests racing for one row (two /newtable of one group in two processes): the schema refuses the
    second, the code answers it (``table_exists``); the admins are not paged about a database error."""
    db = await open_database(f"sqlite+aiosqlite:///{tmp_path}/bot.db")
    runtime = _runtime()
    runtime.db, runtime.outbox = db, None
    alerts = Alerts(runtime, clock=_Clock())
    alerts.watch()
    try:
        async with db.engine.connect() as conn:
            await conn.execute(text("CREATE TABLE one_per_chat (chat_id INTEGER UNIQUE)"))
            await conn.execute(text("INSERT INTO one_per_chat VALUES (1)"))
            with pytest.raises(IntegrityError):
                await conn.execute(text("INSERT INTO one_per_chat VALUES (1)"))
            assert alerts.sent == []
            with pytest.raises(Exception, match="no_such_table"):  # a real fault still is one
                await conn.execute(text("SELECT * FROM no_such_table"))
        assert [kind for kind, _ in alerts.sent] == ["database"]
    finally:
        await alerts.stop()
        await db.dispose()


async def test_redis_not_answering_is_an_alert():
    runtime = _runtime()
    runtime.outbox = None
    runtime.settings.TELEGRAM_LIMITS_URL = "redis://:pw@127.0.0.1:1/0"
    alerts = Alerts(runtime, clock=_Clock())
    await alerts.check()
    assert [kind for kind, _ in alerts.sent] == ["redis"] and "pw" not in alerts.sent[0][1]


async def test_a_real_outbox_over_its_bound_is_an_alert():
    """The watcher reads the real Outbox (not a stand-in): messages of record queued beyond its bound."""
    from bot.delivery.outbox import Outbox
    from tests.bot.delivery.test_outbox_bounds import SlowSender

    runtime = _runtime(admins=(7,))
    sender = SlowSender()  # a Telegram that does not answer yet: the calls stay queued
    box = Outbox(sender, rate_scale=1000, max_chat_queue=5, max_queued=8)
    runtime.outbox = box
    alerts = Alerts(runtime, clock=_Clock())
    await alerts.check()
    assert alerts.sent == []  # nothing queued, nothing to say
    box.start()
    for i in range(12):
        box.send_nowait(7 + i % 3, f"record {i}")
    await asyncio.sleep(0)
    await alerts.check()
    assert [kind for kind, _ in alerts.sent] == ["outbox"]
    sender.gate.set()
    await box.stop()
