"""docs/rules.md section 5: every decision that touches Shengji is an option with the documented default.

One test per decision and value (D1-D6, D9), plus the presets naming the decision options
explicitly.  docs/rules-decisions.md is the table these tests pin.
"""

from __future__ import annotations

import random
import tomllib
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import card_text, parse_cards
from engine.errors import RuleError
from engine.game import Event
from engine.options import option_specs
from engine.registry import load_preset, replay
from engine.shengji.ai import ai_step
from engine.shengji.game import ShengjiMatch
from engine.shengji.match import SYS_VERBS
from engine.shengji.options import ShengjiOptions
from engine.shengji.scoring import kitty_multiplier
from tests.engine.shengji.rigging import rig

SHENGJI_PRESETS = ["shengji-17-deals", "shengji-50min", "shengji-timed-2h"]
DECISION_OPTIONS = {
    "throw_check_partner": True,
    "time_up_finishes_deal": True,
    "passing_a_ends_match": True,
    "double_blackout": "turn_kitty",
}


# --- set-up helpers ------------------------------------------------------------------------------


def options(preset: str, **over: Any) -> ShengjiOptions:
    p = load_preset(preset)
    rules = p.with_overrides(over).rules if over else p.rules
    assert isinstance(rules, ShengjiOptions)
    return rules


def deal_all(m: ShengjiMatch, bids: dict[int, str] | None = None) -> None:
    bids = dict(bids or {})
    while m.phase == "dealing":
        if m.draws in bids:
            m.apply(bids.pop(m.draws))
        m.apply("sys deal")


def play_ready(preset: str, hands: dict[int, str], **over: Any) -> ShengjiMatch:
    """First deal: seat 0 declares ♥ at the start level and deals; ``hands`` are rigged; ready to lead."""
    m = ShengjiMatch(options(preset, **over), 1)
    rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(m.options.start_level, str(m.options.start_level))
    decl = f"♥{rank} BJ" if m.options.bid_style == "joker_level" else f"♥{rank}"
    rig(m, {0: decl + " " + hands.get(0, ""), **{s: h for s, h in hands.items() if s}})
    deal_all(m, {40: f"0 bid {decl}"})
    if m.phase == "window":
        m.apply("sys close_bidding")
    named = parse_cards(decl + " " + hands.get(0, ""))
    rest = list(m.hands[0])
    for c in named:
        rest.remove(c)
    m.apply("0 bury " + " ".join(card_text(c) for c in rest[:8]))
    while m.phase == "late":
        m.apply(m.auto_action(m.turns()[0].seat))
    assert m.phase == "play" and m.to_play() == 0
    return m


def finish_deal_with_ai(m: ShengjiMatch, seed: int = 1) -> list[Event]:
    rng = random.Random(seed)
    events: list[Event] = []
    while m.phase not in ("deal_over", "match_over"):
        step = ai_step(m, rng)
        assert step is not None
        events += m.apply(step)
    return events


def second_deal(preset: str, seed: int = 4, **over: Any) -> ShengjiMatch:
    m = ShengjiMatch(options(preset, **over), seed)
    finish_deal_with_ai(m)
    m.apply("sys next_deal")
    return m


def event(events: list[Event], kind: str) -> dict[str, Any]:
    found = [e.data for e in events if e.kind == kind]
    assert found, f"no {kind} event in {[e.kind for e in events]}"
    return found[0]


# --- presets and option docs -------------------------------------------------------------------


@pytest.mark.parametrize("preset", SHENGJI_PRESETS)
def test_decision_options_are_written_explicitly_in_every_preset(preset: str) -> None:
    """docs/rules.md section 5: each preset file states the decision options with the documented default."""
    text = resources.files("engine.presets").joinpath(preset + ".toml").read_text(encoding="utf-8")
    rules = tomllib.loads(text)["rules"]
    for name, value in DECISION_OPTIONS.items():
        assert rules.get(name) == value, name
        assert getattr(load_preset(preset).rules, name) == value, name


def test_decision_option_defaults_and_docs_name_their_decision() -> None:
    specs = {s.name: s for s in option_specs(ShengjiOptions)}
    for name, value in DECISION_OPTIONS.items():
        assert specs[name].default == value, name
    for name, decision in [
        ("throw_check_partner", "D1"),
        ("time_up_finishes_deal", "D2"),
        ("passing_a_ends_match", "D3"),
        ("double_blackout", "D4"),
        ("kitty_multiplier", "D5"),
        ("on_timeout", "D6"),
    ]:
        assert decision in specs[name].doc, name
    assert specs["double_blackout"].choices == ("turn_kitty", "redeal")


# --- D1 throw check against the partner too ------------------------------------------------------


def test_d1_throw_check_includes_partner_by_default() -> None:
    """D1: the partner's ♠K beats the throw's lowest single ♠Q: the throw fails, seat 2 named."""
    m = play_ready("shengji-17-deals", {0: "♠A ♠A ♠Q", 2: "♠K ♠K"})
    events = m.apply("0 play ♠A ♠Q")
    failed = event(events, "throw_failed")
    assert (failed["holder"], failed["beating"], failed["unit"], failed["penalty"]) == (2, "♠K", "♠Q", 20)
    assert m.trick == [(0, tuple(parse_cards("♠Q")))]
    assert m.charges[0]["points"] == 20


def test_d1_off_checks_only_opponents() -> None:
    """D1 with throw_check_partner = false: only the partner could beat it, so the throw stands."""
    m = play_ready("shengji-17-deals", {0: "♠A ♠A ♠Q", 2: "♠K ♠K"}, throw_check_partner=False)
    events = m.apply("0 play ♠A ♠Q")
    assert not [e for e in events if e.kind == "throw_failed"]
    assert m.trick == [(0, tuple(parse_cards("♠A ♠Q")))] and m.charges == []


def test_d1_off_still_fails_against_an_opponent() -> None:
    m = play_ready("shengji-17-deals", {0: "♠A ♠A ♠Q ♠Q", 3: "♠K ♠K"}, throw_check_partner=False)
    failed = event(m.apply("0 play ♠A ♠Q ♠Q"), "throw_failed")
    assert (failed["holder"], failed["beating"], failed["unit"]) == (3, "♠K ♠K", "♠Q ♠Q")


def test_d1_throw_failed_names_the_holder_seat_and_the_beating_cards() -> None:
    """docs/rules.md 1.5: "甩牌失败:1 有更大的 ♠K ♠K,改出 ♠Q ♠Q,罚 30 分" — every part is in the events."""
    m = play_ready("shengji-17-deals", {0: "♠A ♠A ♠Q ♠Q", 1: "♠K ♠K"})
    events = m.apply("0 play ♠A ♠Q ♠Q")
    failed = event(events, "throw_failed")
    assert failed == {
        "seat": 0,
        "cards": "♠A ♠Q ♠Q",
        "penalty": 30,
        "holder": 1,
        "beating": "♠K ♠K",
        "unit": "♠Q ♠Q",
    }
    played = event(events, "play")
    assert (played["cards"], played["forced"]) == ("♠Q ♠Q", True)


def test_d1_opponents_choice_names_the_holder_of_the_chosen_unit() -> None:
    m = play_ready("shengji-timed-2h", {0: "♠A ♠J ♠J ♠10 ♠10 ♠9", 3: "♠K ♠K ♠Q ♠Q"})
    failed = event(m.apply("0 play ♠A ♠J ♠J ♠10 ♠10 ♠9"), "throw_failed")
    assert failed["unit"] == "♠9"  # the default choice (the lower unit)
    chosen = event(m.apply("1 choose pair"), "throw_chosen")
    assert chosen == {
        "seat": 1,
        "unit": "pair",
        "cards": "♠J ♠J ♠10 ♠10",
        "holder": 3,
        "beating": "♠K ♠K ♠Q ♠Q",
    }


# --- D2 time limit mid-deal ----------------------------------------------------------------------


def test_d2_time_up_finishes_deal_by_default() -> None:
    m = play_ready("shengji-timed-2h", {})
    m.apply("sys time_up")
    assert not m.finished and m.phase == "play"
    finish_deal_with_ai(m)
    res = m.result()
    assert (
        res is not None and res["reason"] == "time_up" and res["deals"] == 1 and "abandoned_deal" not in res
    )


def test_d2_off_time_up_ends_the_match_at_once_and_the_deal_does_not_count() -> None:
    m = ShengjiMatch(options("shengji-timed-2h", time_up_finishes_deal=False), 3)
    rig(m, {0: "♥2"})
    deal_all(m, {40: "0 bid ♥2"})
    m.apply("sys close_bidding")
    m.apply(m.auto_action(0))  # bury
    while m.phase == "late":
        m.apply(m.auto_action(m.turns()[0].seat))
    m.apply("sys forfeit_deal 1")  # deal 1: the dealer side (0) goes up 3
    assert m.levels == [5, 2]
    m.apply("sys next_deal")
    deal_all(m, {})
    m.apply("sys close_bidding")  # nobody declares: the dealer turns a kitty card (2h)
    assert m.phase in ("bury", "late")
    before = list(m.levels)
    events = m.apply("sys time_up")
    assert [e.kind for e in events] == ["time_up", "deal_abandoned", "match_over"]
    res = m.result()
    assert res is not None
    assert (res["reason"], res["levels"], res["deals"], res["abandoned_deal"], res["winner"]) == (
        "time_up",
        before,
        1,
        2,
        0,
    )
    with pytest.raises(RuleError):
        m.apply("sys next_deal")


def test_d2_off_abandoned_deal_ties_go_to_the_side_dealing_it() -> None:
    m = play_ready("shengji-timed-2h", {0: "♠A ♠A ♠Q", 1: "♠K"}, time_up_finishes_deal=False)
    m.apply("0 play ♠A ♠Q")  # a failed throw: charged, but the deal will not count
    events = m.apply("sys time_up")
    abandoned = event(events, "deal_abandoned")
    assert abandoned["deal_no"] == 1 and abandoned["charges"][0]["abandoned"] is True
    res = m.result()
    assert res is not None and (res["levels"], res["tie_break"], res["winner"], res["deals"]) == (
        [2, 2],
        "dealer_side",
        0,
        0,
    )


def test_d2_off_time_up_between_deals_ends_at_once_as_before() -> None:
    m = ShengjiMatch(options("shengji-timed-2h", time_up_finishes_deal=False), 5)
    finish_deal_with_ai(m)
    events = m.apply("sys time_up")
    assert m.finished and "deal_abandoned" not in [e.kind for e in events]
    res = m.result()
    assert res is not None and res["deals"] == 1 and "abandoned_deal" not in res


# --- D3 passing A --------------------------------------------------------------------------------


def test_d3_passing_a_ends_the_match_by_default_even_under_a_deal_limit() -> None:
    m = play_ready("shengji-17-deals", {}, start_level=14)
    m.apply("sys forfeit_deal 1")  # the dealer side holds at A
    res = m.result()
    assert res is not None and (res["reason"], res["winner"], res["deals"]) == ("passed_a", 0, 1)


def test_d3_off_under_a_deal_limit_play_goes_on_to_the_limit() -> None:
    m = play_ready("shengji-17-deals", {}, start_level=14, deals=2, passing_a_ends_match=False)
    m.apply("sys forfeit_deal 1")
    assert not m.finished and m.phase == "deal_over"
    assert m.history[-1]["passed_a"] is True and m.levels == [14, 14]  # the side stays at A
    m.apply("sys next_deal")
    assert m.dealer == 2  # the dealer side held: partner deals
    finish_deal_with_ai(m)
    res = m.result()
    assert res is not None and res["reason"] == "deals" and res["deals"] == 2


def test_d3_off_without_a_deal_limit_passing_a_still_ends_the_match() -> None:
    m = play_ready("shengji-50min", {}, start_level=14, passing_a_ends_match=False)
    assert m.options.deals == 0
    m.apply("sys forfeit_deal 1")
    res = m.result()
    assert res is not None and (res["reason"], res["winner"]) == ("passed_a", 0)


# --- D4 double blackout --------------------------------------------------------------------------


def _double_blackout(**over: Any) -> tuple[ShengjiMatch, int, list[Event]]:
    m = second_deal("shengji-50min", **over)
    old = m.dealer
    assert old is not None
    m.levels[old % 2], m.levels[1 - old % 2] = 5, 3
    rig(m, {}, kitty="♠9 BJ ♦5 ♥3 ♣3 ♠4 ♠4 ♠7")
    deal_all(m)
    events = m.apply("sys close_bidding")
    assert m.phase == "blackout"
    events += m.apply(f"{(old + 1) % 4} pass_bid")
    events += m.apply(f"{(old + 3) % 4} pass_bid")
    return m, old, events


def test_d4_double_blackout_turns_the_kitty_by_default() -> None:
    m, old, events = _double_blackout()
    assert event(events, "double_blackout")["rule"] == "turn_kitty"
    # ♦5 is the dealer side's level: that side deals (the old dealer), ♦ is trump
    assert (m.dealer, m.level, m.trump_suit, m.phase) == (old, 5, 3, "bury")
    assert m.public_view()["table"]["turned_kitty"] == ["♠9", "BJ", "♦5"]


def test_d4_redeal_deals_again_without_turning_the_kitty() -> None:
    m, old, events = _double_blackout(double_blackout="redeal")
    kinds = [e.kind for e in events]
    assert "kitty_turned" not in kinds and event(events, "redeal")["reason"] == "double_blackout"
    assert (m.phase, m.redeal_no, m.dealer, m.turned) == ("dealing", 1, old, [])


# --- D5 kitty multipliers past the last row --------------------------------------------------------


def test_d5_kitty_multiplier_past_the_last_row_doubles_per_pair_by_default() -> None:
    assert load_preset("shengji-17-deals").rules.kitty_multiplier == "doubling"
    assert [kitty_multiplier("doubling", "tractor", n) for n in (2, 3, 4, 5)] == [8, 16, 32, 64]


def test_d5_plus_two_adds_two_per_pair_as_written() -> None:
    assert [kitty_multiplier("plus_two", "tractor", n) for n in (2, 3, 4, 5)] == [6, 8, 10, 12]


def test_d5_fifty_min_doubles_after_sixteen() -> None:
    assert [kitty_multiplier("fifty_min", "tractor", n) for n in (2, 3, 4, 5)] == [6, 16, 32, 64]


# --- D6 move clock expiry ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", SHENGJI_PRESETS)
def test_d6_on_timeout_autoplays_the_lowest_legal_play_by_default(preset: str) -> None:
    m = play_ready(preset, {})
    assert m.options.on_timeout == "autoplay"
    action = m.auto_action(0)
    assert action.startswith("0 play ")
    m.apply(action)
    assert len(m.trick) == 1


def test_d6_forfeit_deal_ends_the_deal_as_a_loss() -> None:
    m = play_ready("shengji-timed-2h", {}, on_timeout="forfeit_deal")
    m.apply("sys forfeit_deal 0")  # the dealer side's clock expired
    last = m.history[-1]
    assert (last["forfeit"], last["winner"], last["winner_role"]) == (0, 1, "defenders")


# --- D9 charges are events a referee may reverse -------------------------------------------------


def test_d9_charges_are_events_and_a_referee_reverses_them() -> None:
    assert "reverse_charge" in SYS_VERBS
    m = play_ready("shengji-17-deals", {0: "♠A ♠A ♠Q", 1: "♠K"})
    event(m.apply("0 play ♠A ♠Q"), "throw_failed")
    assert m.defenders_total() == 20 and m.penalties[0]["reason"] == "failed_throw"
    reversed_ = event(m.apply("sys reverse_charge 0"), "charge_reversed")
    assert reversed_["reversed"] is True and m.defenders_total() == 0


# --- every value of the new options plays whole matches and replays ---------------------------------


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    partner=st.booleans(),
    finish=st.booleans(),
    pass_a=st.booleans(),
    blackout=st.sampled_from(["turn_kitty", "redeal"]),
    preset=st.sampled_from(SHENGJI_PRESETS),
    time_up_at=st.integers(0, 900),
)
def test_decision_options_play_whole_matches_and_replay(
    seed: int, partner: bool, finish: bool, pass_a: bool, blackout: str, preset: str, time_up_at: int
) -> None:
    opts = options(
        preset,
        throw_check_partner=partner,
        time_up_finishes_deal=finish,
        passing_a_ends_match=pass_a,
        double_blackout=blackout,
        deals=2,
        start_level=13,
    )
    m = ShengjiMatch(opts, seed)
    rng = random.Random(seed)
    n = 0
    while not m.finished:
        if n == time_up_at:
            m.apply("sys time_up")
            if m.finished:
                break
        step = ai_step(m, rng)
        assert step is not None
        m.apply(step)
        n += 1
        assert n < 5000
    again = replay("shengji", opts, seed, m.log)
    assert isinstance(again, ShengjiMatch) and again.snapshot() == m.snapshot()
