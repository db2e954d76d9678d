"""Per-deal commitment and reveal: anyone can check that a deal's cards were fixed before it began.

API (for the bot, ``verify_deal`` and the review file)
------------------------------------------------------
* ``deal_seed(game, match_seed, deal_no, redeal_no=0) -> int`` — the seed the engine shuffles deal
  ``deal_no`` with (exactly ``engine.rng.derive_seed(match_seed, "deal", deal_no[, redeal_no])``).
  Publishing it reveals that one deal, nothing else: the match seed cannot be computed back from it.
* ``commitment(seed, salt=b"") -> str`` — the 64-hex-digit SHA-256 commitment to a deal seed,
  shown before the deal; ``verify_commitment(seed, commitment, salt=b"") -> bool``.
* ``recompute_deal(game, seed, first_drawer=0) -> DealCards`` — the four starting hands (and the
  Shengji kitty) that seed deals, as canonical card texts.  Shengji deals one card at a time
  counter-clockwise from ``first_drawer`` (public: the table shows it as dealing begins); Guandan
  gives seats 0..3 the deck's 27-card quarters in order, so it needs no drawer.
* ``mixed_match_seed(server_seed, mix) -> int`` and ``match_commitment(server_seed) -> str`` — for
  tournament tables: the server commits to ``server_seed`` first, then a value nobody controls alone
  (players' contributions, a public value fixed after the commitment) is mixed in; the match is
  played with the mixed seed.  ``contributions_mix(values)`` turns several contributions into one
  ``mix`` independent of their order.

Byte encodings (stable; version 1)
----------------------------------
* A seed is encoded as 8 bytes, unsigned big-endian (``seed_bytes``); seeds are 0 <= seed < 2**64.
* ``commitment(seed, salt) = sha256(b"deal-commit/v1\\x00" + seed_bytes(seed) + salt)`` as lowercase hex.
  ``salt`` is optional; a caller wanting a commitment that stays hiding against a 2**64 search can add
  16+ random bytes and reveal them with the seed.
* ``match_commitment(server_seed) = sha256(b"match-commit/v1\\x00" + seed_bytes(server_seed))`` hex.
* ``mixed_match_seed(server_seed, mix) = int.from_bytes(sha256(b"match-mix/v1\\x00" + seed_bytes(server_seed)
  + mix)[:8], "big") >> 2`` — 62 bits, the range of a stored match seed.  Per-deal seeds then derive from
  the mixed seed as usual, so ``seed_for_deal = H(H(server_seed, mix), deal)``.
* ``contributions_mix(values) = sha256(b"mix/v1\\x00" + for each value in sorted order:
  len(value) as 4 bytes big-endian + value)`` digest (32 bytes); values are UTF-8 text.

What is proven: the commitment shown before a deal fixes its seed, hence every card of it, before any
card is dealt or bid; the revealed seed recomputes the hands.  What is not: that the server chose
the seed at random — unless a mix fixed after ``match_commitment`` went into it (tournament tables).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Iterable
from dataclasses import dataclass

from engine.cards import card_text, full_deck
from engine.rng import derive_seed

COMMIT_DOMAIN = b"deal-commit/v1\x00"
SALT_DOMAIN = b"deal-salt/v1\x00"
MATCH_COMMIT_DOMAIN = b"match-commit/v1\x00"
MIX_DOMAIN = b"match-mix/v1\x00"
CONTRIBUTIONS_DOMAIN = b"mix/v1\x00"
SEED_BYTES = 8

SHENGJI_DRAWS = 100  # engine.shengji.deal.DRAWS (repeated to keep this module free of game imports)
GUANDAN_HAND = 27  # engine.guandan.deal.HAND_SIZE


@dataclass(frozen=True)
class DealCards:
    """The cards a deal seed deals: four starting hands (seat order) and the Shengji kitty (Guandan: empty).

    Hands are canonical card texts in the order dealt (Shengji) or sorted by card (Guandan)."""

    hands: tuple[tuple[str, ...], ...]
    kitty: tuple[str, ...]


def seed_bytes(seed: int) -> bytes:
    """The 8-byte big-endian encoding of a seed (ValueError outside 0 <= seed < 2**64)."""
    if not 0 <= seed < 1 << (8 * SEED_BYTES):
        raise ValueError(f"seed {seed} is outside 0..2**64-1")
    return seed.to_bytes(SEED_BYTES, "big")


def deal_seed(game: str, match_seed: int, deal_no: int, redeal_no: int = 0) -> int:
    """The seed deal ``deal_no`` (Shengji: and its ``redeal_no``-th redeal) is shuffled with."""
    if game == "shengji":
        return derive_seed(match_seed, "deal", deal_no, redeal_no)
    if game == "guandan":
        if redeal_no:
            raise ValueError("Guandan deals are never dealt again")
        return derive_seed(match_seed, "deal", deal_no)
    raise ValueError(f"unknown game {game!r}")


def deal_salt(match_seed: int, deal_no: int, redeal_no: int = 0, turn: int | None = None) -> bytes:
    """The 16-byte salt the bot adds to a deal's commitment (docs/fairness.md): derived from the match seed,
    so as secret as it until revealed; a duplicate board (``turn`` 0..3) adds the table's turn as one byte."""
    extra = b"" if turn is None else bytes([turn])
    return hashlib.sha256(
        SALT_DOMAIN
        + seed_bytes(match_seed)
        + deal_no.to_bytes(4, "big")
        + redeal_no.to_bytes(4, "big")
        + extra
    ).digest()[:16]


def commitment(seed: int, salt: bytes = b"") -> str:
    """The SHA-256 commitment (hex) to a deal seed, optionally salted (see the module docstring)."""
    return hashlib.sha256(COMMIT_DOMAIN + seed_bytes(seed) + salt).hexdigest()


def verify_commitment(seed: int, expected: str, salt: bytes = b"") -> bool:
    """True when ``seed`` (and ``salt``) give the commitment ``expected`` (hex, any case)."""
    try:
        got = commitment(seed, salt)
    except ValueError:
        return False
    return hmac.compare_digest(got, expected.strip().lower())


def recompute_deal(game: str, seed: int, first_drawer: int = 0, turn: int | None = None) -> DealCards:
    """The starting hands (and Shengji kitty) dealt by a revealed deal seed.

    ``turn`` (0..3): a duplicate board (option ``board_turn``): the hands belong to compass seats, every
    one turned ``turn`` seats, whoever drew first (Shengji: seat s holds the deck cards j < 100 with
    (j + turn) % 4 == s; Guandan: seat s holds quarter (s - turn) % 4)."""
    deck = full_deck(2)
    random.Random(seed).shuffle(deck)  # what engine.rng.rng_for builds from the derived seed
    if turn is not None and turn not in range(4):
        raise ValueError("turn is 0..3")
    if game == "shengji":
        if first_drawer not in range(4):
            raise ValueError("first_drawer is a seat 0..3")
        hands: list[list[str]] = [[], [], [], []]
        for i, c in enumerate(deck[:SHENGJI_DRAWS]):
            hands[(first_drawer + i) % 4 if turn is None else (i + turn) % 4].append(card_text(c))
        return DealCards(tuple(tuple(h) for h in hands), tuple(card_text(c) for c in deck[SHENGJI_DRAWS:]))
    if game == "guandan":
        quarters = [sorted(deck[s * GUANDAN_HAND : (s + 1) * GUANDAN_HAND]) for s in range(4)]
        shift = turn or 0
        return DealCards(tuple(tuple(card_text(c) for c in quarters[(s - shift) % 4]) for s in range(4)), ())
    raise ValueError(f"unknown game {game!r}")


def match_commitment(server_seed: int) -> str:
    """The SHA-256 commitment (hex) to a server seed, published before the mix is fixed."""
    return hashlib.sha256(MATCH_COMMIT_DOMAIN + seed_bytes(server_seed)).hexdigest()


def mixed_match_seed(server_seed: int, mix: bytes) -> int:
    """The match seed from the server's seed and a mixed-in value (62 bits, like stored seeds)."""
    digest = hashlib.sha256(MIX_DOMAIN + seed_bytes(server_seed) + mix).digest()
    return int.from_bytes(digest[:SEED_BYTES], "big") >> 2


def contributions_mix(values: Iterable[str]) -> bytes:
    """One 32-byte mix from several contributions (players' texts, a public value), order-independent."""
    h = hashlib.sha256(CONTRIBUTIONS_DOMAIN)
    for value in sorted(values):
        raw = value.encode("utf-8")
        h.update(len(raw).to_bytes(4, "big") + raw)
    return h.digest()


__all__ = [
    "DealCards",
    "commitment",
    "contributions_mix",
    "deal_salt",
    "deal_seed",
    "match_commitment",
    "mixed_match_seed",
    "recompute_deal",
    "seed_bytes",
    "verify_commitment",
]
