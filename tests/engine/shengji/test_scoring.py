"""Kitty multipliers (docs/rules.md 1.6, D5), level tables and next dealer (1.7), passing A (D3)."""

from __future__ import annotations

import pytest

from engine.shengji.scoring import kitty_capture, kitty_multiplier, level_change, settle_deal

# (format, pairs) -> multiplier, per table; docs/rules.md 1.6 rows plus one row past the table (D5).
KITTY_ROWS = [
    ("single", 0, 2, 2, 2),
    ("pair", 1, 4, 4, 4),
    ("tractor", 2, 8, 6, 6),
    ("tractor", 3, 16, 8, 16),
    ("tractor", 4, 32, 10, 32),
    ("tractor", 5, 64, 12, 64),
]


@pytest.mark.parametrize(("fmt", "pairs", "doubling", "plus_two", "fifty"), KITTY_ROWS)
def test_rules_1_6_kitty_multiplier_table(
    fmt: str, pairs: int, doubling: int, plus_two: int, fifty: int
) -> None:
    assert kitty_multiplier("doubling", fmt, pairs) == doubling
    assert kitty_multiplier("plus_two", fmt, pairs) == plus_two
    assert kitty_multiplier("fifty_min", fmt, pairs) == fifty


def test_rules_1_6_offsuit_kitty_half_only_when_won_off_suit() -> None:
    assert kitty_capture("plus_two", 25, "pair", 1, won_with_trump=False, offsuit_half=True) == (50, 4)
    assert kitty_capture("plus_two", 25, "pair", 1, won_with_trump=True, offsuit_half=True) == (100, 4)
    assert kitty_capture("doubling", 25, "pair", 1, won_with_trump=False, offsuit_half=False) == (100, 4)
    assert kitty_capture("plus_two", 15, "tractor", 2, won_with_trump=False, offsuit_half=True) == (45, 6)


# (points, seventeen, timed, fifty_min): ("dealer"|"defenders", steps)
LEVEL_ROWS = [
    (-30, ("dealer", 3), ("dealer", 3), ("dealer", 3)),
    (0, ("dealer", 3), ("dealer", 3), ("dealer", 3)),
    (5, ("dealer", 2), ("dealer", 2), ("dealer", 2)),
    (35, ("dealer", 2), ("dealer", 2), ("dealer", 2)),
    (40, ("dealer", 1), ("dealer", 1), ("dealer", 1)),
    (55, ("dealer", 1), ("dealer", 1), ("dealer", 1)),
    (60, ("dealer", 1), ("dealer", 1), ("defenders", 0)),
    (75, ("dealer", 1), ("dealer", 1), ("defenders", 0)),
    (80, ("defenders", 0), ("defenders", 0), ("defenders", 0)),
    (115, ("defenders", 0), ("defenders", 0), ("defenders", 0)),
    (120, ("defenders", 1), ("defenders", 1), ("defenders", 1)),
    (155, ("defenders", 1), ("defenders", 1), ("defenders", 1)),
    (160, ("defenders", 2), ("defenders", 2), ("defenders", 2)),
    (195, ("defenders", 2), ("defenders", 2), ("defenders", 2)),
    (200, ("defenders", 3), ("defenders", 3), ("defenders", 3)),
    (235, ("defenders", 3), ("defenders", 3), ("defenders", 3)),
    (240, ("defenders", 3), ("defenders", 4), ("defenders", 4)),
    (275, ("defenders", 3), ("defenders", 4), ("defenders", 4)),
    (280, ("defenders", 3), ("defenders", 5), ("defenders", 5)),
    (400, ("defenders", 3), ("defenders", 8), ("defenders", 8)),
]


@pytest.mark.parametrize(("points", "seventeen", "timed", "fifty"), LEVEL_ROWS)
def test_rules_1_7_level_table(
    points: int, seventeen: tuple[str, int], timed: tuple[str, int], fifty: tuple[str, int]
) -> None:
    assert level_change("seventeen", points) == seventeen
    assert level_change("timed", points) == timed
    assert level_change("fifty_min", points) == fifty


def test_rules_1_7_next_dealer_partner_when_dealer_side_holds() -> None:
    s = settle_deal("seventeen", (5, 3), dealer=0, points=40)
    assert (s.winner, s.levels, s.next_dealer) == ("dealer", (6, 3), 2)
    s = settle_deal("seventeen", (5, 3), dealer=3, points=0)
    assert (s.levels, s.next_dealer) == ((5, 6), 1)


def test_rules_1_7_next_dealer_is_old_dealers_next_on_takeover() -> None:
    s = settle_deal("seventeen", (5, 3), dealer=0, points=80)
    assert (s.winner, s.levels, s.next_dealer) == ("defenders", (5, 3), 1)
    s = settle_deal("seventeen", (5, 3), dealer=3, points=165)
    assert (s.levels, s.next_dealer) == ((7, 3), 0)


def test_rules_1_7_levels_stop_at_a() -> None:
    s = settle_deal("seventeen", (13, 3), dealer=0, points=0)
    assert s.levels == (14, 3) and not s.passed_a
    s = settle_deal("timed", (3, 12), dealer=0, points=300)
    assert s.levels == (3, 14) and not s.passed_a


def test_d3_passing_a_dealer_side_at_a_holds() -> None:
    s = settle_deal("seventeen", (14, 9), dealer=2, points=75)
    assert s.passed_a and s.levels == (14, 9)
    s = settle_deal("seventeen", (14, 9), dealer=2, points=80)
    assert not s.passed_a
    # the defenders at A do not pass A by taking over
    s = settle_deal("seventeen", (9, 14), dealer=2, points=200)
    assert not s.passed_a
