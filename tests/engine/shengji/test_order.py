"""Card order of one deal: docs/rules.md 1.2 (trump group, no trump, off-suits, display)."""

from __future__ import annotations

import pytest

from engine.cards import cards_text, parse_cards
from engine.shengji.order import TRUMP, TrumpContext, trump_context

SPADES, HEARTS, CLUBS, DIAMONDS = 0, 1, 2, 3


def high_to_low(ctx: TrumpContext, text: str) -> list[int]:
    return [ctx.strength(c) for c in parse_cards(text)]


def test_rules_1_2_trump_group_order_level_6_hearts() -> None:
    """BJ > SJ > trump-suit level > off-suit level (equal) > trump A > ... > trump 2, skipping L."""
    ctx = trump_context(6, HEARTS)
    s = high_to_low(ctx, "BJ SJ ♥6 ♠6 ♣6 ♦6 ♥A ♥K ♥Q ♥J ♥10 ♥9 ♥8 ♥7 ♥5 ♥4 ♥3 ♥2")
    assert s[0] > s[1] > s[2] > s[3]
    assert s[3] == s[4] == s[5]  # the three off-suit level cards are equal
    assert all(a > b for a, b in zip(s[5:], s[6:], strict=False))
    assert all(ctx.is_trump(c) for c in parse_cards("BJ SJ ♥6 ♠6 ♣6 ♦6 ♥2"))
    assert {ctx.group(c) for c in parse_cards("BJ SJ ♥6 ♠6 ♥2")} == {TRUMP}


def test_rules_1_2_no_trump_order() -> None:
    """With no trump: BJ > SJ > every level card, all four equal; no suit is trump."""
    ctx = trump_context(9, None)
    s = high_to_low(ctx, "BJ SJ ♠9 ♥9 ♣9 ♦9")
    assert s[0] > s[1] > s[2] == s[3] == s[4] == s[5]
    assert not ctx.is_trump(parse_cards("♠A")[0])
    assert ctx.group(parse_cards("♠A")[0]) == SPADES


def test_rules_1_2_off_suit_order_skips_level() -> None:
    """Each other suit A > K > ... > 2, its level cards being trumps (level 6: ♠7 is just above ♠5)."""
    ctx = trump_context(6, HEARTS)
    s = high_to_low(ctx, "♠A ♠K ♠Q ♠J ♠10 ♠9 ♠8 ♠7 ♠5 ♠4 ♠3 ♠2")
    assert s == sorted(s, reverse=True) and len(set(s)) == 12
    seven, five = parse_cards("♠7 ♠5")
    assert ctx.strength(seven) == ctx.strength(five) + 1
    assert ctx.group(parse_cards("♠6")[0]) == TRUMP


def test_rules_1_2_level_ace_trump_king_below_off_level() -> None:
    """Level A: trump K is directly below the off-suit level aces (adjacent pair positions)."""
    ctx = trump_context(14, SPADES)
    ha, sk = parse_cards("♥A ♠K")
    assert ctx.strength(ha) == ctx.strength(sk) + 1


def test_rules_1_2_two_is_not_a_permanent_trump() -> None:
    ctx = trump_context(5, SPADES)
    assert not ctx.is_trump(parse_cards("♥2")[0])


@pytest.mark.parametrize(
    ("level", "trump", "cards", "shown"),
    [
        (6, HEARTS, "♠3 BJ ♥2 ♣6 ♠6 ♥6 ♦A SJ ♥A ♣K", "BJ SJ ♥6 ♠6 ♣6 ♥A ♥2 ♠3 ♣K ♦A"),
        (2, None, "♦2 ♠A SJ ♥2 ♥K BJ", "BJ SJ ♥2 ♦2 ♠A ♥K"),
    ],
)
def test_display_order_trumps_first_then_spades_hearts_clubs_diamonds(
    level: int, trump: int | None, cards: str, shown: str
) -> None:
    ctx = trump_context(level, trump)
    assert cards_text(ctx.sort_for_display(parse_cards(cards))) == shown


def test_pair_rank_sequence_trump_chain_level_6_hearts() -> None:
    """docs/rules.md 1.5: trump steps ... ♥K, ♥A, off-suit 6s (one position), ♥6, SJ, BJ."""
    ctx = trump_context(6, HEARTS)
    seq = ctx.pair_rank_sequence(TRUMP)
    tail = [cards_text(p) for p in seq[-6:]]
    assert tail == ["♥K", "♥A", "♠6 ♣6 ♦6", "♥6", "SJ", "BJ"]
    assert len(seq) == 16
    assert len(ctx.pair_rank_sequence(SPADES)) == 12


def test_pair_rank_sequence_no_trump() -> None:
    ctx = trump_context(3, None)
    assert [cards_text(p) for p in ctx.pair_rank_sequence(TRUMP)] == ["♠3 ♥3 ♣3 ♦3", "SJ", "BJ"]


def test_contexts_are_cached_and_validated() -> None:
    assert trump_context(7, 2) is trump_context(7, 2)
    with pytest.raises(ValueError):
        TrumpContext(1, None)
    with pytest.raises(ValueError):
        TrumpContext(5, 4)


def test_beats_single_cards() -> None:
    ctx = trump_context(6, HEARTS)
    sa, s2, h2, c6, d6 = parse_cards("♠A ♠2 ♥2 ♣6 ♦6")
    assert ctx.beats(h2, sa)  # any trump over an off-suit card
    assert not ctx.beats(s2, sa)
    assert not ctx.beats(d6, c6)  # equal off-suit level cards: first played stays ahead
