"""Terminal replay of one computer-played Shengji deal (``python -m bot.devtools.demo --replay shengji``).

Prints the bidding, the dealer and trump, the four hands after burying, then one block per trick
(every seat's play, the winner, the points) and the deal's result.  Chinese by default; English
when ``lang == "en"`` or ``LANG`` starts with ``en``.
"""

from __future__ import annotations

import os
import random
from typing import Any

from engine.cards import cards_text
from engine.registry import load_preset
from engine.shengji.ai import ai_step
from engine.shengji.game import ShengjiMatch

SEATS = {"zh": ("南", "东", "北", "西"), "en": ("South", "East", "North", "West")}
SUITS = {"zh": ("黑桃", "红桃", "梅花", "方片"), "en": ("spades", "hearts", "clubs", "diamonds")}
TEXT: dict[str, dict[str, Any]] = {  # templates (str) and seat or side names (tuples)
    "zh": {
        "title": "双升 · 电脑对局回放 · 种子 {seed} · {preset}",
        "first": "先抓牌: {seat}",
        "bid": "{seat} 亮主 {cards}",
        "overturn": "{seat} 反主 {cards}",
        "redeal": "无人亮主, 重新发牌",
        "trump": "庄家 {seat} · 打 {level} · 主: {trump}",
        "no_trump": "无主",
        "hand": "{seat} ({n}): {cards}",
        "trick": "第 {no} 墩",
        "play": "  {seat:<2} {cards}",
        "winner": "  → {seat} 赢 · {points} 分 · 闲家累计 {total}",
        "failed": "  甩牌失败: {seat} 罚 {points} 分",
        "capture": "闲家抠底: 底牌 {kitty} × {mult} = {points} 分",
        "kitty": "底牌: {kitty}",
        "result": "闲家共 {points} 分 → {who} · 级数 南北 {l0} · 东西 {l1}",
        "dealer_up": "庄家方升 {n} 级",
        "takeover": "闲家上台",
        "def_up": "闲家上台并升 {n} 级",
        "sides": ("南北", "东西"),
    },
    "en": {
        "title": "Shengji · computer-played replay · seed {seed} · {preset}",
        "first": "First to draw: {seat}",
        "bid": "{seat} declares {cards}",
        "overturn": "{seat} overturns with {cards}",
        "redeal": "Nobody declared: redeal",
        "trump": "Dealer {seat} · level {level} · trump: {trump}",
        "no_trump": "no trump",
        "hand": "{seat} ({n}): {cards}",
        "trick": "Trick {no}",
        "play": "  {seat:<6} {cards}",
        "winner": "  → {seat} wins · {points} points · defenders {total}",
        "failed": "  Failed throw: {seat} charged {points}",
        "capture": "Defenders capture the kitty: {kitty} × {mult} = {points}",
        "kitty": "Kitty: {kitty}",
        "result": "Defenders {points} points → {who} · levels N/S {l0} · E/W {l1}",
        "dealer_up": "dealer side up {n}",
        "takeover": "defenders take over",
        "def_up": "defenders take over and go up {n}",
        "sides": ("N/S", "E/W"),
    },
}
RANKS = {11: "J", 12: "Q", 13: "K", 14: "A"}


def _lang(lang: str | None) -> str:
    if lang in ("zh", "en"):
        return lang
    return "en" if os.environ.get("LANG", "").lower().startswith("en") else "zh"


def replay_lines(seed: int, lang: str | None = None, preset: str = "shengji-17-deals") -> list[str]:
    """The replay of one computer-played deal as lines of text."""
    lg = _lang(lang)
    t = TEXT[lg]
    seats = SEATS[lg]
    m = ShengjiMatch(load_preset(preset).rules, seed)
    rng = random.Random(seed)
    out = [t["title"].format(seed=seed, preset=preset), t["first"].format(seat=seats[m.first_drawer])]
    while m.phase not in ("play", "deal_over", "match_over"):
        action = ai_step(m, rng)
        assert action is not None
        for ev in m.apply(action):
            if ev.kind in ("bid", "overturn"):
                key = (
                    "overturn"
                    if ev.kind == "overturn" or ev.data.get("kind") in ("overturn", "public")
                    else "bid"
                )
                out.append(t[key].format(seat=seats[ev.data["seat"]], cards=ev.data["cards"]))
            elif ev.kind == "redeal":
                out.append(t["redeal"])
                out.append(t["first"].format(seat=seats[m.first_drawer]))
    assert m.ctx is not None and m.dealer is not None
    trump = t["no_trump"] if m.trump_suit is None else SUITS[lg][m.trump_suit]
    level = m.level or 2
    out.append(t["trump"].format(seat=seats[m.dealer], level=RANKS.get(level, str(level)), trump=trump))
    for s in range(4):
        out.append(
            t["hand"].format(
                seat=seats[s], n=len(m.hands[s]), cards=cards_text(m.ctx.sort_for_display(m.hands[s]))
            )
        )
    total = 0
    trick_no = 0
    lines: list[str] = []
    while m.phase == "play" or m.phase == "choose":
        action = ai_step(m, rng)
        assert action is not None
        for ev in m.apply(action):
            if ev.kind == "throw_failed":
                lines.append(t["failed"].format(seat=seats[ev.data["seat"]], points=ev.data["penalty"]))
            elif ev.kind == "play":
                lines.append(t["play"].format(seat=seats[ev.data["seat"]], cards=ev.data["cards"]))
            elif ev.kind == "trick":
                trick_no += 1
                if ev.data["defenders"]:
                    total += ev.data["points"]
                out.append(t["trick"].format(no=trick_no))
                out.extend(lines)
                lines = []
                out.append(
                    t["winner"].format(seat=seats[ev.data["winner"]], points=ev.data["points"], total=total)
                )
    last = m.history[-1]
    out.append(t["kitty"].format(kitty=last["kitty"]))
    if last["capture"]:
        kitty_points = last["capture"] // max(1, last["capture_multiplier"])
        out.append(
            t["capture"].format(kitty=kitty_points, mult=last["capture_multiplier"], points=last["capture"])
        )
    if last["winner_role"] == "dealer":
        who = t["dealer_up"].format(n=last["steps"])
    elif last["steps"]:
        who = t["def_up"].format(n=last["steps"])
    else:
        who = t["takeover"]
    l0, l1 = last["levels_after"]
    out.append(
        t["result"].format(
            points=last["points"], who=who, l0=RANKS.get(l0, str(l0)), l1=RANKS.get(l1, str(l1))
        )
    )
    return out


def print_replay(seed: int, lang: str | None = None) -> None:
    """Print a full computer-played Shengji deal as a text table, per trick."""
    for line in replay_lines(seed, lang):
        print(line)
