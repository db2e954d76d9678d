"""/newtable arguments (bot/tables/table_request.py): every problem in one translated message; seed= is guarded."""

from __future__ import annotations

import re

from bot.presentation.echo import ECHO_MAX, clip
from bot.tables.table_request import TableRequest, problems_message, read_request

ASCII_WORDS = re.compile(r"[A-Za-z]{4,}")


def test_every_bad_option_is_reported_at_once_in_chinese():
    got = read_request(
        "zh", ["shengji-17-deals", "deals=-3", "bots=9", "foo=bar", "lead_clock", "bar=1"], may_fix_seed=False
    )
    assert isinstance(got, list) and len(got) == 4
    text = problems_message("zh", got)
    assert text.startswith("有 4 处问题")
    assert "deals=-3" in text and "整数 0..200" in text and "bots=9" in text and "0..4" in text
    assert "foo, bar" in text and "lead_clock" in text
    assert "an integer" not in text and "allowed" not in text  # no English beyond option names
    prose = re.sub(r"[a-z_0-9]+=?[^\s;,]*", "", text)  # option names and values are what the user typed
    assert not ASCII_WORDS.search(prose.replace("practice", "")), prose


def test_english_user_gets_english():
    got = read_request("en", ["guandan-team", "deals=x"], may_fix_seed=False)
    assert got == ["Option deals=x is not allowed; allowed: an integer 0..200"]


def test_long_garbage_is_echoed_at_most_30_characters():
    junk = "x" * 5000
    got = read_request("zh", ["shengji-17-deals", f"deals={junk}", junk], may_fix_seed=False)
    text = problems_message("zh", got)
    assert len(text) < 400 and "x" * (ECHO_MAX + 1) not in text
    assert clip("a" * 100).endswith("…") and len(clip("a" * 100)) == ECHO_MAX
    bad_preset = read_request("zh", [junk], may_fix_seed=False)
    assert "x" * (ECHO_MAX + 1) not in bad_preset[0] and "shengji-17-deals" in bad_preset[0]


def test_seed_only_for_bot_admins_or_a_practice_table():
    refused = read_request("zh", ["shengji-17-deals", "seed=42"], may_fix_seed=False)
    assert isinstance(refused, list) and "管理员" in refused[0] and "practice=yes" in refused[0]
    admin = read_request("zh", ["shengji-17-deals", "seed=42"], may_fix_seed=True)
    assert isinstance(admin, TableRequest) and admin.seed == 42 and not admin.practice
    practice = read_request(
        "zh", ["shengji-17-deals", "seed=42", "practice=yes", "bots=3", "deals=2"], may_fix_seed=False
    )
    assert isinstance(practice, TableRequest) and practice.seed == 42 and practice.practice
    assert practice.bots == 3 and practice.preset.rules.deals == 2


def test_good_request_and_usage():
    ok = read_request("zh", ["guandan-team", "deals=1", "bots=2"], may_fix_seed=False)
    assert isinstance(ok, TableRequest) and ok.seed is None and ok.bots == 2
    assert "shengji-17-deals" in read_request("zh", [], may_fix_seed=False)[0]


def test_rule_errors_echo_long_input_short():
    from bot.edge.bad_input import rule_error_clipped
    from engine.cards import parse_cards
    from engine.errors import RuleError

    try:
        parse_cards("x" * 5000)
    except RuleError as err:
        text = rule_error_clipped("zh", err)
    assert len(text) < 60 and "x" * (ECHO_MAX + 1) not in text and text.endswith("…")
