"""The three Shengji presets carry the notices' rules (docs/rules.md section 4, tables 1.3, 1.6, 1.7, 1.8, 1.9)."""

from __future__ import annotations

import pytest

from engine.errors import OptionError
from engine.registry import load_preset
from engine.shengji.game import ShengjiMatch
from engine.shengji.scoring import level_change

EXPECTED = {
    "shengji-17-deals": dict(
        bid_style="joker_level",
        overturn_style="ladder",
        declarer_overturn_after_other=True,
        public_trump=False,
        first_deal_overturn_changes_dealer=True,
        late_overturn="rebury",
        dealer_side_no_bid="own_level",
        throws=True,
        throw_penalty_per_card=10,
        failed_throw_choice="lowest",
        kitty_multiplier="doubling",
        offsuit_kitty_half=False,
        level_table="seventeen",
        deals=17,
        time_limit_minutes=0,
        tie_break="dealer_side",
        lead_clock=0,
        follow_clock=0,
        kitty_clock=0,
    ),
    "shengji-timed-2h": dict(
        bid_style="level_only",
        overturn_style="suit_order",
        first_deal_overturn_changes_dealer=False,
        late_overturn="in_turn",
        dealer_side_no_bid="kitty_turn",
        throws=True,
        throw_penalty_per_card=10,
        failed_throw_choice="opponents",
        kitty_multiplier="plus_two",
        offsuit_kitty_half=True,
        level_table="timed",
        deals=0,
        time_limit_minutes=120,
        tie_break="dealer_side",
        lead_clock=20,
        follow_clock=10,
        kitty_clock=60,
    ),
    "shengji-50min": dict(
        bid_style="joker_level",
        overturn_style="lock",
        public_trump=True,
        first_deal_overturn_changes_dealer=False,
        late_overturn="none",
        dealer_side_no_bid="blackout",
        throws=False,
        kitty_multiplier="fifty_min",
        offsuit_kitty_half=False,
        level_table="fifty_min",
        deals=0,
        time_limit_minutes=50,
        tie_break="cut",
        lead_clock=0,
        follow_clock=0,
        kitty_clock=0,
    ),
}


@pytest.mark.parametrize("preset", sorted(EXPECTED))
def test_rules_4_preset_options(preset: str) -> None:
    rules = load_preset(preset).rules
    for name, value in EXPECTED[preset].items():
        assert getattr(rules, name) == value, name


@pytest.mark.parametrize("preset", sorted(EXPECTED))
def test_rules_4_every_preset_starts_a_match(preset: str) -> None:
    m = ShengjiMatch(load_preset(preset).rules, 1)
    assert m.phase == "dealing" and m.levels == [2, 2] and m.dealer is None


def test_rules_1_7_takeover_threshold_per_preset() -> None:
    assert level_change(load_preset("shengji-17-deals").rules.level_table, 75) == ("dealer", 1)
    assert level_change(load_preset("shengji-timed-2h").rules.level_table, 75) == ("dealer", 1)
    assert level_change(load_preset("shengji-50min").rules.level_table, 60) == ("defenders", 0)


def test_invalid_option_names_the_field_and_allowed_values() -> None:
    with pytest.raises(OptionError) as err:
        load_preset("shengji-17-deals").with_overrides({"late_overturn": "sometimes"})
    assert err.value.field == "late_overturn"
    assert "rebury" in str(err.value)
