"""Fuzz (hypothesis) against the real bot and the Bot API simulator: commands, typed plays and callback data.

One bot runs for the module (in a thread of its own with its own event loop, so hypothesis drives it
from a plain test).  A Guandan table is opened with South (张伟, the group's owner) seated and three
computer players, no move clocks; the examples are sent while it is South's turn.  For every
example (a few inputs from several people):

* no traceback: nothing logged at ERROR, no "Traceback" and no internal-error answer in any chat;
* no state change on refusal: inputs from people who are not seated never change the match, the
  tables or the seats;
* every answer translated: in a Chinese chat no message key (``err.stale``) and no sentence of the
  English catalogue, in the English user's chat no message key;
* every press answered (the simulator sees an answer to each callback query): a forged one of any shape
  (``test_every_malformed_press_is_answered`` presses every op with letters for numbers, missing, empty or
  extra fields, numbers beyond 32 bits) gets a translated answer, never the internal error.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.presentation.i18n import catalogue
from storage import match_repo, table_repo
from tests.e2e.harness import ENGLISH_USER, PLAYERS, STRANGER, e2e_harness

pytestmark = pytest.mark.e2e

KEYS = sorted(catalogue("zh"), key=len, reverse=True)
KEY_RE = re.compile(r"(?<![\w.])(" + "|".join(re.escape(k) for k in KEYS) + r")(?![\w])")


def _english_sentences() -> list[str]:
    """Fixed English text of the catalogue (the part before any placeholder), long enough to be telling."""
    out = set()
    for value in catalogue("en").values():
        head = value.split("{", 1)[0].strip()
        if len(head) >= 14 and re.search(r"[a-z]{4}", head) and head not in catalogue("zh").values():
            out.add(head)
    return sorted(out)


ENGLISH = _english_sentences()


class BotThread:
    """The harness running in its own thread and event loop; ``run(coro)`` waits for a result."""

    def __init__(self, tmp_path: Path) -> None:
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.stop_event: asyncio.Event | None = None
        self.h: Any = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._main, args=(tmp_path,), daemon=True)
        self.thread.start()
        if not self.ready.wait(120):
            raise RuntimeError("the bot did not start")
        if self.error is not None:
            raise self.error

    def _main(self, tmp_path: Path) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve(tmp_path))

    async def _serve(self, tmp_path: Path) -> None:
        self.stop_event = asyncio.Event()
        try:
            async with e2e_harness(tmp_path, RATE_LIMIT_PER_SECOND=0) as h:
                self.h = h
                self.ready.set()
                await self.stop_event.wait()
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            self.error = exc
            self.ready.set()

    def run(self, coro: Coroutine[Any, Any, Any], timeout: float = 120) -> Any:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        if self.stop_event is not None:
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(60)


@pytest.fixture(scope="module")
def bot(tmp_path_factory: pytest.TempPathFactory) -> Any:
    runner = BotThread(tmp_path_factory.mktemp("fuzz"))
    try:
        runner.run(_open_table(runner.h))
        yield runner
    finally:
        runner.close()


def _rt(h: Any) -> Any:
    return h.app.bot_data["runtime"]


async def _open_table(h: Any) -> None:
    p0 = h.players[0]
    p0.say(
        h.group_id,
        "/newtable guandan-team bots=3 play_clock=0 tribute_clock=0 return_clock=0 time_limit_minutes=0 deals=0",
    )
    await h.sim.wait_for_message(h.group_id, lambda m: "开始" in str(m.reply_markup), timeout=20)
    await p0.tap(h.group_id, "入座 南")
    await p0.tap(h.group_id, "▶️ 开始")
    await _south_to_play(h)


async def _south_to_play(h: Any, limit: float = 30.0) -> None:
    """Wait until the match waits on South (seat 0) and the bot is quiet."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit
    while loop.time() < end:
        table = await table_repo.open_table_in_chat(_rt(h).db, h.group_id)
        row = await match_repo.current_match(_rt(h).db, table.id) if table else None
        if row is not None:
            _, m = await match_repo.load_match_row(_rt(h).db, row.id)
            if any(tr.seat == 0 and tr.required for tr in m.turns()):
                await h.settle(quiet=0.2)
                return
        await asyncio.sleep(0.05)
    raise AssertionError("South never got the turn")


async def _snapshot(h: Any) -> Any:
    db = _rt(h).db
    tables = await table_repo.active_tables(db)
    out = []
    for table in tables:
        seats = [(s.seat, s.user_id, s.is_computer) for s in await table_repo.get_seats(db, table.id)]
        row = await match_repo.current_match(db, table.id)
        out.append(
            (table.id, table.status, seats, None if row is None else (row.id, row.version, row.status))
        )
    return out


# --- the inputs ---------------------------------------------------------------------------------------

PEOPLE = {
    "south": PLAYERS[0][0],
    "wang": PLAYERS[1][0],
    "li": PLAYERS[2][0],
    "stranger": STRANGER[0],
    "emma": ENGLISH_USER[0],
}
COMMANDS = ["newtable", "stop", "leave", "help", "start", "lang", "review", "replay", "nosuchcommand"]
GARBAGE = st.one_of(
    st.text(min_size=1, max_size=40).filter(lambda s: s.strip() and "\x00" not in s),
    st.sampled_from(
        [
            "x" * 4000,
            "♥5 ♥5 ♥5 ♥5 ♥5 ♥5 ♥5 ♥5 ♥5",
            "大王 大王 大王",
            "h5h5",
            "不要",
            "pass",
            "counts",
            "bj sj",
            "♠",
            "0",
            "-1",
            "\u202e",
            "<b>x</b>",
            "deals=-3 bots=9 foo=bar",
            "seed=42",
        ]
    ),
)


@st.composite
def callback_data(draw: Callable[..., Any]) -> str:
    op = draw(st.sampled_from(list("sckbonxrtqhjglu") + ["L", "T", "", "zz"]))
    parts = [op] + [
        str(draw(st.one_of(st.integers(-3, 10**13), st.text(alphabet="0123456789.:-ab", max_size=8))))
        for _ in range(draw(st.integers(0, 5)))
    ]
    data = ":".join(parts)[:64]
    if data.startswith("L:") and data[2:].lower().startswith(("en", "zh")):
        data = "L:xx"
    return data


@st.composite
def one_input(draw: Callable[..., Any]) -> tuple[str, str, str]:
    who = draw(st.sampled_from(sorted(PEOPLE)))
    kind = draw(st.sampled_from(["group_command", "private_command", "typed", "press_table", "press_hand"]))
    if kind in ("group_command", "private_command"):
        name = draw(st.sampled_from(COMMANDS))
        arg = draw(GARBAGE)
        if name == "lang":
            arg = "xx" if arg.strip().lower()[:2] in ("en", "zh", "中文", "cn") else arg
        if name == "stop" and who == "south":
            name = "help"  # South owns the group: a stop of his would be a real change
        return who, kind, f"/{name} {arg}".strip()
    if kind == "typed":
        return who, kind, draw(GARBAGE)
    return who, kind, draw(callback_data())


# --- checks -----------------------------------------------------------------------------------------


def _texts_since(h: Any, chat_id: int, marks: dict[int, int]) -> list[str]:
    out = []
    for m in h.sim.bot_messages(chat_id):
        if m.message_id > marks.get(chat_id, 0):
            out.append(m.text or m.caption or "")
    return out


def _check_translated(text: str, lang: str, typed: str = "") -> None:
    """``typed``: what the people typed in this example; a key they typed themselves may be echoed back
    (``/newtable ann.redeal`` is answered "no preset ann.redeal")."""
    assert "Traceback" not in text, text
    keys = [k.group(0) for k in KEY_RE.finditer(text) if k.group(0) not in typed]
    assert not keys, f"raw message key {keys[0]!r} in {text[:200]!r}"
    if lang == "zh":
        for sentence in ENGLISH:
            assert sentence not in text, f"English {sentence!r} in a Chinese chat: {text[:200]!r}"


async def _send(h: Any, who: str, kind: str, payload: str) -> tuple[str | None, bool]:
    """Send one input; returns (the callback answer text or None, whether the input was a press)."""
    uid = PEOPLE[who]
    user = h.handle(uid)
    if kind == "group_command":
        user.say(h.group_id, payload)
        return None, False
    if kind in ("private_command", "typed"):
        if not h.sim.users[uid].started:
            user.start()
        user.dm(payload)
        return None, False
    # a forged press (a modified client may send any callback data on a message it can see): on the
    # table message, or on the newest message of the presser's own private chat (South: his hand)
    chat = h.group_id if kind == "press_table" else uid
    last = h.sim.last_bot_message(chat) if chat in h.sim.chats else None
    if last is None:
        return None, False
    query_id = forge_press(h.sim, uid, chat, last.message_id, payload)
    answer = await h.sim.wait_callback_answer(query_id, 15)
    return answer.text, True


def forge_press(sim: Any, user_id: int, chat_id: int, message_id: int, data: str) -> str:
    """A callback query with any ``data`` (the simulator's own press accepts only buttons it shows)."""
    from bot.devtools.simulator.state import CallbackQueryRecord

    message = sim.chats[chat_id].messages[message_id]
    query_id = str(next(sim._query_ids))
    sim.callback_queries[query_id] = CallbackQueryRecord(
        id=query_id, user_id=user_id, chat_id=chat_id, message_id=message_id, data=data, created=sim.clock()
    )
    sim._enqueue(
        "callback_query",
        {
            "id": query_id,
            "from": sim.users[user_id].to_api(),
            "message": sim.message_api(message),
            "chat_instance": str(abs(chat_id) * 7919 + sim.bot_id),
            "data": data,
        },
    )
    return query_id


async def _example(h: Any, inputs: list[tuple[str, str, str]]) -> None:
    await _south_to_play(h)
    chats = [h.group_id] + list(PEOPLE.values())
    marks = {
        c: max((m.message_id for m in h.sim.bot_messages(c)), default=0) for c in chats if c in h.sim.chats
    }
    errors_before = len(h.logged_errors())
    english_in_group = False
    typed = "\n".join(payload for _who, _kind, payload in inputs)
    for who, kind, payload in inputs:
        before = await _snapshot(h)
        answer, _pressed = await _send(h, who, kind, payload)
        await h.settle(quiet=0.15)
        english_in_group |= who == "emma" and kind in (
            "group_command",
            "press_table",
        )  # answered in her language
        if who != "south":
            assert await _snapshot(h) == before, f"{who} {kind} {payload[:60]!r} changed the game"
        if answer:
            lang = "en" if who == "emma" else "zh"
            _check_translated(answer, lang, typed)
            assert answer != _internal(lang), f"internal error for {who} {kind} {payload[:60]!r}"
    assert h.logged_errors()[errors_before:] == []
    unanswered = [q.data for q in h.sim.callback_queries.values() if not q.answered]
    assert unanswered == [], f"presses never answered: {unanswered}"
    for chat in chats:
        if chat not in h.sim.chats:
            continue
        lang = "en" if chat == PEOPLE["emma"] or (chat == h.group_id and english_in_group) else "zh"
        for text in _texts_since(h, chat, marks):
            _check_translated(text, lang, typed)
            assert _internal(lang) not in text


def _internal(lang: str) -> str:
    from bot.presentation.i18n import t

    return t(lang, "err.internal")


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(inputs=st.lists(one_input(), min_size=1, max_size=4))
def test_fuzz_commands_typed_plays_and_presses(bot: Any, inputs: list[tuple[str, str, str]]) -> None:
    bot.run(_example(bot.h, inputs))


# --- every malformed press answered ------------------------------------------------------------------


def _malformed(op: str) -> list[str]:
    """Shapes of callback data a forged client may send with ``op``: letters where numbers go, fields missing,
    empty or too many, numbers too big, a stray separator (none of them a button the bot shows)."""
    return [
        op,
        f"{op}:",
        f"{op}:abc",
        f"{op}:abc:0",
        f"{op}:0:abc",
        f"{op}:1:abc:0",
        f"{op}::",
        f"{op}:-:-",
        f"{op}:1.5:0",
        f"{op}:1:2:3:4:5:6:7",
        f"{op}:{10**20}:0",
        f"{op}:１:0",
        f"{op}:1:0:abc:def",
    ]


OPS = sorted(set("sckbonxrtqhjglu") | {"L", "T", "T:a", "T:c", "T:d", "T:g", "T:r", "T:s", "T:x", "zz"})
MALFORMED = sorted({data[:64] for op in OPS for data in _malformed(op)})


async def _press_all(h: Any, who: str, chat_id: int, datas: list[str]) -> dict[str, list[str]]:
    """Forge every press on the newest bot message of ``chat_id`` at once; what went wrong: the data whose
    query got no answer, or the internal error for an answer, and what was logged at ERROR meanwhile."""
    await _south_to_play(h)
    before = await _snapshot(h)
    errors_before = len(h.logged_errors())
    message = h.sim.last_bot_message(chat_id)
    queries = {forge_press(h.sim, PEOPLE[who], chat_id, message.message_id, data): data for data in datas}
    # some 340 presses at once, each through the whole update pipeline: on a loaded two-core machine that
    # takes well over 20 s (seen: 2 of 3 fuzz cases short of it at load 15); the bound only ends a failure
    with contextlib.suppress(TimeoutError):
        await h.sim.wait_for(lambda: all(h.sim.callback_queries[q].answered for q in queries), 180)
    await h.settle(quiet=0.2)
    assert await _snapshot(h) == before, f"a malformed press by {who} changed the game"
    lang = "en" if who == "emma" else "zh"
    records = [h.sim.callback_queries[query] for query in queries]
    for record in records:
        _check_translated(record.text or "", lang)
    problems = {
        "unanswered": [r.data for r in records if not r.answered],
        "internal error": [r.data for r in records if r.text == _internal(lang)],
        "logged": h.logged_errors()[errors_before:],
    }
    return {what: found for what, found in problems.items() if found}


@pytest.mark.parametrize(("who", "where"), [("wang", "table"), ("south", "hand"), ("emma", "table")])
def test_every_malformed_press_is_answered(bot: Any, who: str, where: str) -> None:
    """A forged press of any shape, on the table message or on South's own hand message, gets an answer (the
    client's spinner stops) and changes nothing."""
    chat = bot.h.group_id if where == "table" else PEOPLE[who]
    assert bot.run(_press_all(bot.h, who, chat, MALFORMED)) == {}
