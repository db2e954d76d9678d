"""Kitty (docs/rules.md 1.4) and kitty capture per preset (1.6, D5)."""

from __future__ import annotations

import pytest

from engine.registry import load_preset
from engine.shengji.scoring import kitty_capture

# docs/rules.md 1.6: format -> (17-deals, timed-2h, 50min) multiplier
ROWS = [
    ("single", 0, (2, 2, 2)),
    ("pair", 1, (4, 4, 4)),
    ("tractor", 2, (8, 6, 6)),
    ("tractor", 3, (16, 8, 16)),
    ("tractor", 4, (32, 10, 32)),
]
PRESETS = ("shengji-17-deals", "shengji-timed-2h", "shengji-50min")


@pytest.mark.parametrize(("fmt", "pairs", "mults"), ROWS)
@pytest.mark.parametrize("index", range(3))
def test_rules_1_6_kitty_multiplier_per_preset(
    fmt: str, pairs: int, mults: tuple[int, int, int], index: int
) -> None:
    o = load_preset(PRESETS[index]).rules
    pts, mult = kitty_capture(
        o.kitty_multiplier, 30, fmt, pairs, won_with_trump=True, offsuit_half=o.offsuit_kitty_half
    )
    assert (pts, mult) == (30 * mults[index], mults[index])


@pytest.mark.parametrize(("fmt", "pairs", "mults"), ROWS)
@pytest.mark.parametrize("index", range(3))
def test_rules_1_6_off_suit_capture_halved_only_in_timed_2h(
    fmt: str, pairs: int, mults: tuple[int, int, int], index: int
) -> None:
    o = load_preset(PRESETS[index]).rules
    pts, _ = kitty_capture(
        o.kitty_multiplier, 30, fmt, pairs, won_with_trump=False, offsuit_half=o.offsuit_kitty_half
    )
    full = 30 * mults[index]
    assert pts == (full // 2 if PRESETS[index] == "shengji-timed-2h" else full)
