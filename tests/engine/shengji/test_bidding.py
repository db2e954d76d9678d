"""Declaring, overturning and reinforcing trump: docs/rules.md 1.3 (families A, B, C)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.cards import parse_cards
from engine.errors import RuleError
from engine.registry import load_preset
from engine.shengji.bidding import Bid, BidContext, bid_options, check_bid

O17 = load_preset("shengji-17-deals").rules
O50 = load_preset("shengji-50min").rules
O2H = load_preset("shengji-timed-2h").rules

ALL = parse_cards("♠2 ♠2 ♥2 ♥2 ♣2 ♣2 ♦2 ♦2 SJ SJ BJ BJ ♠5 ♥5 ♣3 ♦3 ♠3 ♥3")


def ctx(
    options: object,
    current: Bid | None = None,
    window: str = "dealing",
    dealer: int | None = 0,
    levels: tuple[int, int] = (2, 2),
    overturned: bool = False,
) -> BidContext:
    return BidContext(
        options,
        window,
        levels,
        dealer,
        current,
        None if current is None else current.seat,  # type: ignore[arg-type]
        overturned,
    )


def bid(c: BidContext, seat: int, text: str, hand: list[int] | None = None) -> Bid:
    return check_bid(c, seat, parse_cards(text), ALL if hand is None else hand)


def code(c: BidContext, seat: int, text: str) -> str:
    with pytest.raises(RuleError) as err:
        bid(c, seat, text)
    return err.value.code


# --- A. joker_level, 17-deals ladder -------------------------------------------------------

LADDER_17 = ["♦2 ♦2 BJ", "♣2 ♣2 SJ", "♥2 ♥2 BJ", "♠2 ♠2 SJ", "SJ SJ", "BJ BJ"]


def test_rules_1_3_a_declaration_is_level_card_with_matching_colour_joker() -> None:
    c = ctx(O17)
    assert bid(c, 1, "♥2 BJ").suit == 1
    assert bid(c, 1, "♦2 BJ").suit == 3
    assert bid(c, 1, "♠2 SJ").suit == 0
    assert bid(c, 1, "♣2 SJ").suit == 2
    assert code(c, 1, "♥2 SJ") == "bid_wrong_joker"
    assert code(c, 1, "♠2 BJ") == "bid_wrong_joker"
    assert code(c, 1, "♥2") == "bid_needs_joker"
    assert code(c, 1, "♥3 BJ") == "bid_not_level"


def test_rules_1_3_a_joker_pair_never_declares() -> None:
    assert code(ctx(O17), 1, "BJ BJ") == "bid_no_trump_direct"
    assert code(ctx(O17), 1, "SJ SJ") == "bid_no_trump_direct"


@pytest.mark.parametrize("low", range(len(LADDER_17)))
@pytest.mark.parametrize("high", range(len(LADDER_17)))
def test_rules_1_3_a_17_deals_overturn_ladder(low: int, high: int) -> None:
    """♦♦+BJ < ♣♣+SJ < ♥♥+BJ < ♠♠+SJ < SJ SJ < BJ BJ: only a higher rung overturns."""
    first = (
        bid(ctx(O17), 1, LADDER_17[low])
        if low < 4
        else Bid(1, tuple(parse_cards(LADDER_17[low])), "joker_pair", None, 2, low + 1, "overturn")
    )
    c = ctx(O17, first)
    if high > low:
        b = bid(c, 2, LADDER_17[high])
        assert b.kind == "overturn"
        assert b.suit == (None if high >= 4 else [3, 2, 1, 0][high])
    else:
        assert code(c, 2, LADDER_17[high]) == "bid_not_higher"


@pytest.mark.parametrize("rung", LADDER_17)
def test_rules_1_3_a_any_overturn_beats_a_single_declaration(rung: str) -> None:
    c = ctx(O17, bid(ctx(O17), 1, "♠2 SJ"))
    assert bid(c, 3, rung).kind == "overturn"


def test_rules_1_3_a_single_never_overturns() -> None:
    c = ctx(O17, bid(ctx(O17), 1, "♠2 SJ"))
    assert code(c, 2, "♥2 BJ") == "bid_not_higher"


def test_rules_1_3_a_direct_fix_then_only_a_higher_rung() -> None:
    first = bid(ctx(O17), 1, "♥2 ♥2 BJ")
    assert first.kind == "fix"
    c = ctx(O17, first)
    assert code(c, 2, "♣2 ♣2 SJ") == "bid_not_higher"
    assert bid(c, 2, "♠2 ♠2 SJ").kind == "overturn"
    no_fix = dataclasses.replace(O17, direct_fix=False)
    assert code(ctx(no_fix), 1, "♥2 ♥2 BJ") == "bid_no_direct_fix"


def test_rules_1_3_a_declarer_overturns_only_after_somebody_else() -> None:
    first = bid(ctx(O17), 1, "♠2 SJ")
    assert code(ctx(O17, first), 1, "♥2 ♥2 BJ") == "bid_own_overturn"
    other = bid(ctx(O17, first), 2, "♣2 ♣2 SJ")
    assert bid(ctx(O17, other, overturned=True), 1, "♥2 ♥2 BJ").kind == "overturn"


# --- A'. joker_level, 50min lock --------------------------------------------------------------


def test_rules_1_3_a_50min_reinforce_locks_trump() -> None:
    first = bid(ctx(O50), 1, "♥2 BJ")
    r = bid(ctx(O50, first), 1, "♥2 ♥2 BJ")
    assert (r.kind, r.locked, r.suit) == ("reinforce", True, 1)
    assert code(ctx(O50, r), 2, "♠2 ♠2 SJ") == "bid_locked"
    assert code(ctx(O50, r), 0, "BJ BJ") == "bid_locked"


def test_rules_1_3_a_50min_direct_joker_two_level_cards_locks() -> None:
    first = bid(ctx(O50), 1, "♣2 ♣2 SJ")
    assert first.locked
    assert code(ctx(O50, first), 2, "♠2 ♠2 SJ") == "bid_locked"


def test_rules_1_3_a_50min_overturn_by_joker_two_level_cards_locks() -> None:
    first = bid(ctx(O50), 1, "♥2 BJ")
    o = bid(ctx(O50, first), 2, "♦2 ♦2 BJ")  # any suit, colour rule as above
    assert (o.kind, o.locked, o.suit) == ("overturn", True, 3)
    assert code(ctx(O50, o), 1, "♥2 ♥2 BJ") == "bid_locked"
    assert code(ctx(O50, first), 2, "♠2 SJ") == "bid_not_higher"


def test_rules_1_3_a_50min_public_trump_by_a_joker_pair() -> None:
    first = bid(ctx(O50), 1, "♥2 BJ")
    for pair in ("BJ BJ", "SJ SJ"):
        p = bid(ctx(O50, first), 3, pair)
        assert (p.kind, p.suit, p.locked) == ("public", None, True)
    assert code(ctx(O50, first), 1, "BJ BJ") == "bid_own"  # the declarer may only reinforce
    no_public = dataclasses.replace(O50, public_trump=False)
    assert code(ctx(no_public, first), 3, "BJ BJ") == "bid_not_higher"


def test_rules_1_3_a_50min_nobody_declares_no_trump_directly() -> None:
    assert code(ctx(O50), 1, "BJ BJ") == "bid_no_trump_direct"


# --- B. level_only, 2h suit order ------------------------------------------------------------

PAIRS_2H = ["♦2 ♦2", "♣2 ♣2", "♥2 ♥2", "♠2 ♠2", "SJ SJ", "BJ BJ"]


def test_rules_1_3_b_any_single_level_card_declares() -> None:
    for t in ("♠2", "♥2", "♣2", "♦2"):
        assert bid(ctx(O2H), 0, t).kind == "declare"
    assert code(ctx(O2H), 0, "♥2 BJ") == "bad_bid"


@pytest.mark.parametrize("low", range(len(PAIRS_2H)))
@pytest.mark.parametrize("high", range(len(PAIRS_2H)))
def test_rules_1_3_b_pair_beats_pair_by_suit_order_jokers_above(low: int, high: int) -> None:
    """♠ > ♥ > ♣ > ♦ among level pairs; SJ pair beats a level pair; BJ pair beats SJ pair."""
    single = bid(ctx(O2H), 1, "♦2")
    first = bid(ctx(O2H, single), 3, PAIRS_2H[low])
    c = ctx(O2H, first, overturned=True)
    if high > low:
        assert bid(c, 2, PAIRS_2H[high]).kind == "overturn"
    else:
        assert code(c, 2, PAIRS_2H[high]) == "bid_not_higher"


@pytest.mark.parametrize("pair", PAIRS_2H)
def test_rules_1_3_b_pair_or_joker_pair_beats_a_single(pair: str) -> None:
    c = ctx(O2H, bid(ctx(O2H), 1, "♠2"))
    b = bid(c, 2, pair)
    assert b.kind == "overturn"
    assert code(c, 2, "♥2") == "bid_not_higher"


def test_rules_1_3_b_defend_adds_the_second_card_before_any_overturn() -> None:
    first = bid(ctx(O2H), 1, "♣2")
    d = bid(ctx(O2H, first), 1, "♣2 ♣2")
    assert d.kind == "defend"
    assert code(ctx(O2H, d), 2, "♦2 ♦2") == "bid_not_higher"  # 防反: ♣ pair beats ♦ pair
    assert bid(ctx(O2H, d), 2, "♥2 ♥2").kind == "overturn"
    # once somebody overturned, the first declarer may not add its second card
    assert code(ctx(O2H, first, overturned=True), 1, "♣2 ♣2") == "bid_own_overturn"


def test_rules_1_3_b_nobody_overturns_their_own_declaration() -> None:
    first = bid(ctx(O2H), 1, "♣2")
    assert code(ctx(O2H, first), 1, "♠2 ♠2") == "bid_own_overturn"


# --- C. who may declare, at which level --------------------------------------------------------


def test_rules_1_3_c_later_deals_declare_at_the_dealers_level() -> None:
    c = ctx(O17, levels=(5, 3), dealer=0)
    hand = parse_cards("♥5 ♥3 BJ ♠5 SJ")
    assert check_bid(c, 1, parse_cards("♥5 BJ"), hand).level == 5
    with pytest.raises(RuleError) as err:
        check_bid(c, 1, parse_cards("♥3 BJ"), hand)
    assert err.value.code == "bid_not_level"


def test_rules_1_3_c_17_deals_other_side_declares_at_its_own_level_after_dealing() -> None:
    hand = parse_cards("♥5 ♥3 BJ ♠5 SJ")
    c = ctx(O17, levels=(5, 3), dealer=0, window="final")
    b = check_bid(c, 1, parse_cards("♥3 BJ"), hand)
    assert (b.kind, b.level) == ("own_level", 3)
    # the dealer side has no own-level option, and 2h/50min never have it
    with pytest.raises(RuleError):
        check_bid(c, 2, parse_cards("♥3 BJ"), hand)
    with pytest.raises(RuleError):
        check_bid(ctx(O50, levels=(5, 3), dealer=0, window="final"), 1, parse_cards("♥3 BJ"), hand)


def test_rules_1_3_c_first_deal_each_side_declares_at_its_own_level() -> None:
    hand = parse_cards("♥5 ♥3 BJ")
    c = ctx(O17, levels=(5, 3), dealer=None)
    assert check_bid(c, 1, parse_cards("♥3 BJ"), hand).level == 3
    assert check_bid(c, 0, parse_cards("♥5 BJ"), hand).level == 5


def test_rules_1_3_blackout_declares_at_the_new_dealer_sides_level() -> None:
    hand = parse_cards("♥5 ♥3 BJ")
    c = ctx(O50, levels=(5, 3), dealer=0, window="blackout")
    assert check_bid(c, 1, parse_cards("♥3 BJ"), hand).level == 3


def test_bid_needs_the_cards_in_hand() -> None:
    with pytest.raises(RuleError) as err:
        check_bid(ctx(O17), 1, parse_cards("♥2 BJ"), parse_cards("♥2 SJ"))
    assert err.value.code == "not_in_hand"


def test_bid_options_list_only_allowed_sets() -> None:
    hand = parse_cards("♥2 ♥2 BJ SJ SJ ♠3")
    assert bid_options(ctx(O17), 1, hand) == [tuple(parse_cards("♥2 BJ")), tuple(parse_cards("♥2 ♥2 BJ"))]
    cur = bid(ctx(O17), 0, "♠2 SJ")
    assert bid_options(ctx(O17, cur), 1, hand) == [
        tuple(parse_cards("♥2 ♥2 BJ")),
        tuple(parse_cards("SJ SJ")),
    ]
