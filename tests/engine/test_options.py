"""Rule options and presets (docs/rules.md section 4): every preset loads, overrides are validated."""

import pytest

from engine.errors import OptionError, RuleError
from engine.guandan.options import GuandanOptions
from engine.options import option_specs
from engine.registry import load_preset, preset_ids
from engine.shengji.options import ShengjiOptions


def test_the_four_notice_presets_exist():
    assert preset_ids() == ["guandan-team", "shengji-17-deals", "shengji-50min", "shengji-timed-2h"]


@pytest.mark.parametrize(
    "preset,expected",
    [
        (
            "shengji-17-deals",
            {
                "bid_style": "joker_level",
                "throws": True,
                "kitty_multiplier": "doubling",
                "level_table": "seventeen",
                "deals": 17,
                "tie_break": "dealer_side",
            },
        ),
        (
            "shengji-timed-2h",
            {
                "bid_style": "level_only",
                "failed_throw_choice": "opponents",
                "offsuit_kitty_half": True,
                "kitty_multiplier": "plus_two",
                "time_limit_minutes": 120,
                "lead_clock": 20,
                "follow_clock": 10,
                "kitty_clock": 60,
            },
        ),
        (
            "shengji-50min",
            {
                "throws": False,
                "public_trump": True,
                "dealer_side_no_bid": "blackout",
                "kitty_multiplier": "fifty_min",
                "time_limit_minutes": 50,
                "tie_break": "cut",
            },
        ),
        (
            "guandan-team",
            {
                "always_show_counts": False,
                "a_failures_reset": False,
                "time_limit_minutes": 60,
                "tribute_on_one_four": "pay",
            },
        ),
    ],
)
def test_preset_values_match_rules_md_section_4(preset, expected):
    rules = load_preset(preset).rules
    for name, value in expected.items():
        assert getattr(rules, name) == value, name


def test_override_changes_only_that_option():
    base = load_preset("shengji-17-deals")
    changed = base.with_overrides({"deals": "3", "lead_clock": "20"})
    assert changed.rules.deals == 3 and changed.rules.lead_clock == 20
    assert changed.rules.bid_style == base.rules.bid_style


@pytest.mark.parametrize(
    "field,value,allowed_fragment",
    [
        ("kitty_multiplier", "triple", "doubling | plus_two | fifty_min"),
        ("deals", "many", "0..200"),
        ("deals", "-1", "0..200"),
        ("throws", "maybe", "true | false"),
    ],
)
def test_invalid_option_names_the_field_and_allowed_values(field, value, allowed_fragment):
    with pytest.raises(OptionError) as err:
        load_preset("shengji-17-deals").with_overrides({field: value})
    assert err.value.field == field
    assert allowed_fragment in str(err.value)


def test_unknown_option_and_unknown_preset_are_clear_errors():
    with pytest.raises(RuleError) as err:
        load_preset("shengji-17-deals").with_overrides({"speed": "fast"})
    assert err.value.code == "unknown_option"
    with pytest.raises(RuleError) as err:
        load_preset("bridge")
    assert err.value.code == "unknown_preset" and "shengji-50min" in str(err.value)


@pytest.mark.parametrize("cls", [ShengjiOptions, GuandanOptions])
def test_every_option_has_a_description(cls):
    for spec in option_specs(cls):
        assert spec.doc, spec.name
