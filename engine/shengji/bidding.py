"""Declaring trump (报主 / 亮主), overturning (反主) and reinforcing: docs/rules.md 1.3.

A *bid* is the set of cards a seat shows.  ``classify_bid`` tells what a set of cards is
under the option set in force; ``check_bid`` decides whether a seat may show it now and
returns the resulting :class:`Bid` (or raises ``RuleError`` with a reason);
``bid_options`` lists every card set a seat could show now (for bid buttons and the
computer player).

Three families (options ``bid_style`` / ``overturn_style``):

* ``joker_level`` + ``ladder`` (17-deals): level card + matching joker declares; the
  ladder ♦♦+BJ < ♣♣+SJ < ♥♥+BJ < ♠♠+SJ < SJ SJ < BJ BJ overturns.
* ``joker_level`` + ``lock`` (50min): joker + one level card declares; the declarer may
  reinforce (加强) with a second level card, another player may overturn with joker + two
  level cards (反主); either locks trump.  反公主: a joker pair by another player turns an
  unlocked declaration into no trump (locks too).
* ``level_only`` + ``suit_order`` (2h): one level card declares; 防反 adds the second one
  before anyone overturns; a level pair, SJ pair or BJ pair overturns (♠ > ♥ > ♣ > ♦ among
  pairs, SJ pair > any level pair, BJ pair > SJ pair).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.cards import BIG_JOKER, SMALL_JOKER, Card, card, cards_text, counts_of, rank_of, suit_of
from engine.errors import RuleError
from engine.shengji.options import ShengjiOptions

# Shapes of a shown card set.
SINGLE = "single"  # one level card (level_only)
SINGLE_JOKER = "single_joker"  # one level card + matching joker (joker_level)
PAIR = "pair"  # two level cards of one suit (level_only)
PAIR_JOKER = "pair_joker"  # two level cards of one suit + matching joker (joker_level)
JOKER_PAIR = "joker_pair"  # SJ SJ or BJ BJ (no trump)

# Ladder rung of a pair + joker by suit (♠0 ♥1 ♣2 ♦3): ♦ 1 < ♣ 2 < ♥ 3 < ♠ 4.
_LADDER_SUIT = {3: 1, 2: 2, 1: 3, 0: 4}
# Suit order of pairs in level_only: ♠ > ♥ > ♣ > ♦.
_PAIR_SUIT = {3: 0, 2: 1, 1: 2, 0: 3}


def matching_joker(suit: int) -> Card:
    """BJ goes with a red suit (♥ ♦), SJ with a black suit (♠ ♣)."""
    return BIG_JOKER if suit in (1, 3) else SMALL_JOKER


def canonical_bid_cards(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Suited cards first (in suit order), then jokers: ``♥2 BJ``, ``♠7 ♠7 SJ``, ``BJ BJ``."""
    return tuple(sorted(cards, key=lambda c: (c >= 52, c)))


@dataclass(frozen=True)
class Bid:
    """A declaration in force: who showed what, the trump it makes and how strong it is."""

    seat: int
    cards: tuple[Card, ...]
    shape: str
    suit: int | None  # trump suit; None = no trump
    level: int
    strength: int
    kind: str  # declare | fix | reinforce | defend | overturn | public | own_level
    locked: bool = False

    @property
    def text(self) -> str:
        return cards_text(self.cards)


@dataclass(frozen=True)
class BidContext:
    """What decides whether a bid is allowed right now."""

    options: ShengjiOptions
    window: str  # "dealing" | "final" (after the last card) | "late" (after burying) | "blackout"
    levels: tuple[int, int]  # level of side 0 (seats 0/2) and side 1 (seats 1/3)
    dealer: int | None  # None: the dealer is grabbed (first deal, or a 17-deals redeal)
    current: Bid | None
    first_declarer: int | None
    overturned: bool  # somebody has overturned in this deal


def classify_bid(cards: Sequence[Card], options: ShengjiOptions) -> tuple[str, int | None, int | None]:
    """``(shape, suit, level rank)`` of a shown card set; RuleError ``bad_bid`` otherwise.

    The level rank is None for a joker pair (it fits any level)."""
    cs = canonical_bid_cards(cards)
    jokers = [c for c in cs if c >= 52]
    plain = [c for c in cs if c < 52]
    text = cards_text(cs)
    if len(jokers) == 2 and not plain and jokers[0] == jokers[1]:
        return JOKER_PAIR, None, None
    if plain and all(c == plain[0] for c in plain) and len(plain) <= 2:
        suit, rank = suit_of(plain[0]), rank_of(plain[0])
        if options.bid_style == "joker_level":
            if len(jokers) == 1:
                if jokers[0] != matching_joker(suit):
                    raise RuleError(
                        "bid_wrong_joker", "{cards}: BJ goes with ♥ or ♦, SJ with ♠ or ♣", cards=text
                    )
                return (SINGLE_JOKER if len(plain) == 1 else PAIR_JOKER), suit, rank
            if not jokers:
                raise RuleError(
                    "bid_needs_joker", "{cards}: a declaration shows a level card with a joker", cards=text
                )
        elif not jokers:
            return (SINGLE if len(plain) == 1 else PAIR), suit, rank
    raise RuleError("bad_bid", "{cards} is not a declaration", cards=text)


def _strength(options: ShengjiOptions, shape: str, suit: int | None, cards: Sequence[Card]) -> int:
    if options.overturn_style == "suit_order":
        if shape == SINGLE:
            return 0
        if shape == PAIR:
            assert suit is not None
            return 1 + _PAIR_SUIT[suit]  # 1..4
        return 5 if cards[0] == SMALL_JOKER else 6
    # ladder (and lock, where strength only orders declare < lock)
    if shape in (SINGLE_JOKER, SINGLE):
        return 0
    if shape in (PAIR_JOKER, PAIR):
        assert suit is not None
        return _LADDER_SUIT[suit]
    return 5 if cards[0] == SMALL_JOKER else 6


def side_of(seat: int) -> int:
    return seat % 2


def allowed_levels(ctx: BidContext, seat: int) -> list[int]:
    """The level ranks ``seat`` may show now (docs/rules.md 1.3 C)."""
    own = ctx.levels[side_of(seat)]
    if ctx.window == "blackout":
        return [own]
    if ctx.current is not None:
        if ctx.dealer is None and ctx.options.first_deal_overturn_changes_dealer and ctx.window != "late":
            return [own]  # grab: an overturner who becomes dealer plays at its own level
        return [ctx.current.level]
    if ctx.dealer is None:
        return [own]
    dealer_level = ctx.levels[side_of(ctx.dealer)]
    out = [dealer_level]
    if (
        ctx.options.dealer_side_no_bid == "own_level"
        and ctx.window == "final"
        and side_of(seat) != side_of(ctx.dealer)
        and own != dealer_level
    ):
        out.append(own)
    return out


def check_bid(ctx: BidContext, seat: int, cards: Sequence[Card], hand: Sequence[Card]) -> Bid:
    """The bid ``seat`` makes by showing ``cards`` now; RuleError with the reason when not allowed."""
    opts = ctx.options
    cs = canonical_bid_cards(cards)
    text = cards_text(cs)
    have = counts_of(hand)
    for k, n in enumerate(counts_of(cs)):
        if n and have[k] < n:
            raise RuleError("not_in_hand", "You do not hold {card}", card=text)
    shape, suit, rank = classify_bid(cs, opts)
    levels = allowed_levels(ctx, seat)
    if rank is None:
        level = levels[0]
    elif rank in levels:
        level = rank
    else:
        raise RuleError(
            "bid_not_level", "{cards}: the level card now is {level}", cards=text, level=_rank_text(levels[0])
        )
    strength = _strength(opts, shape, suit, cs)
    cur = ctx.current
    window = ctx.window
    if window == "blackout":
        if shape in (SINGLE_JOKER, SINGLE):
            return Bid(seat, cs, shape, suit, level, strength, "declare")
        if shape in (PAIR_JOKER, PAIR) and opts.direct_fix:
            return Bid(seat, cs, shape, suit, level, strength, "fix", locked=opts.overturn_style == "lock")
        raise RuleError("bid_declare_only", "{cards}: only a declaration is possible now", cards=text)
    if window == "late":
        return _check_overturn(ctx, seat, cs, shape, suit, level, strength, late=True)
    if cur is None:
        own_level = ctx.dealer is not None and level != ctx.levels[side_of(ctx.dealer)]
        kind = "own_level" if own_level else "declare"
        if shape in (SINGLE_JOKER, SINGLE):
            return Bid(seat, cs, shape, suit, level, strength, kind)
        if shape == JOKER_PAIR:
            raise RuleError(
                "bid_no_trump_direct", "{cards}: a joker pair cannot declare, only overturn", cards=text
            )
        if not opts.direct_fix:
            raise RuleError("bid_no_direct_fix", "{cards}: declare with one level card first", cards=text)
        return Bid(
            seat,
            cs,
            shape,
            suit,
            level,
            strength,
            "fix" if not own_level else kind,
            locked=opts.overturn_style == "lock",
        )
    return _check_overturn(ctx, seat, cs, shape, suit, level, strength, late=False)


def _check_overturn(
    ctx: BidContext,
    seat: int,
    cs: tuple[Card, ...],
    shape: str,
    suit: int | None,
    level: int,
    strength: int,
    late: bool,
) -> Bid:
    opts = ctx.options
    cur = ctx.current
    text = cards_text(cs)
    style = opts.overturn_style
    if cur is None:  # late window after a kitty-turned trump: any overturning shape
        if shape in (SINGLE, SINGLE_JOKER):
            raise RuleError("bid_not_higher", "{cards} does not beat the current trump", cards=text)
        return Bid(seat, cs, shape, suit, level, strength, "overturn", locked=style == "lock")
    if style == "lock":
        if cur.locked:
            raise RuleError("bid_locked", "Trump is fixed ({current}) and cannot change", current=cur.text)
        if seat == cur.seat:
            if shape == PAIR_JOKER and suit == cur.suit:
                return Bid(seat, cs, shape, suit, level, strength, "reinforce", locked=True)
            raise RuleError(
                "bid_own",
                "You cannot overturn your own declaration; you may only reinforce it "
                "with a second {suit} level card",
                suit=_suit_text(cur.suit),
            )
        if shape == PAIR_JOKER:
            return Bid(seat, cs, shape, suit, level, strength, "overturn", locked=True)
        if shape == JOKER_PAIR:
            if not opts.public_trump:
                raise RuleError(
                    "bid_not_higher", "{cards} does not beat {current}", cards=text, current=cur.text
                )
            return Bid(seat, cs, shape, None, level, strength, "public", locked=True)
        raise RuleError("bid_not_higher", "{cards} does not beat {current}", cards=text, current=cur.text)
    # ladder and suit_order
    if seat == cur.seat:
        if (
            style == "suit_order"
            and not late
            and shape == PAIR
            and cur.shape == SINGLE
            and suit == cur.suit
            and not ctx.overturned
        ):
            return Bid(seat, cs, shape, suit, level, strength, "defend")
        if style == "suit_order" or opts.declarer_overturn_after_other:
            raise RuleError(
                "bid_own_overturn", "You cannot overturn your own declaration {current}", current=cur.text
            )
    if shape in (SINGLE, SINGLE_JOKER):
        raise RuleError("bid_not_higher", "{cards} does not beat {current}", cards=text, current=cur.text)
    if strength <= cur.strength:
        raise RuleError("bid_not_higher", "{cards} does not beat {current}", cards=text, current=cur.text)
    return Bid(seat, cs, shape, suit, level, strength, "overturn")


def bid_options(ctx: BidContext, seat: int, hand: Sequence[Card]) -> list[tuple[Card, ...]]:
    """Every card set ``seat`` could show now (canonical order), weakest first."""
    have = counts_of(hand)
    out: list[tuple[tuple[int, int], tuple[Card, ...]]] = []
    seen: set[tuple[Card, ...]] = set()
    for level in allowed_levels(ctx, seat):
        cands: list[tuple[Card, ...]] = []
        for s in range(4):
            c = card(s, level)
            n = have[c]
            if n == 0:
                continue
            j = matching_joker(s)
            if ctx.options.bid_style == "joker_level":
                if have[j]:
                    cands.append((c, j))
                    if n >= 2:
                        cands.append((c, c, j))
            else:
                cands.append((c,))
                if n >= 2:
                    cands.append((c, c))
        for j in (SMALL_JOKER, BIG_JOKER):
            if have[j] >= 2:
                cands.append((j, j))
        for cs in cands:
            if cs in seen:
                continue
            seen.add(cs)
            try:
                b = check_bid(ctx, seat, cs, hand)
            except RuleError:
                continue
            out.append(((b.strength, len(cs)), cs))
    out.sort()
    return [cs for _, cs in out]


def _rank_text(rank: int) -> str:
    return {11: "J", 12: "Q", 13: "K", 14: "A"}.get(rank, str(rank))


def _suit_text(suit: int | None) -> str:
    return "no trump" if suit is None else "♠♥♣♦"[suit]
