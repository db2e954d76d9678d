"""The game service: one action per transaction, version checks, dedupe, replay (issue 4 "Storage")."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import func, select, update

from engine.errors import OptionError, RuleError
from storage import action_repo, match_cache, match_repo, selection_repo, table_repo
from storage.action_repo import ApplyResult
from storage.db import Database
from storage.errors import ReplayError, StaleVersion
from storage.models import ActionRecord, GameTable, MatchRecord
from tests.storage.support import CountingGame, Target, counting_match


async def stored_actions(db: Database, match_id: int) -> list[str]:
    return [r.action for r in await match_repo.action_log(db, match_id)]


async def test_apply_action_appends_the_record_and_bumps_the_version(
    db: Database, counting_game: type
) -> None:
    match_id = await counting_match(db)
    result = await action_repo.apply_action(
        db, match_id, "0 add 02", expected_version=0, actor_user_id=5, dedupe_key="cb:1"
    )
    assert (result.version, result.duplicate, result.action) == (1, False, "0 add 2")
    assert [e.kind for e in result.events] == ["added"]
    assert result.match.public_view()["total"] == 2
    row = await match_repo.get_match_row(db, match_id)
    assert row is not None and row.version == 1
    records = await match_repo.action_log(db, match_id)
    assert [(r.seq, r.action, r.actor_user_id, r.dedupe_key) for r in records] == [(1, "0 add 2", 5, "cb:1")]
    assert records[0].events_json == [{"kind": "added", "data": {"seat": 0, "amount": 2, "total": 2}}]


async def test_stale_expected_version_is_refused_and_changes_nothing(
    db: Database, counting_game: type
) -> None:
    match_id = await counting_match(db)
    await action_repo.apply_action(db, match_id, "0 add 1", expected_version=0)
    with pytest.raises(StaleVersion) as caught:
        await action_repo.apply_action(db, match_id, "1 add 1", expected_version=0)
    assert caught.value.code == "stale_version" and caught.value.current == 1
    assert await stored_actions(db, match_id) == ["0 add 1"]
    match, version = await match_repo.load_match(db, match_id)
    assert version == 1 and match.public_view()["total"] == 1


async def test_repeated_dedupe_key_applies_nothing(db: Database, counting_game: type) -> None:
    """A replayed update or a double press (same callback id) is applied once."""
    match_id = await counting_match(db)
    first = await action_repo.apply_action(db, match_id, "0 add 3", dedupe_key="upd:42")
    again = await action_repo.apply_action(db, match_id, "0 add 3", dedupe_key="upd:42")
    assert not first.duplicate and again.duplicate
    assert again.version == 1 and [e.kind for e in again.events] == ["added"]
    # also when the button's version is now stale: a duplicate, not an error
    again_stale = await action_repo.apply_action(
        db, match_id, "0 add 3", expected_version=0, dedupe_key="upd:42"
    )
    assert again_stale.duplicate
    assert await stored_actions(db, match_id) == ["0 add 3"]


async def test_rule_error_writes_nothing_and_play_continues(db: Database, counting_game: type) -> None:
    match_id = await counting_match(db)
    with pytest.raises(RuleError) as caught:
        await action_repo.apply_action(db, match_id, "1 add 1", expected_version=0, dedupe_key="cb:9")
    assert caught.value.code == "not_your_turn"
    with pytest.raises(RuleError):
        await action_repo.apply_action(db, match_id, "0 add 7")
    assert await stored_actions(db, match_id) == []
    row = await match_repo.get_match_row(db, match_id)
    assert row is not None and row.version == 0
    # the refused dedupe key was not burnt: the same key may carry a legal action
    ok = await action_repo.apply_action(db, match_id, "0 add 1", expected_version=0, dedupe_key="cb:9")
    assert not ok.duplicate and ok.version == 1
    assert await match_repo.replay_check(db, match_id)


async def test_concurrent_presses_in_one_process_apply_once(db: Database, counting_game: type) -> None:
    match_id = await counting_match(db)
    results = await asyncio.gather(
        *[action_repo.apply_action(db, match_id, "0 add 1", expected_version=0) for _ in range(3)],
        return_exceptions=True,
    )
    assert sum(1 for r in results if isinstance(r, ApplyResult)) == 1
    assert sum(1 for r in results if isinstance(r, StaleVersion)) == 2
    assert await stored_actions(db, match_id) == ["0 add 1"]


async def test_two_processes_with_the_same_expected_version_one_wins(
    target: Target, counting_game: type
) -> None:
    """Two Database objects (each with its own cache, as two processes) race on the same button."""
    db1 = await target.open()
    db2 = await target.open()
    match_id = await counting_match(db1)
    await match_repo.load_match(db2, match_id)  # both processes hold the state at version 0
    for round_no in range(3):
        seat = round_no % 4
        results = await asyncio.gather(
            action_repo.apply_action(db1, match_id, f"{seat} add 1", expected_version=round_no),
            action_repo.apply_action(db2, match_id, f"{seat} add 2", expected_version=round_no),
            return_exceptions=True,
        )
        winners = [r for r in results if isinstance(r, ApplyResult)]
        assert len(winners) == 1, results
        assert sum(1 for r in results if isinstance(r, StaleVersion)) == 1, results
    records = await match_repo.action_log(db1, match_id)
    assert [r.seq for r in records] == [1, 2, 3]
    row = await match_repo.get_match_row(db2, match_id)
    assert row is not None and row.version == 3
    assert await match_repo.replay_check(db1, match_id) and await match_repo.replay_check(db2, match_id)


async def test_two_processes_same_dedupe_key_without_version_apply_once(
    target: Target, counting_game: type
) -> None:
    db1 = await target.open()
    db2 = await target.open()
    match_id = await counting_match(db1)
    results = await asyncio.gather(
        action_repo.apply_action(db1, match_id, "0 add 1", dedupe_key="upd:7"),
        action_repo.apply_action(db2, match_id, "0 add 1", dedupe_key="upd:7"),
    )
    assert sorted(r.duplicate for r in results) == [False, True]
    assert await stored_actions(db1, match_id) == ["0 add 1"]


async def test_replaying_the_stored_log_equals_the_cached_state(target: Target, counting_game: type) -> None:
    db = await target.open()
    match_id = await counting_match(db, target=1000, seed=99)
    for n in range(12):
        seat = n % 4
        await action_repo.apply_action(db, match_id, "sys note" if n == 5 else f"{seat} add {1 + n % 3}")
        if n == 5:
            await action_repo.apply_action(db, match_id, f"{seat} add 1")
    assert await match_repo.replay_check(db, match_id)
    live, version = await match_repo.load_match(db, match_id)
    expected = (live.public_view(), [live.seat_view(s) for s in range(4)], list(live.log))
    # a restart: a new process has an empty cache and rebuilds from the log
    await db.dispose()
    reopened = await target.open()
    rebuilt, version2 = await match_repo.load_match(reopened, match_id)
    assert version2 == version == 13
    assert (rebuilt.public_view(), [rebuilt.seat_view(s) for s in range(4)], list(rebuilt.log)) == expected
    # and play continues from the rebuilt state
    turn = rebuilt.turns()[0].seat
    result = await action_repo.apply_action(reopened, match_id, f"{turn} add 1", expected_version=13)
    assert result.version == 14


async def test_finishing_move_records_result_and_closes_the_table(db: Database, counting_game: type) -> None:
    match_id = await counting_match(db, target=3)
    await action_repo.apply_action(db, match_id, "0 add 2")
    done = await action_repo.apply_action(db, match_id, "1 add 1")
    assert done.match.finished
    row = await match_repo.get_match_row(db, match_id)
    assert row is not None and row.status == "finished" and row.result_json == {"winner": 1, "total": 3}
    assert row.finished_at is not None and row.finished_at.tzinfo is not None
    table = await table_repo.get_table(db, row.table_id)
    assert table is not None and table.status == "finished"
    with pytest.raises(RuleError) as caught:
        await action_repo.apply_action(db, match_id, "2 add 1")
    assert caught.value.code == "match_finished"
    assert await match_repo.active_matches(db) == []


async def test_paused_match_refuses_actions_until_resumed(db: Database, counting_game: type) -> None:
    match_id = await counting_match(db)
    await match_repo.set_match_paused(db, match_id, True)
    with pytest.raises(RuleError) as caught:
        await action_repo.apply_action(db, match_id, "0 add 1")
    assert caught.value.code == "match_paused"
    assert [m.id for m in await match_repo.active_matches(db)] == [match_id]
    await match_repo.set_match_paused(db, match_id, False)
    assert (await action_repo.apply_action(db, match_id, "0 add 1")).version == 1


async def test_unknown_match_is_a_rule_error(db: Database) -> None:
    with pytest.raises(RuleError) as caught:
        await action_repo.apply_action(db, 12345, "0 add 1")
    assert caught.value.code == "match_not_found"


async def test_acting_clears_the_seats_selection(db: Database, counting_game: type) -> None:
    match_id = await counting_match(db)
    await selection_repo.set_selection(db, match_id, 0, "♥5 ♥5", deal_no=1)
    await selection_repo.set_selection(db, match_id, 1, "♠3", deal_no=1)
    await action_repo.apply_action(db, match_id, "0 add 1")
    assert await selection_repo.get_selection(db, match_id, 0) is None
    sel = await selection_repo.get_selection(db, match_id, 1)
    assert sel is not None and sel.cards_text == "♠3"


# --- tables and seats -------------------------------------------------------------------------------


async def test_create_table_stores_every_option_after_overrides(db: Database) -> None:
    table = await table_repo.create_table(
        db, -200, "shengji-17-deals", {"lead_clock": "20", "deals": "3"}, 11
    )
    stored = await table_repo.get_table(db, table.id)
    assert stored is not None and stored.game == "shengji" and stored.status == "open"
    assert stored.options_json["lead_clock"] == 20 and stored.options_json["deals"] == 3
    assert "follow_clock" in stored.options_json  # the full option set, not only the overrides
    assert [s.seat for s in await table_repo.get_seats(db, table.id)] == [0, 1, 2, 3]


async def test_create_table_with_bad_option_or_preset_writes_nothing(db: Database) -> None:
    with pytest.raises(OptionError) as caught:
        await table_repo.create_table(db, -200, "shengji-17-deals", {"lead_clock": "9999"}, 11)
    assert caught.value.code == "bad_option" and caught.value.field == "lead_clock"
    with pytest.raises(RuleError) as unknown:
        await table_repo.create_table(db, -200, "no-such-preset", {}, 11)
    assert unknown.value.code == "unknown_preset"
    async with db.session() as s:
        assert (await s.execute(select(func.count()).select_from(GameTable))).scalar_one() == 0


async def test_seating_rules(db: Database) -> None:
    table = await table_repo.create_table(db, -300, "guandan-team", {}, 1)
    await table_repo.seat_user(db, table.id, 0, 101)
    with pytest.raises(RuleError) as taken:
        await table_repo.seat_user(db, table.id, 0, 102)
    assert taken.value.code == "seat_taken"
    with pytest.raises(RuleError) as bad:
        await table_repo.seat_user(db, table.id, 4, 102)
    assert bad.value.code == "bad_seat"
    seats = await table_repo.seat_user(db, table.id, 2, 101)  # moving to another seat frees the old one
    assert [(s.seat, s.user_id) for s in seats] == [(0, None), (1, None), (2, 101), (3, None)]
    with pytest.raises(RuleError) as not_full:
        await match_repo.start_match(db, table.id, seed=1)
    assert not_full.value.code == "table_not_full"
    seats = await table_repo.fill_computer_seats(db, table.id, 1)
    assert [s.is_computer for s in seats] == [True, False, False, False]
    await table_repo.unseat(db, table.id, user_id=101)
    assert await table_repo.seat_of_user(db, table.id, 101) is None


async def test_two_users_racing_for_one_seat_only_one_sits(target: Target) -> None:
    db1, db2 = await target.open(), await target.open()
    table = await table_repo.create_table(db1, -300, "guandan-team", {}, 1)
    results = await asyncio.gather(
        table_repo.seat_user(db1, table.id, 1, 201),
        table_repo.seat_user(db2, table.id, 1, 202),
        return_exceptions=True,
    )
    assert sum(1 for r in results if isinstance(r, RuleError)) == 1
    seats = await table_repo.get_seats(db1, table.id)
    assert seats[1].user_id in (201, 202)


async def test_start_match_twice_starts_one_match(db: Database, counting_game: type) -> None:
    table = await table_repo.insert_table(db, -1, "test", "counting", {"target": 5})
    await table_repo.fill_computer_seats(db, table.id)
    await match_repo.start_match(db, table.id, seed=3)
    with pytest.raises(RuleError) as caught:
        await match_repo.start_match(db, table.id, seed=3)
    assert caught.value.code == "table_not_open"
    async with db.session() as s:
        assert (await s.execute(select(func.count()).select_from(MatchRecord))).scalar_one() == 1
    current = await match_repo.current_match(db, table.id)
    assert current is not None and current.seed == 3 and current.status == "playing"


async def test_stored_actions_are_unique_per_match_and_seq(db: Database, counting_game: type) -> None:
    match_id = await counting_match(db)
    await action_repo.apply_action(db, match_id, "0 add 1")
    async with db.session() as s:
        s.add(ActionRecord(match_id=match_id, seq=1, action="1 add 1", events_json=[]))
        with pytest.raises(Exception):  # noqa: B017 - IntegrityError from either driver
            await s.commit()


async def test_fake_game_is_a_match_protocol_double() -> None:
    game = CountingGame({"target": 4}, 1)
    with pytest.raises(RuleError):
        game.apply("1 add 1")
    assert game.log == [] and game.public_view()["total"] == 0


async def test_matches_evicted_from_the_cache_are_rebuilt_from_the_log(
    db: Database, counting_game: type, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(match_cache, "MATCH_CACHE_SIZE", 1)
    first, second = await counting_match(db, target=100, seed=1), await counting_match(db, target=100, seed=2)
    for n in range(6):
        for match_id in (first, second):
            await action_repo.apply_action(
                db, match_id, f"{n % 4} add {1 + (n + match_id) % 3}", expected_version=n
            )
    assert len(db.match_cache) == 1
    for match_id in (first, second):
        assert await match_repo.replay_check(db, match_id)
        match, version = await match_repo.load_match(db, match_id)
        assert version == 6 and match.public_view()["moves"] == 6


async def test_three_processes_pressing_every_turn_apply_each_turn_once(
    target: Target, counting_game: type
) -> None:
    """Three processes race on every turn, some with the button's version, some typed (no version)."""
    dbs = [await target.open() for _ in range(3)]
    match_id = await counting_match(dbs[0], target=1000)
    for turn in range(10):
        seat = turn % 4
        calls = [
            action_repo.apply_action(
                dbs[0], match_id, f"{seat} add 1", expected_version=turn, dedupe_key=f"cb:{turn}"
            ),
            action_repo.apply_action(
                dbs[1], match_id, f"{seat} add 1", expected_version=turn, dedupe_key=f"cb:{turn}"
            ),
            action_repo.apply_action(dbs[2], match_id, f"{seat} add 2", expected_version=turn),
        ]
        results = await asyncio.gather(*calls, return_exceptions=True)
        fresh = [r for r in results if isinstance(r, ApplyResult) and not r.duplicate]
        assert len(fresh) == 1, results
        assert all(isinstance(r, (ApplyResult, StaleVersion)) for r in results), results
    assert [r.seq for r in await match_repo.action_log(dbs[0], match_id)] == list(range(1, 11))
    for db in dbs:
        assert await match_repo.replay_check(db, match_id)


async def test_a_refusal_that_changed_the_engine_state_does_not_leak(
    db: Database, counting_game: type
) -> None:
    """The cache never trusts a refused engine object: the next load replays the stored log."""
    match_id = await counting_match(db)
    await action_repo.apply_action(db, match_id, "0 add 2")
    before, _ = await match_repo.load_match(db, match_id)
    with pytest.raises(RuleError) as caught:
        await action_repo.apply_action(db, match_id, "sys spoil")
    assert caught.value.code == "spoiled"
    after, version = await match_repo.load_match(db, match_id)
    assert after is not before  # the refused object is not reused
    assert version == 1 and after.public_view()["total"] == 2
    result = await action_repo.apply_action(db, match_id, "1 add 3")
    assert result.match.public_view()["total"] == 5
    assert await match_repo.replay_check(db, match_id)


async def test_an_ordinary_refusal_leaves_the_next_action_working(db: Database, counting_game: type) -> None:
    match_id = await counting_match(db)
    with pytest.raises(RuleError):
        await action_repo.apply_action(db, match_id, "2 add 1")
    result = await action_repo.apply_action(db, match_id, "0 add 1", expected_version=0)
    assert result.version == 1 and result.match.public_view()["total"] == 1


async def test_events_stored_with_old_names_read_back_in_the_current_vocabulary(
    db: Database, counting_game: type
) -> None:
    """A duplicate press answers with the stored events: ones stored before rules version 2 are renamed."""
    match_id = await counting_match(db)
    await action_repo.apply_action(db, match_id, "0 add 1", dedupe_key="cb:old")
    async with db.session() as s:
        record = (
            (await s.execute(select(ActionRecord).where(ActionRecord.match_id == match_id))).scalars().one()
        )
        record.events_json = [
            {"kind": "deal_start", "data": {"deal": 2, "dealer": 1}},
            {"kind": "deal_abandoned", "data": {"deal": 2, "phase": "play"}},
        ]
        await s.commit()
    again = await action_repo.apply_action(db, match_id, "0 add 1", dedupe_key="cb:old")
    assert again.duplicate
    assert [(e.kind, e.data) for e in again.events] == [
        ("deal_started", {"deal_no": 2, "dealer": 1}),
        ("deal_abandoned", {"deal_no": 2, "phase": "play"}),
    ]


async def test_each_match_records_its_rules_version_and_a_newer_one_is_refused_clearly(
    db: Database, counting_game: type
) -> None:
    from engine.game import RULES_VERSION

    match_id = await counting_match(db)
    await action_repo.apply_action(db, match_id, "0 add 1")
    row = await match_repo.get_match_row(db, match_id)
    assert row is not None and row.rules_version == RULES_VERSION
    async with db.session() as s:
        await s.execute(
            update(MatchRecord).where(MatchRecord.id == match_id).values(rules_version=RULES_VERSION + 1)
        )
        await s.commit()
    db.match_cache.clear()  # as after a restart (or in another process)
    with pytest.raises(ReplayError) as caught:
        await match_repo.load_match(db, match_id)
    assert f"rules version {RULES_VERSION + 1} is not supported (newer than this engine" in str(caught.value)
    with pytest.raises(ReplayError):
        await action_repo.apply_action(db, match_id, "1 add 1")
    assert await stored_actions(db, match_id) == ["0 add 1"]
