"""Ratings from the stored results (issue 20): replayed from every tournament's results (a correction
counts at once), per game, and the draw's seed_by_rating option seeding the next tournament."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.tournament import pair_result, verify
from storage import tournaments as ts
from storage.db import Database

NOW = datetime(2026, 12, 1, 1, 0, tzinfo=UTC)
ORG = 1001


async def tournament(db: Database, name: str, **settings: object) -> int:
    row = await ts.create_tournament(
        db,
        name=name,
        preset_id="shengji-timed-2h",
        created_by=ORG,
        settings_overrides={"format": "swiss", "swiss_rounds": 2, **settings},
        registration_deadline=NOW + timedelta(days=1),
        first_round_at=NOW + timedelta(days=2),
    )
    await ts.add_table_group(db, row.id, ORG, -500, "桌1")
    for i in range(4):
        inv = await ts.create_invite(db, row.id, 1001 + 2 * i, "", NOW)
        await ts.accept_invite(db, inv.token, 1002 + 2 * i, NOW)
    return row.id


async def test_ratings_follow_the_results_and_seed_the_next_draw(db: Database) -> None:
    first = await tournament(db, "一月赛")
    await ts.freeze(db, first, bytes(range(32)))
    await ts.hold_draw(db, first)
    # the pair with the lower player ids wins every match: 1001/1002 all, 1007/1008 none
    entries = {str(e.id): min(int(p) for p in e.players_json) for e in await ts.entries(db, first)}
    for _ in range(2):
        eng = await ts.engine_state(db, first)
        for key in eng.ready_matches():
            m = await ts.get_match(db, first, key)
            a_wins = entries[m.side_a or ""] < entries[m.side_b or ""]
            await ts.record_result(db, first, key, pair_result("a" if a_wins else "b", 14, 9), None)
    ratings = await ts.player_ratings(db)
    top, bottom = ratings.of("1001", "shengji"), ratings.of("1007", "shengji")
    assert top.games == bottom.games == 2 and top.provisional
    assert top.mu > 25 > bottom.mu and top.shown > bottom.shown
    assert ratings.of("1001", "guandan").games == 0
    refs = [h.ref for h in ratings.history_of("1001", "shengji")]
    assert len(refs) == 2 and refs[0].startswith(f"{first}/S1-") and refs[1].startswith(f"{first}/S2-")
    second = await tournament(db, "二月赛", seed_by_rating=True)
    ann = await ts.freeze(db, second, bytes(range(1, 33)))
    eng, _ = await ts.hold_draw(db, second)
    seeds = {e.players[0].split("(")[-1].rstrip(")"): e.seed_no for e in eng.entries}
    assert seeds["1001"] == 1 and seeds["1007"] == 4
    assert verify(ts.published_draw(await ts.get_tournament(db, second)), ann).ok
    # seeded, the Swiss's first round is seed 1 v seed 3 and seed 2 v seed 4 (top half v bottom half)
    by_seed = {e.seed_no: e.id for e in eng.entries}
    assert eng.swiss is not None
    assert [(m.a, m.b) for m in eng.swiss.round_matches(1)] == [
        (by_seed[1], by_seed[3]),
        (by_seed[2], by_seed[4]),
    ]
    # a referee's correction counts at once: 1001/1002's round-2 win becomes a loss
    last = refs[1].split("/")[1].split("#")[0]
    m = await ts.get_match(db, first, last)
    await ts.grant(db, first, ORG, 1020, "referee")
    flipped = pair_result("b" if entries[m.side_a or ""] < entries[m.side_b or ""] else "a", 14, 9)
    await ts.correct_result(db, first, last, flipped, 1020, "score sheet")
    assert (await ts.player_ratings(db)).of("1001", "shengji").mu < top.mu
