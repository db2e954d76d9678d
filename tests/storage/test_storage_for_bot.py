"""The storage calls the bot uses directly (issue 4: one storage layer, no bot-side copy)."""

from __future__ import annotations

import asyncio

import pytest

from engine.errors import RuleError
from storage import action_repo, match_repo, message_repo, table_repo, user_repo
from storage.db import open_database


@pytest.fixture
async def db(tmp_path):
    database = await open_database(f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    try:
        yield database
    finally:
        await database.dispose()


async def test_table_with_computer_seats_and_the_chats_current_table(db):
    """/newtable ... bots=1 gives East (seat 3) to the computer; a chat has one live table, then a new one."""
    older = await table_repo.insert_table(db, -5, "guandan-team", "guandan", {}, 1, computer_seats=[3])
    assert [s.is_computer for s in await table_repo.get_seats(db, older.id)] == [False, False, False, True]
    with pytest.raises(RuleError) as refused:
        await table_repo.insert_table(db, -5, "guandan-team", "guandan", {}, 1)
    assert refused.value.code == "table_exists" and refused.value.params["table"] == older.id
    assert (await table_repo.open_table_in_chat(db, -5)).id == older.id
    await table_repo.abort_table(db, older.id)
    newer = await table_repo.insert_table(db, -5, "guandan-team", "guandan", {}, 1)
    assert (await table_repo.open_table_in_chat(db, -5)).id == newer.id
    assert [t.id for t in await table_repo.active_tables(db)] == [newer.id]
    assert await table_repo.open_table_in_chat(db, -6) is None


async def test_six_tables_at_once_in_one_group_make_one(db):
    """Six /newtable racing (PTB runs 16 updates at once): one table; the five others are told which one."""
    results = await asyncio.gather(
        *(table_repo.insert_table(db, -9, "guandan-team", "guandan", {}, 1) for _ in range(6)),
        return_exceptions=True,
    )
    made = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(made) == 1 and len(refused) == 5
    assert all(
        isinstance(e, RuleError) and e.code == "table_exists" and e.params["table"] == made[0].id
        for e in refused
    )
    assert [t.id for t in await table_repo.active_tables_in_chat(db, -9)] == [made[0].id]


async def test_tournament_tables_may_share_a_table_group(db):
    """A tournament places its tables itself (one per match slot): they are not held to one per chat."""
    a = await table_repo.insert_table(db, -7, "guandan-team", "guandan", {}, 1, tournament_ref="t1:R1-1:1")
    b = await table_repo.insert_table(db, -7, "guandan-team", "guandan", {}, 1, tournament_ref="t1:R1-1:2")
    assert {t.id for t in await table_repo.active_tables_in_chat(db, -7)} == {a.id, b.id}


async def test_group_language_of_a_chat_not_seen_before_is_kept(db):
    await user_repo.set_chat_language(db, -77, "en")
    assert (await user_repo.get_chat(db, -77)).language == "en"
    await user_repo.set_chat_language(db, -77, "zh")
    assert (await user_repo.get_chat(db, -77)).language == "zh"


async def test_message_hash_by_telegram_message_and_forgetting_a_deleted_message(db):
    table = await table_repo.create_table(db, -5, "guandan-team", created_by=1)
    ref = await message_repo.set_table_message(db, table.id, -5, 900, text_hash="a")
    await message_repo.set_message_hash_of(db, -5, 900, "b")
    assert (await message_repo.find_message_ref(db, -5, 900)).last_text_hash == "b"
    await message_repo.delete_message_ref(db, ref.id)
    assert await message_repo.find_message_ref(db, -5, 900) is None


async def test_load_match_row_gives_the_row_and_engine_at_one_version(db):
    table = await table_repo.create_table(db, -5, "guandan-team", created_by=1)
    await table_repo.fill_computer_seats(db, table.id)
    started = await match_repo.start_match(db, table.id, seed=3)
    step = started.match.system_step()
    await action_repo.apply_action(db, started.match_id, step)
    row, engine = await match_repo.load_match_row(db, started.match_id)
    assert row.version == 1 and len(engine.log) == 1


async def test_a_fixed_seed_and_practice_mode_are_kept_with_the_table(tmp_path):
    """seed= of /newtable is stored with the table (not only in memory): a restart keeps it for the match."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'seeded.db'}"
    first = await open_database(url)
    table = await table_repo.insert_table(
        first, -8, "guandan-team", "guandan", {}, 1, computer_seats=[0, 1, 2, 3], fixed_seed=42, practice=True
    )
    await first.dispose()
    again = await open_database(url)
    try:
        stored = await table_repo.get_table(again, table.id)
        assert stored.fixed_seed == 42 and stored.practice is True
        started = await match_repo.start_match(again, table.id)
        assert (await match_repo.get_match_row(again, started.match_id)).seed == 42
        other = await table_repo.insert_table(
            again, -11, "guandan-team", "guandan", {}, 1, computer_seats=[0, 1, 2, 3]
        )
        assert other.fixed_seed is None and other.practice is False
        second = await match_repo.start_match(again, other.id)
        assert (await match_repo.get_match_row(again, second.match_id)).seed != 42
    finally:
        await again.dispose()


async def test_a_tournament_table_mixes_players_words_into_the_committed_seed(db):
    """docs/fairness.md: the lobby commits to a server seed; the match seed mixes in the seating and the
    seated players' /mix words, so it is known only once they are fixed."""
    from engine.fairness import contributions_mix, match_commitment, mixed_match_seed

    table = await table_repo.insert_table(
        db, -21, "guandan-team", "guandan", {}, 1, tournament_ref="t1:R1-1:1"
    )
    assert table.server_seed is not None and len(match_commitment(table.server_seed)) == 64
    for seat, uid in enumerate((31, 32, 33, 34)):
        await user_repo.upsert_user(db, uid, f"p{uid}", None, "zh", started_bot=True)
        await table_repo.seat_user(db, table.id, seat, uid)
    with pytest.raises(RuleError) as stranger:
        await table_repo.add_mix_words(db, table.id, 99, "hello")
    assert stranger.value.code == "not_seated"
    await table_repo.add_mix_words(db, table.id, 32, "红桃 A")
    stored = await table_repo.get_table(db, table.id)
    values = table_repo.mix_values(stored, await table_repo.get_seats(db, table.id))
    assert values == [f"table:{table.id}", "seats:31,32,33,34", "32:红桃 A"]
    started = await match_repo.start_match(db, table.id)
    seed = (await match_repo.get_match_row(db, started.match_id)).seed
    assert seed == mixed_match_seed(table.server_seed, contributions_mix(values))
    assert seed != mixed_match_seed(table.server_seed, contributions_mix(values[:2]))  # the words count
    with pytest.raises(RuleError):  # once started, nothing more is mixed in
        await table_repo.add_mix_words(db, table.id, 31, "late")
    plain = await table_repo.insert_table(db, -22, "guandan-team", "guandan", {}, 1)
    assert plain.server_seed is None
    with pytest.raises(RuleError) as no_mix:
        await table_repo.add_mix_words(db, plain.id, 1, "x")
    assert no_mix.value.code == "no_mix"
