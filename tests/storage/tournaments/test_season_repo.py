"""Named seasons in storage (issue 20, "the organiser names the tournaments of a season"): who may change
a season, all-or-none changes that leave nothing behind when refused, which season a chat means, and the
season table from a stored season equal to engine/tournament/season.py's over the same tournaments."""

from __future__ import annotations

from datetime import timedelta

import pytest

from engine.errors import RuleError
from engine.tournament.season import season_table
from storage import season_repo
from storage import tournaments as ts
from storage.db import Database
from tests.storage.tournaments.season_support import NOW, engines, played_swiss

ORG, OTHER = 1001, 1003
GROUP = -100777


async def _code(coro: object) -> str:
    with pytest.raises(RuleError) as err:
        await coro  # type: ignore[misc]
    return err.value.code


async def test_a_season_is_changed_by_its_creator_only_and_all_or_nothing(db: Database) -> None:
    spring = await season_repo.create_season(db, "  2027  春季赛 ", "shengji", ORG, GROUP)
    assert (spring.name, spring.game, spring.chat_id, spring.tournaments) == (
        "2027 春季赛",
        "shengji",
        GROUP,
        (),
    )
    assert (
        await _code(season_repo.create_season(db, "2027 春季赛", "shengji", ORG, None)) == "season_name_taken"
    )
    assert await _code(season_repo.create_season(db, "x", "mahjong", ORG, None)) == "season_bad_game"
    assert await _code(season_repo.create_season(db, " ", "shengji", ORG, None)) == "season_bad_name"
    assert await _code(season_repo.create_season(db, "x" * 65, "shengji", ORG, None)) == "season_bad_name"
    mine = await ts.create_tournament(
        db,
        name="一月赛",
        preset_id="shengji-timed-2h",
        created_by=ORG,
        registration_deadline=NOW + timedelta(days=1),
    )
    theirs = await ts.create_tournament(
        db,
        name="外单位",
        preset_id="shengji-timed-2h",
        created_by=OTHER,
        registration_deadline=NOW + timedelta(days=1),
    )
    team = await ts.create_tournament(
        db,
        name="掼蛋团体",
        preset_id="guandan-team",
        created_by=ORG,
        registration_deadline=NOW + timedelta(days=1),
    )
    assert not await season_repo.organises_any(db, 1010)
    assert await season_repo.organises_any(db, OTHER)
    # refused: nothing added, not even the tournaments before the refused one
    assert await _code(season_repo.add_tournaments(db, spring.id, OTHER, [mine.id])) == "season_not_yours"
    assert (
        await _code(season_repo.add_tournaments(db, spring.id, ORG, [mine.id, theirs.id]))
        == "season_not_organiser"
    )
    assert (
        await _code(season_repo.add_tournaments(db, spring.id, ORG, [mine.id, team.id]))
        == "season_wrong_game"
    )
    assert (
        await _code(season_repo.add_tournaments(db, spring.id, ORG, [mine.id, 9999]))
        == "season_no_tournament"
    )
    assert await _code(season_repo.add_tournaments(db, 9999, ORG, [mine.id])) == "season_not_found"
    assert (await season_repo.get_season(db, spring.id)).tournaments == ()
    added = await season_repo.add_tournaments(db, spring.id, ORG, [mine.id, mine.id])
    assert added.tournaments == ((mine.id, "一月赛", False),)
    assert await _code(season_repo.add_tournaments(db, spring.id, ORG, [mine.id])) == "season_already_in"
    # the other organiser, given the organiser role of the first tournament, still cannot change the season
    await ts.grant(db, mine.id, ORG, OTHER, "organiser")
    assert await _code(season_repo.remove_tournaments(db, spring.id, OTHER, [mine.id])) == "season_not_yours"
    assert (
        await _code(season_repo.remove_tournaments(db, spring.id, ORG, [mine.id, theirs.id]))
        == "season_not_in"
    )
    assert (await season_repo.get_season(db, spring.id)).tournaments == ((mine.id, "一月赛", False),)
    assert (await season_repo.remove_tournaments(db, spring.id, ORG, [mine.id])).tournaments == ()


async def test_which_season_a_chat_means(db: Database) -> None:
    tid = await played_swiss(db, "一月赛", ORG, list(range(1001, 1009)))
    other_group = await season_repo.create_season(db, "外群赛季", "shengji", ORG, -1)
    older = await season_repo.create_season(db, "秋季赛", "shengji", ORG, GROUP)
    await season_repo.add_tournaments(db, older.id, ORG, [tid])
    newer = await season_repo.create_season(db, "冬季赛", "shengji", OTHER, None)
    # a group: its own newest season; else the newest holding the group's tournament; else none
    assert (await season_repo.current_season(db, 1005, GROUP, None)).id == older.id  # type: ignore[union-attr]
    assert await season_repo.current_season(db, 1005, -2, None) is None
    await season_repo.create_season(db, "对方赛季", "shengji", OTHER, None)
    assert (await season_repo.current_season(db, ORG, -2, tid)).id == older.id  # type: ignore[union-attr]
    # privately: the newest of the user's own seasons and those holding a tournament they play in
    assert (await season_repo.current_season(db, 1005, None, None)).id == older.id  # type: ignore[union-attr]
    assert (await season_repo.current_season(db, OTHER, None, None)).id > newer.id  # type: ignore[union-attr]
    assert await season_repo.current_season(db, 1020, None, None) is None
    listed = await season_repo.seasons_for(db, ORG, None, None)
    assert [v.id for v in listed] == [older.id, other_group.id]
    # by name, case-insensitive: this chat's first
    assert (await season_repo.season_by_name(db, "秋季赛", GROUP)).id == older.id  # type: ignore[union-attr]
    assert await season_repo.season_by_name(db, "没有", GROUP) is None


async def test_the_stored_season_table_is_the_engines_season_table(db: Database) -> None:
    first = await played_swiss(db, "一月赛", ORG, list(range(1001, 1009)))
    second = await played_swiss(db, "二月赛", ORG, [1001, 1003, 1002, 1004, 1005, 1007, 1006, 1008])
    season = await season_repo.create_season(db, "冬季赛", "shengji", ORG, GROUP)
    await season_repo.add_tournaments(db, season.id, ORG, [first, second])
    stored = await season_repo.season_input(
        db, [t for t, _, _ in (await season_repo.get_season(db, season.id)).tournaments]
    )
    assert [r.id for r in stored.rows] == [first, second]
    players, groups = season_table(list(stored.tables))
    assert (players, groups) == season_table(await engines(db, [first, second]))
    # 1001 wins every match of both tournaments (2 rounds each): 8 points, 4 won; 1008 loses all of them
    by_player = {r.key: r for r in players}
    assert (by_player["1001"].points, by_player["1001"].won, by_player["1001"].tournaments) == (8, 4, 2)
    assert (by_player["1008"].points, by_player["1008"].lost) == (0, 4)
    assert players[0].key == "1001" and {g.key for g in groups} == {"机关", "理学院"}
    # a tournament without a draw is left out of the table's input
    later = await ts.create_tournament(
        db,
        name="三月赛",
        preset_id="shengji-timed-2h",
        created_by=ORG,
        registration_deadline=NOW + timedelta(days=1),
    )
    await season_repo.add_tournaments(db, season.id, ORG, [later.id])
    assert [r.id for r in (await season_repo.season_input(db, [first, second, later.id])).rows] == [
        first,
        second,
    ]
