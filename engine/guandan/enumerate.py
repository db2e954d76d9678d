"""Every legal play for the seat to act (docs/rules.md 2.2-2.4), for the computer player, hints and auto-play.

Contract of ``legal_plays(hand, level, to_beat)``:

* every returned Combo is a reading of its own cards (``key in {r.key for r in readings(c.cards)}``),
  its cards are in ``hand``, and it beats ``to_beat`` (when given);
* for every sub-multiset ``S`` of ``hand`` that *validates* (``readings(S, level)`` is non-empty)
  and every reading ``R`` of ``S`` playable now (``to_beat is None`` or ``beats(R, to_beat)``), the
  result holds a Combo with ``R.key`` = ``(kind, rank_key, size)``;
* each key appears once (unless ``kickers=True``, see below).

Which actual cards stand for a key (the canonical choice):

1. as few wild cards as possible (a wild card filling its own place, ♥L as ♥L, counts as used);
2. natural cards of one rank in suit order ♠ ♥ ♣ ♦ (first copy first);
3. straight flush: the suit needing the fewest wild cards, then ♠ ♥ ♣ ♦;
4. full house: the pair needing the fewest wild cards, then a rank held exactly twice, then a
   rank held three times, then a pair of jokers, then a rank held four or more times (breaking a
   bomb), each time the lowest first.  With ``kickers=True`` every distinct pair rank is listed
   (several Combos share a key: they differ in the pair), for the computer player.

Order of the result: non-bombs in ``KINDS`` order, each kind by ``rank_key`` ascending; then
bombs by strength ascending (the ladder of 2.3).

The work is done on count vectors (by rank, by suit for straight flushes) with a wild-card
budget; no subsets are built.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.cards import BIG_JOKER, SMALL_JOKER, Card, cards_text, contains
from engine.errors import RuleError
from engine.guandan.combos import (
    BOMB,
    FULL_HOUSE,
    JOKER_BOMB,
    KINDS,
    PAIR,
    PLATE,
    SINGLE,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPLE,
    TUBE,
    Combo,
    beats,
    classify_or_error,
)
from engine.guandan.ranks import BJ_VALUE, LEVEL_VALUE, SJ_VALUE

_RANKS: Final = tuple(range(2, 15))
_GROUP_SIZE: Final = {SINGLE: 1, PAIR: 2, TRIPLE: 3}
# positions 1..14 -> rank (1 is the low ace)
_POS_RANK: Final = (0, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
_RANK_POSITIONS: Final = tuple(sum(1 << p for p in range(1, 15) if _POS_RANK[p] == r) for r in range(15))
"""Per rank, the bit mask of its straight positions (the ace: 1 and 14)."""
_SEQ: Final = {STRAIGHT: (5, 1), TUBE: (3, 2), PLATE: (2, 3)}


class _Hand:
    """Count vectors of a hand at a level."""

    __slots__ = ("level", "wild", "w", "nat", "rc", "sj", "bj", "val")

    def __init__(self, hand: Sequence[Card], level: int) -> None:
        self.level = level
        wild = 13 + level - 2  # ♥ of the level rank
        self.wild = wild
        cnt = [0] * 54
        for c in hand:
            cnt[c] += 1
        self.w = cnt[wild]
        cnt[wild] = 0
        self.sj = cnt[SMALL_JOKER]
        self.bj = cnt[BIG_JOKER]
        # natural cards of each rank, suit order, with multiplicity
        nat: list[list[Card]] = [[] for _ in range(15)]
        for r in _RANKS:
            lst = nat[r]
            for suit in range(4):
                k = suit * 13 + r - 2
                n = cnt[k]
                if n:
                    lst.append(k)
                    if n > 1:
                        lst.extend([k] * (n - 1))
        self.nat = nat
        self.rc = [len(x) for x in nat]
        self.val = [LEVEL_VALUE if r == level else r for r in range(15)]

    # --- builders -----------------------------------------------------------------------------

    def group(self, kind: str, r: int, size: int) -> Combo | None:
        """``size`` cards of rank ``r`` (fewest wild cards), or None."""
        n = self.rc[r]
        if n >= size:
            cs = tuple(self.nat[r][:size])
            return Combo(kind, cs, self.val[r], size, cs)
        need = size - n
        if need > self.w or (n == 0 and r != self.level):
            return None
        nat = tuple(self.nat[r])
        wild = self.wild
        return Combo(kind, nat + (wild,) * need, self.val[r], size, nat + (13 + r - 2,) * need)

    def groups(self, kind: str, above: int) -> list[Combo]:
        size = _GROUP_SIZE[kind]
        out: list[Combo] = []
        for r in _RANKS:
            if self.val[r] > above:
                g = self.group(kind, r, size)
                if g is not None:
                    out.append(g)
        out.sort(key=lambda c: c.rank_key)
        if size <= 2:
            if self.sj >= size and above < SJ_VALUE:
                cs = (SMALL_JOKER,) * size
                out.append(Combo(kind, cs, SJ_VALUE, size, cs))
            if self.bj >= size and above < BJ_VALUE:
                cs = (BIG_JOKER,) * size
                out.append(Combo(kind, cs, BJ_VALUE, size, cs))
        return out

    def pair_options(
        self, t: int, rem: int
    ) -> list[tuple[tuple[int, int, int], tuple[Card, ...], tuple[Card, ...]]]:
        """Pairs for a full house with triple rank ``t`` and ``rem`` wild cards left:
        (preference key, cards, as_cards), best first."""
        opts: list[tuple[tuple[int, int, int], tuple[Card, ...], tuple[Card, ...]]] = []
        wild = self.wild
        for p in _RANKS:
            if p == t:
                continue
            n = self.rc[p]
            if n >= 2:
                penalty = 0 if n == 2 else 1 if n == 3 else 3
                cs = tuple(self.nat[p][:2])
                opts.append(((0, penalty, self.val[p]), cs, cs))
            elif n == 1 and rem >= 1:
                opts.append(((1, 0, self.val[p]), (self.nat[p][0], wild), (self.nat[p][0], 13 + p - 2)))
        if self.sj >= 2:
            opts.append(((0, 2, SJ_VALUE), (SMALL_JOKER,) * 2, (SMALL_JOKER,) * 2))
        if self.bj >= 2:
            opts.append(((0, 2, BJ_VALUE), (BIG_JOKER,) * 2, (BIG_JOKER,) * 2))
        if rem >= 2:
            free = self.level if self.level != t else (2 if t != 2 else 3)
            opts.append(((2, 0, 0), (wild, wild), (13 + free - 2,) * 2))
        opts.sort(key=lambda o: o[0])
        return opts

    def full_houses(self, above: int, kickers: bool) -> list[Combo]:
        out: list[Combo] = []
        wild = self.wild
        for t in _RANKS:
            v = self.val[t]
            if v <= above:
                continue
            n = self.rc[t]
            if n == 0 or n + self.w < 3:
                continue
            need = 3 - n if n < 3 else 0
            nat = tuple(self.nat[t][:3])
            tcards = nat + (wild,) * need
            tas = nat + (13 + t - 2,) * need
            opts = self.pair_options(t, self.w - need)
            if not opts:
                continue
            for _, pc, pas in opts if kickers else opts[:1]:
                out.append(Combo(FULL_HOUSE, tcards + pc, v, 5, tas + pas))
        out.sort(key=lambda c: c.rank_key)
        return out

    def sequences(self, kind: str, above: int) -> list[Combo]:
        n_ranks, per = _SEQ[kind]
        rc = self.rc
        w = self.w
        out: list[Combo] = []
        for top in range(max(n_ranks, above + 1), 15):
            need = 0
            for p in range(top - n_ranks + 1, top + 1):
                n = rc[_POS_RANK[p]]
                if n < per:
                    need += per - n
            if need > w:
                continue
            cards: list[Card] = []
            as_cards: list[Card] = []
            for p in range(top - n_ranks + 1, top + 1):
                r = _POS_RANK[p]
                nat = self.nat[r][:per]
                cards.extend(nat)
                as_cards.extend(nat)
                k = per - len(nat)
                if k:
                    cards.extend([self.wild] * k)
                    as_cards.extend([13 + r - 2] * k)
            if per == 1 and len({c // 13 for c in as_cards}) == 1:
                self._unflush(cards, as_cards, top)
            out.append(Combo(kind, tuple(cards), top, n_ranks * per, tuple(as_cards)))
        return out

    def _unflush(self, cards: list[Card], as_cards: list[Card], top: int) -> None:
        """A plain straight that happens to be suited would spend a straight flush: swap one natural
        card for one of another suit when the hand has it (highest position first)."""
        for i in range(4, -1, -1):
            c = cards[i]
            if c == self.wild:
                continue
            for k in self.nat[_POS_RANK[top - 4 + i]]:
                if k // 13 != c // 13:
                    cards[i] = k
                    as_cards[i] = k
                    return
        # only wild cards could break the suit: let a wild card stand in another suit
        for i in range(5):
            if cards[i] == self.wild:
                r = _POS_RANK[top - 4 + i]
                alt = 3 * 13 + r - 2 if as_cards[i] // 13 != 3 else r - 2
                as_cards[i] = alt
                return

    def straight_flushes(self, above: int) -> list[Combo]:
        """For each top position above ``above``: the straight flush of the suit needing the fewest wild
        cards (the lowest suit among equals), if the wild cards suffice.  Each suit's natural ranks are a
        bit mask over the positions (the ace at 1 and 14), so a run's missing cards are a popcount."""
        out: list[Combo] = []
        w = self.w
        wild = self.wild
        present = [[False] * 15 for _ in range(4)]
        masks = [0, 0, 0, 0]
        for r in _RANKS:
            for k in self.nat[r]:
                present[k // 13][r] = True
                masks[k // 13] |= _RANK_POSITIONS[r]
        for top in range(max(5, above + 1), 15):
            best: tuple[int, int] | None = None
            shift = top - 4
            for suit in range(4):
                need = 5 - ((masks[suit] >> shift) & 31).bit_count()
                if need <= w and (best is None or need < best[0]):
                    best = (need, suit)
            if best is None:
                continue
            suit = best[1]
            pres = present[suit]
            cards = []
            as_cards = []
            for p in range(top - 4, top + 1):
                r = _POS_RANK[p]
                k = suit * 13 + r - 2
                cards.append(k if pres[r] else wild)
                as_cards.append(k)
            out.append(Combo(STRAIGHT_FLUSH, tuple(cards), top, 5, tuple(as_cards)))
        return out

    def bombs(self, above: tuple[int, int] | None) -> list[Combo]:
        """Every bomb (by strength ascending) stronger than ``above`` (a ``Combo.power``), or all."""
        out: list[Combo] = []
        w = self.w
        for r in _RANKS:
            n = self.rc[r]
            if n + w < 4 or n < 2:
                continue
            v = self.val[r]
            for size in range(4, n + w + 1):
                if above is not None and (10 * size, v) <= above:
                    continue
                g = self.group(BOMB, r, size)
                if g is not None:
                    out.append(g)
        if above is None or above < (55, 14):
            out.extend(c for c in self.straight_flushes(-1) if above is None or c.power > above)
        if self.sj >= 2 and self.bj >= 2 and (above is None or above < (1000, BJ_VALUE)):
            cs = (SMALL_JOKER, SMALL_JOKER, BIG_JOKER, BIG_JOKER)
            out.append(Combo(JOKER_BOMB, cs, BJ_VALUE, 4, cs))
        out.sort(key=lambda c: c.power)
        return out


def legal_plays(
    hand: Sequence[Card], level: int, to_beat: Combo | None = None, *, kickers: bool = False
) -> list[Combo]:
    """Every legal play from ``hand`` at ``level``: every combination when leading (``to_beat`` None),
    else every combination that beats ``to_beat`` (its kind and size with a higher rank, or a bomb
    high enough).  See the module docstring for the contract and the canonical card choice.
    """
    h = _Hand(hand, level)
    if to_beat is None:
        out: list[Combo] = []
        for kind in KINDS:
            out.extend(_of_kind(h, kind, -1, kickers))
        out.extend(h.bombs(None))
        return out
    if to_beat.is_bomb:
        return h.bombs(to_beat.power)
    out = _of_kind(h, to_beat.kind, to_beat.rank_key, kickers)
    out.extend(h.bombs(None))
    return out


def _of_kind(h: _Hand, kind: str, above: int, kickers: bool) -> list[Combo]:
    if kind in _GROUP_SIZE:
        return h.groups(kind, above)
    if kind == FULL_HOUSE:
        return h.full_houses(above, kickers)
    if kind in _SEQ:
        return h.sequences(kind, above)
    return []


def lowest_play(
    hand: Sequence[Card], level: int, to_beat: Combo | None, *, bombs: bool = True
) -> Combo | None:
    """A cheap play for auto-play: the lowest single when leading (a natural card before a wild card);
    when following, the lowest combination of ``to_beat``'s kind that beats it, else (``bombs``) the
    weakest bomb that beats it, else None (pass)."""
    h = _Hand(hand, level)
    if to_beat is None:
        singles = h.groups(SINGLE, -1)
        if not singles:
            return None
        natural = [c for c in singles if c.cards[0] != h.wild]
        return (natural or singles)[0]
    if not to_beat.is_bomb:
        same = _of_kind(h, to_beat.kind, to_beat.rank_key, False)
        if same:
            return same[0]
    if not bombs:
        return None
    bs = h.bombs(to_beat.power if to_beat.is_bomb else None)
    return bs[0] if bs else None


def validate_play(
    hand: Sequence[Card], cards: Sequence[Card], level: int, to_beat: Combo | None
) -> list[Combo]:
    """Readings of ``cards`` playable now from ``hand``; RuleError when the cards are not held, are no
    combination (reason from ``classify_or_error``) or do not beat ``to_beat`` (``does_not_beat``)."""
    if not contains(hand, cards):
        raise RuleError("not_in_hand", "You do not hold {card}", card=cards_text(cards))
    rs = classify_or_error(cards, level)
    if to_beat is None:
        return rs
    ok = [r for r in rs if beats(r, to_beat)]
    if not ok:
        raise RuleError(
            "does_not_beat",
            "{cards} does not beat {table}",
            cards=cards_text(cards),
            table=cards_text(to_beat.cards),
        )
    return ok
