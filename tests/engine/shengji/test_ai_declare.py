"""The strong Shengji player's searched declarations and overturns: legal, and blind to the cards its seat
cannot see (the others' hands, the kitty, the cards still to be dealt)."""

from __future__ import annotations

import copy
import random

import pytest

from engine.registry import load_preset
from engine.shengji import ai_declare, ai_strong
from engine.shengji import deal as dealmod
from engine.shengji.ai import ai_step, choose_action
from engine.shengji.game import ShengjiMatch

PRESETS = ["shengji-17-deals", "shengji-timed-2h", "shengji-50min"]


def _declare_positions(preset: str, seeds: range) -> list[tuple[ShengjiMatch, int]]:
    """Computer-played first deals, copied wherever the strong player searches a declaration of a seat."""
    out = []
    opts = load_preset(preset).rules
    for seed in seeds:
        m = ShengjiMatch(opts, seed)
        rng = random.Random(seed)
        while m.phase not in ("play", "deal_over", "match_over", "paused"):
            for seat in range(4):
                if ai_declare.is_decision(m, seat) and ai_declare.searched_now(
                    ai_declare.declare_information(m, seat)
                ):
                    out.append((copy.deepcopy(m), seat))
            m.apply(ai_step(m, rng) or "sys resume")
    return out


def _reshuffle(m: ShengjiMatch, seat: int, rng: random.Random) -> ShengjiMatch:
    """``m`` with the cards ``seat`` cannot see swapped around: between the other hands (never a card a seat
    showed in a declaration), the kitty (unless ``seat`` buried it) and the cards still to be dealt."""
    other = copy.deepcopy(m)
    shown = ai_declare.declare_information(m, seat).shown
    pre_play = m.phase in ("dealing", "window", "blackout")
    # a place: (hand seat or None, list, index); the deck holds the kitty and the cards to come before the play
    places: list[tuple[int | None, list[int], int]] = []
    for s in range(4):
        if s != seat:
            places += [(s, other.hands[s], i) for i in range(len(other.hands[s]))]
    if pre_play:
        turn = m.options.board_turn
        future = [dealmod.board_index(m.first_drawer, i, turn) for i in range(m.draws, dealmod.DRAWS)]
        places += [(None, other.deck, p) for p in [*future, *range(dealmod.DRAWS, len(other.deck))]]
    elif m.burier != seat:
        places += [(None, other.kitty, i) for i in range(len(other.kitty))]
    for _ in range(400):
        (sa, a, i), (sb, b, j) = rng.sample(places, 2)
        if (sa is not None and a[i] in shown[sa]) or (sb is not None and b[j] in shown[sb]):
            continue
        a[i], b[j] = b[j], a[i]
    if pre_play:
        # the hands' cards were dealt from the deck: keep the deck telling the same story
        taken = [0, 0, 0, 0]
        for index in range(m.draws):
            s = dealmod.drawer(m.first_drawer, index)
            other.deck[dealmod.board_index(m.first_drawer, index, m.options.board_turn)] = other.hands[s][
                taken[s]
            ]
            taken[s] += 1
        other.kitty = other.deck[dealmod.DRAWS :]
    return other


def test_declare_information_holds_only_the_seats_cards() -> None:
    positions = _declare_positions("shengji-17-deals", range(4))
    assert len(positions) >= 4
    for m, seat in positions:
        info = ai_declare.declare_information(m, seat)
        assert list(info.hand) == m.hands[seat]
        hidden = [c for s in range(4) if s != seat for c in m.hands[s]]
        if m.phase in ("dealing", "window", "blackout"):
            hidden += [
                m.deck[dealmod.board_index(m.first_drawer, i, m.options.board_turn)]
                for i in range(m.draws, dealmod.DRAWS)
            ]
        if info.kitty is None:
            hidden += m.kitty if m.phase == "late" else m.deck[dealmod.DRAWS :]
        assert sorted(info.unseen()) == sorted(hidden)
        for s in range(4):
            assert all(c in m.hands[s] for c in info.shown[s])  # shown cards are still held


@pytest.mark.parametrize("preset", PRESETS)
def test_declaring_is_the_same_when_hidden_cards_are_reshuffled(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ai_declare, "CPU_LIMIT", None)  # the choice must not depend on the machine's speed
    rng = random.Random(31)
    positions = _declare_positions(preset, range(4))[::2]
    assert len(positions) >= 3
    for m, seat in positions:
        other = _reshuffle(m, seat, rng)
        assert other.hands != m.hands or other.deck != m.deck  # the reshuffle really moved hidden cards
        assert ai_declare.declare_information(other, seat) == ai_declare.declare_information(m, seat)
        info = ai_declare.declare_information(m, seat)
        here = ai_declare.choose_declare(info, 8)
        assert ai_declare.choose_declare(ai_declare.declare_information(other, seat), 8) == here
        # and through the player itself
        assert ai_strong.choose_action(other, seat, random.Random(2)) == ai_strong.choose_action(
            m, seat, random.Random(2)
        )


@pytest.mark.parametrize("preset", PRESETS)
def test_every_declare_candidate_is_a_legal_action(preset: str) -> None:
    """Each candidate is accepted by the rules (an empty one waits); the baseline's action comes first."""
    n = 0
    for m, seat in _declare_positions(preset, range(10)):
        info = ai_declare.declare_information(m, seat)
        world = ai_declare.sample_world(info, random.Random(n))
        cands = ai_declare.candidates(info, world)
        base = choose_action(m, seat, random.Random(0)) or ""
        assert cands[0] == base
        for a in cands:
            if a:
                copy.deepcopy(m).apply(a)
                n += 1
    assert n >= 30


@pytest.mark.parametrize("preset", PRESETS)
def test_sampled_worlds_fit_the_declare_information(preset: str) -> None:
    """A world gives every seat its hand size and its shown cards, deals the unseen cards exactly once, and
    its deck deals the cards the hands already hold at their draws."""
    rng = random.Random(6)
    for m, seat in _declare_positions(preset, range(3)):
        info = ai_declare.declare_information(m, seat)
        world = ai_declare.sample_world(info, rng)
        assert world.hands[seat] == m.hands[seat]
        for s in range(4):
            assert len(world.hands[s]) == len(m.hands[s])
            assert all(c in world.hands[s] for c in info.shown[s])
        assert ai_declare.declare_information(world, seat) == info
        if m.phase in ("dealing", "window", "blackout"):
            assert sorted(world.deck) == sorted(m.deck)
            assert world.kitty == world.deck[dealmod.DRAWS :]


def test_the_search_is_deterministic_and_a_smaller_effort_plays_fewer_worlds() -> None:
    m, seat = _declare_positions("shengji-17-deals", range(3))[0]
    info = ai_declare.declare_information(m, seat)
    cands, full = ai_declare.declare_play_outs(info, 9)
    assert ai_declare.declare_play_outs(info, 9) == (cands, full)
    if len(cands) > 1:
        _, quarter = ai_declare.declare_play_outs(info, 9, effort=0.25)
        assert 2 <= len(quarter[0]) < len(full[0])


def test_the_bots_question_carries_only_the_declare_information_and_answers_the_same() -> None:
    """The bot sends a worker the seat's declaration information (no other hand) and gets the searched action."""
    from engine.ai.strong import answer, question

    positions = _declare_positions("shengji-17-deals", range(2))
    assert positions
    for m, seat in positions[:3]:
        q = question(m, seat, 5)
        assert q is not None and q.info == ai_declare.declare_information(m, seat)
        assert answer(q, cpu_limit=False) == (ai_declare.choose_declare(q.info, 5) or "")
