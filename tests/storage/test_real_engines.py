"""The service with the real engines: a computer-played match through apply_action, one transaction per
action; the stored log replays to the same state, also after a restart (docs/engine.md)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from storage import action_repo, match_repo, table_repo
from storage.db import Database
from storage.errors import StaleVersion
from tests.storage.support import Target


async def drive(db: Database, match_id: int, rng: random.Random, max_actions: int) -> int:
    """Play with the computer player (system steps first, then any seat that wants to act)."""
    applied = 0
    for _ in range(max_actions):
        match, version = await match_repo.load_match(db, match_id)
        if match.finished:
            break
        action = match.system_step()
        if action is None:
            for turn in match.turns():
                action = match.ai_action(turn.seat, rng)
                if action is not None:
                    break
        if action is None:
            turns = match.turns()
            assert turns, "nobody may act and the table has no step"
            action = match.auto_action(turns[0].seat)
        result = await action_repo.apply_action(
            db, match_id, action, expected_version=version, dedupe_key=f"t:{version}"
        )
        assert not result.duplicate and result.version == version + 1
        applied += 1
    return applied


@pytest.mark.parametrize(
    "preset, overrides",
    [
        ("shengji-17-deals", {"deals": "1"}),
        ("guandan-team", {"deals": "1", "time_limit_minutes": "0"}),
    ],
)
async def test_computer_match_is_stored_action_by_action_and_replays(
    target: Target, preset: str, overrides: dict[str, str]
) -> None:
    db = await target.open()
    table = await table_repo.create_table(db, -42, preset, overrides, created_by=1)
    await table_repo.fill_computer_seats(db, table.id)
    match_id = (await match_repo.start_match(db, table.id, seed=20261130)).match_id
    rng = random.Random(5)
    applied = await drive(db, match_id, rng, 40)  # part of the deal ...
    assert applied == 40
    assert await match_repo.replay_check(db, match_id)
    live, version = await match_repo.load_match(db, match_id)
    views = (live.public_view(), [live.seat_view(s) for s in range(4)])

    await db.dispose()  # ... a restart mid-deal ...
    db = await target.open()
    rebuilt, version2 = await match_repo.load_match(db, match_id)
    assert version2 == version == 40
    assert (rebuilt.public_view(), [rebuilt.seat_view(s) for s in range(4)]) == views

    applied += await drive(db, match_id, rng, 3000)  # ... and the rest of the one-deal match
    match, version = await match_repo.load_match(db, match_id)
    assert match.finished and version == applied
    row = await match_repo.get_match_row(db, match_id)
    assert row is not None and row.status == "finished" and row.result_json == match.result()
    assert [r.seq for r in await match_repo.action_log(db, match_id)] == list(range(1, applied + 1))
    assert await match_repo.replay_check(db, match_id)
    deals = await match_repo.get_deals(db, match_id)
    assert [(d.deal_no, d.first_seq, d.last_seq) for d in deals] == [(1, 1, applied)]
    last = (await match_repo.action_log(db, match_id))[-1]
    assert {"kind": "deal_over", "data": deals[0].summary_json} in last.events_json


async def test_a_batch_of_cards_dealt_in_one_transaction_is_stored_as_card_by_card(target: Target) -> None:
    """``apply_steps`` (the driver deals a batch of cards so): the same action records, events and state as one
    ``apply_action`` per card, the version moved by the batch, a stale version refused, the log replayed after a
    restart.  The tables start with their empty seats given to computers in the start's own transaction."""
    db = await target.open()
    ids = []
    for chat in (-43, -44):
        table = await table_repo.create_table(db, chat, "shengji-17-deals", {"deals": "1"}, created_by=1)
        ids.append((await match_repo.start_match(db, table.id, seed=7, fill_computers=True)).match_id)
        assert all(s.is_computer for s in await table_repo.get_seats(db, table.id))
    batched, single = ids
    result = await action_repo.apply_steps(db, batched, "sys deal", 25, expected_version=0)
    assert 1 < result.version <= 25 and result.version == len(await match_repo.action_log(db, batched))
    for version in range(result.version):
        one = await action_repo.apply_action(db, single, "sys deal", expected_version=version)
    assert one.events == result.events and one.action == result.action

    def stored(records: list[Any]) -> list[tuple[int, str, Any]]:
        return [(r.seq, r.action, r.events_json) for r in records]

    assert stored(await match_repo.action_log(db, batched)) == stored(await match_repo.action_log(db, single))
    with pytest.raises(StaleVersion):
        await action_repo.apply_steps(db, batched, "sys deal", 25, expected_version=0)
    assert await match_repo.replay_check(db, batched)
    await db.dispose()
    db = await target.open()
    (a, va), (b, vb) = [await match_repo.load_match(db, m) for m in ids]
    assert va == vb == result.version
    assert (a.public_view(), [a.seat_view(s) for s in range(4)]) == (
        b.public_view(),
        [b.seat_view(s) for s in range(4)],
    )
