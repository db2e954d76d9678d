"""Deterministic randomness: every shuffle comes from a recorded seed, never the global RNG."""

from __future__ import annotations

import hashlib
import random


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 64-bit seed derived from ``seed`` and labels (same inputs, same seed, on any machine)."""
    text = ":".join([str(seed), *(str(p) for p in parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def rng_for(seed: int, *parts: object) -> random.Random:
    """A private ``random.Random`` for one purpose (a deal's shuffle, a cut, a first leader)."""
    return random.Random(derive_seed(seed, *parts))
