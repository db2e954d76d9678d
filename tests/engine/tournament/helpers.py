"""Shared builders for the tournament tests."""

from __future__ import annotations

from engine.registry import load_preset
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
