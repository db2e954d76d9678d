"""Words shared by the image, the exports and the texts (zh / en): round and match titles,
scores, outcomes, prize names.  Plain functions over engine/tournament data."""

from __future__ import annotations

import re
from collections.abc import Mapping

from engine.tournament.entries import Entry
from engine.tournament.prizes import PRIZE_LABELS
from engine.tournament.results import PairingResult
from engine.tournament.tournament import Tournament

LANGS = ("zh", "en")

WORDS: dict[str, dict[str, str]] = {
    "zh": {
        "final": "决赛",
        "semifinal": "半决赛",
        "round": "第{n}轮",
        "third_place": "三四名决赛",
        "places": "第{lo}-{hi}名排位赛",
        "group": "{g}组",
        "match_no": "第{n}场",
        "knockout": "淘汰赛",
        "group_stage": "小组赛",
        "placement": "排位赛",
        "tbd": "待定",
        "bye": "轮空",
        "vs": "对",
        "champion": "冠军",
        "forfeit": "弃权",
        "dq": "取消资格",
        "draw": "平局",
        "referee": "裁判判定",
        "beat": "胜",
        "level": "打到",
        "tables": "桌",
        "winner_of": "{m}胜者",
        "loser_of": "{m}负者",
        "double_forfeit": "双方弃权",
        "walkover": "轮空晋级",
        "no_champion": "无冠军",
        "nobody": "（无）",
        "swiss_round": "积分编排第{n}轮",
        "swiss": "积分编排",
    },
    "en": {
        "final": "Final",
        "semifinal": "Semi-final",
        "round": "Round {n}",
        "third_place": "3rd place",
        "places": "Places {lo}-{hi}",
        "group": "Group {g}",
        "match_no": "match {n}",
        "knockout": "Knockout",
        "group_stage": "Group stage",
        "placement": "Placement",
        "tbd": "TBD",
        "bye": "bye",
        "vs": "v",
        "champion": "Champion",
        "forfeit": "forfeit",
        "dq": "disqualified",
        "draw": "draw",
        "referee": "referee's decision",
        "beat": "beat",
        "level": "level",
        "tables": "tables",
        "winner_of": "winner of {m}",
        "loser_of": "loser of {m}",
        "double_forfeit": "double forfeit",
        "walkover": "walkover",
        "no_champion": "no champion",
        "nobody": "(nobody)",
        "swiss_round": "Swiss round {n}",
        "swiss": "Swiss rounds",
    },
}

DECIDED_BY: dict[str, tuple[str, str]] = {
    "tables": ("桌数", "tables won"),
    "level_difference": ("级差", "level difference"),
    "table_1": ("第1桌结果", "table 1"),
    "draw": ("平局", "draw"),
    "forfeit": ("弃权", "forfeit"),
    "disqualification": ("取消资格", "disqualification"),
    "referee": ("裁判判定", "referee"),
    "duplicate": ("复式比较", "duplicate comparison"),
}

# how a game decided a pair match on equal levels (the engine result's tie-break, see bot/tournaments/results.py)
TIE_BREAK_SHORT = {
    "dealer_side": ("台上方胜", "dealing side wins"),
    "cut": ("搬点决胜", "decided by a cut"),
    "last_upstream": ("末副上游方胜", "first out in the last deal wins"),
}

OUTCOMES: dict[str, tuple[str, str]] = {
    "played": ("完赛", "played"),
    "forfeit": ("弃权", "forfeit"),
    "double_forfeit": ("双方弃权", "double forfeit"),
    "disqualified": ("取消资格", "disqualified"),
    "draw": ("平局", "draw"),
    "referee": ("裁判判定", "referee"),
}

# The order prizes are announced in (best first).
PRIZE_ORDER = ("champion", "representative", "first", "second", "third", "souvenir")

_GROUP_ID = re.compile(r"^([A-Z]+)-R(\d+)-M(\d+)$")
_MAIN_ID = re.compile(r"^R(\d+)-M(\d+)$")
_PLACE_ID = re.compile(r"^P(\d+)-(\d+)-M(\d+)$")
_SWISS_ID = re.compile(r"^S(\d+)-M(\d+)$")


def check_lang(lang: str) -> str:
    return lang if lang in LANGS else "zh"


def w(lang: str, key: str, **params: object) -> str:
    return WORDS[check_lang(lang)][key].format(**params)


def prize_name(prize: str, lang: str) -> str:
    """Display name of a prize key (``first`` -> 一等奖 / First prize); unknown keys as they are."""
    if not prize:
        return ""
    zh, en = PRIZE_LABELS.get(prize, (prize, prize))
    return zh if check_lang(lang) == "zh" else en


def prize_rank(prize: str) -> int:
    return PRIZE_ORDER.index(prize) if prize in PRIZE_ORDER else len(PRIZE_ORDER)


def round_title(rnd: int, rounds: int, lang: str) -> str:
    """第1轮 ... 半决赛, 决赛 / Round 1 ... Semi-final, Final (a main-bracket round)."""
    left = rounds - rnd
    if left == 0:
        return w(lang, "final")
    if left == 1:
        return w(lang, "semifinal")
    return w(lang, "round", n=rnd)


def placement_title(lo: int, hi: int, lang: str) -> str:
    if (lo, hi) == (3, 4):
        return w(lang, "third_place")
    return w(lang, "places", lo=lo, hi=hi)


def tier_of(match_id: str) -> tuple[int, int] | None:
    """The places a placement match decides: ``P5-8-M1`` -> (5, 8)."""
    m = _PLACE_ID.match(match_id)
    return (int(m.group(1)), int(m.group(2))) if m else None


def match_title(t: Tournament, match_id: str, lang: str) -> str:
    """A short title: ``A组 第1轮`` / ``半决赛 第2场`` / ``决赛`` / ``三四名决赛`` / ``第5-8名排位赛 第1场``."""
    m = _GROUP_ID.match(match_id)
    if m:
        return f"{w(lang, 'group', g=m.group(1))} {w(lang, 'round', n=int(m.group(2)))}"
    m = _SWISS_ID.match(match_id)
    if m:
        return f"{w(lang, 'swiss_round', n=int(m.group(1)))} {w(lang, 'match_no', n=int(m.group(2)))}"
    rounds = t.bracket.rounds if t.bracket is not None else 0
    m = _MAIN_ID.match(match_id)
    if m:
        rnd, index = int(m.group(1)), int(m.group(2))
        title = round_title(rnd, rounds, lang)
        if rounds and rnd < rounds:
            title += " " + w(lang, "match_no", n=index)
        return title
    m = _PLACE_ID.match(match_id)
    if m:
        lo, hi, index = int(m.group(1)), int(m.group(2)), int(m.group(3))
        title = placement_title(lo, hi, lang)
        if hi - lo + 1 > 2:
            title += " " + w(lang, "match_no", n=index)
        return title
    return match_id


def level_text(level: int | None) -> str:
    """A level 2..14 as a rank: 2..10, J, Q, K, A."""
    if level is None:
        return "-"
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(level, str(level))


def entry_names(t: Tournament) -> dict[str, Entry]:
    return {e.id: e for e in t.entries}


def entry_name(t: Tournament, entry_id: str | None, lang: str, empty: str = "tbd") -> str:
    if entry_id is None:
        return w(lang, empty)
    e = entry_names(t).get(entry_id)
    return e.name if e is not None else entry_id


def players_text(entry: Entry, player_names: Mapping[str, str] | None = None, sep: str = "、") -> str:
    """Players in table order; a team's pairs as ``甲/乙、丙/丁``."""
    names = [(player_names or {}).get(p, p) for p in entry.players]
    pairs = ["/".join(names[i : i + 2]) for i in range(0, len(names), 2)]
    return sep.join(pairs)


def side_scores(result: PairingResult | None, lang: str, team: bool) -> tuple[str, str]:
    """What each side shows next to its name: the level reached (pairs), tables won (teams),
    or forfeit / disqualified; ("", "") while there is no result."""
    if result is None:
        return "", ""
    marks = {"a": "", "b": ""}
    if result.outcome == "double_forfeit":
        return w(lang, "forfeit"), w(lang, "forfeit")
    if result.outcome in ("forfeit", "disqualified"):
        loser = result.loser
        if loser is not None:
            marks[loser] = w(lang, "forfeit" if result.outcome == "forfeit" else "dq")
        if not team or result.outcome == "disqualified" or all(tr.absent is not None for tr in result.tables):
            return marks["a"], marks["b"]
    if team and result.tables:
        return str(result.tables_won("a")), str(result.tables_won("b"))
    if result.tables:
        tr = result.tables[0]
        if tr.level_a is not None or tr.level_b is not None:
            return level_text(tr.level_a), level_text(tr.level_b)
    if result.outcome == "draw":
        return w(lang, "draw"), w(lang, "draw")
    if result.winner is not None:
        marks[result.winner] = "✓"
    return marks["a"], marks["b"]


def score_line(result: PairingResult | None, lang: str, team: bool) -> str:
    """``A : 10`` (pairs: levels reached), ``2 : 1`` (teams: tables), ``弃权`` ...; "" without a result."""
    if result is None:
        return ""
    if result.outcome == "double_forfeit":
        return w(lang, "double_forfeit")
    a, b = side_scores(result, lang, team)
    if not result.tables and result.outcome in ("referee", "draw"):
        return OUTCOMES[result.outcome][0 if check_lang(lang) == "zh" else 1]
    if result.outcome in ("forfeit", "disqualified") and not (a.isdigit() and b.isdigit()):
        return OUTCOMES[result.outcome][0 if check_lang(lang) == "zh" else 1]
    text = f"{a or '-'} : {b or '-'}"
    note = decided_note(result, lang, team)
    return f"{text} ({note})" if note else text


def decided_note(result: PairingResult | None, lang: str, team: bool) -> str:
    """What decided a level match: a team match on level difference or table 1 (级差 / 第1桌结果), a pair
    match on equal levels by the game's tie-break (台上方胜 / 搬点决胜 / 末副上游方胜); else ""."""
    if result is None or result.winner is None:
        return ""
    i = 0 if check_lang(lang) == "zh" else 1
    if team and result.decided_by in ("level_difference", "table_1"):
        return DECIDED_BY[result.decided_by][i]
    if (
        not team
        and result.tables
        and result.tables[0].level_a is not None
        and result.tables[0].level_a == result.tables[0].level_b
        and result.extra.get("tie_break") in TIE_BREAK_SHORT
    ):
        return TIE_BREAK_SHORT[str(result.extra["tie_break"])][i]
    return ""


def table_details(result: PairingResult | None, lang: str) -> str:
    """Per table: ``桌1 A:10; 桌2 弃权(乙)`` (team matches; also for pairs, one table)."""
    if result is None:
        return ""
    zh = check_lang(lang) == "zh"
    parts = []
    for tr in result.tables:
        head = f"桌{tr.table}" if zh else f"T{tr.table}"
        if tr.absent == "both":
            body = w(lang, "double_forfeit")
        elif tr.absent is not None:
            side = ("甲" if tr.absent == "a" else "乙") if zh else tr.absent.upper()
            body = f"{w(lang, 'forfeit')}({side})"
        elif tr.level_a is not None or tr.level_b is not None:
            body = f"{level_text(tr.level_a)}:{level_text(tr.level_b)}"
        else:
            body = ("甲胜" if tr.winner == "a" else "乙胜") if zh else f"{str(tr.winner).upper()} won"
        parts.append(f"{head} {body}")
    return "; ".join(parts)
