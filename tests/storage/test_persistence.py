"""Migrations at start-up, and what must survive a restart: users, live message refs, hand selections."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import event, inspect, select, text

from storage import action_repo, match_repo, message_repo, selection_repo, table_repo, user_repo
from storage.db import DEFAULT_URL, Database, alembic_config, database_url, load_all_models, open_database
from storage.errors import ReplayError
from storage.models import Chat
from tests.storage.support import Target, counting_match

TABLES = {
    "users",
    "chats",
    "game_tables",
    "table_seats",
    "matches",
    "deals",
    "action_records",
    "message_refs",
    "selections",
    "deadlines",
}


def _head() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


async def test_migrations_apply_from_empty_and_match_the_models(target: Target) -> None:
    db = await target.open()
    async with db.engine.connect() as conn:
        names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
        assert names >= TABLES
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
        assert version == _head()
        metadata = load_all_models()
        diffs = await conn.run_sync(lambda c: compare_metadata(MigrationContext.configure(c), metadata))
    assert diffs == [], "the models and the migrations disagree: write a migration"
    # opening again (a restart) finds nothing to do and keeps the data
    await user_repo.upsert_user(db, 1, "A")
    await db.dispose()
    again = await target.open()
    assert (await user_repo.get_user(again, 1)) is not None


async def test_two_processes_starting_together_migrate_once(target: Target) -> None:
    import asyncio

    first, second = await asyncio.gather(target.open(), target.open())
    await user_repo.upsert_user(first, 3, "C")
    assert (await user_repo.get_user(second, 3)) is not None


async def test_a_fresh_sqlite_file_opens_while_another_process_holds_its_write_lock(tmp_path: Path) -> None:
    """Two workers starting together on a new SQLite file: the one that loses the race to switch it to WAL
    must wait for the other, not crash with "database is locked" (SQLite skips the busy timeout there)."""
    import asyncio
    import sqlite3

    path = tmp_path / "bot.db"
    other = sqlite3.connect(path, isolation_level=None)  # the other process, in the middle of its own start
    other.execute("BEGIN IMMEDIATE")
    opening = asyncio.ensure_future(open_database(f"sqlite+aiosqlite:///{path}"))
    try:
        # while the other holds the write lock the open can only wait; before the fix it failed at once
        await asyncio.wait({opening}, timeout=1.0)
        assert not opening.done(), (
            f"open_database gave up while another process held the lock: {opening.exception()!r}"
        )
    finally:
        other.execute("COMMIT")
        other.close()
    db = await asyncio.wait_for(opening, 60)
    try:
        async with db.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
        await user_repo.upsert_user(db, 4, "D")
        assert (await user_repo.get_user(db, 4)) is not None
    finally:
        await db.dispose()


def test_the_migration_history_is_one_line() -> None:
    script = ScriptDirectory.from_config(alembic_config())
    assert len(script.get_heads()) == 1
    bases = [r for r in script.walk_revisions() if r.down_revision is None]
    assert len(bases) == 1


async def test_migrations_downgrade_to_empty_and_upgrade_again(target: Target) -> None:
    from storage.db import migrate

    db = await target.open()
    await migrate(db.engine, "base", downgrade=True)
    async with db.engine.connect() as conn:
        names = set(await conn.run_sync(lambda c: inspect(c).get_table_names()))
    assert not (TABLES & names)
    await migrate(db.engine, "head")
    await user_repo.upsert_user(db, 2, "B")


async def test_default_url_creates_its_data_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert database_url() == DEFAULT_URL
    db = await open_database()
    try:
        assert (tmp_path / "data" / "bot.db").exists()
        async with db.engine.connect() as conn:
            assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
            assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
            assert (await conn.execute(text("PRAGMA busy_timeout"))).scalar_one() > 0
    finally:
        await db.dispose()
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path}/elsewhere/x.db")
    db = await open_database()
    await db.dispose()
    assert (tmp_path / "elsewhere" / "x.db").exists()


async def test_message_refs_and_selections_survive_reopening(target: Target, counting_game: type) -> None:
    db = await target.open()
    table = await table_repo.insert_table(db, -500, "test", "counting", {"target": 50})
    await table_repo.fill_computer_seats(db, table.id)
    match_id = (await match_repo.start_match(db, table.id, seed=1)).match_id
    await message_repo.set_table_message(db, table.id, -500, 77, text_hash="h0")
    await message_repo.set_hand_message(db, match_id, 2, 9002, 31, deal_no=1)
    await message_repo.set_hand_message(
        db, match_id, 2, 9002, 45, deal_no=2
    )  # a new deal's hand message replaces it
    await message_repo.set_hand_message(db, match_id, 3, 9003, 46, deal_no=2)
    await message_repo.add_message_ref(
        db, "summary", -500, 80, table_id=table.id, match_id=match_id, deal_no=1
    )
    await message_repo.add_message_ref(
        db, "summary", -500, 81, table_id=table.id, match_id=match_id, deal_no=2
    )
    await selection_repo.set_selection(db, match_id, 2, "♥5 ♥5", deal_no=2)
    await selection_repo.set_selection(db, match_id, 2, "♥5 ♥5 ♠A", deal_no=2)
    ref = await message_repo.get_table_message(db, table.id)
    assert ref is not None
    await message_repo.set_message_hash(db, ref.id, "h1")
    await db.dispose()

    db = await target.open()
    table_ref = await message_repo.get_table_message(db, table.id)
    assert table_ref is not None and (table_ref.chat_id, table_ref.message_id, table_ref.last_text_hash) == (
        -500,
        77,
        "h1",
    )
    stored_table = await table_repo.get_table(db, table.id)
    assert stored_table is not None and stored_table.table_message_id == 77
    hand = await message_repo.get_hand_message(db, match_id, 2)
    assert hand is not None and (hand.chat_id, hand.message_id, hand.deal_no) == (9002, 45, 2)
    assert len(await message_repo.list_message_refs(db, purpose="hand", match_id=match_id)) == 2
    assert [
        r.message_id for r in await message_repo.list_message_refs(db, purpose="summary", table_id=table.id)
    ] == [80, 81]
    found = await message_repo.find_message_ref(db, 9003, 46)
    assert found is not None and (found.purpose, found.seat) == ("hand", 3)
    sel = await selection_repo.get_selection(db, match_id, 2)
    assert sel is not None and (sel.cards_text, sel.deal_no) == ("♥5 ♥5 ♠A", 2)
    await selection_repo.clear_selection(db, match_id)
    assert await selection_repo.get_selection(db, match_id, 2) is None
    assert await message_repo.delete_message_refs(db, match_id=match_id, purpose="hand") == 2
    assert await message_repo.get_hand_message(db, match_id, 2) is None


async def test_users_languages_and_bot_status(db: Database) -> None:
    user = await user_repo.upsert_user(db, 10, "李雷", "lilei", "zh-hans")
    assert not user.started_bot and user.created_at.tzinfo is not None
    assert await user_repo.user_language(db, 10) == "zh-hans"
    await user_repo.set_lang_override(db, 10, "en")
    await user_repo.set_blocked(db, 10)
    assert await user_repo.user_language(db, 10) == "en"
    again = await user_repo.upsert_user(db, 10, "李雷", None, None, started_bot=True)
    assert again.started_bot and not again.blocked_bot and again.language_code == "zh-hans"
    assert again.lang_override == "en"
    await user_repo.set_lang_override(db, 10, None)
    assert await user_repo.user_language(db, 10) == "zh-hans"
    await user_repo.set_started(db, 11)  # a user we had not seen yet
    users = await user_repo.get_users(db, [10, 11, 12])
    assert sorted(users) == [10, 11] and users[11].started_bot
    chat = await user_repo.upsert_chat(db, -900, "supergroup", "工会桥牌群")
    await user_repo.set_chat_language(db, -900, "en")
    stored = await user_repo.get_chat(db, chat.id)
    assert stored is not None and (stored.kind, stored.title, stored.language) == (
        "supergroup",
        "工会桥牌群",
        "en",
    )


async def test_a_new_group_stored_by_six_updates_at_once_is_one_row_and_no_database_error(
    db: Database,
) -> None:
    """The first updates of a new group are handled together: each stores the chat.  One row, the title
    given, and no statement fails (a failed one pages the admins: bot/boot/alerts.py)."""
    failed: list[str] = []
    event.listen(
        db.engine.sync_engine, "handle_error", lambda ctx: failed.append(repr(ctx.original_exception))
    )
    titles = [None, "工会掼蛋群", None, "工会掼蛋群", None, None]
    chats = await asyncio.gather(*(user_repo.upsert_chat(db, -1_000_777, "group", t) for t in titles))
    assert failed == []
    assert {c.id for c in chats} == {-1_000_777}
    async with db.session() as s:
        rows = (await s.execute(select(Chat).where(Chat.id == -1_000_777))).scalars().all()
    assert [(c.kind, c.title) for c in rows] == [("group", "工会掼蛋群")]
    again = await user_repo.upsert_chat(db, -1_000_777, "supergroup")  # no title: the stored one stays
    assert (again.kind, again.title) == ("supergroup", "工会掼蛋群")


async def test_deal_rows_follow_the_engine_deal_events(db: Database, counting_game: type) -> None:
    """Each deal keeps its summary and its range of the log, so any deal can be replayed (docs/rules.md, how to read it)."""
    match_id = await counting_match(db, target=100, deal_every=3)
    for n in range(7):
        await action_repo.apply_action(db, match_id, f"{n % 4} add 1")
        if n == 1:
            await action_repo.apply_action(db, match_id, "sys note")
    deals = await match_repo.get_deals(db, match_id)
    assert [
        (d.deal_no, d.first_seq, d.last_seq, d.summary_json, d.finished_at is not None) for d in deals
    ] == [
        (1, 1, 4, {"deal_no": 1, "total": 3}, True),
        (2, 5, 7, {"deal_no": 2, "total": 6}, True),
        (3, 8, None, None, False),
    ]
    end_of_deal_1 = await match_repo.state_after(db, match_id, deals[0].last_seq or 0)
    assert end_of_deal_1.public_view() == {"total": 3, "turn": 3, "moves": 4}
    await match_repo.record_deal(db, match_id, 3, finished=True, summary={"note": "by hand"})
    assert (await match_repo.get_deals(db, match_id))[2].summary_json == {"note": "by hand"}


async def test_a_log_that_no_longer_replays_is_a_replay_error(db: Database, counting_game: type) -> None:
    from storage.models import ActionRecord

    match_id = await counting_match(db)
    await action_repo.apply_action(db, match_id, "0 add 1")
    async with db.session() as s:
        s.add(ActionRecord(match_id=match_id, seq=2, action="3 add 1", events_json=[]))
        await s.commit()
    with pytest.raises(ReplayError):
        await match_repo.state_after(db, match_id, 2)
