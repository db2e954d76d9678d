"""Translations: every rule error the engines and storage can raise has a zh and an en message."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.presentation.i18n import cards, catalogue, normalize, rule_error, t
from bot.presentation.tournament.texts import T as TOURNAMENT_TEXTS
from engine.errors import RuleError

ROOT = Path(__file__).resolve().parents[4]
CODE_RE = re.compile(r'RuleError\(\s*"([a-z_]+)"')
RETURN_RE = re.compile(r'return\s+"([a-z_]+)",\s*"')  # engine/guandan/combos.py: (code, template) reasons


def codes_in(folder: str) -> set[str]:
    found: set[str] = set()
    for path in (ROOT / folder).rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        found |= set(CODE_RE.findall(text))
        if path.name == "combos.py":
            found |= set(RETURN_RE.findall(text))
    return found


@pytest.mark.parametrize("folder", ["engine", "storage"])
def test_every_rule_error_code_has_zh_and_en(folder):
    """Game codes are translated by the game catalogues; tournament codes may be translated by the
    tournament texts instead (bot/presentation/tournament/texts.py ``error_text`` looks there first)."""
    codes = codes_in(folder)
    assert codes, folder
    tournament = {key for key, (zh, en) in TOURNAMENT_TEXTS.items() if zh and en}
    missing = {
        lang: sorted(c for c in codes if "err." + c not in catalogue(lang) and "err." + c not in tournament)
        for lang in ("zh", "en")
    }
    assert missing == {"zh": [], "en": []}


def test_catalogues_have_the_same_keys_and_fields():
    zh, en = catalogue("zh"), catalogue("en")
    assert set(zh) == set(en)
    fields = re.compile(r"{(\w+)}")
    for key in zh:
        assert set(fields.findall(zh[key])) == set(fields.findall(en[key])), key


def test_rule_error_is_translated_with_params_and_chinese_jokers():
    err = RuleError("not_in_hand", "You do not hold {card}", card="BJ")
    assert rule_error("zh", err) == "你没有 大王"
    assert rule_error("en", err) == "You do not hold BJ"
    pair = RuleError("must_follow_pair", "x", suit="♣", cards="♣8 ♣8")
    assert "♣8 ♣8" in rule_error("zh", pair) and "必须跟对子" in rule_error("zh", pair)


def test_language_choice():
    assert normalize("en-GB") == "en"
    assert normalize("zh-hans") == "zh"
    assert normalize("de", "zh-CN") == "zh"
    assert normalize(None, "en") == "en"
    assert cards("zh", "SJ ♠10 BJ") == "小王 ♠10 大王"
    assert t("zh", "err.stale") == "这个按钮已过期"
    assert t("en", "err.not_your_table") == "This is not your seat"


def test_guandan_return_errors_name_the_configured_rank_limit():
    """D8 with return_max_rank = J: the error says J, not a hard-coded 10."""
    from engine.cards import parse_cards
    from engine.guandan.tribute import check_return

    hand = parse_cards("♠3 ♠J ♥Q ♥K")
    with pytest.raises(RuleError) as above:
        check_return(hand, 2, parse_cards("♥Q")[0], max_rank=11)
    assert "J 或以下" in rule_error("zh", above.value) and "10" not in rule_error("zh", above.value)
    assert "rank J or lower" in rule_error("en", above.value)
    high = parse_cards("♥Q ♥K ♠A")
    with pytest.raises(RuleError) as lowest:
        check_return(high, 2, parse_cards("♠A")[0], max_rank=11)
    assert "你没有 J 或以下的牌" in rule_error("zh", lowest.value)


def test_the_catalogues_are_the_messages_table():
    """bot/presentation/i18n/messages.py is the source ``python -m bot.presentation.i18n.messages`` writes the .po files from:
    a text edited in one place only would be lost (or revived) at the next regeneration."""
    from bot.presentation.i18n.messages import ERRORS, UI

    table = {**UI, **{"err." + k: v for k, v in ERRORS.items()}}
    for idx, lang in enumerate(("zh", "en")):
        assert catalogue(lang) == {key: texts[idx] for key, texts in table.items()}, lang
