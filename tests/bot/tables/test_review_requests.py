"""/review and /replay (bot/tables/review_requests.py) against a real database: hands reach only who may see them.

A table of four seats (two people, two computers) plays with the engine's computer player choosing every
move; the requests come from a seated player, a stranger, the group and a tournament referee."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.tables.review_requests import review_request
from engine.rng import rng_for
from storage import action_repo, match_repo, table_repo, user_repo
from storage import tournaments as ts
from storage.db import open_database

GROUP = -4242
ALICE, BOB, STRANGER, REFEREE, ORGANISER = 11, 12, 13, 14, 15


class FakeRuntime:
    def __init__(self, db):
        self.db = db

    async def user_lang(self, user_id, code=None):
        return "zh"

    async def chat_lang(self, chat_id):
        return "zh"


def person(uid):
    return SimpleNamespace(id=uid, language_code="zh-hans")


PRIVATE = SimpleNamespace(type="private", id=0)
GROUP_CHAT = SimpleNamespace(type="group", id=GROUP)


@pytest.fixture
async def db(tmp_path):
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    for uid in (ALICE, BOB, STRANGER, REFEREE, ORGANISER):
        await user_repo.upsert_user(database, uid, f"u{uid}", None, "zh-hans", started_bot=True)
    try:
        yield database
    finally:
        await database.dispose()


async def play_until(db, match_id, stop):
    """Apply the computer player's (or the table's) next action until ``stop(m)``."""
    for i in range(5000):
        row, m = await match_repo.load_match_row(db, match_id)
        if m.finished or stop(m):
            return m
        action = None
        for tr in m.turns():
            action = m.ai_action(tr.seat, rng_for(1, "t", i, tr.seat))
            if action:
                break
        await action_repo.apply_action(db, match_id, action or m.system_step() or "sys close_bidding")
    raise AssertionError("did not stop")


async def start(db, deals, tournament_ref=None):
    table = await table_repo.insert_table(
        db,
        GROUP,
        "guandan-team",
        "guandan",
        {"deals": deals},
        ALICE,
        computer_seats=[1, 3],
        tournament_ref=tournament_ref,
    )
    await table_repo.seat_user(db, table.id, 0, ALICE)
    await table_repo.seat_user(db, table.id, 2, BOB)
    return (await match_repo.start_match(db, table.id)).match_id


def docs(deliveries):
    return [d for d in deliveries if d.document is not None]


async def ask(db, uid, chat, args=(), whole=False):
    chat = SimpleNamespace(type=chat.type, id=uid if chat.type == "private" else chat.id)
    return await review_request(FakeRuntime(db), person(uid), chat, list(args), whole_match=whole)


async def test_during_a_match_a_finished_deal_goes_to_seated_players_only_in_private(db):
    match_id = await start(db, 2)
    await play_until(db, match_id, lambda m: m.deal_no >= 2)  # deal 1 over, deal 2 being played
    mine = await ask(db, ALICE, PRIVATE, ["1"])
    assert len(docs(mine)) == 1 and docs(mine)[0].chat_id == ALICE
    page = docs(mine)[0].document[0].decode()
    assert "第 1 副" in page and "起手牌" in page and "第 2 副" not in page
    # deal 2 is being played: nobody at the table sees it
    assert docs(await ask(db, ALICE, PRIVATE, ["2"])) == []
    assert "还没打完" in (await ask(db, ALICE, PRIVATE, ["2"]))[0].text
    # /replay while playing: only the finished deals
    replay = docs(await ask(db, BOB, PRIVATE, whole=True))[0].document[0].decode()
    assert "第 1 副" in replay and "第 2 副" not in replay
    # the group, and anyone in it, must wait for the end of the match
    in_group = await ask(db, STRANGER, GROUP_CHAT, ["1"])
    assert docs(in_group) == [] and "整场比赛结束后" in in_group[0].text
    # a seated player asking in the group gets it in private, with a note in the group
    seated_in_group = await ask(db, ALICE, GROUP_CHAT, ["1"])
    assert [d.chat_id for d in docs(seated_in_group)] == [ALICE]
    assert any(d.chat_id == GROUP and "私聊" in (d.text or "") for d in seated_in_group)
    # a stranger in private: no match of theirs
    assert docs(await ask(db, STRANGER, PRIVATE, ["1"])) == []


async def test_after_the_match_the_group_gets_the_whole_replay(db):
    match_id = await start(db, 1)
    await play_until(db, match_id, lambda m: False)
    got = await ask(db, STRANGER, GROUP_CHAT, whole=True)
    assert [d.chat_id for d in docs(got)] == [GROUP]
    assert "起手牌" in docs(got)[0].document[0].decode()


async def test_a_referee_sees_a_deal_in_progress_in_private_never_in_the_group(db):
    tid = (await ts.create_tournament(db, name="杯", preset_id="guandan-team", created_by=ORGANISER)).id
    await ts.grant(db, tid, ORGANISER, REFEREE, "referee")
    match_id = await start(db, 2, tournament_ref=f"t{tid}:R1-1:1")
    await play_until(db, match_id, lambda m: m.deal_no >= 1 and m.play is not None and m.play.trick_no >= 3)
    got = await ask(db, REFEREE, GROUP_CHAT)
    assert [d.chat_id for d in docs(got)] == [REFEREE]
    page = docs(got)[0].document[0].decode()
    assert "本副尚未结束" in page and "起手牌" in page
    assert docs(await ask(db, STRANGER, GROUP_CHAT)) == []
    assert docs(await ask(db, ALICE, PRIVATE)) == []  # no deal finished yet: nothing for the players
