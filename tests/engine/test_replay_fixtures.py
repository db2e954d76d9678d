"""Logs of real matches still replay to the same state (tests/fixtures/replays, written by its record.py).

A failure here means a change made stored matches replay differently: either undo it, or make it a
deliberate rule change — bump ``engine.game.RULES_VERSION`` and record the fixtures again
(``python -m tests.fixtures.replays.record``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.game import RULES_VERSION, state_fingerprint
from engine.options import build_options
from engine.registry import new_match, options_class, preset_ids

FOLDER = Path(__file__).resolve().parents[1] / "fixtures" / "replays"
FIXTURES = sorted(FOLDER.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_every_preset_and_the_demo_have_a_fixture() -> None:
    names = {p.stem for p in FIXTURES}
    assert {f"computer-{preset}" for preset in preset_ids()} <= names
    assert {"demo-shengji", "demo-guandan"} <= names


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_fixture_replays_to_the_recorded_fingerprint(path: Path) -> None:
    data = _load(path)
    assert data["rules_version"] == RULES_VERSION, "recorded under other rules: record the fixtures again"
    game = data["game"]
    m = new_match(game, build_options(options_class(game), data["options"]), data["seed"])
    checkpoints = data["checkpoints"]
    for number, action in enumerate(data["actions"], 1):
        m.apply(action)
        if str(number) in checkpoints:
            assert state_fingerprint(m) == checkpoints[str(number)], f"state differs after action {number}"
    assert m.log == data["actions"]  # every stored action is still canonical
    assert m.finished is data["finished"]
    assert json.loads(json.dumps(m.result())) == data["result"]
    assert state_fingerprint(m) == data["fingerprint"]


def test_a_changed_action_changes_the_fingerprint() -> None:
    """The fingerprint notices a difference a player would see (here: another card buried)."""
    data = _load(FOLDER / "computer-shengji-17-deals.json")
    opts = build_options(options_class("shengji"), data["options"])
    actions: list[str] = data["actions"]
    bury = next(i for i, a in enumerate(actions) if " bury " in a)
    m = new_match("shengji", opts, data["seed"])
    for action in actions[:bury]:
        m.apply(action)
    same = new_match("shengji", opts, data["seed"])
    for action in actions[:bury]:
        same.apply(action)
    assert state_fingerprint(m) == state_fingerprint(same)
    m.apply(actions[bury])
    seat = int(actions[bury].split()[0])
    view = same.seat_view(seat)
    hand = view["hand"]
    alternative = f"{seat} bury {' '.join(hand[-8:])}"
    assert alternative != actions[bury]
    same.apply(alternative)
    assert state_fingerprint(m) != state_fingerprint(same)
