"""Builders for the renderer tests: tournaments with Chinese names, played with fixed results."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from engine.registry import load_preset
from engine.tournament.entries import Entry
from engine.tournament.results import PairingResult, forfeit_result, pair_result, played_table, team_result
from engine.tournament.schedule import Slot, assign_tables
from engine.tournament.settings import TournamentSettings
from engine.tournament.tournament import Tournament

SECRET = bytes(range(32))

SURNAMES = (
    "张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕苏卢蒋蔡贾丁魏薛叶阎"
)
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红"
UNIONS = ("机关工会", "教育学院", "理学院", "医学院", "外国语学院", "计算机学院")


def person(i: int) -> str:
    """A distinct Chinese name for every i < 50 * 28 (gcd(51, 28) = 1)."""
    s = len(SURNAMES)
    return SURNAMES[i % s] + GIVEN[(i * 7 + i // s * (s + 1)) % len(GIVEN)]


def pairs(count: int, unions: int = 3) -> list[Entry]:
    out = []
    for i in range(count):
        a, b = person(2 * i), person(2 * i + 1)
        out.append(Entry(f"p{i}", f"{a}/{b}", UNIONS[i % unions], (a, b)))
    return out


def teams(count: int, pairs_per_team: int = 3) -> list[Entry]:
    return [
        Entry(
            f"t{i}",
            f"{UNIONS[i % len(UNIONS)]}{i // len(UNIONS) + 1}队",
            UNIONS[i % len(UNIONS)],
            tuple(person(100 + 10 * i + k) for k in range(2 * pairs_per_team)),
        )
        for i in range(count)
    ]


def settings(preset: str, **over: object) -> TournamentSettings:
    data = dict(load_preset(preset).tournament)
    data.update(over)
    return TournamentSettings.from_mapping(data)


def pair_win(t: Tournament, mid: str) -> PairingResult:
    """Side a wins unless b's entry id is smaller (deterministic), with levels."""
    a, b = t.sides(mid)
    winner = "a" if str(a) < str(b) else "b"
    return pair_result(winner, 14 if winner == "a" else 9, 9 if winner == "a" else 13)


def team_win(t: Tournament, mid: str) -> PairingResult:
    a, b = t.sides(mid)
    strong = "a" if str(a) < str(b) else "b"
    weak = "b" if strong == "a" else "a"
    return team_result(
        [
            played_table(strong, 14, 8, 1) if strong == "a" else played_table("b", 8, 14, 1),
            played_table(weak, 12, 10, 2) if weak == "a" else played_table("b", 10, 12, 2),
            played_table(strong, 13, 6, 3) if strong == "a" else played_table("b", 6, 13, 3),
        ]
    )


def play_all(t: Tournament, forfeit_first: bool = True, stop_after: int | None = None) -> None:
    """Play every ready match (the first one as a forfeit by side b when ``forfeit_first``)."""
    played = 0
    first = True
    while True:
        ready = t.ready_matches()
        if not ready or (stop_after is not None and played >= stop_after):
            return
        for mid in ready:
            if stop_after is not None and played >= stop_after:
                return
            if first and forfeit_first:
                t.record(mid, forfeit_result("b", t.settings.tables_per_match))
            elif t.settings.entrant == "team":
                t.record(mid, team_win(t, mid))
            else:
                t.record(mid, pair_win(t, mid))
            first = False
            played += 1


def single_elim(
    count: int = 6, preset: str = "shengji-timed-2h", play: bool = True, **over: object
) -> Tournament:
    t = Tournament.create("教工双升比赛 2026", settings(preset, **over), pairs(count))
    t.hold_draw(SECRET)
    if play:
        play_all(t)
    return t


def groups_knockout(count: int = 10, play: bool = True, stop_after: int | None = None) -> Tournament:
    t = Tournament.create("掼蛋团体赛", settings("guandan-team", knockout_size=4), teams(count))
    t.hold_draw(SECRET)
    if play:
        play_all(t, stop_after=stop_after)
    return t


START = datetime(2026, 4, 16, 6, 0, tzinfo=UTC)  # 14:00 in Asia/Shanghai


def slots_for(t: Tournament, start: datetime = START) -> list[Slot]:
    """Start times and tables for the ready matches (two tables in the pool per table needed)."""
    pool = [f"桌{i}" for i in range(1, 2 * t.settings.tables_per_match + 1)]
    return assign_tables(t.ready_matches(), start, pool, t.settings.tables_per_match, 60)


def later(minutes: int) -> datetime:
    return START + timedelta(minutes=minutes)
