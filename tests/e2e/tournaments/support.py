"""End-to-end support: the simulator + the real bot with the tournament handlers and a manual clock.

``tournament_harness(tmp_path, extra_players=N)`` starts the e2e harness (tests/e2e/harness.py) with the
application built by ``bot.edge.app.build_application`` plus ``register_tournament_handlers``; the deadline
scheduler runs on a ``ManualClock`` (``h.clock``): move it and call ``run_due(h)`` -- no real waiting.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import update

from engine.game import Event
from scheduler.clock import ManualClock
from storage import match_repo, table_repo
from storage import tournaments as ts
from storage.models import MatchRecord
from tests.e2e.harness import GROUP_ID, ORGANISER_ID, E2EHarness, e2e_harness

TABLE_GROUPS = [-1002000000001, -1002000000002, -1002000000003]
EXTRA_BASE = 2001


def _with_tournaments(clock: ManualClock) -> Any:
    """What RealBot.prepare does here: the tournament handlers registered and the manual clock installed."""
    from bot.edge.tournament import register_tournament_handlers

    def prepare(app: Any) -> None:
        register_tournament_handlers(app)
        app.bot_data["tournament_clock"] = clock

    return prepare


@asynccontextmanager
async def postgres_database() -> AsyncIterator[str]:
    """A fresh PostgreSQL database on the server of ``TEST_DATABASE_URL`` (the bot migrates it at start),
    dropped afterwards; yields its URL."""
    import uuid

    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.ext.asyncio import create_async_engine

    from tests import services

    base = services.PG_URL
    assert base, "TEST_DATABASE_URL is not set (the test must be marked postgres: tests/conftest.py skips it)"
    name = "flows_" + uuid.uuid4().hex[:12]
    admin = create_async_engine(base, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            await conn.execute(text(f'CREATE DATABASE "{name}"'))
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


@asynccontextmanager
async def tournament_harness(
    tmp_path: Path, extra_players: int = 12, table_groups: int = 2, backend: str = "sqlite"
) -> AsyncIterator[E2EHarness]:
    """``backend="postgresql"``: the bot runs on a fresh PostgreSQL database (``postgres_database``)."""
    if backend == "postgresql":
        async with (
            postgres_database() as url,
            _harness(tmp_path, extra_players, table_groups, DATABASE_URL=url) as h,
        ):
            yield h
        return
    async with _harness(tmp_path, extra_players, table_groups) as h:
        yield h


@asynccontextmanager
async def _harness(
    tmp_path: Path, extra_players: int, table_groups: int, **settings: Any
) -> AsyncIterator[E2EHarness]:
    async with e2e_harness(tmp_path, start_bot=False, **settings) as h:
        h.clock = ManualClock(datetime.now(UTC).replace(second=0, microsecond=0))  # type: ignore[attr-defined]
        h.real_bot.prepare = _with_tournaments(h.clock)
        members = [ORGANISER_ID]
        for i in range(extra_players):
            uid = EXTRA_BASE + i
            h.sim.add_user(uid, f"选手{i + 1}", username=f"p{i + 1}", language_code="zh-hans")
            h.sim.add_member(GROUP_ID, uid)
            members.append(uid)
        for n, gid in enumerate(TABLE_GROUPS[:table_groups]):
            h.sim.add_group(gid, f"比赛桌{n + 1}", [u for u in members if u != ORGANISER_ID], [ORGANISER_ID])
        await h.start_bot()
        await h.start_players()
        await h.start_players([h.handle(EXTRA_BASE + i) for i in range(extra_players)])
        yield h


def rt(h: E2EHarness) -> Any:
    return h.app.bot_data["runtime"]


def db(h: E2EHarness) -> Any:
    return rt(h).db


async def run_due(h: E2EHarness, advance: timedelta | None = None) -> int:
    """Move the manual clock on and fire every due deadline; then let the bot's messages go out."""
    if advance is not None:
        h.clock.advance(advance)  # type: ignore[attr-defined]
    count = await rt(h).scheduler.run_due()
    await settle(h)
    return count


async def settle(h: E2EHarness, timeout: float = 30.0) -> None:
    """Wait until the bot is idle: every update sent so far handled, the tournament side's and the
    runtime's background tasks done (a match-over hook records a result), the outbox flushed, then a quiet
    moment.  Waits for each condition (bounded by ``timeout``, then fails), never for a fixed time."""
    await h.handled(timeout)
    tb = h.app.bot_data["tournaments"]
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while tb.ctx.tasks or getattr(rt(h), "_tasks", ()):
        if loop.time() > end:
            raise AssertionError(f"background tasks still running after {timeout} s")
        await asyncio.sleep(0.02)
    await rt(h).outbox.flush()
    await h.settle(quiet=0.15, timeout=timeout)


async def eventually(check: Any, timeout: float = 15.0) -> Any:
    """Await ``check()`` until it returns something true (a handler may still be at work); return it."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        got = await check()
        if got or loop.time() > end:
            return got
        await asyncio.sleep(0.05)


async def say(h: E2EHarness, user_id: int, chat_id: int, text: str, expect: str | None = None) -> Any:
    """``user_id`` writes ``text``; waits for the bot's next message in ``chat_id`` (containing ``expect``)."""
    before = h.sim.last_bot_message(chat_id)
    h.sim.user_sends_text(user_id, chat_id, text)
    return await h.sim.wait_for_message(chat_id, expect, after=before, timeout=15)


async def dm(h: E2EHarness, user_id: int, text: str, expect: str | None = None) -> Any:
    return await say(h, user_id, user_id, text, expect)


async def follow(h: E2EHarness, user_id: int, url: str, expect: str | None = None) -> Any:
    before = h.sim.last_bot_message(user_id)
    h.sim.follow_link(user_id, url)
    return await h.sim.wait_for_message(user_id, expect, after=before, timeout=15)


async def press(h: E2EHarness, user_id: int, chat_id: int, message: Any, text: str) -> Any:
    return await h.sim.press_and_wait(user_id, chat_id, message.message_id, text=text, timeout=15)


def bot_link(h: E2EHarness, payload: str) -> str:
    """The bot's deep link ``https://t.me/<bot>?start=<payload>``."""
    return str(h.app.bot_data["tournaments"].ctx.bot_link(payload))


def url_button(message: Any) -> str:
    return str(next(b["url"] for b in message.buttons() if "url" in b))


def find(h: E2EHarness, chat_id: int, needle: str) -> list[Any]:
    return [m for m in h.sim.bot_messages(chat_id) if needle in (m.text or m.caption or "")]


async def finish_table(
    h: E2EHarness, table_id: int, winner_side: int, levels: tuple[int, int] = (14, 9)
) -> None:
    """The match of ``table_id`` ends as the engine would end it (stored result + the match_over event
    through the runtime's announce), standing in for hours of play."""
    database = db(h)
    row = await match_repo.current_match(database, table_id)
    assert row is not None
    result = {"winner": winner_side, "levels": list(levels), "reason": "deals", "deals": 17}
    async with database.session() as s:
        await s.execute(
            update(MatchRecord).where(MatchRecord.id == row.id).values(status="finished", result_json=result)
        )
        await s.commit()
    await rt(h).live.announce(row.id, [Event("match_over", result)], source="sys")
    await settle(h)


async def tournament_match(h: E2EHarness, tid: int, key: str) -> Any:
    return await ts.get_match(db(h), tid, key)


def published_from(message: Any) -> dict[str, Any]:
    return json.loads(bytes(message.document["bytes"]).decode("utf-8"))


# --- whole-flow helpers (tests/e2e/tournaments/test_e2e_whole_*.py) ---------------------------------------


def local(h: E2EHarness, delta: timedelta) -> str:
    """The manual clock's now + ``delta`` written as an organiser writes a time (Asia/Shanghai)."""
    return str(ts.local_text(h.clock.now() + delta, "Asia/Shanghai"))  # type: ignore[attr-defined]


async def send_file(h: E2EHarness, user_id: int, content: bytes | str, file_name: str, expect: str) -> Any:
    """``user_id`` sends a file in their private chat; waits for the bot's answer containing ``expect``."""
    before = h.sim.last_bot_message(user_id)
    h.sim.user_sends_document(user_id, user_id, content, file_name)
    return await h.sim.wait_for_message(user_id, expect, after=before, timeout=20)


async def files_after(
    h: E2EHarness, user_id: int, chat_id: int, command: str, last_suffix: str, timeout: float = 30
) -> dict[str, bytes]:
    """``user_id`` sends ``command`` in ``chat_id``; the files the bot sends back, by name, up to the one
    whose name ends with ``last_suffix`` (``/export`` sends its set-up file last)."""
    before = h.sim.last_bot_message(chat_id)
    h.sim.user_sends_text(user_id, chat_id, command)
    await h.sim.wait_for_message(
        chat_id,
        lambda m: m.document is not None and str(m.document.get("filename", "")).endswith(last_suffix),
        after=before,
        timeout=timeout,
    )
    return {
        str(m.document["filename"]): bytes(m.document["bytes"])
        for m in h.sim.bot_messages(chat_id)
        if m.document is not None and m.message_id > (before.message_id if before else 0)
    }


def invite_link(message: Any) -> str:
    """The one-time partner link in the bot's invitation message."""
    return next(w for w in (message.text or "").split() if w.startswith("https://t.me/"))


async def invite_of(h: E2EHarness, user_id: int, announcement: Any, group: str | None) -> str:
    """``user_id`` presses Register on the announcement, chooses ``group`` and gets their partner link."""
    choose = await follow(h, user_id, url_button(announcement))
    if group is not None:
        await press(h, user_id, user_id, choose, group)
    invite = await h.sim.wait_for_message(
        user_id, "https://t.me/", after=choose if group else None, timeout=20
    )
    return invite_link(invite)


def forge_press(h: E2EHarness, user_id: int, chat_id: int, message_id: int, data: str) -> str:
    """A press carrying any callback data (a stale keyboard, a modified client): the simulator's own press
    accepts only buttons the message shows."""
    from tests.e2e.test_fuzz import forge_press as forged

    return str(forged(h.sim, user_id, chat_id, message_id, data))


async def check_in(h: E2EHarness, tid: int, key: str, users: list[int]) -> None:
    """``users`` press 签到 on the tournament group's check-in note of ``key``; each is told 已签到."""
    note = find(h, GROUP_ID, f"签到开始：{key}")[-1]
    for uid in users:
        answer = await press(h, uid, GROUP_ID, note, "签到")
        assert answer.text == "已签到。", (uid, answer.text)


async def match_people(h: E2EHarness, tid: int, key: str) -> list[tuple[list[int], list[int]]]:
    """Per table, (players of side a, players of side b)."""
    m = await tournament_match(h, tid, key)
    return [(list(a), list(b)) for a, b in await ts.match_players(db(h), m)]


async def wait_text(h: E2EHarness, chat_id: int, needle: str, after: Any = None, timeout: float = 20) -> Any:
    return await h.sim.wait_for_message(chat_id, needle, after=after, timeout=timeout)


async def play_table(h: E2EHarness, table_id: int, timeout: float = 120) -> dict[str, Any]:
    """The four people seated at ``table_id`` play its match out by typing their cards in their private
    chats (bot/devtools/autodrive.py); returns the engine's stored result."""
    from bot.devtools.autodrive import drive

    row = await match_repo.current_match(db(h), table_id)
    assert row is not None and row.status == "playing", row
    seats = {s.seat: int(s.user_id) for s in await table_repo.get_seats(db(h), table_id) if s.user_id}
    await drive(
        h.sim, lambda: rt(h) if h.app is not None else None, row.id, seats, seed=table_id, timeout=timeout
    )

    async def finished() -> Any:
        got = await match_repo.get_match_row(db(h), row.id)
        return got if got is not None and got.status == "finished" and got.result_json else None

    done = await eventually(finished, timeout=30)
    assert done is not None, "the match did not finish"
    await settle(h)
    result: dict[str, Any] = dict(done.result_json)
    return result


async def schedule_posted(h: E2EHarness, *keys: str, timeout: float = 30) -> None:
    """Wait until the tournament group has seen a schedule (🗓 赛程) line for each of ``keys`` (a match's
    time is set before its schedule is posted: after this its row has ``start_at``)."""
    for key in keys:
        await h.sim.wait_for_message(
            GROUP_ID,
            lambda m, k=key: (
                "🗓 赛程" in (m.text or "")
                and any(line.startswith(k + " ") for line in (m.text or "").split("\n"))
            ),
            timeout=timeout,
        )


async def table_recorded(h: E2EHarness, tid: int, key: str, table: int) -> Any:
    """Wait until the tournament has recorded table ``table`` of match ``key`` (its match-over hook ran)."""

    async def check() -> Any:
        m = await tournament_match(h, tid, key)
        return m if str(table) in m.table_results or m.result_json is not None else None

    got = await eventually(check, timeout=30)
    assert got is not None, f"table {table} of {key} was not recorded"
    return got


async def four_pair_swiss(h: E2EHarness, name: str, rounds: int = 2) -> None:
    """A Swiss of 4 pairs (p1..p8) over ``rounds`` rounds, its first round tomorrow, drawn on two table
    groups: round 1 scheduled, every player told their table."""
    first = local(h, timedelta(days=1))
    swiss = f'[tournament]\nformat = "swiss"\nswiss_rounds = {rounds}\n'
    await dm(
        h,
        ORGANISER_ID,
        f'name = "{name}"\npreset = "shengji-17-deals"\nfirst_round = "{first}"\n{swiss}',
        "已从文件创建比赛",
    )
    await say(h, ORGANISER_ID, GROUP_ID, "/tournament_group", "开始报名")
    for gid in TABLE_GROUPS[:2]:
        await say(h, ORGANISER_ID, gid, "/table_register", "比赛桌")
    for i in range(4):
        await dm(h, ORGANISER_ID, f"/register @p{2 * i + 1} @p{2 * i + 2}", "报名成功")
    await dm(h, ORGANISER_ID, "/draw", "已完成")
    await settle(h)
