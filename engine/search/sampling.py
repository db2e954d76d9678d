"""Deal the cards a seat cannot see, consistently with what it knows (determinized search).

A hidden *slot* is another seat's hand (or a Shengji kitty the seat did not bury) with a known size;
``allowed(slot, card)`` says whether the slot may hold ``card`` (a void shown by play forbids a group);
``fixed`` lists cards a slot is known to hold (a bid's shown cards, a Guandan tribute).  The deal draws
from the given ``random.Random`` only (no global randomness), so a search seeded the same way samples
the same worlds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from engine.cards import Card


def deal_hidden(
    pool: Sequence[Card],
    sizes: Sequence[int],
    rng: random.Random,
    allowed: Callable[[int, Card], bool] | None = None,
    fixed: Sequence[Sequence[Card]] = (),
    tries: int = 20,
) -> list[list[Card]]:
    """``pool`` (exactly ``sum(sizes)`` cards) split into slots of ``sizes``.

    Cards in ``fixed[slot]`` go to that slot first (when the pool still has them); the rest are dealt
    most-constrained first, each to an allowed slot chosen with weight its free room.  After ``tries``
    failed attempts the void constraints are dropped (a world slightly inconsistent with the voids beats
    no world at all; it happens only when the constraints are near-contradictory)."""
    if sum(sizes) != len(pool):
        raise ValueError(f"{len(pool)} hidden cards for {sum(sizes)} places")
    for attempt in range(tries + 1):
        ok = allowed if attempt < tries else None
        got = _attempt(pool, sizes, rng, ok, fixed)
        if got is not None:
            return got
    raise AssertionError("an unconstrained deal cannot fail")  # pragma: no cover


def _attempt(
    pool: Sequence[Card],
    sizes: Sequence[int],
    rng: random.Random,
    allowed: Callable[[int, Card], bool] | None,
    fixed: Sequence[Sequence[Card]],
) -> list[list[Card]] | None:
    n = len(sizes)
    out: list[list[Card]] = [[] for _ in range(n)]
    room = list(sizes)
    rest = list(pool)
    for slot, cards in enumerate(fixed):
        for c in cards:
            if c in rest and room[slot] > 0 and (allowed is None or allowed(slot, c)):
                rest.remove(c)
                out[slot].append(c)
                room[slot] -= 1
    rng.shuffle(rest)
    if allowed is not None:
        options = {c: [s for s in range(n) if allowed(s, c)] for c in set(rest)}
        rest.sort(key=lambda c: len(options[c]))
    for c in rest:
        slots = [s for s in (options[c] if allowed is not None else range(n)) if room[s] > 0]
        if not slots:
            return None
        total = sum(room[s] for s in slots)
        pick = rng.randrange(total)
        for s in slots:
            pick -= room[s]
            if pick < 0:
                break
        out[s].append(c)
        room[s] -= 1
    return out
