"""Casual matches in the ratings (issue 20, "optionally, casual matches"; ``CASUAL_RATINGS``): a finished
``/newtable`` match, really played through storage's action path, moves the seated humans' ratings
and nobody else's; with the setting off nothing changes; practice tables and computer-only tables are
not rated; casual and tournament tables make one rating per player and game."""

from __future__ import annotations

import random

from engine.ai.levels import player_for, table_step
from engine.options import options_to_dict
from engine.registry import load_preset
from engine.tournament.ratings import Rating
from storage import action_repo, match_repo, table_repo
from storage import tournaments as ts
from storage.db import Database
from storage.ratings_casual import casual_games_of
from tests.storage.tournaments.season_support import played_swiss

CHAT = -100500


async def play_casual(
    db: Database, humans: dict[int, int], *, practice: bool = False, chat: int = CHAT
) -> int:
    """A one-deal Shengji table with ``humans`` (seat -> user id), computers elsewhere, played to its end
    through ``action_repo.apply_action`` (random legal plays for every seat); returns the match id."""
    table = await table_repo.insert_table(
        db,
        chat,
        "shengji-17-deals",
        "shengji",
        options_to_dict(load_preset("shengji-17-deals").with_overrides({"deals": 1}).rules),
        practice=practice,
        fixed_seed=7 if practice else None,
    )
    for seat, uid in humans.items():
        await table_repo.seat_user(db, table.id, seat, uid)
    started = await match_repo.start_match(db, table.id, seed=11, fill_computers=True)
    rand = player_for("shengji", "random")
    rng = random.Random(3)
    while True:
        m, version = await match_repo.load_match(db, started.match_id)
        if m.finished:
            return started.match_id
        await action_repo.apply_action(
            db, started.match_id, table_step(m, [rand] * 4, rng), expected_version=version
        )


async def test_a_finished_casual_match_rates_its_humans_only_when_the_setting_is_on(db: Database) -> None:
    mid = await play_casual(db, {0: 1001, 1: 1002})
    row = await match_repo.get_match_row(db, mid)
    assert row is not None and row.status == "finished" and row.result_json is not None
    winner, loser = (1001, 1002) if row.result_json["winner"] == 0 else (1002, 1001)
    # off (the default): the ratings are the tournaments' only
    assert db.casual_ratings is False
    off = await ts.player_ratings(db)
    assert off.table == {} and off.of(str(winner), "shengji").games == 0
    # on: the two humans moved, the winner up and the loser down; no computer has a rating
    db.casual_ratings = True
    on = await ts.player_ratings(db)
    assert set(on.table) == {(str(winner), "shengji"), (str(loser), "shengji")}
    assert on.of(str(winner), "shengji").games == on.of(str(loser), "shengji").games == 1
    assert on.of(str(winner), "shengji").mu > Rating().mu > on.of(str(loser), "shengji").mu
    assert [h.ref for h in on.history_of(str(winner), "shengji")] == [f"casual/{mid}"]
    assert [g.match_id for g in await casual_games_of(db, winner)] == [mid]
    assert await casual_games_of(db, 1003) == []
    # off again: unchanged from before (nothing was stored for the ratings)
    db.casual_ratings = False
    assert (await ts.player_ratings(db)).table == {}


async def test_practice_tables_are_not_rated_and_casual_and_tournament_tables_make_one_rating(
    db: Database,
) -> None:
    db.casual_ratings = True
    await play_casual(
        db, {0: 1001, 2: 1002}, practice=True
    )  # a public seed: whoever knows it knows the deals
    assert (await ts.player_ratings(db)).table == {}
    tid = await played_swiss(db, "一月赛", 1001, list(range(1001, 1009)))
    tournament_only = (await ts.player_ratings(db)).of("1001", "shengji")
    assert tournament_only.games == 2
    mid = await play_casual(db, {0: 1001, 2: 1002}, chat=CHAT - 10)  # partners, against two computers
    both = await ts.player_ratings(db)
    assert both.of("1001", "shengji").games == 3 and both.of("1002", "shengji").games == 3
    refs = [h.ref for h in both.history_of("1001", "shengji")]
    assert refs[-1] == f"casual/{mid}" and all(r.startswith(f"{tid}/") for r in refs[:2])
    db.casual_ratings = False
    assert (await ts.player_ratings(db)).of("1001", "shengji") == tournament_only
