"""The guided set-up's typed answers parsed: union groups and quotas, rule options, the match length,
minutes, the prize counts and the prizes by round; a bad answer is a ``RuleError`` with a stable code (the
flow, ``setup``, translates it and asks again)."""

from __future__ import annotations

import re
import tomllib
from typing import TypedDict

from engine.errors import RuleError

MAX_SWISS_ROUNDS = 15
# Prize names a user may type (either language) -> the stored prize keys (bot/presentation/tournament/texts.py ``prize.*``).
PRIZE_WORDS = {
    "纪念奖": "souvenir",
    "souvenir": "souvenir",
    "三等奖": "third",
    "third": "third",
    "二等奖": "second",
    "second": "second",
    "一等奖": "first",
    "first": "first",
    "优胜奖": "champion",
    "冠军": "champion",
    "champion": "champion",
    "代表参加学院比赛": "representative",
    "representative": "representative",
}
NUMBER_WORDS = {
    "零",
    "一",
    "二",
    "两",
    "三",
    "四",
    "五",
    "六",
    "七",
    "八",
    "九",
    "十",
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
}
MAX_LATE_MINUTES = 240
# The entrant answer typed: pairs per team, optionally marked duplicate ("2 复式", "2 duplicate").
ENTRANT_ANSWER = re.compile(r"(\d+)\s*(复式|duplicate|dup)?")


class UnionGroup(TypedDict):
    """A union group of the tournament and its quota of entrants (0: none)."""

    name: str
    quota: int


class PlacesPrizes(TypedDict):
    """Prizes by place: how many first, second and third prizes; a souvenir for everybody else or not."""

    prize_table: str
    prize_counts: list[int]
    souvenir_for_all: bool


class RoundPrizes(TypedDict):
    """Prizes by the round an entrant is knocked out in, then the champion's."""

    prize_table: str
    round_prizes: list[str]
    champion_prize: str
    round_prizes_from: str
    souvenir_for_all: bool


def err(code: str, english: str, **params: object) -> RuleError:
    return RuleError(code, english, **params)


def _quota(part: str, text: str) -> int:
    if not text.isdigit():
        raise err("bad_quota", "A quota must be a whole number: {part}", part=part)
    return int(text)


def parse_groups(text: str, default_quota: int) -> list[UnionGroup]:
    """``机关 2，理学院 2`` / ``Admin: 2; Science`` -> [{name, quota}]; ``-`` for none.  A quota that is
    not a whole number (``机关 2.5``, ``Admin two``), an empty or a repeated name is a RuleError."""
    if text.strip() in ("-", "无", "none", ""):
        return []
    out: list[UnionGroup] = []
    for part in re.split(r"[,，;；、\n]+", text):
        part = part.strip()
        if not part:
            continue
        sep = re.split(r"\s*[:：=]\s*", part, maxsplit=1)
        if len(sep) == 2:
            name, quota = sep[0].strip(), _quota(part, sep[1].strip())
        elif m := re.fullmatch(r"(.*?[^\d.,+\-\s])\s*(\d+)", part):
            name, quota = m.group(1).strip(), int(m.group(2))
        else:
            words = part.rsplit(None, 1)
            last = words[-1] if len(words) == 2 else ""
            if last and (re.match(r"[-+]?\d", last) or last.lower() in NUMBER_WORDS):
                raise err("bad_quota", "A quota must be a whole number: {part}", part=part)
            name, quota = part, default_quota
        if not name:
            raise err("bad_quota", "A quota must be a whole number: {part}", part=part)
        if any(g["name"] == name for g in out):
            raise err("duplicate_union_group", "{group} is given twice", group=name)
        out.append({"name": name[:100], "quota": quota})
    return out


def parse_options(text: str) -> dict[str, object]:
    """``key = value`` lines (or ``;``-separated) -> rule overrides; values are TOML (``false``, ``3``,
    ``"x"``) or else plain text.  A line without ``=`` is a RuleError."""
    out: dict[str, object] = {}
    for line in re.split(r"[\n;；]+", text):
        line = line.strip()
        if not line:
            continue
        key, eq, raw = line.partition("=")
        key, raw = key.strip(), raw.strip()
        if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key) or not raw:
            raise err("bad_option_line", "Write one option per line as key = value: {line}", line=line)
        try:
            value: object = tomllib.loads(f"v = {raw}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip("\"'“”")
        out[key] = value
    if not out:
        raise err("bad_option_line", "Write one option per line as key = value: {line}", line=text)
    return out


def parse_length(text: str) -> dict[str, int]:
    m = re.fullmatch(r"(\d+)\s*(副|deals?)", text, re.I)
    n = re.fullmatch(r"(\d+)\s*(分钟|分|min|mins|minutes?)", text, re.I)
    if m and int(m.group(1)) > 0:
        return {"deals": int(m.group(1)), "time_limit_minutes": 0}
    if n and int(n.group(1)) > 0:
        return {"time_limit_minutes": int(n.group(1)), "deals": 0}
    raise err("bad_length", "Write 17 deals or 50 minutes")


def parse_minutes(text: str) -> int:
    """``10``, ``10分钟`` / ``10 分`` / ``10 min`` / ``10 minutes`` -> 10 (1 to MAX_LATE_MINUTES)."""
    m = re.fullmatch(r"(\d+)\s*(分钟|分|min|mins|minutes?)?", text.strip(), re.I)
    if m is None or not 1 <= int(m.group(1)) <= MAX_LATE_MINUTES:
        raise err("bad_minutes", "Send a number of minutes, 1 to {max}", max=MAX_LATE_MINUTES)
    return int(m.group(1))


def parse_prize_counts(text: str) -> PlacesPrizes:
    """``1 2 3`` (first, second, third prizes), optionally ``+纪念奖`` / ``+souvenir`` for everybody else."""
    souvenir = bool(re.search(r"\+\s*(纪念奖|souvenirs?)", text, re.I))
    rest = re.sub(r"\+\s*(纪念奖|souvenirs?)", " ", text, flags=re.I)
    parts = [p for p in re.split(r"[\s,，、/]+", rest.strip()) if p]
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or not any(int(p) for p in parts):
        raise err("bad_prize_counts", "Write three whole numbers, e.g. 1 2 3")
    return {
        "prize_table": "places_1_2_3",
        "prize_counts": [int(p) for p in parts],
        "souvenir_for_all": souvenir,
    }


def parse_round_prizes(text: str) -> RoundPrizes:
    """Prizes of the losers of each round, in order (the last of them the final's loser), then the
    champion's: ``纪念奖 三等奖 二等奖 一等奖 优胜奖``.  Known names are stored as prize keys."""
    parts = [p for p in re.split(r"[\s,，、;；]+", text.strip()) if p]
    if len(parts) < 2:
        raise err("bad_round_prizes", "Write at least two prizes: the final's loser, then the champion")
    keys = [PRIZE_WORDS.get(p.lower(), p[:40]) for p in parts]
    return {
        "prize_table": "by_round_eliminated",
        "round_prizes": keys[:-1],
        "champion_prize": keys[-1],
        "round_prizes_from": "final",
        "souvenir_for_all": False,
    }
