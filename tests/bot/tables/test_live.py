"""The live messages built alone against fakes of their ports: what the group and each player see of a
match, what a paused table offers, who is told when a player's private chat refuses the bot, and what a
deleted message brings back."""

from __future__ import annotations

from bot.tables.live import Live
from bot.tables.names import TableNames
from engine.events import Event
from storage import action_repo, match_repo, message_repo, table_repo, user_repo
from storage.db import Database
from tests.bot.tables.fakes import FakeLive, FakeLobbyLost, FakePages

GROUP, ALICE, BOB = -100, 1, 2


def build(db: Database) -> tuple[Live, FakeLive, FakePages, FakeLobbyLost]:
    shared, pages, lost = FakeLive(db), FakePages(), FakeLobbyLost()
    return Live(shared, TableNames(shared), pages, {}, lost), shared, pages, lost


async def dealt(db: Database, *people: int) -> int:
    """A Guandan table of ``people`` (computers in the other seats), its first deal dealt."""
    table = await table_repo.insert_table(db, GROUP, "guandan-team", "guandan", {}, people[0])
    for seat, uid in enumerate(people):
        await user_repo.upsert_user(db, uid, f"P{uid}", started_bot=True)
        await table_repo.seat_user(db, table.id, seat, uid)
    match_id = (await match_repo.start_match(db, table.id, fill_computers=True)).match_id
    _, m = await match_repo.load_match_row(db, match_id)
    step = m.system_step()
    assert step == "sys next_deal"
    await action_repo.apply_action(db, match_id, step)
    return match_id


async def test_a_dealt_match_shows_the_group_its_table_and_each_person_their_hand(db: Database) -> None:
    live, shared, _, _ = build(db)
    match_id = await dealt(db, ALICE, BOB)
    await live.render_match(match_id, everything=True)
    await shared.settle()
    chats = [chat for chat, _ in shared.sent]
    assert sorted(chats) == sorted([GROUP, ALICE, BOB])  # no message to a computer seat
    _, m = await match_repo.load_match_row(db, match_id)
    alice_text = next(text for chat, text in shared.sent if chat == ALICE)
    bob_text = next(text for chat, text in shared.sent if chat == BOB)
    assert alice_text != bob_text  # each their own hand
    hand = await message_repo.get_hand_message(db, match_id, 0)
    assert hand is not None and hand.chat_id == ALICE  # recorded: the next render edits it


async def test_a_seat_whose_table_page_is_open_gets_no_hand_message(db: Database) -> None:
    live, shared, pages, _ = build(db)
    match_id = await dealt(db, ALICE, BOB)
    pages.open.add((match_id, BOB))
    await live.render_match(match_id, everything=True)
    await shared.settle()
    assert sorted(chat for chat, _ in shared.sent) == sorted([GROUP, ALICE])


async def test_a_paused_table_offers_the_group_a_resume_button(db: Database) -> None:
    live, shared, _, _ = build(db)
    match_id = await dealt(db, ALICE)
    await live.announce(match_id, [Event("paused", {"reason": "redeals"})], source="sys")
    assert [chat for chat, _ in shared.sent] == [GROUP]
    assert shared.markups[0] is not None  # the Resume button


async def test_a_refusing_private_chat_is_told_to_the_table_once(db: Database) -> None:
    live, shared, _, _ = build(db)
    await dealt(db, ALICE, BOB)
    shared.seen_users.update({(BOB, "Bob"), (ALICE, "Alice")})
    await live.send_refused(BOB, RuntimeError("Forbidden: bot was blocked by the user"))
    assert [chat for chat, _ in shared.sent] == [GROUP]
    assert f"P{BOB}" in shared.sent[0][1]  # who cannot get their hand
    assert shared.seen_users == {(ALICE, "Alice")}  # stored again at their next update
    user = await user_repo.get_user(db, BOB)
    assert user is not None and user.blocked_bot
    await live.send_refused(BOB, RuntimeError("Forbidden"))
    assert len(shared.sent) == 1  # told once


async def test_a_deleted_lobby_message_shows_the_lobby_again(db: Database) -> None:
    live, shared, _, lost = build(db)
    table = await table_repo.insert_table(db, GROUP, "guandan-team", "guandan", {}, ALICE)
    await message_repo.set_table_message(db, table.id, GROUP, 555)
    await live.message_gone(GROUP, 555)
    await shared.settle()
    assert lost.tables == [table.id]
    again = await table_repo.get_table(db, table.id)
    assert again is not None and again.table_message_id is None
