"""End to end (the simulator and the real bot, issue 20): an organiser names a season and its tournaments
in the union's group; anyone's ``/season`` there (and privately) shows that season's table, its export
equal to engine/tournament/season.py's table; non-organisers and bad input get one translated answer
and change nothing; the old ``/season 1 2`` still works; ``/me`` lists rated casual matches only with
``CASUAL_RATINGS`` on."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from engine.tournament.season import season_table
from storage import match_repo, season_repo
from storage import tournaments as ts
from tests.e2e.harness import ENGLISH_USER, GROUP_ID, ORGANISER_ID
from tests.e2e.tournaments import support as S
from tests.storage.tournaments.season_support import engines, played_swiss
from tests.storage.tournaments.test_ratings_casual import play_casual

ORG, PLAYER = ORGANISER_ID, S.EXTRA_BASE
PLAYERS = [S.EXTRA_BASE + i for i in range(8)]


def _rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


async def test_a_named_season_in_the_unions_group(tmp_path: Path) -> None:
    async with S.tournament_harness(tmp_path, extra_players=8, table_groups=1) as h:
        db = S.db(h)
        first = await played_swiss(db, "一月赛", ORG, PLAYERS)
        second = await played_swiss(db, "二月赛", ORG, [PLAYERS[i] for i in (0, 2, 1, 3, 4, 6, 5, 7)])
        # the command menu offers /season in groups and privately, /me privately
        assert "season" in {c["command"] for c in h.sim.commands_for(GROUP_ID, PLAYER)}
        assert {"me", "season"} <= {c["command"] for c in h.sim.commands_for(PLAYER, PLAYER)}
        # nobody has named a season yet
        await S.say(h, PLAYER, GROUP_ID, "/season", "这里还没有赛季")
        # a player who organises nothing may not create one (nothing is stored)
        await S.say(h, PLAYER, GROUP_ID, "/season_new 双升 偷建赛季", "只有比赛的组织者可以创建赛季")
        await S.say(h, ENGLISH_USER[0], GROUP_ID, "/season_new shengji x", "Only a tournament organiser")
        assert await season_repo.seasons_for(db, PLAYER, GROUP_ID, None) == []
        # bad input: the usage, once
        await S.say(h, ORG, GROUP_ID, "/season_new 麻将 春季赛", "用法：/season_new 游戏 赛季名")
        made = await S.say(h, ORG, GROUP_ID, "/season_new 双升 2027 春季赛", "已创建赛季 S1")
        assert "2027 春季赛" in (made.text or "")
        await S.say(h, ORG, GROUP_ID, "/season_add S1 一月", "用法：/season_add S编号")
        await S.say(h, ORG, GROUP_ID, f"/season_add S1 {first} 99", "没有比赛 99；没有改动")
        assert (await season_repo.get_season(db, 1)).tournaments == ()
        await S.say(h, PLAYER, GROUP_ID, f"/season_add S1 {first}", "只有赛季的创建者可以修改它")
        added = await S.say(h, ORG, GROUP_ID, f"/season_add S1 {first} {second}", "现有比赛")
        assert "#1 一月赛、#2 二月赛" in (added.text or "")
        # anyone's /season in the group: the season's table, per player and union group
        shown = await S.say(h, PLAYER, GROUP_ID, "/season", "赛季 S1「2027 春季赛」")
        text = shown.text or ""
        assert "赛季积分榜（#1 一月赛、#2 二月赛）" in text and "机关" in text and "理学院" in text
        assert "1. 选手1（机关）8分 · 4胜0平0负 · 2场比赛" in text
        # its export is the engine's season table over the same tournaments
        files = await S.files_after(h, PLAYER, GROUP_ID, "/season export", ".xlsx")
        assert set(files) == {"season-S1-players.csv", "season-S1-groups.csv", "season-S1.xlsx"}
        players, groups = season_table(await engines(db, [first, second]))
        got = _rows(files["season-S1-players.csv"])[1:]
        assert [(r[3], r[4], r[5], r[6], r[7]) for r in got] == [
            (str(p.tournaments), str(p.won), str(p.drawn), str(p.lost), str(p.points)) for p in players
        ]
        assert [r[1] for r in _rows(files["season-S1-groups.csv"])[1:]] == [g.key for g in groups]
        # by name and by number, privately too (the player plays in the season's tournaments)
        await S.say(h, PLAYER, GROUP_ID, "/season 2027 春季赛", "赛季 S1")
        await S.dm(h, PLAYER, "/season", "赛季 S1「2027 春季赛」")
        await S.dm(h, PLAYER, "/season S1", "赛季 S1「2027 春季赛」")
        await S.say(h, PLAYER, GROUP_ID, "/season 没有这个", "没有名为「没有这个」的赛季")
        await S.say(h, PLAYER, GROUP_ID, "/season S9", "没有赛季 S9")
        listed = await S.say(h, PLAYER, GROUP_ID, "/seasons", "S1「2027 春季赛」")
        assert "#1 一月赛" in (listed.text or "")
        # the old form still works
        old = await S.say(h, PLAYER, GROUP_ID, f"/season {first}", "赛季积分榜（#1 一月赛）")
        assert "赛季 S1" not in (old.text or "")
        # removing a tournament changes the table
        await S.say(h, ORG, GROUP_ID, f"/season_remove S1 {second}", "现有比赛：#1 一月赛")
        after = await S.say(h, PLAYER, GROUP_ID, "/season", "赛季 S1")
        assert "1. 选手1（机关）4分 · 2胜0平0负 · 1场比赛" in (after.text or "")
        # casual ratings are off (the default): /me lists no casual match and the ratings ignore it
        await play_casual(db, {0: PLAYER, 1: PLAYER + 1}, chat=-100900)
        me = await S.dm(h, PLAYER, "/me", "的战绩")
        assert "休闲对局" not in (me.text or "") and "双升" in (me.text or "")


async def test_me_lists_rated_casual_matches_with_the_setting_on(tmp_path: Path) -> None:
    async with S._harness(tmp_path, 2, 1, CASUAL_RATINGS=True) as h:
        db = S.db(h)
        assert db.casual_ratings is True
        mid = await play_casual(
            db, {0: PLAYER, 2: PLAYER + 1}, chat=-100901
        )  # partners against two computers
        row = await match_repo.get_match_row(db, mid)
        assert row is not None and row.result_json is not None
        outcome = "胜" if row.result_json["winner"] == 0 else "负"
        me = await S.dm(h, PLAYER, "/me", "的战绩")
        text = me.text or ""
        assert "休闲对局（计入等级分；最近 1 局，共 1 局）" in text
        assert f"双升 {outcome} · 搭档 选手2 · 等级分 " in text and "双升 1" in text and "（1 局）" in text
        # the partner's rating moved the same way; the computers have none
        ratings = await ts.player_ratings(db)
        assert set(ratings.table) == {(str(PLAYER), "shengji"), (str(PLAYER + 1), "shengji")}
