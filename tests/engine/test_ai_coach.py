"""The coach: notes for the asking seat only, naming only its own cards, on finished deals only."""

from __future__ import annotations

import random

import pytest

from engine.ai import coach, levels
from engine.cards import parse_cards
from engine.registry import load_preset, new_match


def _deal(preset: str, seed: int) -> tuple[str, object, list[str]]:
    """A first deal where seat 0 plays at random (mistakes to find) and the others play the baseline."""
    p = load_preset(preset)
    m = new_match(p.game, p.rules, seed)
    rand, normal = levels.player_for(p.game, "random"), levels.player_for(p.game, "normal")
    levels.play_first_deal(m, [rand, normal, normal, normal], random.Random(seed))
    return p.game, p.rules, list(m.log)


def _hand_at_deal_start(game: str, options: object, seed: int, log: list[str], seat: int) -> list[int]:
    m = new_match(game, options, seed)
    best: list[int] = []
    for action in log:
        m.apply(action)
        if m.phase == "play" and len(m.hands[seat]) >= len(best):
            best = list(m.hands[seat])
    return best


@pytest.mark.parametrize("preset", ["shengji-17-deals", "guandan-team"])
def test_notes_name_only_the_asking_seats_cards(preset: str) -> None:
    seed = 11
    game, options, log = _deal(preset, seed)
    notes = coach.coach_notes(game, options, seed, log, 1, 0, budget=300)
    assert notes, "a random player makes mistakes the coach sees"
    hand = _hand_at_deal_start(game, options, seed, log, 0)
    for n in notes:
        assert n.seat == 0 and n.deal_no == 1 and n.cost > 0 and n.suggested != n.played
        for text in (n.played, n.suggested):
            if text != "pass":
                for c in parse_cards(text):
                    assert c in hand


def test_an_unfinished_deal_gets_no_notes() -> None:
    seed = 12
    game, options, log = _deal("shengji-17-deals", seed)
    with pytest.raises(coach.DealNotFinished):
        coach.coach_notes(game, options, seed, log[:-20], 1, 0, budget=100)
