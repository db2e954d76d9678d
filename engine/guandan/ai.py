"""The baseline Guandan computer player: always legal, reasonably sensible, fast.

It looks only at what its seat may know: its own hand, the table, and card counts (public:
everybody can count the cards played).

* **Plan** (``decompose``): the hand split into the fewest hands (单张/对子/三张/三带二/顺子/连对/
  钢板/炸弹), by a small memoised search on rank counts (wild cards count as level cards).
* **Lead**: the whole hand when it is one combination; a low single (pair) to a partner with
  one (two) cards left; else the weakest non-bomb group of the plan (longer combinations first
  on ties), avoiding a low single when the next opponent has one card left; bombs only when
  nothing else is left.
* **Follow**: never beats a partner who is winning the trick (unless it can go out at once);
  against an opponent, plays the non-bomb that keeps the plan shortest (and does not break
  it, unless the opponent is close to going out); bombs only when needed: an opponent close
  to going out, or when the rest of the hand can then go out in at most one more hand.
* **Tribute**: pays the highest card whose loss hurts the plan least; returns the least
  useful card of rank 10 or lower (never the ♥ level card when another choice exists).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from operator import itemgetter

from engine.cards import BIG_JOKER, SMALL_JOKER, card_text
from engine.guandan.combos import (
    BOMB,
    FULL_HOUSE,
    JOKER_BOMB,
    PAIR,
    PLATE,
    SINGLE,
    STRAIGHT,
    TRIPLE,
    TUBE,
    Combo,
    playable_readings,
)
from engine.guandan.enumerate import legal_plays, lowest_play
from engine.guandan.levels import partner_of, side_of
from engine.guandan.match import GuandanRules
from engine.guandan.ranks import card_order, is_wild, order_value
from engine.guandan.tribute import return_choices, tribute_choices

# sequences tried in the plan: (kind, number of ranks, cards per rank)
_SEQS = ((STRAIGHT, 5, 1), (TUBE, 3, 2), (PLATE, 2, 3))
_GROUP_KIND = {1: SINGLE, 2: PAIR, 3: TRIPLE}
DANGER_CARDS = 6  # an opponent with this many cards or fewer is "close to going out"


def _pos_rank(p: int) -> int:
    return 14 if p == 1 else p


@dataclass(frozen=True)
class Group:
    """One hand of a plan: kind and the ranks it uses ((rank, copies), ...); rank 15 SJ, 16 BJ."""

    kind: str
    ranks: tuple[tuple[int, int], ...]
    top: int  # sequence top position, or the (level-free) rank of a group / triple

    @property
    def size(self) -> int:
        return sum(k for _, k in self.ranks)


# per sequence position: the sequences that may start there (cards per rank, a getter of the counts of
# its ranks, its ranks, the group it makes)
_SEQ_AT: dict[
    int, tuple[tuple[int, Callable[[tuple[int, ...]], tuple[int, ...]], tuple[int, ...], Group], ...]
] = {
    p: tuple(
        (
            k,
            itemgetter(*ranks),
            ranks,
            Group(kind, tuple((x, k) for x in ranks), p + n - 1),
        )
        for kind, n, k in _SEQS
        if p + n - 1 <= 14
        for ranks in [tuple(_pos_rank(q) for q in range(p, p + n))]
    )
    for p in range(1, 15)
}
# per rank and count: the group of those cards alone, and its score
_SINGLE_GROUP = {
    (r, c): (Group(_GROUP_KIND.get(c, BOMB), ((r, c),), r), 10 + (1 if c == 1 else 0))
    for r in range(2, 15)
    for c in range(1, 9)
}


@lru_cache(maxsize=1 << 16)
def _plan_counts(counts: tuple[int, ...]) -> tuple[Group, ...]:
    """The fewest-groups plan of rank counts (index = rank 2..14), before full houses merge."""
    return _plan_from(1, counts)[1]


def _plan_next(p: int, cs: tuple[int, ...]) -> tuple[int, tuple[Group, ...]]:
    """``_plan_from(p, cs)``, skipping the positions whose rank is absent (nothing starts there)."""
    while p < 15 and not cs[p]:
        p += 1
    if p == 15:
        return 0, ()
    return _plan_from(p, cs)


@lru_cache(maxsize=1 << 18)
def _plan_from(p: int, cs: tuple[int, ...]) -> tuple[int, tuple[Group, ...]]:
    """The best (score, groups) for the ranks from sequence position ``p`` on (1 = the ace below 2, 2..14);
    memoised across hands, as many hands share the same remaining counts (the strong player's play-outs)."""
    if p == 15:
        return 0, ()
    best: tuple[int, tuple[Group, ...]] | None = None
    for k, get, ranks, group in _SEQ_AT[p]:
        if min(get(cs)) >= k:
            nc = list(cs)
            for x in ranks:
                nc[x] -= k
            score, groups = _plan_from(p, tuple(nc))
            if best is None or score + 10 < best[0]:
                best = (score + 10, groups + (group,))
    if p == 1:
        score, groups = _plan_next(2, cs)
    else:
        c = cs[p]
        if c:
            nc = list(cs)
            nc[p] = 0
            score, groups = _plan_next(p + 1, tuple(nc))
            group, cost = _SINGLE_GROUP[p, c]
            score += cost
            groups = groups + (group,)
        else:
            score, groups = _plan_next(p + 1, cs)
    if best is None or score < best[0]:
        best = (score, groups)
    return best


def clear_plan_cache() -> None:
    """Empty the plan memos (benchmarks measure fresh hands)."""
    _plan_counts.cache_clear()
    _plan_from.cache_clear()
    _decompose.cache_clear()
    _plan_len.cache_clear()


def _counts(hand: Sequence[int]) -> tuple[tuple[int, ...], int, int]:
    """The rank counts of ``hand`` (index = rank 2..14; wild cards count as level cards) and its small and
    big jokers."""
    counts = [0] * 15
    sj = bj = 0
    for c in hand:
        if c == SMALL_JOKER:
            sj += 1
        elif c == BIG_JOKER:
            bj += 1
        else:
            counts[c % 13 + 2] += 1
    return tuple(counts), sj, bj


def decompose(hand: Sequence[int], level: int) -> list[Group]:
    """The hand as the fewest hands (full houses merged: lowest triples with lowest pairs)."""
    counts, sj, bj = _counts(hand)
    return list(_decompose(counts, sj, bj, level))


@lru_cache(maxsize=1 << 16)
def _decompose(counts: tuple[int, ...], sj: int, bj: int, level: int) -> tuple[Group, ...]:
    groups = list(_plan_counts(counts))
    if sj == 2 and bj == 2:
        groups.append(Group(JOKER_BOMB, ((15, 2), (16, 2)), 17))
    else:
        for rank, n in ((15, sj), (16, bj)):
            if n:
                groups.append(Group(_GROUP_KIND[n], ((rank, n),), rank))
    triples = sorted((g for g in groups if g.kind == TRIPLE), key=lambda g: order_value(g.top, level))
    pairs = sorted(
        (g for g in groups if g.kind == PAIR and g.top < 15), key=lambda g: order_value(g.top, level)
    )
    for t, p in zip(triples, pairs, strict=False):
        groups.remove(t)
        groups.remove(p)
        groups.append(Group(FULL_HOUSE, t.ranks + p.ranks, t.top))
    return tuple(groups)


def plan_size(hand: Sequence[int], level: int) -> int:
    """``len(decompose(hand, level))``, without building the plan's full houses (the level does not
    change how many groups there are)."""
    del level
    counts, sj, bj = _counts(hand)
    jokers = 1 if sj == 2 and bj == 2 else (1 if sj else 0) + (1 if bj else 0)
    return _plan_len(counts) + jokers


@lru_cache(maxsize=1 << 16)
def _plan_len(counts: tuple[int, ...]) -> int:
    groups = _plan_counts(counts)
    triples = sum(1 for g in groups if g.kind == TRIPLE)
    pairs = sum(1 for g in groups if g.kind == PAIR)
    return len(groups) - min(triples, pairs)


def _group_value(g: Group, level: int) -> int:
    if g.kind in (STRAIGHT, TUBE, PLATE):
        return g.top
    return order_value(g.top, level) if g.top <= 14 else g.top + 1


def _cards_for(g: Group, hand: Sequence[int], level: int) -> list[int] | None:
    """Actual cards of ``hand`` for group ``g`` (natural cards before wild cards)."""
    pool = sorted(hand, key=lambda c: (is_wild(c, level), c))
    out: list[int] = []
    for rank, k in g.ranks:
        got = [c for c in pool if (c % 13 + 2 == rank if c < 52 else (rank == 15) == (c == SMALL_JOKER))][:k]
        if len(got) < k:
            return None
        for c in got:
            pool.remove(c)
        out.extend(got)
    return out


def _combo_for(g: Group, hand: Sequence[int], level: int, to_beat: Combo | None) -> Combo | None:
    cards = _cards_for(g, hand, level)
    if cards is None:
        return None
    options = playable_readings(cards, level, to_beat)
    same = [c for c in options if c.kind == g.kind]
    if same:
        return max(same, key=lambda c: c.rank_key)
    return options[0] if options else None


def _remove(hand: Sequence[int], cards: Sequence[int]) -> list[int]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def _lowest_of_kind(hand: Sequence[int], level: int, kind: str) -> Combo | None:
    """The lowest natural (no wild card) play of ``kind`` in ``hand``, or None."""
    for c in legal_plays(hand, level, None):
        if c.kind == kind and not any(is_wild(x, level) for x in c.cards):
            return c
    return None


def choose_lead(hand: Sequence[int], level: int, next_count: int, partner_count: int) -> Combo:
    """The computer player's lead."""
    whole = playable_readings(hand, level, None) if len(hand) <= 10 else []
    if whole:
        return whole[0]
    groups = decompose(hand, level)
    plain = [g for g in groups if g.kind not in (BOMB, JOKER_BOMB)]
    if partner_count in (1, 2) and next_count > 1:
        # support a partner close to going out: lead the lowest single (or pair for a partner with 2)
        support = _lowest_of_kind(hand, level, PAIR if partner_count == 2 else SINGLE)
        if support is not None:
            return support
    if plain:

        def key(g: Group) -> tuple[int, int, int]:
            low_single = 1 if (g.kind == SINGLE and next_count == 1) else 0
            return (low_single, _group_value(g, level), -g.size)

        for g in sorted(plain, key=key):
            combo = _combo_for(g, hand, level, None)
            if combo is not None and not combo.is_bomb:
                return combo
    bombs = sorted(legal_plays(hand, level, None), key=lambda c: (not c.is_bomb, c.power))
    if bombs and bombs[0].is_bomb:
        return bombs[0]
    fallback = lowest_play(hand, level, None)
    assert fallback is not None
    return fallback


def choose_follow(
    hand: Sequence[int],
    level: int,
    to_beat: Combo,
    partner_winning: bool,
    winner_count: int,
    min_opponent: int,
) -> Combo | None:
    """The computer player's answer to ``to_beat`` (None: pass)."""
    options = legal_plays(hand, level, to_beat)
    if not options:
        return None
    for c in options:
        if len(c.cards) == len(hand):
            return c
    if partner_winning:
        return None
    now = plan_size(hand, level)
    danger = winner_count <= DANGER_CARDS or min_opponent <= 2
    best: tuple[tuple[int, int], Combo] | None = None
    for c in options:
        if c.is_bomb:
            continue
        after = plan_size(_remove(hand, c.cards), level)
        spend = sum(3 if is_wild(x, level) else 1 for x in c.cards if card_order(x, level) >= 15)
        key = (after * 4 + spend * (0 if danger else 2), c.rank_key)
        if best is None or key < best[0]:
            best = (key, c)
    if best is not None:
        after = plan_size(_remove(hand, best[1].cards), level)
        limit = now + (1 if danger else 0)
        if after <= limit:
            return best[1]
    bombs = sorted((c for c in options if c.is_bomb), key=lambda c: c.power)
    if bombs:
        bomb = bombs[0]
        rest = _remove(hand, bomb.cards)
        if danger or plan_size(rest, level) <= 1:
            return bomb
    return None


def choose_tribute(hand: Sequence[int], level: int) -> int:
    choices = tribute_choices(hand, level)
    return min(choices, key=lambda c: (plan_size(_remove(hand, [c]), level), c))


def choose_return(hand: Sequence[int], level: int, max_rank: int = 10) -> int:
    choices = return_choices(hand, level, max_rank)
    natural = [c for c in choices if not is_wild(c, level) and card_order(c, level) < 15] or choices
    return min(natural, key=lambda c: (plan_size(_remove(hand, [c]), level), card_order(c, level), c))


def choose_action(m: GuandanRules, seat: int, rng: random.Random) -> str | None:
    """The computer player's action text for ``seat`` now, or None when it has nothing to do."""
    del rng  # deterministic player; the parameter lets a future player randomise
    level = m.deal_level
    hand = m.hands[seat]
    for t in m.turns():
        if t.seat != seat:
            continue
        if t.kind == "tribute":
            return f"{seat} tribute {card_text(choose_tribute(hand, level))}"
        if t.kind == "return":
            return f"{seat} return {card_text(choose_return(hand, level, m.options.return_max_rank))}"
        play = m.play
        assert play is not None
        counts = [len(h) for h in m.hands]
        opponents = [counts[s] for s in range(4) if side_of(s) != side_of(seat) and counts[s]]
        if play.to_beat is None:
            nxt = next((s for s in ((seat + k) % 4 for k in (1, 2, 3)) if counts[s]), seat)
            nxt_count = counts[nxt] if side_of(nxt) != side_of(seat) else 99
            combo = choose_lead(hand, level, nxt_count, counts[partner_of(seat)])
            return m.play_text(seat, combo)
        winner = play.last_seat
        follow = choose_follow(
            hand,
            level,
            play.to_beat,
            side_of(winner) == side_of(seat),
            counts[winner] if counts[winner] else 99,
            min(opponents) if opponents else 99,
        )
        if follow is None:
            return f"{seat} pass"
        return m.play_text(seat, follow)
    return None


def random_action(m: GuandanRules, seat: int, rng: random.Random) -> str | None:
    """A uniformly random legal action for ``seat`` (property tests and benchmarks)."""
    level = m.deal_level
    hand = m.hands[seat]
    for t in m.turns():
        if t.seat != seat:
            continue
        if t.kind == "tribute":
            return f"{seat} tribute {card_text(rng.choice(tribute_choices(hand, level)))}"
        if t.kind == "return":
            return f"{seat} return {card_text(rng.choice(m.return_choices(seat)))}"
        play = m.play
        assert play is not None
        options: list[Combo | None] = list(legal_plays(hand, level, play.to_beat))
        if play.to_beat is not None:
            options.append(None)
        choice = rng.choice(options)
        return f"{seat} pass" if choice is None else m.play_text(seat, choice)
    return None
