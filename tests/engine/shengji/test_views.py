"""Views: a seat sees its own hand, the public table and its bid options; nobody sees hidden cards (docs/rules.md 1.4)."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

from engine.cards import Card, parse_cards
from engine.registry import load_preset
from engine.shengji.ai import ai_step, random_legal_action
from engine.shengji.game import ShengjiMatch

_CARD_RE = re.compile(r"^(?:[♠♥♣♦](?:10|[2-9JQKA])|SJ|BJ)$")
_SKIP = {"last_deal", "result"}  # finished deals only: their kitty is public by then


def card_tokens(view: Any) -> Iterator[str]:
    """Every canonical card text inside a view (except finished-deal summaries)."""
    if isinstance(view, dict):
        for k, v in view.items():
            if k not in _SKIP:
                yield from card_tokens(v)
    elif isinstance(view, list):
        for v in view:
            yield from card_tokens(v)
    elif isinstance(view, str):
        for tok in view.split():
            if _CARD_RE.match(tok):
                yield tok


def public_kinds(m: ShengjiMatch) -> set[Card]:
    """Card kinds shown face up in the deal in progress: bids, turned kitty cards, plays, attempted throws."""
    shown: set[Card] = set()
    for b in m.bids:
        shown.update(parse_cards(b["cards"]))
    shown.update(m.turned)
    for t in m.tricks:
        for _, cards in t["plays"]:
            shown.update(parse_cards(cards))
    for _, cards in m.trick:
        shown.update(cards)
    for c in m.charges:
        shown.update(parse_cards(c["cards"]))
    return shown


def assert_no_leak(m: ShengjiMatch) -> None:
    """public_view shows no hidden card; seat_view adds only the seat's own hand and the kitty it buried."""
    pub = public_kinds(m)
    json.dumps(m.public_view())
    for tok in card_tokens(m.public_view()):
        assert parse_cards(tok)[0] in pub, f"public view leaks {tok} in phase {m.phase}"
    for seat in range(4):
        view = m.seat_view(seat)
        json.dumps(view)
        allowed = pub | set(m.hands[seat])
        if m.burier == seat and m.phase in ("late", "rebury", "play", "choose"):
            allowed |= set(m.kitty)
        for tok in card_tokens(view):
            assert parse_cards(tok)[0] in allowed, f"seat {seat} view leaks {tok} in phase {m.phase}"
        if "kitty" in view:
            assert m.burier == seat


def test_rules_1_4_views_never_leak_during_a_computer_match() -> None:
    for preset in ("shengji-17-deals", "shengji-timed-2h", "shengji-50min"):
        m = ShengjiMatch(load_preset(preset).with_overrides({"deals": 2}).rules, 3)
        rng = random.Random(3)
        n = 0
        while not m.finished:
            if n % 7 == 0 or m.phase not in ("dealing", "play"):
                assert_no_leak(m)
            step = ai_step(m, rng)
            assert step is not None
            m.apply(step)
            n += 1
        assert_no_leak(m)


def test_seat_view_hand_is_display_sorted_trumps_first() -> None:
    m = ShengjiMatch(load_preset("shengji-17-deals").rules, 4)
    rng = random.Random(1)
    while m.phase != "play":
        m.apply(ai_step(m, rng) or "")
    assert m.ctx is not None
    for seat in range(4):
        hand = parse_cards(" ".join(m.seat_view(seat)["hand"]))
        assert hand == m.ctx.sort_for_display(m.hands[seat])
        trumps = [m.ctx.is_trump(c) for c in hand]
        assert trumps == sorted(trumps, reverse=True)


def test_seat_view_lists_legal_bid_options() -> None:
    m = ShengjiMatch(load_preset("shengji-17-deals").rules, 4)
    rng = random.Random(5)
    seen = False
    while m.phase == "dealing":
        for seat in range(4):
            opts = m.seat_view(seat)["legal_bids"]
            if opts:
                seen = True
                m2 = ShengjiMatch(m.options, m.seed)
                for a in m.log:
                    m2.apply(a)
                m2.apply(f"{seat} bid {opts[0]}")  # every offered option is accepted
        m.apply(random_legal_action(m, rng) or "")
    assert seen


def test_public_view_shows_the_kitty_only_after_the_deal() -> None:
    m = ShengjiMatch(load_preset("shengji-17-deals").rules, 6)
    rng = random.Random(1)
    while m.phase != "deal_over":
        m.apply(ai_step(m, rng) or "")
    last = m.public_view()["table"]["last_deal"]
    assert len(parse_cards(last["kitty"])) == 8
    assert parse_cards(last["kitty"]) == m.kitty


def test_public_table_fields() -> None:
    m = ShengjiMatch(load_preset("shengji-timed-2h").rules, 6)
    t = m.public_view()["table"]
    for key in (
        "levels",
        "dealer",
        "trump",
        "declaration",
        "trick",
        "points",
        "turns",
        "phase",
        "deal",
        "cards_dealt",
    ):
        assert key in t
    assert "hand" not in m.public_view()


def test_the_table_names_the_seat_winning_the_trick_so_far_and_it_takes_the_trick() -> None:
    """``winning`` (the page marks that card): the leader after one play; after the third play, the
    trick's winner unless the fourth play takes it; not always the leader."""
    m = ShengjiMatch(load_preset("shengji-17-deals").rules, 7)
    rng = random.Random(7)
    overtaken = 0
    while len(m.tricks) < 12:
        before = m.public_view()["table"]
        m.apply(ai_step(m, rng) or "")
        after = m.public_view()["table"]
        if after["trick"]:
            w = after["winning"]
            assert w in [p["seat"] for p in after["trick"]]
            if len(after["trick"]) == 1:
                assert w == after["trick"][0]["seat"]
            overtaken += w != after["trick"][0]["seat"]
        else:
            assert after["winning"] is None
            if len(before["trick"]) == 3:  # the fourth card completed it
                last = after["last_trick"]
                fourth = last["plays"][3][0]
                assert last["winner"] in (before["winning"], fourth)
                if last["winner"] != fourth:
                    assert last["winner"] == before["winning"]
    assert overtaken


def test_the_point_cards_the_defenders_won_add_up_to_their_trick_points() -> None:
    m = ShengjiMatch(load_preset("shengji-17-deals").rules, 6)
    rng = random.Random(1)
    seen = 0
    while m.phase != "deal_over":
        t = m.public_view()["table"]
        if t["phase"] == "play":
            cards = parse_cards(" ".join(t["point_cards"]))
            assert sum({5: 5, 10: 10, 13: 10}[c % 13 + 2] for c in cards) == t["points"]
            seen = max(seen, len(cards))
        m.apply(ai_step(m, rng) or "")
    assert seen
