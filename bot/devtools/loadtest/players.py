"""The simulated people of a load test: four per table, who start the bot, sit down, press Start, and then play.

A person acts when their private chat says it is their turn ("👉 轮到你" in the hand message; after 5 s
without it they act anyway, e.g. for an optional bid), thinks ``think`` seconds, then presses the cards of a
legal play on the hand message's keyboard (or, with probability ``type_share``, types them). The legal play
comes from a replica of the match: the harness reads the committed actions from the database (its own
connection, one small query per turn) and applies them to an engine built from the match's seed, so it
knows every seat's hand as the bot does. A play that is not committed within 10 s is tried again (counted
as a retry). Each applied action is recorded with its commit time (the action row's ``created_at``) for
the figures.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import time
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.devtools.autodrive import press_action, typed_form
from bot.devtools.simulator import BotApiSimulator, SimMessage, SimUserHandle
from bot.presentation.i18n import t
from bot.presentation.keyboards import seat_name
from bot.presentation.render import _pub, _trick_line
from engine.registry import match_from_stored
from storage.models import ActionRecord, GameTable
from storage.models import MatchRecord as MatchRow

LANG = "zh"
ACT_WITHOUT_NOTICE_AFTER = 5.0  # seconds: a person who was never told it is their turn acts anyway
RETRY_AFTER = 10.0  # seconds: a move not committed by then is made again
TRACE = bool(os.environ.get("LOADTEST_TRACE"))  # print every move the people make


@dataclass
class PlayRecord:
    """One committed play (a turn's cards) and what the harness needs to time what followed it."""

    table: int
    seq: int
    seat: int
    committed: float  # wall-clock seconds (the action row's created_at)
    next_user: int | None  # who must act next (None: the deal or match ended)
    marker: str | None  # the line the group's table message shows for the state after this play
    completes_trick: bool


@dataclass
class Table:
    index: int
    group_id: int
    user_ids: list[int]
    names: list[str]
    seed: int
    match_id: int | None = None
    game: str = ""
    replica: Any = None
    seq: int = 0
    last_commit: float = 0.0
    first_play: float | None = None
    last_play: float | None = None
    finished: bool = False
    plays: list[PlayRecord] = field(default_factory=list)
    actions: int = 0
    pressed: int = 0
    typed: int = 0
    retries: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    humans: tuple[int, ...] = (0, 1, 2, 3)  # the seats people play; the others are the bot's computers
    window_since: float | None = None  # the commit that opened the current bid window (its notices count)
    resumed_at: float = 0.0  # when a person last pressed Resume on this paused table (time.monotonic())
    resumes: int = 0
    start_query: str | None = None  # the first press of Start (its callback query id)
    start_pressed: float | None = None  # time.monotonic() of that press
    start_pressed_wall: float | None = None  # time.time() of that press


class Observer:
    """Listens to every message the bot sends or edits: when each private chat said "your turn", and every
    version of each group's messages (with its time)."""

    def __init__(self, sim: BotApiSimulator, tables: list[Table]) -> None:
        self.your_turn = "👉 " + t(LANG, "hand.your_turn")
        self.turn_times: dict[int, list[float]] = {}
        self.turn_events: dict[int, asyncio.Event] = {}
        self.group_versions: dict[int, list[tuple[float, str]]] = {}
        self.table_of_user: dict[int, Table] = {}
        for table in tables:
            for uid in table.user_ids:
                self.table_of_user[uid] = table
                self.turn_times[uid] = []
                self.turn_events[uid] = asyncio.Event()
            self.group_versions[table.group_id] = []
        sim.bot_message_listeners.append(self.seen)

    def seen(self, message: SimMessage) -> None:
        version = message.current
        text = version.text or version.caption or ""
        if message.chat_id > 0:
            if self.your_turn in text and message.chat_id in self.turn_times:
                self.turn_times[message.chat_id].append(version.at)
                self.turn_events[message.chat_id].set()
                self.table_of_user[message.chat_id].wake.set()
        elif message.chat_id in self.group_versions:
            self.group_versions[message.chat_id].append((version.at, text))

    async def turn_shown(self, user_id: int, after: float, timeout: float) -> bool:
        """Wait until ``user_id``'s private chat says it is their turn in a version newer than ``after``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            times = self.turn_times[user_id]
            if times and times[-1] >= after:
                return True
            remaining = deadline - loop.time()
            if remaining <= 0:
                return False
            event = self.turn_events[user_id]
            event.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), remaining)


HUMAN_SEATS = {0: (0, 1, 2, 3), 1: (0, 1, 2), 2: (0, 2), 3: (0,)}
"""The seats people take with ``computers`` computer players at the table (two: partners against two
computers); the bot fills the empty seats with computers at Start."""


def make_tables(count: int, first_seed: int, computers: int = 0) -> list[Table]:
    tables = []
    for index in range(count):
        users = [100_000 + index * 10 + seat for seat in range(4)]
        names = [f"桌{index + 1}{'东南西北'[seat]}" for seat in range(4)]
        tables.append(
            Table(
                index=index,
                group_id=-1_003_000_000_000 - index,
                user_ids=users,
                names=names,
                seed=first_seed + index,
                humans=HUMAN_SEATS[computers],
            )
        )
    return tables


def populate(sim: BotApiSimulator, tables: list[Table]) -> None:
    for table in tables:
        for uid, name in zip(table.user_ids, table.names, strict=True):
            sim.add_user(uid, name, language_code="zh-hans")
        sim.add_group(table.group_id, f"工会赛 第{table.index + 1}桌", table.user_ids, [table.user_ids[0]])


async def set_up(
    sim: BotApiSimulator,
    db: AsyncEngine,
    table: Table,
    preset: str,
    deals: int,
    *,
    fixed_seed: bool = False,
    ai: str | None = None,
    timeout: float = 120.0,
) -> None:
    """The table's people start the bot, one opens a table in the group (``ai=``: the level of its computer
    players), they sit at their seats, the first presses Start (the empty seats go to computers)."""
    handles = [SimUserHandle(sim, table.user_ids[seat]) for seat in table.humans]
    for handle in handles:
        handle.start()
    for handle in handles:
        await sim.wait_for_message(handle.user_id, timeout=timeout)
    before = sim.last_bot_message(table.group_id)
    # seed= (fixed deals) only when the run was given --seed: the bot takes it from its admins only (the openers
    # are made admins then); otherwise the bot draws fresh deals, and the harness reads the seed it stored.
    fixed = f" seed={table.seed}" if fixed_seed else ""
    level = f" ai={ai}" if ai else ""
    handles[0].say(table.group_id, f"/newtable {preset} deals={deals}{fixed}{level}")
    start_label = t(LANG, "btn.start")
    lobby = await sim.wait_for_message(table.group_id, after=before, timeout=timeout)
    if start_label not in str(lobby.reply_markup):
        lobby = await sim.wait_for_message(
            table.group_id, lambda m: start_label in str(m.reply_markup), after=before, timeout=5
        )  # a refusal answers instead: fail now
    # A loaded bot may answer a tap after Telegram's 15 s (the answer is then refused): people look at the
    # lobby instead, and tap again when their name does not show up.
    for seat, handle in zip(table.humans, handles, strict=True):
        label = t(LANG, "btn.join", seat=seat_name(LANG, seat))
        name = table.names[seat]
        for _attempt in range(3):
            with contextlib.suppress(Exception):  # no such button (yet), or the lobby just changed
                lobby, button = sim.find_button(table.group_id, label)
                handle.press(table.group_id, lobby.message_id, str(button["callback_data"]))
            with contextlib.suppress(TimeoutError):
                await sim.wait_for(partial(_group_shows, sim, table.group_id, name), timeout=timeout / 3)
                break
    started_at = asyncio.get_running_loop().time()
    start_pressed = -1e9
    loop = asyncio.get_running_loop()
    deadline = started_at + timeout
    while table.match_id is None:
        async with db.connect() as conn:
            row = (
                await conn.execute(
                    select(MatchRow.id, MatchRow.game, MatchRow.options_json, MatchRow.seed)
                    .join(GameTable, GameTable.id == MatchRow.table_id)
                    .where(GameTable.chat_id == table.group_id)
                    .order_by(MatchRow.id.desc())
                    .limit(1)
                )
            ).first()
        if row is not None:
            table.match_id, table.game = int(row.id), str(row.game)
            table.replica = match_from_stored(row.game, row.options_json, int(row.seed))
            break
        if loop.time() - start_pressed > timeout / 3:
            start_pressed = loop.time()
            with contextlib.suppress(Exception):
                message, button = sim.find_button(table.group_id, start_label)
                pressed_wall, pressed = time.time(), time.monotonic()
                query = handles[0].press(table.group_id, message.message_id, str(button["callback_data"]))
                if table.start_query is None:
                    table.start_query, table.start_pressed, table.start_pressed_wall = (
                        query,
                        pressed,
                        pressed_wall,
                    )
        if loop.time() > deadline:
            raise TimeoutError(f"table {table.index + 1}: no match started within {timeout} s")
        await asyncio.sleep(0.2)


def _group_shows(sim: BotApiSimulator, group_id: int, text: str) -> bool:
    return any(text in (m.text or "") for m in sim.bot_messages(group_id)[-3:])


def _group_marker(table: Table) -> tuple[str | None, bool]:
    """The group table message's trick line for the replica's state, and whether the trick just ended."""
    view = _pub(table.replica.public_view())
    if table.replica.phase not in ("play", "choose", "late"):
        return None, False  # the deal ended: the group shows its summary, not a trick (not timed)
    trick = view.get("trick") or []
    if trick:
        return t(LANG, "table.trick") + "  " + _trick_line(LANG, trick, table.names, table.game, None), False
    last = view.get("last_trick")
    if isinstance(last, dict) and last.get("plays"):
        # the completed trick's line, whatever it is labelled: "上轮", or "前一轮" at the deal's end (the trick
        # before a forced last one has no edit of its own)
        return "  " + _trick_line(LANG, last["plays"], table.names, table.game, None), True
    return None, True


def start_times(sim: BotApiSimulator, tables: list[Table]) -> dict[str, Any]:
    """Start timed on its own: its press → the button's answer (and the part of it from getUpdates handing the
    press to the bot), and → each seat's first hand message of the match (in Shengji the hand message comes with the seat's first way to declare, or the last card dealt)."""
    answers: list[float] = []
    in_bot: list[float] = []  # from getUpdates handing the press to the bot to its answer
    first_of_table: list[float] = []
    every_hand: list[float] = []
    unanswered = 0
    for table in tables:
        if table.start_query is None or table.start_pressed is None or table.start_pressed_wall is None:
            continue
        record = sim.callback_queries.get(table.start_query)
        if record is not None and record.answered_at is not None:
            answers.append(record.answered_at - table.start_pressed)
            if record.delivered_at is not None:
                in_bot.append(record.answered_at - record.delivered_at)
        else:
            unanswered += 1
        hands = []
        for uid in table.user_ids:
            first = next(
                (m for m in sim.bot_messages(uid) if m.versions[0].at >= table.start_pressed_wall), None
            )
            if first is not None:
                hands.append(first.versions[0].at - table.start_pressed_wall)
        every_hand.extend(hands)
        if hands:
            first_of_table.append(min(hands))
    return {
        "start_answer_s": answers,
        "start_in_bot_s": in_bot,
        "start_unanswered": unanswered,
        "start_first_hand_s": first_of_table,
        "start_every_hand_s": every_hand,
    }


async def sync(db: AsyncEngine, table: Table) -> None:
    """Apply the actions committed since the last look to the table's replica, recording each play."""
    async with db.connect() as conn:
        rows = (
            await conn.execute(
                select(ActionRecord.seq, ActionRecord.action, ActionRecord.created_at)
                .where(ActionRecord.match_id == table.match_id, ActionRecord.seq > table.seq)
                .order_by(ActionRecord.seq)
            )
        ).all()
    for row in rows:
        if int(row.seq) != table.seq + 1:
            break  # a gap (cannot happen with ordered commits): read again next time
        table.replica.apply(row.action)
        table.seq = int(row.seq)
        committed = row.created_at.timestamp()
        table.last_commit = committed
        parts = str(row.action).split(None, 2)
        if len(parts) >= 2 and parts[1] == "play":
            turns = [tr for tr in table.replica.turns() if tr.required]
            marker, completes = _group_marker(table)
            table.plays.append(
                PlayRecord(
                    table=table.index,
                    seq=table.seq,
                    seat=int(parts[0]),
                    committed=committed,
                    # the next person's turn is timed, unless the bot plays it for them (no choice: no "your turn")
                    # or it is a computer's
                    next_user=table.user_ids[turns[0].seat]
                    if turns
                    and turns[0].seat in table.humans
                    and not table.replica.finished
                    and not table.replica.forced_action(turns[0].seat)
                    else None,
                    marker=marker,
                    completes_trick=completes,
                )
            )
            table.first_play = table.first_play or committed
            table.last_play = committed
    if table.replica.finished:
        table.finished = True


async def play(
    sim: BotApiSimulator,
    db: AsyncEngine,
    observer: Observer,
    table: Table,
    *,
    think: float,
    type_share: float,
    stop: asyncio.Event,
) -> None:
    """Play the table's four seats as people would, until the match ends or ``stop`` is set."""
    rng = random.Random(table.seed)
    acted: dict[int, float] = {}
    while not stop.is_set() and not table.finished:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(table.wake.wait(), 2.0)
        table.wake.clear()
        await sync(db, table)
        m = table.replica
        if m.finished:
            break
        phase = m.phase
        if phase == "paused" and time.monotonic() - table.resumed_at > 10.0:
            # no bid in several deals in a row: the table paused; a person presses Resume (as they would)
            table.resumed_at = time.monotonic()
            with contextlib.suppress(Exception):
                message, button = sim.find_button(table.group_id, t(LANG, "btn.resume"))
                sim.press_button(
                    table.user_ids[0], table.group_id, message.message_id, str(button["callback_data"])
                )
                table.resumes += 1
            continue
        # in the bid window every person has seen their whole hand since it opened: nobody waits for a new notice
        table.window_since = (table.window_since or table.last_commit) if phase == "window" else None
        turn = next((tr for tr in m.turns() if tr.required or (phase == "window" and tr.kind == "bid")), None)
        if turn is None or turn.seat not in table.humans or m.forced_action(turn.seat):
            continue  # nobody's move, a computer's, or one without a choice (the last trick): the bot plays it
        version = table.seq
        if version in acted and time.monotonic() - acted[version] < RETRY_AFTER:
            continue
        if version in acted:
            table.retries += 1
        uid = table.user_ids[turn.seat]
        await observer.turn_shown(uid, table.window_since or table.last_commit, ACT_WITHOUT_NOTICE_AFTER)
        await asyncio.sleep(think)
        if stop.is_set():
            break
        await sync(db, table)
        if table.seq != version:
            continue  # the state moved on while thinking (a clock's auto-play): look again
        action = m.ai_action(turn.seat, rng)
        text = typed_form(action, LANG) if action else None
        if text is None:
            action = m.auto_action(turn.seat)
            text = typed_form(action, LANG)
        if text is None:
            continue
        acted[version] = time.monotonic()
        table.actions += 1
        pressed = False
        if rng.random() >= type_share:
            try:
                pressed = table.match_id is not None and await press_action(sim, uid, table.match_id, action)
            except Exception:  # the keyboard moved on under the finger: type it instead
                pressed = False
        if pressed:
            table.pressed += 1
        else:
            sim.user_sends_text(uid, uid, text)
            table.typed += 1
        if TRACE:
            print(
                f"{time.strftime('%H:%M:%S')} table {table.index + 1} v{version} seat {turn.seat} "
                f"{'pressed' if pressed else 'typed'} {action!r}",
                flush=True,
            )
