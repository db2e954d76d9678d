"""docs/rules.md section 5: the decisions that touch Guandan are options with the documented default.

D2 (time limit mid-deal), D6 (move clock expiry), D7 (上游 and 末游 on one side), D8 (return
tribute "10以下"), D10 (clock figures); one test per decision and value.  docs/rules-decisions.md
is the table these tests pin.
"""

from __future__ import annotations

import random
import tomllib
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import card_text, parse_cards, rank_of
from engine.errors import RuleError
from engine.game import Event
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions
from engine.guandan.ranks import card_order
from engine.guandan.tribute import check_return, plan_tribute, return_choices
from engine.options import option_specs
from engine.registry import load_preset, replay

DECISION_OPTIONS = {"time_up_finishes_deal": True, "return_max_rank": 10, "tribute_on_one_four": "pay"}


def C(text: str) -> list[int]:
    return parse_cards(text)


def options(**over: Any) -> GuandanOptions:
    rules = load_preset("guandan-team").with_overrides(over).rules
    assert isinstance(rules, GuandanOptions)
    return rules


def step(m: GuandanMatch, rng: random.Random) -> list[Event]:
    """One action of a table where the computer plays every seat."""
    sys_step = m.system_step()
    if sys_step is not None:
        return m.apply(sys_step)
    seat = m.turns()[0].seat
    action = m.ai_action(seat, rng)
    assert action is not None
    return m.apply(action)


def play_until(m: GuandanMatch, rng: random.Random, deal_no: int, phase: str, limit: int = 20_000) -> None:
    for _ in range(limit):
        if m.finished or (m.deal_no == deal_no and m.phase == phase):
            return
        step(m, rng)
    raise AssertionError("did not get there")


def play_out(m: GuandanMatch, rng: random.Random, limit: int = 50_000) -> list[Event]:
    events: list[Event] = []
    for _ in range(limit):
        if m.finished:
            return events
        events += step(m, rng)
    raise AssertionError("match did not finish")


# --- presets and option docs -------------------------------------------------------------------


def test_decision_options_are_written_explicitly_in_the_preset() -> None:
    text = resources.files("engine.presets").joinpath("guandan-team.toml").read_text(encoding="utf-8")
    rules = tomllib.loads(text)["rules"]
    for name, value in DECISION_OPTIONS.items():
        assert rules.get(name) == value, name
        assert getattr(load_preset("guandan-team").rules, name) == value, name


def test_decision_option_defaults_and_docs_name_their_decision() -> None:
    specs = {s.name: s for s in option_specs(GuandanOptions)}
    for name, value in DECISION_OPTIONS.items():
        assert specs[name].default == value, name
    for name, decision in [
        ("time_up_finishes_deal", "D2"),
        ("on_timeout", "D6"),
        ("tribute_on_one_four", "D7"),
        ("return_max_rank", "D8"),
        ("play_clock", "D10"),
        ("tribute_clock", "D10"),
        ("return_clock", "D10"),
    ]:
        assert decision in specs[name].doc, name
    assert (specs["return_max_rank"].minimum, specs["return_max_rank"].maximum) == (2, 14)


# --- D2 time limit mid-deal (docs/rules.md 2.7) -----------------------------------------------------------


def test_d2_time_up_finishes_deal_by_default() -> None:
    rng = random.Random(3)
    m = GuandanMatch(options(), 11)
    play_until(m, rng, 2, "play")
    assert not m.finished
    m.apply("sys time_up")
    assert not m.finished
    events = play_out(m, rng)
    res = m.result()
    assert res is not None and (res["reason"], res["deals"]) == ("time_up", 2) and "abandoned_deal" not in res
    assert [e.kind for e in events][-2:] == ["deal_over", "match_over"]


def test_d2_off_time_up_ends_the_match_at_once_and_the_deal_does_not_count() -> None:
    rng = random.Random(3)
    m = GuandanMatch(options(time_up_finishes_deal=False), 11)
    play_until(m, rng, 2, "play")
    step(m, rng)  # a play of deal 2
    levels, upstream = list(m.levels), m.last_upstream
    assert levels == m.history[-1]["levels"] and upstream is not None
    events = m.apply("sys time_up")
    assert [e.kind for e in events] == ["time_up", "deal_abandoned", "match_over"]
    res = m.result()
    assert res is not None
    assert (res["reason"], res["levels"], res["deals"], res["abandoned_deal"], res["last_upstream"]) == (
        "time_up",
        levels,
        1,
        2,
        upstream,
    )
    expected = (0 if levels[0] > levels[1] else 1) if levels[0] != levels[1] else upstream % 2
    assert res["winner"] == expected
    assert m.turns() == [] and m.system_step() is None
    with pytest.raises(RuleError):
        m.apply("sys next_deal")


def test_d2_off_the_first_deal_is_still_played_out() -> None:
    """With no finished deal there is no level or 上游 to decide on: the first deal is played out."""
    rng = random.Random(1)
    m = GuandanMatch(options(time_up_finishes_deal=False), 5)
    play_until(m, rng, 1, "play")
    events = m.apply("sys time_up")
    assert not m.finished and [e.kind for e in events] == ["time_up"]
    play_out(m, rng)
    res = m.result()
    assert res is not None and res["deals"] == 1 and "abandoned_deal" not in res


def test_d2_off_time_up_during_tribute_ends_at_once() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        m = GuandanMatch(options(time_up_finishes_deal=False), seed)
        play_until(m, rng, 2, "tribute")
        if m.phase == "tribute":
            break
    else:
        pytest.skip("no tribute in deal 2 for these seeds")
    m.apply("sys time_up")
    res = m.result()
    assert res is not None and res["abandoned_deal"] == 2 and res["deals"] == 1


# --- D6 move clock expiry ------------------------------------------------------------------------


def test_d6_on_timeout_autoplays_by_default() -> None:
    m = GuandanMatch(options(), 2)
    m.apply("sys next_deal")
    assert m.options.on_timeout == "autoplay"
    seat = m.turns()[0].seat
    m.apply(m.auto_action(seat))  # the lowest legal lead
    assert m.turns()[0].seat != seat


def test_d6_forfeit_deal_ends_the_deal_as_a_loss() -> None:
    m = GuandanMatch(options(on_timeout="forfeit_deal"), 2)
    m.apply("sys next_deal")
    m.apply("sys forfeit_deal 0")
    last = m.history[-1]
    assert (last["forfeit"], last["winner_side"], last["gain"]) == (0, 1, 3)


# --- D7 上游 and 末游 on one side ------------------------------------------------------------------

HANDS = [C("♠3 ♠4"), C("♠5 ♠6"), C("♠7 ♠8"), C("♠9 ♠10")]


def test_d7_one_four_last_pays_upstream_by_default() -> None:
    plan = plan_tribute([0, 1, 3], HANDS)  # seat 0 上游, partner seat 2 末游
    assert (plan.kind, plan.payers, plan.receivers, plan.result) == ("single", (2,), ((2, 0),), "1-4")


def test_d7_none_no_tribute_and_upstream_leads() -> None:
    plan = plan_tribute([0, 1, 3], HANDS, one_four="none")
    assert (plan.kind, plan.payers, plan.leader) == ("none", (), 0)


# --- D8 return tribute "10以下" -----------------------------------------------------------------------


def test_d8_return_max_rank_includes_10_by_default() -> None:
    assert return_choices(C("♠J ♣10 ♦3"), 2) == C("♦3 ♣10")
    check_return(C("♠J ♣10 ♦3"), 2, C("♣10")[0])  # no error: 10 is "10以下"


def test_d8_lower_limit_rejects_a_10() -> None:
    assert return_choices(C("♠J ♣10 ♦3"), 2, max_rank=8) == C("♦3")
    with pytest.raises(RuleError) as err:
        check_return(C("♠J ♣10 ♦3"), 2, C("♣10")[0], max_rank=8)
    assert err.value.code == "return_above_10" and err.value.params["max_rank"] == "8"


def test_d8_no_card_at_or_below_the_limit_returns_the_lowest_card() -> None:
    assert return_choices(C("♠J ♣Q BJ"), 2) == C("♠J")
    assert return_choices(C("♠9 ♣Q BJ"), 2, max_rank=8) == C("♠9")
    with pytest.raises(RuleError) as err:
        check_return(C("♠9 ♣Q BJ"), 2, C("♣Q")[0], max_rank=8)
    assert err.value.code == "return_not_lowest"


@pytest.mark.parametrize("max_rank", [10, 5])
def test_d8_every_return_in_a_match_respects_return_max_rank(max_rank: int) -> None:
    """Computer-played deals: each returned card is of rank ≤ the option, or the receiver had none."""
    returns = 0
    for seed in range(4):
        rng = random.Random(seed)
        m = GuandanMatch(options(return_max_rank=max_rank, time_limit_minutes=0, deals=4), seed)
        while not m.finished:
            if m.phase == "return":
                seat = m.turns()[0].seat
                hand = list(m.hands[seat])
                action = m.ai_action(seat, rng)
                assert action is not None
                card = C(action.split(" ", 2)[2])[0]
                low = [c for c in hand if c < 52 and rank_of(c) <= max_rank]
                if low:
                    assert card in low
                else:
                    assert card_order(card, m.deal_level) == min(card_order(c, m.deal_level) for c in hand)
                assert card_text(card) in m.seat_view(seat)["hint"]["choices"]  # the hint follows the option
                m.apply(action)
                returns += 1
            else:
                step(m, rng)
    assert returns > 0


def test_d8_the_hint_lists_the_cards_the_option_allows() -> None:
    m = GuandanMatch(options(return_max_rank=5), 1)
    m.apply("sys next_deal")
    m.hands[1] = sorted(C("♠J ♣10 ♦5 ♦3"))
    assert m.return_choices(1) == C("♦3 ♦5")


# --- D10 clock figures ---------------------------------------------------------------------------


def test_d10_clocks_are_off_in_the_preset() -> None:
    rules = load_preset("guandan-team").rules
    assert (rules.play_clock, rules.tribute_clock, rules.return_clock) == (0, 0, 0)
    m = GuandanMatch(rules, 1)
    m.apply("sys next_deal")
    assert m.turns()[0].clock is None


def test_d10_turned_on_the_documented_figures_are_20_15_30() -> None:
    specs = {s.name: s for s in option_specs(GuandanOptions)}
    assert "20 when turned on" in specs["play_clock"].doc
    assert "15 when turned on" in specs["tribute_clock"].doc
    assert "30 when turned on" in specs["return_clock"].doc
    m = GuandanMatch(options(play_clock=20, tribute_clock=15, return_clock=30), 1)
    m.apply("sys next_deal")
    assert m.turns()[0].clock == "play_clock"


# --- every value of the new options plays whole matches and replays ---------------------------------


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    finish=st.booleans(),
    max_rank=st.sampled_from([2, 7, 10, 14]),
    time_up_at=st.integers(0, 600),
)
def test_decision_options_play_whole_matches_and_replay(
    seed: int, finish: bool, max_rank: int, time_up_at: int
) -> None:
    opts = options(time_up_finishes_deal=finish, return_max_rank=max_rank, deals=3)
    m = GuandanMatch(opts, seed)
    rng = random.Random(seed)
    n = 0
    while not m.finished:
        if n == time_up_at:
            m.apply("sys time_up")
            if m.finished:
                break
        step(m, rng)
        n += 1
        assert n < 20_000
    again = replay("guandan", opts, seed, m.log)
    assert isinstance(again, GuandanMatch) and again.log == m.log and again.result() == m.result()
