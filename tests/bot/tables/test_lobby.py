"""The lobby built alone against fakes of its ports: who may sit, start and stop, and what each
asks of the live messages and the driver."""

from __future__ import annotations

from bot.edge.refusals import refusal_text
from bot.presentation.i18n import rule_error, t
from bot.tables.lobby import Lobby
from bot.tables.names import TableNames
from bot.tables.outcomes import Refusal, Why
from bot.tables.table_request import TableRequest, read_request
from storage import match_repo, table_repo, user_repo
from storage.db import Database
from tests.bot.tables.fakes import FakeShared, FakeShows, FakeSteps, person

GROUP, ALICE, BOB, CAROL = -100, 1, 2, 3


def request(args: list[str]) -> TableRequest:
    """What the edge reads from ``/newtable``'s arguments."""
    req = read_request("en", args, may_fix_seed=False)
    assert isinstance(req, TableRequest), req
    return req


def build(db: Database, admin_ids: tuple[int, ...] = ()) -> tuple[Lobby, FakeShared, FakeShows, FakeSteps]:
    shared = FakeShared(db, admin_ids)
    shows, steps = FakeShows(shared), FakeSteps()
    return Lobby(shared, TableNames(shared), shows, steps), shared, shows, steps


async def test_newtable_posts_the_lobby_and_a_second_one_is_refused(db: Database) -> None:
    lobby, _, shows, _ = build(db)
    assert await lobby.new_table(GROUP, ALICE, request(["guandan-team"])) is None
    table = await table_repo.open_table_in_chat(db, GROUP)
    assert table is not None
    assert [(key, chat) for key, chat, _ in shows.created] == [(("table", table.id), GROUP)]
    refusal = await lobby.new_table(GROUP, BOB, request(["guandan-team"]))
    assert refusal == Refusal(Why.TABLE_EXISTS, table_id=table.id)
    assert str(table.id) in refusal_text("en", refusal)


async def test_join_needs_a_started_private_chat_then_seats_and_shows_the_name(db: Database) -> None:
    lobby, _, shows, _ = build(db)
    table = await table_repo.insert_table(db, GROUP, "guandan-team", "guandan", {}, ALICE)
    await user_repo.upsert_user(db, BOB, "Bob")
    assert await lobby.join(table.id, 1, BOB) == Refusal(Why.NEED_START)
    assert await table_repo.seat_of_user(db, table.id, BOB) is None
    await user_repo.upsert_user(db, BOB, "Bob", started_bot=True)
    assert await lobby.join(table.id, 1, BOB) is None
    assert await table_repo.seat_of_user(db, table.id, BOB) == 1
    assert "Bob" in shows.created[-1][2]


async def test_a_join_to_a_taken_seat_or_a_full_or_started_table_is_refused(db: Database) -> None:
    lobby, _, shows, _ = build(db)
    table = await table_repo.insert_table(db, GROUP, "guandan-team", "guandan", {}, ALICE)
    people = [ALICE, BOB, CAROL, 4, 5]
    for uid in people:
        await user_repo.upsert_user(db, uid, f"P{uid}", started_bot=True)
    for seat, uid in enumerate(people[:4]):
        assert await lobby.join(table.id, seat, uid) is None
    shown = len(shows.created)
    taken = await lobby.join(table.id, 1, 5)  # the table is full: every seat is taken
    assert taken is not None and taken.why is Why.RULE and taken.error is not None
    assert refusal_text("en", taken) == rule_error("en", taken.error) and taken.error.code
    assert len(shows.created) == shown  # the lobby is not shown again
    seats = [s.user_id for s in await table_repo.get_seats(db, table.id)]
    assert seats == people[:4]  # nobody moved
    assert await lobby.start_table(table.id, person(ALICE)) is None
    assert await lobby.join(table.id, 1, 5) == Refusal(Why.TABLE_CLOSED)
    assert refusal_text("en", Refusal(Why.TABLE_CLOSED)) == t("en", "err.table_closed")


async def test_start_by_a_stranger_is_refused_by_the_creator_hands_the_match_to_the_driver(
    db: Database,
) -> None:
    lobby, shared, shows, steps = build(db)
    table = await table_repo.insert_table(
        db, GROUP, "guandan-team", "guandan", {"time_limit_minutes": 30}, ALICE
    )
    refused = await lobby.start_table(table.id, person(CAROL))
    assert refused == Refusal(Why.NOT_YOUR_TABLE) and refusal_text("en", refused) == "This is not your seat"
    assert await match_repo.current_match(db, table.id) is None and steps.kicks == []
    answered: list[bool] = []
    assert await lobby.start_table(table.id, person(ALICE), on_started=lambda: answered.append(True)) is None
    row = await match_repo.current_match(db, table.id)
    assert row is not None and answered == [True]
    assert shows.rendered == [(row.id, True, True)]  # everything shown, under the match's lock
    assert steps.kicks == [(row.id, 0)]
    assert [kind for kind, _, _ in shared.scheduler.scheduled] == ["match_time"]
    seats = shared.seats.get(row.id)
    assert seats is not None and seats.computers == frozenset(
        range(4)
    )  # the empty seats went to the computer
    again = await lobby.start_table(table.id, person(ALICE))
    assert again == Refusal(Why.STARTED) and refusal_text("en", again) == "This table has started already"


async def test_stop_by_a_stranger_is_refused_by_an_admin_stops_and_tells_the_group(db: Database) -> None:
    lobby, shared, _, steps = build(db, admin_ids=(CAROL,))
    table = await table_repo.insert_table(db, GROUP, "guandan-team", "guandan", {}, ALICE)
    assert await lobby.start_table(table.id, person(ALICE)) is None
    row = await match_repo.current_match(db, table.id)
    assert row is not None
    refusal = await lobby.stop_table(table.id, person(BOB))
    assert refusal == Refusal(Why.ONLY_CREATOR_OR_ADMIN) and shared.sent == []
    assert await lobby.stop_table(table.id, person(CAROL)) is None
    assert steps.cancelled == [row.id] and steps.forgotten == [row.id]
    assert shared.sent == [(GROUP, f"Table {table.id} was stopped.")]
    stopped = await table_repo.get_table(db, table.id)
    assert stopped is not None and stopped.status != "open"
