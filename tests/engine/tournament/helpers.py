"""Shared builders for the tournament tests."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from engine.game import Match, computer_step
from engine.registry import load_preset, new_match
from engine.tournament.entries import Entry
from engine.tournament.settings import TournamentSettings

SECRET = bytes(range(32))
OTHER_SECRET = bytes(range(1, 33))


def pairs(count: int, groups: int = 3, seeds: dict[int, int] | None = None) -> list[Entry]:
    """``count`` pairs p0..p{n-1} spread over ``groups`` union groups (G0, G1, ...)."""
    seeds = seeds or {}
    return [
        Entry(f"p{i}", f"Pair {i}", f"G{i % groups}", (f"u{i}a", f"u{i}b"), seeds.get(i))
        for i in range(count)
    ]


def teams(count: int, pairs_per_team: int = 3) -> list[Entry]:
    return [
        Entry(f"t{i}", f"Team {i}", f"U{i}", tuple(f"t{i}p{k}" for k in range(2 * pairs_per_team)))
        for i in range(count)
    ]


def preset_settings(preset: str) -> TournamentSettings:
    return TournamentSettings.from_mapping(load_preset(preset).tournament)


def board_table(preset_id: str, turn: int, seed: int, **rules: Any) -> Match:
    """A new match of ``preset_id`` dealing the boards of ``seed`` turned ``turn`` seats (``board_turn``, one
    table of a duplicate comparison); ``rules``: other rule values (e.g. ``deals=3``)."""
    preset = load_preset(preset_id)
    return new_match(preset.game, dataclasses.replace(preset.rules, board_turn=turn, **rules), seed)


def played_board_table(
    preset_id: str, turn: int, seed: int, deals: int, rng_seed: int | None = None
) -> Match:
    """``board_table`` played out to its end by the computer player (its choices from
    ``random.Random((rng_seed or seed) + turn)``, so the two tables of a comparison play differently)."""
    m = board_table(preset_id, turn, seed, deals=deals)
    rng = random.Random((seed if rng_seed is None else rng_seed) + turn)
    while not m.finished:
        action = computer_step(m, rng)
        assert action is not None
        m.apply(action)
    return m
