"""Test set-up shared by the Shengji state-machine tests: deal chosen cards to chosen seats."""

from __future__ import annotations

import random

from engine.cards import Card, full_deck, parse_cards
from engine.shengji.game import ShengjiMatch


def rig(m: ShengjiMatch, want: dict[int, str], kitty: str = "") -> None:
    """The next deal gives seats the named cards (drawn in the first rounds) and the kitty the named cards."""
    pool = full_deck(2)
    hands: dict[int, list[Card]] = {}
    for seat in range(4):
        hands[seat] = parse_cards(want.get(seat, ""))
        for c in hands[seat]:
            pool.remove(c)
    kit = parse_cards(kitty)
    for c in kit:
        pool.remove(c)
    random.Random(7).shuffle(pool)
    for seat in range(4):
        while len(hands[seat]) < 25:
            hands[seat].append(pool.pop())
    kit += pool
    assert len(kit) == 8
    m.deck = [hands[(m.first_drawer + i) % 4][i // 4] for i in range(100)] + kit
    m.kitty = list(kit)
