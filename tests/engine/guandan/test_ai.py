"""The baseline computer player (issue 3): always legal, plays its plan, keeps bombs for need,
supports its partner, pays and returns tribute sensibly (docs/rules.md 2.4, 2.6, D8)."""

from __future__ import annotations

import random

import pytest

from engine.guandan.ai import choose_follow, choose_lead, choose_return, choose_tribute, decompose, plan_size
from engine.guandan.combos import Combo, readings
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions
from tests.engine.guandan.test_flow import C, run, table


def combo(text: str, level: int = 2) -> Combo:
    return readings(C(text), level)[0]


@pytest.mark.parametrize(
    ("hand", "level", "size"),
    [
        ("♠3 ♣4 ♦5 ♠6 ♥7", 2, 1),  # a straight
        ("♠3 ♣3 ♦3 ♠9 ♥9", 2, 1),  # a full house
        ("♠3 ♣3 ♠4 ♦4 ♠5 ♣5 ♠K", 2, 2),  # tube + single
        ("♠3 ♣3 ♦3 ♥3 ♠K", 2, 2),  # bomb + single
        ("SJ SJ BJ BJ ♠4", 2, 2),  # joker bomb + single
        ("♠A ♣2 ♦3 ♠4 ♥5 ♠9", 7, 2),  # A-low straight + single
    ],
)
def test_plan_is_the_fewest_hands(hand: str, level: int, size: int) -> None:
    assert plan_size(C(hand), level) == size
    assert sum(g.size for g in decompose(C(hand), level)) == len(C(hand))


def test_plan_covers_the_hand_and_its_size_is_counted_without_building_it() -> None:
    """Random hands of every size: the plan uses every card once, and ``plan_size`` (counted from the rank
    counts, as the strong player's play-outs ask it) is the plan's length."""
    rng = random.Random(19)
    deck = [c for c in range(54) for _ in range(2)]
    for _ in range(2000):
        hand = rng.sample(deck, rng.randint(1, 27))
        level = rng.randint(2, 14)
        groups = decompose(hand, level)
        assert sum(g.size for g in groups) == len(hand)
        assert plan_size(hand, level) == len(groups)


def test_lead_whole_hand_when_one_combination() -> None:
    assert choose_lead(C("♠3 ♣4 ♦5 ♠6 ♥7"), 2, 27, 27).kind == "straight"


def test_lead_weakest_group_of_the_plan_not_a_bomb() -> None:
    lead = choose_lead(C("♠3 ♣3 ♠9 ♣9 ♦9 ♥9 ♠K ♠A"), 5, 27, 27)
    assert not lead.is_bomb
    assert lead.kind == "pair" and lead.cards_text() == "♠3 ♣3"


def test_lead_no_low_single_when_next_opponent_has_one_card() -> None:
    lead = choose_lead(C("♠3 ♠8 ♣8 ♠K"), 5, 1, 27)
    assert lead.kind != "single" or lead.cards_text() == "♠K"


def test_follow_does_not_beat_a_winning_partner() -> None:
    assert choose_follow(C("♠K ♠3 ♦7"), 2, combo("♠9"), True, 10, 10) is None


def test_follow_goes_out_even_over_partner() -> None:
    out = choose_follow(C("♠K"), 2, combo("♠9"), True, 10, 10)
    assert out is not None and out.cards_text() == "♠K"


def test_follow_keeps_bombs_against_a_far_opponent_uses_them_near_the_end() -> None:
    hand = C("♠7 ♣7 ♦7 ♥7 ♠3 ♦5 ♣9 ♣J ♦Q")
    assert choose_follow(hand, 2, combo("♠A ♣A"), False, 20, 20) is None
    bomb = choose_follow(hand, 2, combo("♠A ♣A"), False, 2, 2)
    assert bomb is not None and bomb.is_bomb


def test_follow_plays_a_fitting_group_of_the_plan() -> None:
    out = choose_follow(C("♠3 ♣4 ♦5 ♠6 ♥7 ♠Q ♦Q"), 2, combo("♠10 ♣10"), False, 20, 20)
    assert out is not None and out.cards_text() == "♠Q ♦Q"


def test_d8_return_least_useful_card_of_rank_10_or_lower() -> None:
    # ♣9 is a lone card; the 3s are a pair and the ♥2 (level 2) is wild: return the lone 9
    assert choose_return(C("♠3 ♦3 ♣9 ♥2 ♠K ♦K"), 2) == C("♣9")[0]
    assert choose_return(C("♠J ♣Q ♦Q"), 2) == C("♠J")[0]  # D8 fallback: the lowest card


def test_tribute_pays_a_highest_card() -> None:
    assert choose_tribute(C("♠A ♣A ♣K ♦K ♣Q ♣J ♣10"), 2) in (C("♠A")[0], C("♣A")[0])


def test_computer_player_is_always_legal_across_matches() -> None:
    for seed in range(4):
        m = GuandanMatch(GuandanOptions(deals=2), seed)
        rng = random.Random(seed)
        while not m.finished:
            step = m.system_step()
            if step:
                m.apply(step)
                continue
            for t in m.turns():
                action = m.ai_action(t.seat, rng)
                assert action is not None
                m.apply(action)  # raises RuleError if illegal
                break
        assert m.result() is not None


def test_ai_action_none_when_nothing_to_do() -> None:
    m = table(["♠3 ♠9", "♠4 ♠10", "♠5 ♠J", "♠6 ♠Q"])
    assert m.ai_action(1, random.Random(0)) is None
    action = m.ai_action(0, random.Random(0))
    assert action is not None
    run(m, action)


@pytest.mark.parametrize(("partner", "kind"), [(1, "single"), (2, "pair")])
def test_lead_supports_a_partner_close_to_going_out(partner: int, kind: str) -> None:
    lead = choose_lead(C("♠3 ♣4 ♦4 ♠6 ♥7 ♦7 ♣7 ♠K ♦K"), 9, 20, partner)
    assert lead.kind == kind
    assert lead.cards_text() == ("♠3" if kind == "single" else "♣4 ♦4")


def test_computer_side_beats_a_random_legal_side() -> None:
    """Sensible play: seats 0/2 computer vs seats 1/3 random legal, fixed seeds (deterministic)."""
    from engine.guandan.ai import random_action

    wins = 0
    for seed in range(12):
        m = GuandanMatch(GuandanOptions(deals=1), seed)
        rng = random.Random(seed)
        while not m.finished:
            step = m.system_step()
            if step:
                m.apply(step)
                continue
            seat = m.turns()[0].seat
            action = m.ai_action(seat, rng) if seat % 2 == 0 else random_action(m, seat, rng)
            assert action is not None
            m.apply(action)
        wins += m.history[-1]["winner_side"] == 0
    assert wins >= 10
