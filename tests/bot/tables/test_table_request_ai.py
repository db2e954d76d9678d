"""/newtable ai=easy|normal|strong: the level reaches the table's options; a bad level gets one clear,
translated answer naming the levels."""

from __future__ import annotations

from bot.tables.table_request import TableRequest, read_request


def test_the_level_reaches_the_options() -> None:
    got = read_request("zh", ["guandan-team", "ai=strong", "bots=3"], may_fix_seed=False)
    assert isinstance(got, TableRequest) and got.preset.rules.ai == "strong"
    plain = read_request("zh", ["shengji-17-deals"], may_fix_seed=False)
    assert isinstance(plain, TableRequest) and plain.preset.rules.ai == "normal"


def test_a_bad_level_is_refused_in_the_users_language() -> None:
    assert read_request("en", ["shengji-17-deals", "ai=hard"], may_fix_seed=False) == [
        "Option ai=hard is not allowed; allowed: easy | normal | strong"
    ]
    zh = read_request("zh", ["shengji-17-deals", "ai=hard"], may_fix_seed=False)
    assert isinstance(zh, list) and len(zh) == 1
    assert "ai=hard" in zh[0] and "easy | normal | strong" in zh[0] and "allowed" not in zh[0]
