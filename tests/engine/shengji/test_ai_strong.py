"""The strong Shengji player: legal, and blind to every card its seat cannot see."""

from __future__ import annotations

import copy
import random

import pytest

from engine.ai.levels import play_first_deal, player_for
from engine.registry import load_preset
from engine.shengji import ai_declare, ai_strong
from engine.shengji.ai import ai_step
from engine.shengji.game import ShengjiMatch
from engine.shengji.information import determinize, information, sample_hidden

PRESETS = ["shengji-17-deals", "shengji-timed-2h", "shengji-50min"]


def _positions(preset: str, seeds: range, per_deal: int = 6) -> list[ShengjiMatch]:
    """Play positions (a seat to play) from computer-played first deals, copied at random moments."""
    out = []
    opts = load_preset(preset).rules
    for seed in seeds:
        m = ShengjiMatch(opts, seed)
        rng = random.Random(seed)
        keep = set(rng.sample(range(100), per_deal))
        k = 0
        while not m.history:
            if m.phase == "play":
                if k in keep:
                    out.append(copy.deepcopy(m))
                k += 1
            m.apply(ai_step(m, rng) or "sys resume")
    return out


def _reshuffle(m: ShengjiMatch, seat: int, rng: random.Random) -> ShengjiMatch:
    """``m`` with the cards ``seat`` cannot see swapped around between the other hands (and the kitty, when
    ``seat`` did not bury it) — never into a hand void in the card's group, never a card a seat showed."""
    other = copy.deepcopy(m)
    info = information(m, seat)
    ctx = m.ctx
    assert ctx is not None
    slots: list[tuple[int | None, list[int]]] = [(s, other.hands[s]) for s in range(4) if s != seat]
    if m.burier != seat:
        slots.append((None, other.kitty))
    for _ in range(300):
        (sa, a), (sb, b) = rng.sample(slots, 2)
        if not a or not b:
            continue
        x, y = rng.choice(a), rng.choice(b)
        if (sa is not None and (x in info.shown[sa] or ctx.group_of[y] in info.voids[sa])) or (
            sb is not None and (y in info.shown[sb] or ctx.group_of[x] in info.voids[sb])
        ):
            continue
        a.remove(x)
        b.remove(y)
        a.append(y)
        b.append(x)
    return other


def test_information_holds_no_hidden_card() -> None:
    """The seat's information set lists its own hand, and the kitty only for whoever buried it."""
    for m in _positions("shengji-17-deals", range(3)):
        seat = m.to_play()
        info = information(m, seat)
        assert sorted(info.hand) == sorted(m.hands[seat])
        assert (info.kitty is not None) == (m.burier == seat)
        unseen = sorted(info.unseen())
        hidden = sorted(
            [c for s in range(4) if s != seat for c in m.hands[s]] + ([] if m.burier == seat else m.kitty)
        )
        assert unseen == hidden


@pytest.mark.parametrize("preset", PRESETS)
def test_choice_is_the_same_when_hidden_hands_are_reshuffled(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ai_strong, "BUDGET", 600)
    monkeypatch.setattr(ai_strong, "MIN_WORLDS", 3)
    rng = random.Random(19)
    changed = 0
    positions = _positions(preset, range(4), per_deal=3)
    for m in positions:
        seat = m.to_play()
        other = _reshuffle(m, seat, rng)
        changed += other.hands != m.hands or other.kitty != m.kitty
        assert information(other, seat) == information(m, seat)
        assert ai_strong.choose_action(other, seat, random.Random(5)) == ai_strong.choose_action(
            m, seat, random.Random(5)
        )
    assert changed >= len(positions) - 1  # the reshuffle really moved hidden cards


def test_sampled_worlds_fit_the_information() -> None:
    """Every sampled world keeps the seat's own hand, the sizes, the shown voids and the shown cards."""
    rng = random.Random(3)
    for m in _positions("shengji-17-deals", range(6)):
        seat = m.to_play()
        info = information(m, seat)
        ctx = info.ctx
        for _ in range(5):
            hands, kitty = sample_hidden(info, rng)
            assert hands[seat] == list(info.hand)
            assert [len(h) for h in hands] == list(info.hand_sizes) and len(kitty) == 8
            for s in range(4):
                if s != seat:
                    assert not any(ctx.group_of[c] in info.voids[s] for c in hands[s])
                    for c in info.shown[s]:
                        assert c in hands[s]
            dealt = [c for s in range(4) if s != seat for c in hands[s]]
            assert sorted(dealt + ([] if info.kitty is not None else kitty)) == sorted(info.unseen())


@pytest.mark.parametrize("preset", PRESETS)
def test_every_candidate_is_legal(preset: str) -> None:
    """Whatever the search picks is a legal play: each candidate is accepted by the rules."""
    rng = random.Random(1)
    n = 0
    for m in _positions(preset, range(12), per_deal=20):
        seat = m.to_play()
        info = information(m, seat)
        hands, kitty = sample_hidden(info, rng)
        for cand in ai_strong.candidates(info, determinize(info, hands, kitty), rng):
            copy.deepcopy(m).apply(f"{seat} play " + ai_strong.describe(cand))
            n += 1
    assert n > 500


def test_strong_players_finish_deals_with_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_strong, "BUDGET", 300)
    monkeypatch.setattr(ai_strong, "MIN_WORLDS", 2)
    monkeypatch.setattr(ai_declare, "DECLARE_WORLDS", 3)  # the searched declarations too, quickly
    monkeypatch.setattr(ai_declare, "DECLARE_MIN_WORLDS", 2)
    strong = player_for("shengji", "strong")
    for preset in PRESETS:
        m = ShengjiMatch(load_preset(preset).rules, 77)
        play_first_deal(m, [strong] * 4, random.Random(77))
        assert m.history[0]["deal_no"] == 1
