"""Structured moves (``ShengjiMatch.apply_move``): the same match as through action texts."""

from __future__ import annotations

import random

import pytest

from engine.errors import RuleError
from engine.game import state_fingerprint
from engine.registry import load_preset
from engine.shengji.ai import random_legal_action, random_legal_move
from engine.shengji.game import ShengjiMatch
from engine.shengji.match import Move

OPTS = load_preset("shengji-17-deals").with_overrides({"deals": 3}).rules


def test_moves_and_texts_play_the_same_match() -> None:
    by_move, by_text = ShengjiMatch(OPTS, 99), ShengjiMatch(OPTS, 99)
    rng_move, rng_text = random.Random(5), random.Random(5)
    while not by_move.finished:
        move = random_legal_move(by_move, rng_move)
        text = random_legal_action(by_text, rng_text)
        assert move is not None and move.text() == text
        assert by_move.apply_move(move) == by_text.apply(text)
    assert by_text.finished and by_move.log == by_text.log
    assert state_fingerprint(by_move) == state_fingerprint(by_text)
    # the log holds canonical texts that replay the match
    replayed = ShengjiMatch(OPTS, 99)
    for action in by_move.log:
        replayed.apply(action)
    assert state_fingerprint(replayed) == state_fingerprint(by_move)


@pytest.mark.parametrize(
    "move, code",
    [
        (Move(7, "pass_bid"), "bad_action"),
        (Move(0, "bid"), "no_cards"),
        (Move(0, "bid", (99,)), "no_cards"),
        (Move(0, "bid", (-1,)), "no_cards"),
        (Move(0, "shout"), "bad_action"),
        (Move(None, "shout"), "bad_action"),
    ],
)
def test_a_bad_move_is_refused_and_changes_nothing(move: Move, code: str) -> None:
    m = ShengjiMatch(OPTS, 1)
    m.apply("sys deal")
    before = state_fingerprint(m)
    with pytest.raises(RuleError) as caught:
        m.apply_move(move)
    assert caught.value.code == code
    assert state_fingerprint(m) == before
