"""The strong Shengji player's searched bury: legal kitties, blind to the cards the dealer cannot see."""

from __future__ import annotations

import copy
import random

import pytest

from engine.cards import cards_text
from engine.registry import load_preset
from engine.shengji import ai_bury, ai_strong
from engine.shengji.ai import ai_step, choose_bury
from engine.shengji.game import ShengjiMatch

PRESETS = ["shengji-17-deals", "shengji-timed-2h", "shengji-50min"]


def _bury_positions(preset: str, seeds: range) -> list[ShengjiMatch]:
    """Computer-played first deals stopped where the dealer is to bury."""
    out = []
    opts = load_preset(preset).rules
    for seed in seeds:
        m = ShengjiMatch(opts, seed)
        rng = random.Random(seed)
        while m.phase != "bury" and not m.history:
            m.apply(ai_step(m, rng) or "sys resume")
        if m.phase == "bury":
            out.append(m)
    return out


def _reshuffle(m: ShengjiMatch, seat: int, rng: random.Random) -> ShengjiMatch:
    """``m`` with the other three hands' cards swapped around, never a card a seat showed in a declaration."""
    other = copy.deepcopy(m)
    shown = ai_bury.bury_information(m, seat).shown
    others = [s for s in range(4) if s != seat]
    for _ in range(300):
        sa, sb = rng.sample(others, 2)
        a, b = other.hands[sa], other.hands[sb]
        x, y = rng.choice(a), rng.choice(b)
        if x in shown[sa] or y in shown[sb]:
            continue
        a.remove(x)
        b.remove(y)
        a.append(y)
        b.append(x)
    return other


def test_bury_information_holds_only_the_dealers_cards() -> None:
    for m in _bury_positions("shengji-17-deals", range(4)):
        seat = m.dealer
        assert seat is not None
        info = ai_bury.bury_information(m, seat)
        assert sorted(info.hand) == sorted(m.hands[seat]) and len(info.hand) == 33
        assert sorted(info.unseen()) == sorted(c for s in range(4) if s != seat for c in m.hands[s])
        for s in range(4):
            assert all(c in m.hands[s] for c in info.shown[s])  # shown cards are still held
        assert info.shown[seat] == ()


@pytest.mark.parametrize("preset", PRESETS)
def test_bury_is_the_same_when_hidden_hands_are_reshuffled(preset: str) -> None:
    rng = random.Random(23)
    positions = _bury_positions(preset, range(5))
    assert len(positions) >= 4
    for m in positions:
        seat = m.dealer
        assert seat is not None
        other = _reshuffle(m, seat, rng)
        assert other.hands != m.hands  # the reshuffle really moved hidden cards
        assert ai_bury.bury_information(other, seat) == ai_bury.bury_information(m, seat)
        here = ai_strong.choose_action(m, seat, random.Random(4))
        assert ai_strong.choose_action(other, seat, random.Random(4)) == here
        assert here is not None and " bury " in here


@pytest.mark.parametrize("preset", PRESETS)
def test_every_bury_candidate_is_a_legal_kitty(preset: str) -> None:
    """Each candidate is 8 of the dealer's cards, accepted by the rules; the baseline's kitty comes first."""
    n = 0
    for m in _bury_positions(preset, range(10)):
        seat = m.dealer
        assert seat is not None and m.ctx is not None
        info = ai_bury.bury_information(m, seat)
        cands = ai_bury.bury_candidates(info.ctx, info.hand)
        assert cands[0] == tuple(sorted(choose_bury(m.ctx, m.hands[seat])))
        assert len(cands) >= 2
        for k in cands:
            copy.deepcopy(m).apply(f"{seat} bury {cards_text(k)}")
            n += 1
    assert n >= 20


def test_sampled_worlds_give_the_others_their_shown_cards() -> None:
    rng = random.Random(5)
    for m in _bury_positions("shengji-17-deals", range(6)):
        seat = m.dealer
        assert seat is not None
        info = ai_bury.bury_information(m, seat)
        for _ in range(5):
            hands = ai_bury.sample_others(info, rng)
            assert hands[seat] == []
            assert sorted(c for h in hands for c in h) == sorted(info.unseen())
            for s in range(4):
                if s != seat:
                    assert len(hands[s]) == info.hand_sizes[s]
                    assert all(c in hands[s] for c in info.shown[s])


def test_a_smaller_effort_plays_fewer_worlds() -> None:
    """The bot's workers under load ask for a quicker search: fewer worlds, still a comparison."""
    m = _bury_positions("shengji-17-deals", range(3))[0]
    assert m.dealer is not None
    info = ai_bury.bury_information(m, m.dealer)
    _, full = ai_bury.bury_play_outs(info, 9, budget=4_000)
    _, quarter = ai_bury.bury_play_outs(info, 9, budget=4_000, effort=0.25)
    assert 2 <= len(quarter[0]) < len(full[0])
