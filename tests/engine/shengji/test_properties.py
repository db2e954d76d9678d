"""Property tests (hypothesis): whole deals and matches of random legal actions, for each preset.

Cards are conserved (108), the hands and kitty hold 200 points when play starts, replaying the
log rebuilds the state, and no view leaks a hidden card (docs/rules.md 1.1, 1.4, 1.6)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import Card, parse_cards, total_points
from engine.errors import RuleError
from engine.registry import load_preset, replay
from engine.shengji.ai import random_legal_action
from engine.shengji.game import ShengjiMatch
from tests.engine.shengji.test_views import assert_no_leak

PRESETS = ("shengji-17-deals", "shengji-timed-2h", "shengji-50min")


def cards_in_play(m: ShengjiMatch) -> list[Card]:
    """Every card of the deal in progress, wherever it is."""
    out: list[Card] = []
    for h in m.hands:
        out += h
    if m.phase == "dealing":
        out += m.deck[m.draws :]
        return out
    if m.phase == "window" or (m.phase == "blackout"):
        return out + m.deck[100:]
    out += m.kitty
    for t in m.tricks:
        for _, cards in t["plays"]:
            out += parse_cards(cards)
    for _, cards in m.trick:
        out += cards
    return out


def run(preset: str, seed: int, deals: int, check_every: int) -> ShengjiMatch:
    opts = load_preset(preset).with_overrides({"deals": deals}).rules
    m = ShengjiMatch(opts, seed)
    rng = random.Random(seed)
    n = 0
    while not m.finished:
        if m.phase not in ("deal_over", "paused", "match_over"):
            assert sorted(cards_in_play(m)) == sorted(list(range(54)) * 2)
        if m.phase == "play" and not m.tricks and not m.trick:
            assert total_points([c for h in m.hands for c in h]) + total_points(m.kitty) == 200
        if n % check_every == 0:
            assert_no_leak(m)
        action = random_legal_action(m, rng)
        assert action is not None
        m.apply(action)
        n += 1
        assert n < 20000
    return m


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), deals=st.integers(2, 3))
def test_random_legal_matches_finish_conserve_cards_and_replay(preset: str, seed: int, deals: int) -> None:
    m = run(preset, seed, deals, check_every=37)
    res = m.result()
    assert res is not None and res["winner"] in (0, 1)
    assert len(m.history) == m.deals_played
    again = replay("shengji", m.options, seed, m.log)
    assert isinstance(again, ShengjiMatch)
    assert again.snapshot() == m.snapshot()


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), cut=st.integers(1, 400))
def test_replay_midway_equals_live_state_and_errors_change_nothing(preset: str, seed: int, cut: int) -> None:
    opts = load_preset(preset).rules
    m = ShengjiMatch(opts, seed)
    rng = random.Random(seed)
    for _ in range(cut):
        a = random_legal_action(m, rng)
        if a is None:
            break
        m.apply(a)
    before = m.snapshot()
    for bad in (
        "0 play ♠A ♠A ♠A",
        "1 bury ♠2",
        "sys next_deal",
        "2 bid BJ",
        "3 choose pair",
        "sys resume",
        "0 pass_overturn",
        "x y",
    ):
        try:
            m2 = replay("shengji", opts, seed, m.log)
            m2.apply(bad)
        except RuleError:
            assert isinstance(m2, ShengjiMatch) and m2.snapshot() == before
    assert replay("shengji", opts, seed, m.log).snapshot() == before  # type: ignore[attr-defined]


OPTION_MIX = st.fixed_dictionaries(
    {
        "bid_style": st.sampled_from(["joker_level", "level_only"]),
        "overturn_style": st.sampled_from(["ladder", "lock", "suit_order"]),
        "direct_fix": st.booleans(),
        "declarer_overturn_after_other": st.booleans(),
        "public_trump": st.booleans(),
        "first_deal_overturn_changes_dealer": st.booleans(),
        "late_overturn": st.sampled_from(["rebury", "in_turn", "none"]),
        "dealer_side_no_bid": st.sampled_from(["own_level", "kitty_turn", "blackout"]),
        "throws": st.booleans(),
        "failed_throw_choice": st.sampled_from(["lowest", "opponents"]),
        "kitty_multiplier": st.sampled_from(["doubling", "plus_two", "fifty_min"]),
        "offsuit_kitty_half": st.booleans(),
        "level_table": st.sampled_from(["seventeen", "timed", "fifty_min"]),
        "tie_break": st.sampled_from(["dealer_side", "cut"]),
        "start_level": st.sampled_from([2, 12, 13, 14]),
        "max_redeals_before_pause": st.integers(1, 3),
    }
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), mix=OPTION_MIX)
def test_every_option_combination_plays_whole_matches(seed: int, mix: dict[str, object]) -> None:
    """Organisers may override any option (docs/rules.md section 4): every combination still finishes and replays."""
    opts = load_preset("shengji-17-deals").with_overrides({**mix, "deals": 3}).rules
    m = ShengjiMatch(opts, seed)
    rng = random.Random(seed)
    n = 0
    while not m.finished:
        if m.phase not in ("deal_over", "paused", "match_over"):
            assert sorted(cards_in_play(m)) == sorted(list(range(54)) * 2)
        if n % 53 == 0:
            assert_no_leak(m)
        action = random_legal_action(m, rng)
        assert action is not None
        m.apply(action)
        n += 1
        assert n < 30000
    again = replay("shengji", opts, seed, m.log)
    assert isinstance(again, ShengjiMatch) and again.snapshot() == m.snapshot()
