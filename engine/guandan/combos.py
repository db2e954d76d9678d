"""Guandan combinations (牌型), their comparison and every reading of a selection (docs/rules.md 2.1-2.3).

A :class:`Combo` is one *reading* of played cards: its kind, the actual cards (wild cards
included), what each card stands for (``as_cards``), a comparison value within its kind
(``rank_key``) and its size.  Two readings with the same ``key`` = ``(kind, rank_key, size)``
are the same play for the rules; ``readings`` lists each key once.

``rank_key`` by kind (level ``L``; see ``ranks``):

* single, pair, triple, bomb: the group-order value of the rank (2..14, L → 15, SJ 16, BJ 17);
* full house: the group-order value of its triple (the pair is not compared);
* straight, tube, plate, straight flush: the sequence position of the top rank (the level card
  at its natural place; A-2-3-4-5 → 5 … 10-J-Q-K-A → 14; tube AA2233 → 3; plate AAA222 → 2);
* joker bomb: 17.

Bomb ladder (2.3), low to high: 4-card < 5-card < straight flush < 6 < 7 < 8 < 9 < 10-card
< joker bomb; bombs of one size compare by rank, straight flushes by top card.

Decisions where docs/rules.md and the notice are silent:

* the pair of a full house may be a pair of jokers (BJ BJ or SJ SJ: 2.3 allows them as pairs);
* five cards of one rank are a bomb, never a full house (the triple and the pair differ in rank);
* wild cards alone (♥L, ♥L ♥L) read as themselves only (see ``wild``);
* a bomb and a straight flush never come from one selection with two decks (a bomb needs one
  natural rank, a straight flush five, and at most two cards are wild); the multi-reading cases
  are bomb / full house, straight flush / straight, two full houses, two tubes, tube / plate.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.cards import BIG_JOKER, DIAMONDS, HEARTS, SMALL_JOKER, Card, card_text, cards_text
from engine.errors import RuleError
from engine.guandan.ranks import (
    BJ_VALUE,
    order_value,
    position_rank,
    position_text,
    value_text,
)
from engine.guandan.wild import MAX_WILDS, split_wilds, stand_in

SINGLE: Final = "single"
PAIR: Final = "pair"
TRIPLE: Final = "triple"
FULL_HOUSE: Final = "full_house"
STRAIGHT: Final = "straight"
TUBE: Final = "tube"
PLATE: Final = "plate"
BOMB: Final = "bomb"
STRAIGHT_FLUSH: Final = "straight_flush"
JOKER_BOMB: Final = "joker_bomb"

KINDS: Final = (SINGLE, PAIR, TRIPLE, FULL_HOUSE, STRAIGHT, TUBE, PLATE, BOMB, STRAIGHT_FLUSH, JOKER_BOMB)
BOMB_KINDS: Final = frozenset({BOMB, STRAIGHT_FLUSH, JOKER_BOMB})
GROUP_KINDS: Final = {1: SINGLE, 2: PAIR, 3: TRIPLE}
# sequence kinds: (number of ranks, cards per rank)
SEQUENCE_SHAPES: Final = {STRAIGHT: (5, 1), TUBE: (3, 2), PLATE: (2, 3), STRAIGHT_FLUSH: (5, 1)}

KIND_CODES: Final = {
    SINGLE: "s",
    PAIR: "p",
    TRIPLE: "t",
    FULL_HOUSE: "fh",
    STRAIGHT: "st",
    TUBE: "tb",
    PLATE: "pl",
    BOMB: "b",
    STRAIGHT_FLUSH: "sf",
    JOKER_BOMB: "jb",
}
CODE_KINDS: Final = {v: k for k, v in KIND_CODES.items()}
KIND_NAMES_ZH: Final = {
    SINGLE: "单张",
    PAIR: "对子",
    TRIPLE: "三张",
    FULL_HOUSE: "三带二",
    STRAIGHT: "顺子",
    TUBE: "连对",
    PLATE: "钢板",
    BOMB: "炸弹",
    STRAIGHT_FLUSH: "同花顺",
    JOKER_BOMB: "天王炸",
}

STRAIGHT_FLUSH_TIER: Final = 55  # between the 5-card (50) and the 6-card (60) bomb
JOKER_BOMB_TIER: Final = 1000


@dataclass(frozen=True)
class Combo:
    """One reading of played cards.

    ``cards`` are the actual cards in display order (sequences low to high; full house triple
    then pair), ``as_cards`` what each of them stands for (a natural card stands for itself).
    """

    kind: str
    cards: tuple[Card, ...]
    rank_key: int
    size: int
    as_cards: tuple[Card, ...]

    @property
    def key(self) -> tuple[str, int, int]:
        """``(kind, rank_key, size)``: readings with one key are the same play for the rules."""
        return (self.kind, self.rank_key, self.size)

    @property
    def is_bomb(self) -> bool:
        return self.kind in BOMB_KINDS

    @property
    def bomb_tier(self) -> int:
        """Rung of the bomb ladder: 10 × size for a plain bomb, 55 for a straight flush, 1000 for the
        joker bomb, 0 for a non-bomb."""
        if self.kind == BOMB:
            return 10 * self.size
        if self.kind == STRAIGHT_FLUSH:
            return STRAIGHT_FLUSH_TIER
        if self.kind == JOKER_BOMB:
            return JOKER_BOMB_TIER
        return 0

    @property
    def power(self) -> tuple[int, int]:
        """Bomb strength ``(bomb_tier, rank_key)``; compare bombs by it."""
        return (self.bomb_tier, self.rank_key)

    @property
    def wild_count(self) -> int:
        """Wild cards among ``cards`` that stand for another card (a wild played as itself is not counted)."""
        return sum(1 for c, a in zip(self.cards, self.as_cards, strict=True) if c != a)

    def reading_id(self) -> str:
        """Short stable id of the reading, e.g. ``"sf6.5"``, ``"b5.9"``, ``"fh15.5"`` (fits callback data)."""
        return f"{KIND_CODES[self.kind]}{self.rank_key}.{self.size}"

    def to_text(self) -> str:
        """Canonical text: kind then what the cards stand for, e.g. ``"straight_flush ♣2 ♣3 ♣4 ♣5 ♣6"``."""
        return f"{self.kind} {cards_text(self.as_cards)}"

    def cards_text(self) -> str:
        """The actual cards, canonical text."""
        return cards_text(self.cards)

    def label(self, level: int) -> str:
        """Short human label: ``"同花顺 ♣2-6"``, ``"炸弹 5×9"``, ``"三带二 K"``, ``"单张 BJ"``."""
        zh = KIND_NAMES_ZH[self.kind]
        if self.kind in SEQUENCE_SHAPES:
            n_ranks = SEQUENCE_SHAPES[self.kind][0]
            low = position_text(self.rank_key - n_ranks + 1)
            top = position_text(self.rank_key)
            suit = card_text(self.as_cards[0])[0] if self.kind == STRAIGHT_FLUSH else ""
            return f"{zh} {suit}{low}-{top}"
        if self.kind == JOKER_BOMB:
            return zh
        if self.kind == BOMB:
            return f"{zh} {value_text(self.rank_key, level)}×{self.size}"
        return f"{zh} {value_text(self.rank_key, level)}"


def beats(a: Combo, b: Combo) -> bool:
    """True when ``a`` may be played on ``b`` (docs/rules.md 2.3).

    Any bomb beats any non-bomb; bombs compare on the ladder (size, straight flush between 5 and
    6 cards, joker bomb on top), then rank; other kinds only beat the same kind with the same
    number of cards and a higher ``rank_key``.
    """
    a_bomb = a.kind in BOMB_KINDS
    b_bomb = b.kind in BOMB_KINDS
    if a_bomb or b_bomb:
        if not a_bomb:
            return False
        if not b_bomb:
            return True
        return a.power > b.power
    return a.kind == b.kind and a.size == b.size and a.rank_key > b.rank_key


# --- building readings --------------------------------------------------------------------------


def _group(kind: str, rank: int, naturals: Sequence[Card], wilds: Sequence[Card], level: int) -> Combo:
    nat = sorted(naturals)
    fill = (stand_in(rank),) * len(wilds) if wilds else ()  # jokers never come with wild cards
    return Combo(
        kind, tuple(nat) + tuple(wilds), order_value(rank, level), len(nat) + len(wilds), tuple(nat) + fill
    )


def _full_house(
    triple_rank: int,
    triple: Sequence[Card],
    pair_rank: int,
    pair: Sequence[Card],
    wilds: Sequence[Card],
    level: int,
) -> Combo:
    t = sorted(triple)
    p = sorted(pair)
    t_fill = 3 - len(t)
    tw = tuple(wilds[:t_fill])
    pw = tuple(wilds[t_fill:])
    cards = tuple(t) + tw + tuple(p) + pw
    as_cards = tuple(t) + (stand_in(triple_rank),) * len(tw) + tuple(p) + (stand_in(pair_rank),) * len(pw)
    return Combo(FULL_HOUSE, cards, order_value(triple_rank, level), 5, as_cards)


def _free_pair_rank(triple_rank: int, level: int) -> int:
    """What a pair made of two wild cards stands for in a full house: itself, or the lowest other rank."""
    if level != triple_rank:
        return level
    return 2 if triple_rank != 2 else 3


def _sequence(
    kind: str, top: int, by_rank: dict[int, list[Card]], wilds: Sequence[Card], suit: int | None
) -> Combo | None:
    """The sequence of ``kind`` topped at position ``top`` from these naturals and wilds, or None."""
    n_ranks, per_rank = SEQUENCE_SHAPES[kind]
    positions = range(top - n_ranks + 1, top + 1)
    ranks = [position_rank(p) for p in positions]
    for r in by_rank:
        if r not in ranks:
            return None
    if (
        suit is None
        and kind == STRAIGHT
        and wilds
        and {c // 13 for v in by_rank.values() for c in v} == {HEARTS}
    ):
        suit = DIAMONDS  # a plain straight shows its wild cards off-suit, so it does not look like a flush
    cards: list[Card] = []
    as_cards: list[Card] = []
    wi = 0
    for r in ranks:
        nat = by_rank.get(r, [])
        if len(nat) > per_rank:
            return None
        nat = sorted(nat)
        cards.extend(nat)
        as_cards.extend(nat)
        for _ in range(per_rank - len(nat)):
            if wi >= len(wilds):
                return None
            cards.append(wilds[wi])
            as_cards.append(stand_in(r) if suit is None else stand_in(r, suit))
            wi += 1
    if wi != len(wilds):
        return None
    return Combo(kind, tuple(cards), top, len(cards), tuple(as_cards))


def readings(cards: Iterable[Card], level: int) -> list[Combo]:
    """Every legal reading of a selection at ``level``, each ``key`` once (docs/rules.md 2.2, 2.3).

    Each wild card (♥ of the level rank, at most two) may stand for any card but a joker, or be
    itself.  Without wild cards five suited consecutive cards read as a straight flush *and* a
    straight.  Order: bombs (strongest first), then the other kinds in ``KINDS`` order.
    An invalid selection gives ``[]`` (``classify_or_error`` says why).
    """
    sel = list(cards)
    n = len(sel)
    if n == 0 or n > 10:
        return []
    naturals, wilds = split_wilds(sel, level)
    w = len(wilds)
    if w > MAX_WILDS:
        return []
    jokers = [c for c in naturals if c >= 52]
    by_rank: dict[int, list[Card]] = {}
    for c in naturals:
        if c < 52:
            by_rank.setdefault(c % 13 + 2, []).append(c)
    out: list[Combo] = []

    # singles, pairs, triples, bombs, joker bomb
    if jokers:
        if not by_rank and not wilds:
            js = sorted(jokers)
            if n == 1:
                out.append(_group(SINGLE, 15 if js[0] == SMALL_JOKER else 16, js, (), level))
            elif n == 2 and js[0] == js[1]:
                out.append(_group(PAIR, 15 if js[0] == SMALL_JOKER else 16, js, (), level))
            elif js == [SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER]:
                out.append(Combo(JOKER_BOMB, tuple(js), BJ_VALUE, 4, tuple(js)))
    elif len(by_rank) <= 1:
        rank = next(iter(by_rank)) if by_rank else level  # all wild: the wild cards as themselves
        kind = GROUP_KINDS.get(n, BOMB)
        if kind != BOMB or n >= 4:
            out.append(_group(kind, rank, by_rank.get(rank, []), wilds, level))

    if n == 5:
        # full houses: triple rank T (never jokers) + a pair of another rank (jokers allowed, never wild)
        for t_rank, t_cards in by_rank.items():
            if len(t_cards) > 3:
                continue
            rest = [c for c in naturals if c < 52 and c % 13 + 2 != t_rank] + jokers
            need_t = 3 - len(t_cards)
            if not rest:
                if w - need_t == 2:
                    out.append(_full_house(t_rank, t_cards, _free_pair_rank(t_rank, level), (), wilds, level))
                continue
            if len({c % 13 + 2 if c < 52 else c for c in rest}) > 1 or len(rest) > 2:
                continue
            p_joker = rest[0] >= 52
            if p_joker and len(rest) != 2:
                continue
            p_rank = (15 if rest[0] == SMALL_JOKER else 16) if p_joker else rest[0] % 13 + 2
            out.append(_full_house(t_rank, t_cards, p_rank, rest, wilds, level))
        if not jokers:
            for top in range(5, 15):
                s = _sequence(STRAIGHT, top, by_rank, wilds, None)
                if s is not None:
                    out.append(s)
            suits = {c // 13 for c in naturals}
            if len(suits) == 1:
                suit = suits.pop()
                for top in range(5, 15):
                    s = _sequence(STRAIGHT_FLUSH, top, by_rank, wilds, suit)
                    if s is not None:
                        out.append(s)
    elif n == 6 and not jokers:
        for top in range(3, 15):
            s = _sequence(TUBE, top, by_rank, wilds, None)
            if s is not None:
                out.append(s)
        for top in range(2, 15):
            s = _sequence(PLATE, top, by_rank, wilds, None)
            if s is not None:
                out.append(s)

    out.sort(key=_reading_order)
    return out


def _reading_order(c: Combo) -> tuple[int, int, int, int]:
    return (-c.bomb_tier, KINDS.index(c.kind), -c.rank_key, -c.size)


def playable_readings(cards: Iterable[Card], level: int, to_beat: Combo | None) -> list[Combo]:
    """The readings of a selection that may be played now: all when leading, else those beating ``to_beat``."""
    rs = readings(cards, level)
    if to_beat is None:
        return rs
    return [r for r in rs if beats(r, to_beat)]


def find_reading(options: Sequence[Combo], reading_id: str) -> Combo | None:
    """The reading among ``options`` whose ``reading_id()`` is ``reading_id`` (or whose kind name matches)."""
    for c in options:
        if c.reading_id() == reading_id or c.kind == reading_id:
            return c
    return None


# --- reasons --------------------------------------------------------------------------------------


def classify_or_error(cards: Iterable[Card], level: int) -> list[Combo]:
    """The readings of a selection (non-empty), or RuleError naming why it is no combination.

    Codes: ``no_cards``, ``too_many_cards``, ``mixed_joker_pair`` (BJ SJ), ``wild_not_joker``
    (a wild card cannot stand for a joker), ``jokers_in_straight``, ``jokers_in_sequence``,
    ``straight_needs_five``, ``straight_wraps`` (Q-K-A-2-3), ``not_consecutive``,
    ``tube_needs_three_pairs``, ``plate_needs_two_triples``, ``not_a_combination``.
    Params: ``cards`` (canonical text).
    """
    sel = list(cards)
    rs = readings(sel, level)
    if rs:
        return rs
    code, template = _why_not(sel, level)
    raise RuleError(code, template, cards=cards_text(sel))


def _fits_window(by_rank: dict[int, list[Card]], n_ranks: int, per_rank: int, wrap: bool) -> bool:
    """Whether the natural ranks fit ``n_ranks`` consecutive ranks with at most ``per_rank`` each
    (``wrap``: only windows that pass from A to 2 through K, which the rules forbid)."""
    if any(len(v) > per_rank for v in by_rank.values()):
        return False
    ranks = set(by_rank)
    if wrap:
        cycle = list(range(2, 15))
        for start in range(13):
            window = {cycle[(start + i) % 13] for i in range(n_ranks)}
            passes = 13 in window and 2 in window and 14 in window
            if passes and ranks <= window:
                return True
        return False
    for top in range(n_ranks, 15):
        window = {position_rank(p) for p in range(top - n_ranks + 1, top + 1)}
        if ranks <= window:
            return True
    return False


def _why_not(sel: list[Card], level: int) -> tuple[str, str]:
    n = len(sel)
    if n == 0:
        return "no_cards", "No cards selected"
    if n > 10:
        return "too_many_cards", "No combination has more than 10 cards: {cards}"
    naturals, wilds = split_wilds(sel, level)
    jokers = [c for c in naturals if c >= 52]
    by_rank: dict[int, list[Card]] = {}
    for c in naturals:
        if c < 52:
            by_rank.setdefault(c % 13 + 2, []).append(c)
    if jokers:
        if n == 2 and sorted(jokers) == [SMALL_JOKER, BIG_JOKER]:
            return "mixed_joker_pair", "BJ and SJ are not a pair: {cards}"
        if wilds and not by_rank:
            return "wild_not_joker", "A wild card cannot stand for a joker: {cards}"
        if n == 5 and len(by_rank) + len(wilds) >= 2 and all(len(v) == 1 for v in by_rank.values()):
            return "jokers_in_straight", "Jokers cannot be part of a straight: {cards}"
        if n == 6 and by_rank and all(len(v) >= 2 for v in by_rank.values()):
            return "jokers_in_sequence", "Jokers cannot be part of a tube or a plate: {cards}"
        return "not_a_combination", "Not a combination: {cards}"
    counts = [len(v) for v in by_rank.values()]
    if counts and max(counts) == 1 and len(by_rank) >= 3:
        if n == 5:
            if _fits_window(by_rank, 5, 1, wrap=True):
                return "straight_wraps", "A straight cannot pass from A to 2 (no wrap): {cards}"
            return "not_consecutive", "The ranks are not consecutive: {cards}"
        if _fits_window(by_rank, n, 1, wrap=False) or _fits_window(by_rank, n, 1, wrap=True):
            return "straight_needs_five", "A straight has exactly five cards: {cards}"
    if (
        counts
        and max(counts) <= 2
        and counts.count(2) >= 2
        and n % 2 == 0
        and n != 6
        and _fits_window(by_rank, n // 2, 2, wrap=False)
    ):
        return "tube_needs_three_pairs", "A tube (连对) has exactly three pairs: {cards}"
    if (
        counts
        and max(counts) <= 3
        and counts.count(3) >= 2
        and n % 3 == 0
        and n != 6
        and _fits_window(by_rank, n // 3, 3, wrap=False)
    ):
        return "plate_needs_two_triples", "A plate (钢板) has exactly two triples: {cards}"
    if n == 6 and counts and max(counts) <= 3:
        if _fits_window(by_rank, 3, 2, wrap=True) or _fits_window(by_rank, 2, 3, wrap=True):
            return "straight_wraps", "A sequence cannot pass from A to 2 (no wrap): {cards}"
        return "not_consecutive", "The ranks are not consecutive: {cards}"
    return "not_a_combination", "Not a combination: {cards}"
