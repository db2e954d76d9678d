"""The strong Guandan player: legal, and blind to every card its seat cannot see."""

from __future__ import annotations

import copy
import random

import pytest

from engine.ai.levels import player_for
from engine.game import computer_step
from engine.guandan import ai_strong
from engine.guandan.game import GuandanMatch
from engine.guandan.information import information, sample_hands
from engine.registry import load_preset


def _positions(seeds: range, per_deal: int = 4, deals: int = 2) -> list[GuandanMatch]:
    """Play positions copied at random moments of computer-played deals (deal 2 on: after tribute)."""
    out = []
    opts = load_preset("guandan-team").rules
    for seed in seeds:
        m = GuandanMatch(opts, seed)
        rng = random.Random(seed)
        while len(m.history) < deals and not m.finished:
            keep = set(rng.sample(range(60), per_deal))
            k = 0
            m.apply("sys next_deal")
            while m.phase in ("tribute", "return", "play"):
                if m.phase == "play":
                    if k in keep:
                        out.append(copy.deepcopy(m))
                    k += 1
                step = computer_step(m, rng)
                assert step is not None
                m.apply(step)
    return out


def _reshuffle(m: GuandanMatch, seat: int, rng: random.Random) -> GuandanMatch:
    """``m`` with the other seats' cards swapped around between them, keeping each hand's size and every
    card a seat is known to hold (a tribute card, a returned card)."""
    other = copy.deepcopy(m)
    info = information(m, seat)
    seats = [s for s in range(4) if s != seat and other.hands[s]]
    if len(seats) < 2:
        return other
    for _ in range(200):
        a, b = rng.sample(seats, 2)
        x, y = rng.choice(other.hands[a]), rng.choice(other.hands[b])
        if x in info.known[a] or y in info.known[b]:
            continue
        other.hands[a].remove(x)
        other.hands[b].remove(y)
        other.hands[a].append(y)
        other.hands[b].append(x)
    for s in seats:
        other.hands[s].sort()
    return other


def test_information_holds_no_hidden_card() -> None:
    for m in _positions(range(3)):
        assert m.play is not None
        seat = m.play.turn
        info = information(m, seat)
        assert sorted(info.hand) == sorted(m.hands[seat])
        assert sorted(info.unseen()) == sorted(c for s in range(4) if s != seat for c in m.hands[s])


def test_tribute_cards_are_known_to_be_held() -> None:
    """After tribute the receiver is known to hold the paid card, unless it played one like it since."""
    found = 0
    for m in _positions(range(8), per_deal=2):
        assert m.play is not None
        seat = m.play.turn
        info = information(m, seat)
        for s in range(4):
            for c in info.known[s]:
                assert c in m.hands[s]
                found += 1
    assert found > 0


def test_choice_is_the_same_when_hidden_hands_are_reshuffled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_strong, "BUDGET", 400)
    monkeypatch.setattr(ai_strong, "MIN_WORLDS", 3)
    rng = random.Random(19)
    positions = _positions(range(5), per_deal=2)
    changed = 0
    for m in positions:
        assert m.play is not None
        seat = m.play.turn
        other = _reshuffle(m, seat, rng)
        changed += other.hands != m.hands
        assert information(other, seat) == information(m, seat)
        assert ai_strong.choose_action(other, seat, random.Random(5)) == ai_strong.choose_action(
            m, seat, random.Random(5)
        )
    assert changed >= len(positions) - 2


def test_sampled_worlds_fit_the_information() -> None:
    rng = random.Random(3)
    for m in _positions(range(6)):
        assert m.play is not None
        seat = m.play.turn
        info = information(m, seat)
        for _ in range(3):
            hands = sample_hands(info, rng)
            assert hands[seat] == list(info.hand)
            assert tuple(len(h) for h in hands) == info.counts
            assert sorted(c for s in range(4) if s != seat for c in hands[s]) == sorted(info.unseen())
            for s in range(4):
                for c in info.known[s]:
                    assert c in hands[s]


def test_every_candidate_is_legal() -> None:
    n = 0
    for m in _positions(range(10), per_deal=8):
        assert m.play is not None
        seat = m.play.turn
        info = information(m, seat)
        for cand in ai_strong.candidates(info):
            action = f"{seat} pass" if cand is None else m.play_text(seat, cand)
            assert ai_strong.action_text(info, cand) == action  # what a worker answers, from the information
            copy.deepcopy(m).apply(action)
            n += 1
    assert n > 300


def test_strong_players_finish_deals_with_legal_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai_strong, "BUDGET", 100)
    monkeypatch.setattr(ai_strong, "MIN_WORLDS", 2)
    strong = player_for("guandan", "strong")
    m = GuandanMatch(load_preset("guandan-team").rules, 77)
    rng = random.Random(77)
    while not m.history:
        turns = m.turns()
        action = strong(m, turns[0].seat, rng) if turns else m.system_step()
        assert action is not None
        m.apply(action)
    assert m.history[0]["deal_no"] == 1 and len(m.history[0]["order"]) >= 2


def test_a_smaller_effort_plays_fewer_worlds() -> None:
    """The bot's workers under load ask for a quicker search: fewer worlds (at least two), a legal choice."""
    for m in _positions(range(3), per_deal=2, deals=1):
        assert m.play is not None
        seat = m.play.turn
        info = information(m, seat)
        cands, full = ai_strong.play_outs(info, 4, budget=3_000)
        if len(cands) == 1:
            continue
        _, quarter = ai_strong.play_outs(info, 4, budget=3_000, effort=0.25)
        assert 2 <= len(quarter[0]) < len(full[0])
        combo = ai_strong.choose_play(info, 4, budget=3_000, effort=0.25)
        copy.deepcopy(m).apply(ai_strong.action_text(info, combo))
