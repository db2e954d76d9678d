"""Guandan tribute: 进贡 / 还贡 / 抗贡 (docs/rules.md 2.6, decisions D7 and D8).

``plan_tribute`` decides, from the previous deal's finishing order and the new hands,
who pays whom (or that nobody pays).  Paying and returning are player actions; the
functions here say which cards are allowed and who leads afterwards.

Decisions where docs/rules.md is silent (documented in the report):

* Equal tributes in a double down: the 上游's next (下家) pays the 上游 and leads; the 上游's
  previous (上家) pays the 二游 (the notice: 如贡牌相同, 由上游的下家先出牌).
* "Highest card" is the single order at the new deal's level (BJ > SJ > level > A > … > 2),
  the ♥ level card excluded; a payer holding several cards of that rank picks any of them.
* "Rank 10 or lower" (D8) is the printed rank 2..10 of the card, level cards included
  (the ♥ level card too, when the level is 10 or lower).  A receiver without such a card
  must return a card of their lowest rank in the single order.  The limit is option
  ``return_max_rank`` (default 10, RETURN_MAX_RANK); the fallback stays the same.
* ``tribute_on_one_four = none`` (no tribute when 上游 and 末游 are partners): 上游 leads, as
  after an anti-tribute.
* Tribute cards are shown to the table (they decide who leads); a returned card is seen
  only by the two players concerned.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import BIG_JOKER, card_text, rank_of
from engine.errors import RuleError
from engine.guandan.levels import level_text, partner_of
from engine.guandan.ranks import card_order, wild_card

RETURN_MAX_RANK = 10


def single_value(c: int, level: int) -> int:
    """The single-card order at ``level`` (ranks.card_order): BJ > SJ > level > A > … > 2."""
    return card_order(c, level)


def tribute_choices(hand: Sequence[int], level: int) -> list[int]:
    """The cards a payer may give: every kind of the highest single rank, ♥ level excepted."""
    wild = wild_card(level)
    pool = [c for c in hand if c != wild]
    if not pool:
        return []
    top = max(single_value(c, level) for c in pool)
    return sorted({c for c in pool if single_value(c, level) == top})


def return_choices(hand: Sequence[int], level: int, max_rank: int = RETURN_MAX_RANK) -> list[int]:
    """The cards a receiver may return: rank ``max_rank`` (10) or lower (D8), else their lowest cards."""
    low = sorted(
        {c for c in hand if c < 52 and rank_of(c) <= max_rank}, key=lambda c: (single_value(c, level), c)
    )
    if low:
        return low
    if not hand:
        return []
    bottom = min(single_value(c, level) for c in hand)
    return sorted({c for c in hand if single_value(c, level) == bottom})


def check_tribute(hand: Sequence[int], level: int, c: int) -> None:
    """RuleError unless ``c`` is a card the payer may give."""
    if c not in hand:
        raise RuleError("not_in_hand", "You do not hold {card}", card=card_text(c))
    allowed = tribute_choices(hand, level)
    if c not in allowed:
        if c == wild_card(level):
            raise RuleError(
                "tribute_wild",
                "The ♥ level card {card} is never paid as tribute; pay {allowed}",
                card=card_text(c),
                allowed=" / ".join(card_text(a) for a in allowed),
            )
        raise RuleError(
            "tribute_not_highest",
            "Tribute must be your highest card: {allowed}, not {card}",
            card=card_text(c),
            allowed=" / ".join(card_text(a) for a in allowed),
        )


def check_return(hand: Sequence[int], level: int, c: int, max_rank: int = RETURN_MAX_RANK) -> None:
    """RuleError unless ``c`` is a card the receiver may return (rank ``max_rank`` or lower, D8).

    The error codes keep their names (``return_above_10``, ``return_not_lowest``) and carry the
    limit as ``max_rank`` (rank text: ``10``, ``J``…)."""
    if c not in hand:
        raise RuleError("not_in_hand", "You do not hold {card}", card=card_text(c))
    allowed = return_choices(hand, level, max_rank)
    limit = level_text(max_rank)
    if c not in allowed:
        if any(a < 52 and rank_of(a) <= max_rank for a in allowed):
            raise RuleError(
                "return_above_10",
                "The returned card must be of rank {max_rank} or lower, not {card}",
                card=card_text(c),
                max_rank=limit,
            )
        raise RuleError(
            "return_not_lowest",
            "You hold no card of rank {max_rank} or lower: return your lowest card ({allowed}), not {card}",
            card=card_text(c),
            max_rank=limit,
            allowed=" / ".join(card_text(a) for a in allowed),
        )


@dataclass(frozen=True)
class TributePlan:
    """Who pays after a deal.

    kind: ``"none"`` (first deal, or ``tribute_on_one_four = none``), ``"anti"`` (抗贡),
    ``"double"`` (双下: both losers pay), ``"single"`` (单下, and 上游+末游 on one side, D7).
    ``payers`` pay in any order; in a single down ``receivers`` maps payer → receiver
    at once; in a double down it is fixed once both have paid (``assign_double``).
    ``leader`` is known now for ``none``/``anti``/``single``.
    """

    kind: str
    upstream: int
    payers: tuple[int, ...]
    receivers: tuple[tuple[int, int], ...]
    leader: int | None
    result: str = ""


def plan_tribute(
    prev_order: Sequence[int], hands: Sequence[Sequence[int]], one_four: str = "pay"
) -> TributePlan:
    """The tribute after a deal with finishing order ``prev_order``, given the new ``hands``."""
    up = prev_order[0]
    mate = partner_of(up)
    if len(prev_order) >= 2 and prev_order[1] == mate:
        payers: tuple[int, ...] = ((up + 1) % 4, (up + 3) % 4)
        kind, result = "double", "1-2"
        receivers: tuple[tuple[int, int], ...] = ()
    else:
        last = next(s for s in range(4) if s not in prev_order[:3]) if len(prev_order) < 4 else prev_order[3]
        if len(prev_order) >= 3 and prev_order[2] == mate:
            result = "1-3"
        else:
            result = "1-4"
            last = mate
            if one_four == "none":
                return TributePlan("none", up, (), (), up, result)
        payers = (last,)
        kind = "single"
        receivers = ((last, up),)
    big = sum(1 for p in payers for c in hands[p] if c == BIG_JOKER)
    if big >= 2:
        return TributePlan("anti", up, payers, (), up, result)
    leader = payers[0] if kind == "single" else None
    return TributePlan(kind, up, payers, receivers, leader, result)


def assign_double(upstream: int, paid: dict[int, int], level: int) -> tuple[tuple[tuple[int, int], ...], int]:
    """((payer, receiver), ...) and the leader once both losers of a double down paid.

    The higher tribute goes to 上游, the other to 二游; the payer of the higher leads.
    Equal tributes: the 上游's next pays 上游 and leads (docs/rules.md 2.6).
    """
    nxt, prv = (upstream + 1) % 4, (upstream + 3) % 4
    second = partner_of(upstream)
    vn, vp = single_value(paid[nxt], level), single_value(paid[prv], level)
    if vp > vn:
        return ((prv, upstream), (nxt, second)), prv
    return ((nxt, upstream), (prv, second)), nxt
