"""Terminal replay of one computer-played Guandan deal (``python -m bot.devtools.demo --replay guandan``).

Prints the four hands, then every round of play (轮) on one line, the finishing order and the
level change.  Chinese by default; English when ``lang == "en"`` or ``LANG`` starts with ``en``.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from typing import Any

from engine.cards import card_text
from engine.guandan.combos import KIND_NAMES_ZH, Combo
from engine.guandan.game import GuandanMatch
from engine.guandan.levels import level_text
from engine.guandan.options import GuandanOptions
from engine.guandan.ranks import sort_for_display

SEATS = {"zh": ("南", "东", "北", "西"), "en": ("South", "East", "North", "West")}
KIND_NAMES_EN = {
    "single": "single",
    "pair": "pair",
    "triple": "triple",
    "full_house": "full house",
    "straight": "straight",
    "tube": "tube",
    "plate": "plate",
    "bomb": "bomb",
    "straight_flush": "straight flush",
    "joker_bomb": "joker bomb",
}
PLACES = {"zh": ("上游", "二游", "三游", "末游"), "en": ("1st", "2nd", "3rd", "last")}
TEXT: dict[str, dict[str, Any]] = {  # templates (str) and seat or side names (tuples)
    "zh": {
        "title": "掼蛋 · 电脑对局回放 · 种子 {seed}",
        "deal": "第 {no} 副 · 打 {level} · 级数 南北 {l0} · 东西 {l1}",
        "hand": "{seat} ({n}): {cards}",
        "leader": "随机抽牌: {seat} 先出",
        "round": "第 {no} 轮",
        "pass": "过",
        "out": "出完 ({place})",
        "jiefeng": "接风",
        "order": "名次: {order}",
        "change": "{side} 升 {gain} 级 → 南北 {l0} · 东西 {l1}",
        "sides": ("南北", "东西"),
    },
    "en": {
        "title": "Guandan · computer-played replay · seed {seed}",
        "deal": "Deal {no} · level {level} · levels N/S {l0} · E/W {l1}",
        "hand": "{seat} ({n}): {cards}",
        "leader": "Random card: {seat} leads",
        "round": "Round {no}",
        "pass": "pass",
        "out": "out ({place})",
        "jiefeng": "jiefeng: partner leads",
        "order": "Finishing order: {order}",
        "change": "{side} go up {gain} → N/S {l0} · E/W {l1}",
        "sides": ("N/S", "E/W"),
    },
}


def _lang(lang: str | None) -> str:
    if lang in ("zh", "en"):
        return lang
    return "en" if os.environ.get("LANG", "").lower().startswith("en") else "zh"


def _play_text(combo: Combo, level: int, lang: str) -> str:
    cards = combo.cards_text()
    if lang == "zh":
        return f"{cards} ({combo.label(level)})"
    return f"{cards} ({KIND_NAMES_EN[combo.kind]})"


def replay_lines(seed: int, lang: str | None = None) -> list[str]:
    """The replay as lines of text (``print_replay`` prints them)."""
    lg = _lang(lang)
    t = TEXT[lg]
    seats = SEATS[lg]
    m = GuandanMatch(GuandanOptions(deals=1), seed)
    m.apply("sys next_deal")
    level = m.deal_level
    hands = [list(h) for h in m.hands]
    assert m.play is not None
    leader = m.play.leader
    rng = random.Random(seed)
    jiefeng_rounds: set[int] = set()
    while m.phase == "play":
        seat = m.turns()[0].seat
        action = m.ai_action(seat, rng)
        assert action is not None
        for ev in m.apply(action):
            if ev.kind == "new_lead" and ev.data.get("jiefeng"):
                assert m.play is not None
                jiefeng_rounds.add(m.play.trick_no)
    out = [
        t["title"].format(seed=seed),
        t["deal"].format(
            no=1,
            level=level_text(level),
            l0=level_text(m.options.start_level),
            l1=level_text(m.options.start_level),
        ),
    ]
    for s in range(4):
        cards = " ".join(card_text(c) for c in sort_for_display(hands[s], level))
        out.append(t["hand"].format(seat=seats[s], n=len(hands[s]), cards=cards))
    out.append(t["leader"].format(seat=seats[leader]))
    left = [len(h) for h in hands]
    places = PLACES[lg]
    finished = 0
    current = 0
    line: list[str] = []

    def flush(add: Callable[[str], None]) -> None:
        if line:
            add("  " + " │ ".join(line))

    for trick, seat, _action, combo in m.plays:
        if trick != current:
            flush(out.append)
            line = []
            current = trick
            head = t["round"].format(no=trick)
            if trick in jiefeng_rounds:
                head += f" ({t['jiefeng']})"
            out.append(head)
        if combo is None:
            line.append(f"{seats[seat]} {t['pass']}")
            continue
        left[seat] -= len(combo.cards)
        text = f"{seats[seat]} {_play_text(combo, level, lg)}"
        if left[seat] == 0:
            text += " " + t["out"].format(place=places[finished])
            finished += 1
        line.append(text)
    flush(out.append)
    summary = m.history[-1]
    order = [s for s in summary["order"]]
    out.append(t["order"].format(order=" > ".join(f"{places[i]} {seats[s]}" for i, s in enumerate(order))))
    levels = summary["levels"]
    out.append(
        t["change"].format(
            side=t["sides"][summary["winner_side"]],
            gain=summary["gain"],
            l0=level_text(levels[0]),
            l1=level_text(levels[1]),
        )
    )
    return out


def print_replay(seed: int, lang: str | None = None) -> None:
    """Print a full computer-played Guandan deal (seed ``seed``) in the terminal."""
    for line in replay_lines(seed, lang):
        print(line)


__all__ = ["print_replay", "replay_lines", "KIND_NAMES_ZH"]
