"""The season and casual-rating words (bot/presentation/season_texts.py): both languages have every
message with the same fields, and a season refusal names the game in the reader's language."""

from __future__ import annotations

import re

from bot.presentation.season_texts import S, season_error, st
from engine.errors import RuleError

FIELD = re.compile(r"\{(\w+)\}")


def test_every_message_has_both_languages_with_the_same_fields() -> None:
    for key, (zh, en) in S.items():
        assert zh and en and zh != en, key
        assert sorted(FIELD.findall(zh)) == sorted(FIELD.findall(en)), key


def test_a_refusal_is_translated_with_its_game() -> None:
    err = RuleError("season_wrong_game", "Tournament {id} plays {game}", id=4, game="guandan")
    assert season_error("zh", err) == "比赛 4 打的是掼蛋，与赛季的游戏不同；没有改动。"
    assert season_error("en", err) == "Tournament 4 plays Guandan, not the season's game; nothing changed."
    # a code of the tournament side is translated as the tournament side does
    assert season_error("en", RuleError("tournament_not_found", "x", id=9)) == "There is no tournament 9."
    assert st("en", "created", id=2, name="Spring", game="Shengji").startswith("Season S2 “Spring” (Shengji)")
