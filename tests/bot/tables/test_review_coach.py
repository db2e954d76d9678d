"""/review's coach (issue 19): notes on a finished deal for the asking seated player only, in private,
in a message of their own; nothing for a deal in progress or for somebody not seated."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.tables import thinking
from bot.tables.review_requests import review_request
from bot.tables.thinking import Thinker
from engine.cards import parse_cards
from engine.registry import match_from_stored
from storage import match_repo, table_repo, user_repo
from storage.db import open_database
from tests.bot.tables.test_review_requests import (
    ALICE,
    BOB,
    GROUP,
    GROUP_CHAT,
    PRIVATE,
    STRANGER,
    person,
    play_until,
)


class CoachRuntime:
    def __init__(self, db: Any) -> None:
        self.db = db
        self.thinker = Thinker(workers=1)
        self.spawned: list[Any] = []
        self.sent: list[tuple[int, str]] = []

    async def user_lang(self, user_id: int, code: str | None = None) -> str:
        return "zh" if user_id != BOB else "en"

    async def chat_lang(self, chat_id: int) -> str:
        return "zh"

    def spawn(self, coro: Any) -> None:
        self.spawned.append(coro)

    @property
    def messages(self) -> CoachRuntime:  # the runtime's Sending handle: here the runtime records sends
        return self

    def send(self, chat_id: int, text: str) -> None:
        self.sent.append((chat_id, text))

    async def run_spawned(self) -> None:
        while self.spawned:
            await self.spawned.pop(0)


@pytest.fixture
async def rt(tmp_path: Any) -> Any:
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    for uid in (ALICE, BOB, STRANGER):
        await user_repo.upsert_user(database, uid, f"u{uid}", None, "zh-hans", started_bot=True)
    runtime = CoachRuntime(database)
    try:
        yield runtime
    finally:
        runtime.thinker.shutdown()
        await database.dispose()


async def start(db: Any) -> int:
    """A Shengji table of two deals: Alice at seat 0, Bob at seat 2, computers at 1 and 3."""
    table = await table_repo.insert_table(
        db,
        GROUP,
        "shengji-17-deals",
        "shengji",
        {"deals": 2, "bid_window_seconds": 0},
        ALICE,
        computer_seats=[1, 3],
    )
    await table_repo.seat_user(db, table.id, 0, ALICE)
    await table_repo.seat_user(db, table.id, 2, BOB)
    return int((await match_repo.start_match(db, table.id, seed=5)).match_id)


async def _ask(rt: Any, uid: int, chat: Any, args: list[str]) -> list[Any]:
    chat = SimpleNamespace(type=chat.type, id=uid if chat.type == "private" else chat.id)
    return await review_request(rt, person(uid), chat, args, whole_match=False)


async def test_a_seated_player_gets_notes_on_their_own_plays_only(
    rt: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(thinking, "COACH_BUDGET", 300)  # a cheaper search: the test checks who gets what
    match_id = await start(rt.db)
    await play_until(rt.db, match_id, lambda m: m.deal_no >= 2)  # deal 1 over, deal 2 being played
    await _ask(rt, ALICE, GROUP_CHAT, ["1"])
    assert len(rt.spawned) == 1
    await rt.run_spawned()
    assert [chat for chat, _ in rt.sent] == [ALICE]  # to the asker, in private; never to the group
    text = rt.sent[0][1]
    assert text.startswith("教练点评 · 第 1 副")
    # every card the notes name was in Alice's own hand in deal 1 (seat 0)
    row = await match_repo.get_match_row(rt.db, match_id)
    actions = [a.action for a in await match_repo.action_log(rt.db, match_id)]
    first: Any = match_from_stored(row.game, row.options_json, row.seed)
    hand: list[int] = []
    for action in actions:  # Alice's 33 cards in deal 1 once she has them all (the kitty included, if hers)
        first.apply(action)
        if first.history:
            break
        if len(first.hands[0]) > len(hand):
            hand = list(first.hands[0])
    lines = text.splitlines()[1:]
    assert lines, "the baseline player's plays leave the strong player something to say"
    for line in lines:
        played = line.split("你出了 ", 1)[1].split(",", 1)[0]
        suggested = line.split("电脑高手会出 ", 1)[1].split("(", 1)[0]
        for shown in (played, suggested):
            if shown != "过":
                for c in parse_cards(shown.replace("大王", "BJ").replace("小王", "SJ")):
                    assert c in hand, (line, c)


async def test_no_notes_for_a_deal_in_progress_or_a_stranger(rt: Any) -> None:
    match_id = await start(rt.db)
    await play_until(rt.db, match_id, lambda m: m.deal_no >= 2)
    await _ask(rt, ALICE, PRIVATE, ["2"])  # being played
    await _ask(rt, STRANGER, PRIVATE, ["1"])  # not seated
    await _ask(rt, STRANGER, GROUP_CHAT, ["1"])
    assert rt.spawned == [] and rt.sent == []
