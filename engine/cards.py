"""Cards of the two-deck games: identity, canonical text, parsing, points.

A card is a small int (its *kind*): the 52 suited cards are ``suit * 13 + (rank - 2)``
with suits ♠=0 ♥=1 ♣=2 ♦=3 and ranks 2..14 (J=11, Q=12, K=13, A=14); the small joker is
52 and the big joker 53.  Two decks hold every kind twice; the two copies are
interchangeable, so a hand is a multiset of kinds (a sorted list, or a count vector).

Canonical text: ``♠10``, ``♥A``, ``SJ``, ``BJ``; several cards joined by single spaces.
``parse_cards`` also reads ASCII (``10s``, ``ah``, ``s10``), Chinese (``红桃5``, ``大王``) and
run-together forms (``5h5h``, ``♥5♥5``).  ``SJ``/``sj`` is always the small joker; the
jack of spades is ``♠J``, ``js`` or ``黑桃J``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Final

from engine.errors import RuleError

Card = int

SPADES: Final = 0
HEARTS: Final = 1
CLUBS: Final = 2
DIAMONDS: Final = 3
SUITS: Final = (SPADES, HEARTS, CLUBS, DIAMONDS)
JOKER_SUIT: Final = 4  # pseudo-suit of both jokers

SUIT_SYMBOLS: Final = ("♠", "♥", "♣", "♦")
SUIT_NAMES_ZH: Final = ("黑桃", "红桃", "梅花", "方片")
SUIT_NAMES_EN: Final = ("spades", "hearts", "clubs", "diamonds")

RANKS: Final = tuple(range(2, 15))  # 2..14
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
ACE: Final = 14
SJ_RANK: Final = 15
BJ_RANK: Final = 16

SMALL_JOKER: Final[Card] = 52
BIG_JOKER: Final[Card] = 53
NUM_KINDS: Final = 54

RANK_TEXT: Final = {r: str(r) for r in range(2, 11)} | {JACK: "J", QUEEN: "Q", KING: "K", ACE: "A"}
TEXT_RANK: Final = {v: k for k, v in RANK_TEXT.items()}


def card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0..3) and ``rank`` (2..14)."""
    return suit * 13 + (rank - 2)


def suit_of(c: Card) -> int:
    """0..3 for suited cards, JOKER_SUIT for jokers."""
    return JOKER_SUIT if c >= 52 else c // 13


def rank_of(c: Card) -> int:
    """2..14 for suited cards, 15 for the small joker, 16 for the big joker."""
    if c >= 52:
        return SJ_RANK if c == SMALL_JOKER else BJ_RANK
    return c % 13 + 2


def is_joker(c: Card) -> bool:
    return c >= 52


def points(c: Card) -> int:
    """Card points: every 5 is 5, every 10 and K is 10 (200 in two decks)."""
    if c >= 52:
        return 0
    r = c % 13 + 2
    if r == 5:
        return 5
    if r == 10 or r == KING:
        return 10
    return 0


def total_points(cards: Iterable[Card]) -> int:
    return sum(points(c) for c in cards)


def full_deck(decks: int = 2) -> list[Card]:
    """Every card of ``decks`` decks, in kind order (108 cards for two decks)."""
    return [c for c in range(NUM_KINDS) for _ in range(decks)]


CARD_TEXTS: Final = tuple(SUIT_SYMBOLS[c // 13] + RANK_TEXT[c % 13 + 2] for c in range(52)) + ("SJ", "BJ")


def card_text(c: Card) -> str:
    """Canonical text of one card: ``♠10``, ``♥A``, ``SJ``, ``BJ``."""
    if not 0 <= c < NUM_KINDS:
        raise ValueError(f"not a card: {c!r}")
    return CARD_TEXTS[c]


def cards_text(cards: Iterable[Card]) -> str:
    """Canonical text of several cards, in the order given."""
    seq = cards if isinstance(cards, (list, tuple)) else list(cards)
    if seq and not (min(seq) >= 0 and max(seq) < NUM_KINDS):
        return " ".join([card_text(c) for c in seq])  # raises ValueError naming the bad card
    return " ".join([CARD_TEXTS[c] for c in seq])


def sort_key(c: Card) -> tuple[int, int]:
    """Plain display order without any trump: jokers first, then ♠♥♣♦, high rank first."""
    if c >= 52:
        return (0, -c)
    return (1 + c // 13, -(c % 13))


def sorted_plain(cards: Iterable[Card]) -> list[Card]:
    return sorted(cards, key=sort_key)


# --- parsing ---------------------------------------------------------------------------

_SUIT_WORDS: Final = {
    "♠": SPADES,
    "♤": SPADES,
    "s": SPADES,
    "黑桃": SPADES,
    "黑": SPADES,
    "♥": HEARTS,
    "♡": HEARTS,
    "h": HEARTS,
    "红桃": HEARTS,
    "红心": HEARTS,
    "红": HEARTS,
    "♣": CLUBS,
    "♧": CLUBS,
    "c": CLUBS,
    "梅花": CLUBS,
    "草花": CLUBS,
    "梅": CLUBS,
    "♦": DIAMONDS,
    "♢": DIAMONDS,
    "d": DIAMONDS,
    "方片": DIAMONDS,
    "方块": DIAMONDS,
    "方": DIAMONDS,
}
_JOKER_WORDS: Final = {
    "sj": SMALL_JOKER,
    "小王": SMALL_JOKER,
    "小鬼": SMALL_JOKER,
    "bj": BIG_JOKER,
    "大王": BIG_JOKER,
    "大鬼": BIG_JOKER,
}
_RANK_RE: Final = r"10|[2-9jqka]|t"
_SUIT_RE: Final = "|".join(sorted((re.escape(w) for w in _SUIT_WORDS), key=len, reverse=True))
_JOKER_RE: Final = "|".join(sorted(_JOKER_WORDS, key=len, reverse=True))
_TOKEN_RE: Final = re.compile(
    rf"\s*(?:(?P<joker>{_JOKER_RE})|(?P<s1>{_SUIT_RE})\s?(?P<r1>{_RANK_RE})|(?P<r2>{_RANK_RE})(?P<s2>{_SUIT_RE}))[\s,，、]*",
    re.IGNORECASE,
)


def _rank_value(text: str) -> int:
    t = text.upper()
    if t == "T":
        return 10
    return TEXT_RANK[t]


def parse_card(text: str) -> Card:
    """One card from any accepted form; raises RuleError ``bad_card`` otherwise."""
    cards = parse_cards(text)
    if len(cards) != 1:
        raise RuleError("bad_card", "Not one card: {text}", text=text.strip())
    return cards[0]


def parse_cards(text: str) -> list[Card]:
    """Cards from typed text, in the order written; raises RuleError ``bad_card``."""
    pos = 0
    out: list[Card] = []
    s = text.strip()
    while pos < len(s):
        m = _TOKEN_RE.match(s, pos)
        if m is None or m.end() == pos:
            rest = s[pos:].split()[0] if s[pos:].split() else s[pos:]
            raise RuleError("bad_card", "Not a card: {text}", text=rest)
        if m.group("joker"):
            out.append(_JOKER_WORDS[m.group("joker").lower()])
        elif m.group("s1"):
            out.append(card(_SUIT_WORDS[m.group("s1").lower()], _rank_value(m.group("r1"))))
        else:
            out.append(card(_SUIT_WORDS[m.group("s2").lower()], _rank_value(m.group("r2"))))
        pos = m.end()
    return out


def counts_of(cards: Iterable[Card]) -> list[int]:
    """Count vector indexed by card kind."""
    counts = [0] * NUM_KINDS
    for c in cards:
        counts[c] += 1
    return counts


def contains(hand: Sequence[Card], cards: Sequence[Card]) -> bool:
    """True when ``hand`` (a multiset) holds every card of ``cards`` (with multiplicity)."""
    need = counts_of(cards)
    have = counts_of(hand)
    return all(have[k] >= n for k, n in enumerate(need) if n)


def remove_cards(hand: Sequence[Card], cards: Sequence[Card]) -> list[Card]:
    """``hand`` minus ``cards`` (multiset difference); raises RuleError ``not_in_hand``."""
    rest = list(hand)
    for c in cards:
        try:
            rest.remove(c)
        except ValueError:
            raise RuleError("not_in_hand", "You do not hold {card}", card=card_text(c)) from None
    return rest
