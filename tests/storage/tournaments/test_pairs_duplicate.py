"""Duplicate deals in a Swiss of pairs on a real database (issue 20): the partner table of a pairs
comparison (the other match of the round, not another table of the same match), the two matches of a
comparison scheduled in one slot on two tables, both results recorded in one transaction, the seeds kept
back while the partner table plays and a player of one table kept off the other, and the guided set-up's
"Swiss rounds · duplicate" button."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.edge.tournament import setup
from engine.errors import RuleError
from engine.tournament import pair_result
from engine.tournament.duplicate import compare, pair_comparison_result
from storage import table_repo
from storage import tournaments as ts
from storage.db import Database
from storage.tournaments import duplicate as dup
from tests.bot.edge.tournament.test_setup_guided import USER, FakeBot, _at, _state

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
ORG = 1001

TOML = """
name = "复式积分赛"
preset = "shengji-17-deals"
registration_deadline = "2026-12-01 18:00"
first_round = "2026-12-03 09:00"
[tournament]
format = "swiss"
swiss_rounds = 3
duplicate = true
[[union_groups]]
name = "机关"
quota = 6
[[union_groups]]
name = "理学院"
quota = 6
"""


async def _swiss(db: Database, pairs: int, tables: int) -> int:
    row = await ts.create_tournament(db, created_by=ORG, **ts.spec_from_toml(TOML))
    assert row.settings_json["duplicate"] is True and row.settings_json["entrant"] == "pair"
    for i in range(tables):
        await ts.add_table_group(db, row.id, ORG, -700 - i, f"桌{i + 1}")
    for i in range(pairs):
        inv = await ts.create_invite(db, row.id, 1001 + 2 * i, "机关" if i % 2 else "理学院", NOW)
        await ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW)
    await ts.freeze(db, row.id, bytes(range(32)))
    await ts.hold_draw(db, row.id)
    return row.id


def test_the_partner_ref_of_a_pairs_table_is_the_other_match_of_its_comparison() -> None:
    assert dup.partner_ref_of("t4:S2-M3:1", 0, pairs=True) == "t4:S2-M4:1"
    assert dup.partner_ref_of("t4:S2-M4:1", 1, pairs=True) == "t4:S2-M3:1"
    assert dup.partner_ref_of("t4:S2-M3:1", 0) == "t4:S2-M3:2"  # a team match: its own table 2
    assert dup.partner_ref_of("t4:S2-M3:1", None, pairs=True) is None  # ordinary deals: no partner
    assert dup.partner_ref_of("t4:R1-M1:1", 0, pairs=True) is None  # a knockout match plays alone


async def test_the_partner_match_is_found_and_the_odd_match_and_the_bye_have_none(db: Database) -> None:
    tid = await _swiss(db, 7, 4)  # three matches and a bye
    keys = sorted(m.match_key for m in await ts.matches(db, tid))
    assert keys == ["S1-M1", "S1-M2", "S1-M3"]
    one = await dup.swiss_partner_match(db, tid, "S1-M1")
    two = await dup.swiss_partner_match(db, tid, "S1-M2")
    assert one is not None and one.match_key == "S1-M2"
    assert two is not None and two.match_key == "S1-M1"
    assert await dup.swiss_partner_match(db, tid, "S1-M3") is None  # M4 is the bye: M3 plays alone
    assert await dup.swiss_partner_match(db, tid, "S1-M4") is None


async def test_a_comparison_is_scheduled_in_one_slot_and_a_pool_of_one_table_is_refused(db: Database) -> None:
    tid = await _swiss(db, 8, 3)  # four matches = two comparisons, three tables
    rows = {m.match_key: m for m in await ts.schedule_ready(db, tid, NOW)}
    start = NOW + timedelta(days=2)
    assert rows["S1-M1"].start_at == rows["S1-M2"].start_at == start
    assert rows["S1-M1"].table_chats != rows["S1-M2"].table_chats
    # one table is left for the second comparison: both of its matches wait for the next slot together
    assert rows["S1-M3"].start_at == rows["S1-M4"].start_at
    assert rows["S1-M3"].start_at is not None and rows["S1-M3"].start_at > start
    assert rows["S1-M3"].table_chats != rows["S1-M4"].table_chats

    small = await _swiss(db, 4, 1)
    with pytest.raises(RuleError) as err:
        await ts.schedule_ready(db, small, NOW)
    assert err.value.code == "not_enough_tables"
    assert all(m.start_at is None for m in await ts.matches(db, small))  # nothing scheduled


async def test_both_results_of_a_comparison_are_recorded_together_and_pair_the_next_round(
    db: Database,
) -> None:
    tid = await _swiss(db, 4, 2)
    boards = compare(
        "shengji",
        {
            1: [{"deal_no": 1, "winner": 0, "steps": 2}],
            2: [{"deal_no": 1, "winner": 0, "steps": 1}],
        },
        2,
    )
    results = [
        ("S1-M1", pair_comparison_result(pair_result("b", 3, 5), boards, "S1-M2")),
        ("S1-M2", pair_comparison_result(pair_result("a", 4, 2), boards, "S1-M1")),
    ]
    recs = await dup.record_comparison(db, tid, results)
    assert [r.match.result_json["winner"] for r in recs] == ["a", "a"]  # +3 for side a of both
    assert recs[0].new_matches == [] and sorted(m.match_key for m in recs[1].new_matches) == [
        "S2-M1",
        "S2-M2",
    ]
    eng = await ts.engine_state(db, tid)
    assert eng.swiss is not None
    table = eng.swiss.standings(b"lot")
    assert sorted(r.points for r in table.rows) == [0, 0, 2, 2]


async def test_seeds_stay_hidden_and_players_stay_off_while_the_partner_match_plays(db: Database) -> None:
    tid = await _swiss(db, 4, 2)
    one = await table_repo.create_table(
        db, -1, "shengji-17-deals", {"board_turn": 0}, tournament_ref=f"t{tid}:S1-M1:1"
    )
    two = await table_repo.create_table(
        db, -2, "shengji-17-deals", {"board_turn": 1}, tournament_ref=f"t{tid}:S1-M2:1"
    )
    # a table of the same match number in another kind of comparison is not the partner
    decoy = await table_repo.create_table(
        db, -3, "shengji-17-deals", {"board_turn": 1}, tournament_ref=f"t{tid}:S1-M1:2"
    )
    await table_repo.seat_user(db, two.id, 0, 1005)
    await table_repo.seat_user(db, decoy.id, 0, 1007)
    await table_repo.set_table_status(db, one.id, "finished")
    await table_repo.set_table_status(db, two.id, "playing")
    await table_repo.set_table_status(db, decoy.id, "finished")
    assert await dup.partner_ref(db, one) == f"t{tid}:S1-M2:1"
    assert not await dup.comparison_over(db, one.id)
    assert await dup.plays_partner_table(db, one.id, 1005)
    assert not await dup.plays_partner_table(db, one.id, 1007)
    await table_repo.set_table_status(db, two.id, "finished")
    assert await dup.comparison_over(db, one.id) and await dup.comparison_over(db, two.id)
    assert not await dup.plays_partner_table(db, one.id, 1005)


@pytest.mark.parametrize("lang", ["zh", "en"])
async def test_the_guided_set_up_offers_a_duplicate_swiss_of_pairs(db: Database, lang: str) -> None:
    tb = FakeBot(db)
    row = await _at(tb, lang, "entrant")
    before = _state(row)
    await setup.answer(tb, row, USER, lang, "1 复式" if lang == "zh" else "1 duplicate")
    assert _state(await ts.get_tournament(db, row.id)) == before  # refused at the entrant: not a Swiss yet
    assert ("只用于积分编排" if lang == "zh" else "needs Swiss rounds") in tb.last
    await setup.answer(tb, await ts.get_tournament(db, row.id), USER, lang, "1")  # pairs
    row = await ts.update_setup(db, row.id, USER, setup_step="format")
    assert row.settings_json["entrant"] == "pair"
    await setup.ask(tb, row, USER, lang)
    label = (
        "积分编排 · 复式：每轮两场一组打同样的牌"
        if lang == "zh"
        else "Swiss rounds · duplicate: two matches of a round play the same deals"
    )
    assert label in tb.labels()
    await setup.button(tb, USER, lang, ["pick", "format", "swd"])
    row = await ts.get_tournament(db, row.id)
    s = row.settings_json
    assert (s["format"], s["entrant"], s["duplicate"], row.setup_step) == (
        "swiss",
        "pair",
        True,
        "swiss_rounds",
    )
    row = await ts.update_setup(db, row.id, USER, setup_step="confirm")
    await setup.ask(tb, row, USER, lang)
    assert ("每轮第 1、2 场" if lang == "zh" else "matches 1 and 2 (3 and 4 ...) of each round") in tb.last
    # another format for pairs drops duplicate (a knockout of pairs deals as usual) instead of refusing
    row = await ts.update_setup(db, row.id, USER, setup_step="format")
    await setup.button(tb, USER, lang, ["pick", "format", "se"])
    s = (await ts.get_tournament(db, row.id)).settings_json
    assert (s["format"], s["duplicate"]) == ("single_elimination", False)
    # teams choose duplicate with the entrant: no pairs' button at their format step
    row = await ts.update_setup(db, row.id, USER, setup_step="entrant")
    await setup.button(tb, USER, lang, ["pick", "entrant", "2d"])
    row = await ts.update_setup(db, row.id, USER, setup_step="format")
    await setup.ask(tb, row, USER, lang)
    assert label not in tb.labels()
