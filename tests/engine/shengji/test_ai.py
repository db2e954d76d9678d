"""The computer player: always legal, sensible, and a 17-deal computer match replays from its log."""

from __future__ import annotations

import random

import pytest

from engine.cards import parse_cards, points
from engine.registry import load_preset, replay
from engine.shengji.ai import ai_step, choose_bury
from engine.shengji.game import ShengjiMatch
from engine.shengji.order import trump_context
from tests.engine.shengji.test_match import _last_trick, _play_ready


@pytest.mark.parametrize("preset", ["shengji-17-deals", "shengji-timed-2h", "shengji-50min"])
def test_computer_played_17_deal_match_replays_identically(preset: str) -> None:
    opts = load_preset(preset).with_overrides({"deals": 17}).rules
    m = ShengjiMatch(opts, 2026)
    rng = random.Random(2026)
    while not m.finished:
        step = ai_step(m, rng)
        assert step is not None
        m.apply(step)
    res = m.result()
    assert res is not None
    assert m.deals_played == 17 or res["reason"] == "passed_a"
    again = replay("shengji", opts, 2026, m.log)
    assert isinstance(again, ShengjiMatch)
    assert again.snapshot() == m.snapshot() and again.result() == res


def test_ai_buries_non_points_from_short_suits() -> None:
    ctx = trump_context(2, 1)
    hand = parse_cards(
        "♠3 ♠4 ♠6 ♠7 ♠8 ♠9 ♠J ♠Q ♣3 ♣4 ♣6 ♦3 ♦4 ♦5 ♦10 ♦K ♥3 ♥4 BJ ♥A ♥K ♣A ♣K ♣5 ♠A ♠5 ♠10 ♣9 ♣8 ♣7 ♦6 ♦7 ♦8"
    )
    bury = choose_bury(ctx, hand)
    assert len(bury) == 8
    assert not any(points(c) for c in bury)
    assert not any(ctx.is_trump(c) for c in bury)


def test_ai_follows_low_when_it_cannot_win() -> None:
    m = _last_trick(
        "shengji-17-deals", ["♠4 ♠6", "♠K ♣3", "♠3 ♣4", "♠A ♣6"], "♣2 ♣2 ♦2 ♦2 ♠2 ♠2 ♣7 ♣8", leader=1
    )
    m.apply("1 play ♠K")
    m.apply("2 play ♠3")
    m.apply("3 play ♠A")
    assert m.ai_action(0, random.Random(0)) == "0 play ♠4"


def test_ai_ruffs_defenders_point_lead_when_void() -> None:
    m = _last_trick(
        "shengji-17-deals", ["♥3 ♣6", "♠K ♣3", "♠3 ♣4", "♠4 ♣7"], "♣2 ♣2 ♦2 ♦2 ♠2 ♠2 ♣9 ♣8", leader=1
    )
    m.apply("1 play ♠K")
    m.apply("2 play ♠3")
    m.apply("3 play ♠4")
    assert m.ai_action(0, random.Random(0)) == "0 play ♥3"  # dealer void in ♠ trumps the 10 points


def test_ai_leads_an_off_suit_ace() -> None:
    m = _play_ready("shengji-17-deals", {0: "♣A ♣3"})
    action = m.ai_action(0, random.Random(0))
    assert action is not None and action.startswith("0 play ")
    assert m.ctx is not None
    led = parse_cards(action[len("0 play ") :])
    assert all(c % 13 == 12 and not m.ctx.is_trump(c) for c in led)  # off-suit aces


def test_ai_declares_with_many_trumps_and_not_with_few() -> None:
    m = ShengjiMatch(load_preset("shengji-17-deals").rules, 1)
    m.hands[0] = parse_cards("♥2 BJ ♥3 ♥4 ♥5 ♥6 ♥7 ♥8 ♠3 ♠4 ♣5 ♦6")
    assert m.ai_action(0, random.Random(0)) == "0 bid ♥2 BJ"
    m.hands[0] = parse_cards("♥2 BJ ♠3 ♠4 ♠5 ♠6 ♠7 ♠8 ♣3 ♣4 ♣5 ♦6")
    assert m.ai_action(0, random.Random(0)) is None


def _ai_versus_random(preset: str, seed: int) -> dict[str, object]:
    """Seats 0 and 2 are the computer player, seats 1 and 3 play random legal actions."""
    from engine.shengji.ai import choose_action, random_legal_action

    m = ShengjiMatch(load_preset(preset).with_overrides({"deals": 17}).rules, seed)
    rng = random.Random(seed)
    while not m.finished:
        action = None
        if m.phase in ("dealing", "window"):
            for s in (0, 2):
                action = choose_action(m, s, rng)
                if action:
                    break
            if action is None:
                if m.phase == "dealing":
                    action = "sys deal"
                else:
                    waiting = [s for s in range(4) if s not in m.passed]
                    action = f"{waiting[0]} pass_bid" if waiting else "sys close_bidding"
        else:
            turns = m.turns()
            if turns and turns[0].seat % 2 == 0:
                action = choose_action(m, turns[0].seat, rng)
            elif turns:
                action = random_legal_action(m, rng)
            else:
                action = m.system_step() or "sys resume"
        assert action is not None
        m.apply(action)
    res = m.result()
    assert res is not None
    return res


@pytest.mark.parametrize("preset", ["shengji-17-deals", "shengji-timed-2h", "shengji-50min"])
def test_computer_player_beats_random_play(preset: str) -> None:
    wins = sum(1 for seed in range(3) if _ai_versus_random(preset, seed)["winner"] == 0)
    assert wins >= 2


def test_the_fast_lead_is_the_reference_lead_on_thousands_of_hands() -> None:
    """``_lead`` builds only the leads that can qualify; on random hands (1–33 cards, every level and
    trump, no trump too) it picks exactly what filtering every simple lead picks (the first version)."""
    import types

    from engine.cards import full_deck
    from engine.shengji import ai
    from engine.shengji.order import trump_context

    rng = random.Random(2026)
    deck = full_deck(2)
    same = 0
    for _ in range(6000):
        ctx = trump_context(rng.randrange(2, 15), rng.choice([None, 0, 1, 2, 3]))
        hand = rng.sample(deck, rng.randrange(1, 34))
        m = types.SimpleNamespace(ctx=ctx, hands=[hand], options=types.SimpleNamespace(throws=True))
        fast, ref = ai._lead(m, 0), ai._lead_reference(m, 0)  # type: ignore[arg-type]
        assert fast == ref, (hand, ctx)
        same += len(ref) > 1
    assert same > 300  # pairs and tractors, not only singles
