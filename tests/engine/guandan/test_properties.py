"""Property tests (issue 3): random legal deals and whole matches finish, 108 cards are conserved,
replaying the log equals the live match, and no view leaks a hidden card."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.guandan.ai import random_action
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions
from engine.registry import replay
from tests.engine.guandan.test_views import check_no_leak


def cards_accounted(m: GuandanMatch) -> int:
    played = sum(len(combo.cards) for _, _, _, combo in m.plays if combo is not None)
    paid_out = len(m.tribute_paid) if m.phase == "tribute" else 0  # paid, not yet handed over
    return sum(len(h) for h in m.hands) + played + paid_out


def drive(m: GuandanMatch, rng: random.Random, computer: bool, leak_every: int = 0) -> None:
    steps = 0
    while not m.finished:
        step = m.system_step()
        if step is not None:
            m.apply(step)
        else:
            turns = m.turns()
            seat = rng.choice(turns).seat
            action = m.ai_action(seat, rng) if computer else random_action(m, seat, rng)
            assert action is not None
            m.apply(action)
        if m.deal_no:
            assert cards_accounted(m) == 108  # docs/rules.md 2.1: two decks, nothing lost or created
        steps += 1
        if leak_every and steps % leak_every == 0:
            check_no_leak(m)
        assert steps < 20_000


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), deals=st.integers(1, 3), one_four=st.sampled_from(["pay", "none"]))
def test_random_legal_matches_finish_conserve_cards_and_replay(seed: int, deals: int, one_four: str) -> None:
    opts = GuandanOptions(deals=deals, tribute_on_one_four=one_four)
    m = GuandanMatch(opts, seed)
    drive(m, random.Random(seed), computer=False, leak_every=11)
    result = m.result()
    assert result is not None and result["winner"] in (0, 1)
    assert m.deal_no <= deals
    again = replay("guandan", opts, seed, list(m.log))
    assert again.log == m.log and again.result() == result and again.hands == m.hands
    assert again.public_view() == m.public_view()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), reset=st.booleans())
def test_matches_near_a_pass_a_or_end_on_the_deal_limit(seed: int, reset: bool) -> None:
    """docs/rules.md 2.5: from level K the match either ends by the A rule or runs to the deal limit."""
    opts = GuandanOptions(start_level=13, deals=8, a_failures_reset=reset)
    m = GuandanMatch(opts, seed)
    drive(m, random.Random(seed), computer=True)
    result = m.result()
    assert result is not None
    if result["reason"] == "a_rule":
        last = m.history[-1]
        assert last["level"] == 14 and last["result"] in ("1-2", "1-3")
        assert result["winner"] == last["winner_side"]
    else:
        assert result["reason"] == "deals" and m.deal_no == 8
    assert replay("guandan", opts, seed, list(m.log)).history == m.history


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 400))
def test_time_up_at_any_point_ends_after_the_deal_in_progress(seed: int, cut: int) -> None:
    """docs/rules.md 2.7 / D2: the deal in progress at the time limit is played out, then the match ends."""
    m = GuandanMatch(GuandanOptions(), seed)
    rng = random.Random(seed)
    for _ in range(cut):
        step = m.system_step()
        if step is not None:
            m.apply(step)
        else:
            seat = m.turns()[0].seat
            action = random_action(m, seat, rng)
            assert action is not None
            m.apply(action)
        if m.finished:
            break
    if m.finished:
        return
    deal_at_limit = m.deal_no
    m.apply("sys time_up")
    drive(m, rng, computer=False)
    result = m.result()
    assert result is not None and result["reason"] in ("time_up", "a_rule")
    assert m.deal_no == max(deal_at_limit, 1)
