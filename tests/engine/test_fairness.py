"""Per-deal commitment and reveal (engine.fairness): a revealed seed recomputes the real deal."""

from __future__ import annotations

import hashlib
import random

import pytest

from engine.cards import card_text
from engine.fairness import (
    commitment,
    contributions_mix,
    deal_seed,
    match_commitment,
    mixed_match_seed,
    recompute_deal,
    seed_bytes,
    verify_commitment,
)
from engine.game import computer_step
from engine.guandan.game import GuandanMatch
from engine.registry import load_preset
from engine.shengji.game import ShengjiMatch


def _shengji_dealt(m: ShengjiMatch) -> tuple[list[list[str]], list[str]]:
    """Deal a Shengji deal out (no bids) and return the four hands as dealt and the kitty."""
    while m.phase == "dealing":
        m.apply("sys deal")
    return [[card_text(c) for c in h] for h in m.hands], [card_text(c) for c in m.kitty]


def test_commitment_is_the_documented_sha256() -> None:
    seed = 0x0123456789ABCDEF
    assert seed_bytes(seed) == bytes.fromhex("0123456789abcdef")
    assert (
        commitment(seed)
        == hashlib.sha256(b"deal-commit/v1\x00" + bytes.fromhex("0123456789abcdef")).hexdigest()
    )
    assert (
        commitment(seed, b"salt")
        == hashlib.sha256(b"deal-commit/v1\x00" + bytes.fromhex("0123456789abcdef") + b"salt").hexdigest()
    )
    assert verify_commitment(seed, commitment(seed).upper())
    assert not verify_commitment(seed + 1, commitment(seed))
    assert not verify_commitment(seed, commitment(seed, b"salt"))
    assert not verify_commitment(-1, commitment(seed))
    with pytest.raises(ValueError):
        seed_bytes(1 << 64)


@pytest.mark.parametrize("preset", ["shengji-17-deals", "shengji-timed-2h"])
def test_revealed_seed_recomputes_every_shengji_deal_of_a_played_match(preset: str) -> None:
    opts = load_preset(preset).rules
    match_seed = 987654321
    m = ShengjiMatch(opts, match_seed)
    rng = random.Random(2)
    checked = 0
    while not m.finished and checked < 6:
        if m.phase == "dealing" and m.draws == 0:
            seed = deal_seed("shengji", match_seed, m.deal_no, m.redeal_no)
            shown = commitment(seed)  # what the table shows before the first card
            first = m.first_drawer  # public as dealing begins
            replica = ShengjiMatch(opts, match_seed)
            for action in m.log:
                replica.apply(action)
            hands, kitty = _shengji_dealt(replica)
            revealed = recompute_deal("shengji", seed, first)
            assert verify_commitment(seed, shown)
            assert [list(h) for h in revealed.hands] == hands and list(revealed.kitty) == kitty
            assert sum(len(h) for h in revealed.hands) == 100 and len(revealed.kitty) == 8
            # an altered seed deals something else and fails the commitment
            altered = recompute_deal("shengji", seed ^ 1, first)
            assert [list(h) for h in altered.hands] != hands and not verify_commitment(seed ^ 1, shown)
            # the same seed with another first drawer gives the hands to other seats
            assert [list(h) for h in recompute_deal("shengji", seed, (first + 1) % 4).hands] != hands
            checked += 1
        action = computer_step(m, rng)
        assert action is not None
        m.apply(action)
    assert checked == 6


def test_revealed_seed_recomputes_every_guandan_deal_of_a_played_match() -> None:
    opts = load_preset("guandan-team").rules
    match_seed = 424242
    m = GuandanMatch(opts, match_seed)
    rng = random.Random(3)
    checked = 0
    while not m.finished and checked < 3:
        before = m.deal_no
        action = computer_step(m, rng)
        assert action is not None
        m.apply(action)
        if m.deal_no != before:  # a deal was just dealt: hands are untouched until tribute or the first play
            seed = deal_seed("guandan", match_seed, m.deal_no)
            revealed = recompute_deal("guandan", seed)
            assert [list(h) for h in revealed.hands] == [[card_text(c) for c in h] for h in m.hands]
            assert revealed.kitty == ()
            assert recompute_deal("guandan", seed + 1).hands != revealed.hands
            checked += 1
    assert checked == 3
    with pytest.raises(ValueError):
        deal_seed("guandan", match_seed, 1, redeal_no=1)


def test_a_deal_seed_reveals_only_its_own_deal() -> None:
    seeds = {deal_seed("shengji", 7, d, r) for d in range(1, 20) for r in range(3)}
    assert len(seeds) == 19 * 3
    assert deal_seed("shengji", 7, 1) != deal_seed("guandan", 7, 1)  # redeal 0 is part of the Shengji label


def test_mixing_in_a_contribution_changes_the_match_and_is_order_independent() -> None:
    server = 123456789
    mix = contributions_mix(["alice: 17", "bob: 99", "public: 2026-11-30"])
    assert mix == contributions_mix(["public: 2026-11-30", "bob: 99", "alice: 17"])
    assert mix != contributions_mix(["alice: 17", "bob: 98", "public: 2026-11-30"])
    # length-prefixed: moving characters between values changes the mix
    assert contributions_mix(["ab", "c"]) != contributions_mix(["a", "bc"])
    seed = mixed_match_seed(server, mix)
    assert 0 <= seed < 2**62
    assert (
        seed
        == int.from_bytes(hashlib.sha256(b"match-mix/v1\x00" + seed_bytes(server) + mix).digest()[:8], "big")
        >> 2
    )
    assert seed != mixed_match_seed(server, contributions_mix(["alice: 17"]))
    assert match_commitment(server) == hashlib.sha256(b"match-commit/v1\x00" + seed_bytes(server)).hexdigest()
    # the mixed seed plays like any other: its first deal is recomputable from the per-deal seed
    m = ShengjiMatch(load_preset("shengji-17-deals").rules, seed)
    hands, kitty = _shengji_dealt(m)
    revealed = recompute_deal("shengji", deal_seed("shengji", seed, 1), m.first_drawer)
    assert [list(h) for h in revealed.hands] == hands
    assert list(revealed.kitty) == kitty
