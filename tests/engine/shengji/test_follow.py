"""Following a lead: docs/rules.md 1.5 "Following" 1-3, with the exact reasons a player sees."""

from __future__ import annotations

import pytest

from engine.cards import parse_cards
from engine.errors import RuleError
from engine.shengji.follow import check_follow
from engine.shengji.formats import classify_lead
from engine.shengji.order import trump_context

HEARTS = 1
L6 = trump_context(6, HEARTS)
OK = None

CASES = [
    # (rule, lead, hand, play, expected code or None, expected message or None)
    # --- rule 1: follow the suit group
    ("1 single: follow suit", "♣9", "♣3 ♣K ♠2 ♦A", "♣3", OK, None),
    (
        "1 single: holding ♣ you may not discard",
        "♣9",
        "♣3 ♠2 ♦A",
        "♠2",
        "must_follow_suit",
        "You hold ♣ cards and must play them: ♣3",
    ),
    ("1 single: a void player discards anything", "♣9", "♠2 ♦A", "♦A", OK, None),
    ("1 single: a void player may ruff", "♣9", "♠2 ♥3", "♥3", OK, None),
    (
        "1 off-suit level card is a trump, not a club",
        "♣9",
        "♣6 ♣3 ♠2",
        "♣6",
        "must_follow_suit",
        "You hold ♣ cards and must play them: ♣3",
    ),
    (
        "1 吊主: a trump lead is followed with trumps",
        "♥2",
        "♠6 ♠A",
        "♠A",
        "must_follow_suit",
        "You hold trump cards and must play them: ♠6",
    ),
    ("1 吊主: jokers and level cards are trumps", "♠6", "SJ ♠A", "SJ", OK, None),
    ("1 short in suit: all of G plus any", "♣9 ♣9", "♣3 ♠2 ♦A", "♣3 ♦A", OK, None),
    (
        "1 short in suit: must include all of G",
        "♣9 ♣9",
        "♣3 ♠2 ♦A",
        "♠2 ♦A",
        "must_follow_suit",
        "You hold ♣ cards and must play them: ♣3",
    ),
    ("1 exactly n cards of G", "♣9 ♣9 ♣8 ♣8", "♣3 ♣4 ♣5 ♣7 ♠2", "♣3 ♣4 ♣5 ♣7", OK, None),
    # --- rule 2: pairs
    (
        "2 pair lead: holding a pair you must play it",
        "♣9 ♣9",
        "♣8 ♣8 ♣2 ♣3",
        "♣2 ♣3",
        "must_follow_pair",
        "You hold a pair of ♣ and must play it: ♣8 ♣8",
    ),
    ("2 pair lead: any pair", "♣9 ♣9", "♣8 ♣8 ♣2 ♣2 ♣3", "♣2 ♣2", OK, None),
    ("2 pair lead: a pair out of a tractor counts", "♣9 ♣9", "♣8 ♣8 ♣7 ♣7 ♣3", "♣7 ♣7", OK, None),
    ("2 pair lead: no pair, any two of G", "♣9 ♣9", "♣8 ♣7 ♣3 ♠4", "♣8 ♣3", OK, None),
    (
        "2 pair lead: trump pair when trumps led",
        "SJ SJ",
        "♠6 ♠6 ♣6 ♥2",
        "♠6 ♣6",
        "must_follow_pair",
        "You hold a pair of trump and must play it: ♠6 ♠6",
    ),
    ("2 pair lead: equal level cards of two suits are no pair", "SJ SJ", "♠6 ♣6 ♥2", "♠6 ♥2", OK, None),
    # --- rule 2: tractors (seed 2h example)
    (
        "2 tractor lead: holding a tractor you must play it",
        "♣9 ♣9 ♣8 ♣8",
        "♣5 ♣5 ♣4 ♣4 ♣J ♣J ♣2",
        "♣J ♣J ♣5 ♣5",
        "must_follow_tractor",
        "You hold a tractor of ♣ and must play it: ♣5 ♣5 ♣4 ♣4",
    ),
    (
        "2 tractor lead: any tractor of that length",
        "♣9 ♣9 ♣8 ♣8",
        "♣5 ♣5 ♣4 ♣4 ♣J ♣J ♣2",
        "♣5 ♣5 ♣4 ♣4",
        OK,
        None,
    ),
    (
        "2 tractor lead: a tractor skipping the level rank",
        "♣9 ♣9 ♣8 ♣8",
        "♣7 ♣7 ♣5 ♣5 ♣2 ♣3",
        "♣2 ♣3 ♣7 ♣7",
        "must_follow_tractor",
        "You hold a tractor of ♣ and must play it: ♣7 ♣7 ♣5 ♣5",
    ),
    (
        "2 tractor lead: a part of a longer tractor",
        "♣9 ♣9 ♣8 ♣8",
        "♣A ♣A ♣K ♣K ♣Q ♣Q ♣2",
        "♣Q ♣Q ♣K ♣K",
        OK,
        None,
    ),
    (
        "2h: no tractor -> two pairs",
        "♣9 ♣9 ♣8 ♣8",
        "♣J ♣J ♣4 ♣4 ♣2 ♣3",
        "♣J ♣J ♣2 ♣3",
        "must_follow_pairs",
        "You hold pairs of ♣ and must play 2 pairs: ♣4 ♣4",
    ),
    ("2h: no tractor, two pairs played", "♣9 ♣9 ♣8 ♣8", "♣J ♣J ♣4 ♣4 ♣2 ♣3", "♣J ♣J ♣4 ♣4", OK, None),
    (
        "2h: one pair -> the pair and two singles",
        "♣9 ♣9 ♣8 ♣8",
        "♣J ♣J ♣4 ♣2 ♣3",
        "♣J ♣4 ♣2 ♣3",
        "must_follow_pair",
        "You hold a pair of ♣ and must play it: ♣J ♣J",
    ),
    ("2h: one pair and two singles", "♣9 ♣9 ♣8 ♣8", "♣J ♣J ♣4 ♣2 ♣3", "♣J ♣J ♣2 ♣4", OK, None),
    ("2h: no pair -> any four of G", "♣9 ♣9 ♣8 ♣8", "♣J ♣4 ♣2 ♣3 ♣A", "♣J ♣4 ♣2 ♣A", OK, None),
    (
        "2 three-pair tractor lead: a 2-pair tractor is not required, its pairs are",
        "♣9 ♣9 ♣8 ♣8 ♣7 ♣7",
        "♣J ♣J ♣Q ♣Q ♣2 ♣3 ♣4 ♣5",
        "♣J ♣J ♣2 ♣3 ♣4 ♣5",
        "must_follow_pairs",
        "You hold pairs of ♣ and must play 2 pairs: ♣Q ♣Q",
    ),
    (
        "2 trump tractor lead with off-suit level pair",
        "BJ BJ SJ SJ",
        "♥6 ♥6 ♠6 ♠6 ♥2 ♥3",
        "♥6 ♥6 ♥2 ♥3",
        "must_follow_tractor",
        "You hold a tractor of trump and must play it: ♥6 ♥6 ♠6 ♠6",
    ),
    (
        "2 two off-suit level pairs are not a tractor",
        "BJ BJ SJ SJ",
        "♣6 ♣6 ♠6 ♠6 ♥2 ♥3",
        "♣6 ♣6 ♠6 ♠6",
        OK,
        None,
    ),
    # --- throws: each component's requirement
    (
        "2 throw AAK: a pair then any",
        "♠A ♠A ♠K",
        "♠3 ♠3 ♠4 ♠5",
        "♠3 ♠4 ♠5",
        "must_follow_pair",
        "You hold a pair of ♠ and must play it: ♠3 ♠3",
    ),
    ("2 throw AAK: pair and single", "♠A ♠A ♠K", "♠3 ♠3 ♠4 ♠5", "♠3 ♠3 ♠5", OK, None),
    (
        "2 throw AAKKQ: tractor first",
        "♠A ♠A ♠K ♠K ♠Q",
        "♠3 ♠3 ♠4 ♠4 ♠9 ♠9 ♠2",
        "♠9 ♠9 ♠3 ♠3 ♠2",
        "must_follow_tractor",
        "You hold a tractor of ♠ and must play it: ♠4 ♠4 ♠3 ♠3",
    ),
    ("2 throw of two pairs: two pairs", "♠A ♠A ♠Q ♠Q", "♠3 ♠3 ♠9 ♠9 ♠2 ♠4", "♠9 ♠9 ♠3 ♠3", OK, None),
    ("2 throw of singles: anything of G", "♠A ♠K ♠Q", "♠3 ♠3 ♠9 ♠9 ♠2", "♠3 ♠3 ♠9", OK, None),
    (
        "2 throw of two tractors: both held tractors",
        "BJ BJ SJ SJ ♥4 ♥4 ♥3 ♥3",
        "♥6 ♥6 ♠6 ♠6 ♣6 ♣6 ♥A ♥A ♥2 ♥5 ♥7 ♥8",
        "♥6 ♥6 ♠6 ♠6 ♥2 ♥5 ♥7 ♥8",
        "must_follow_tractor",
        "You hold tractors of trump and must play them: ♥6 ♥6 ♠6 ♠6 ♣6 ♣6 ♥A ♥A",
    ),
    (
        "2 throw of two tractors: two level pairs feed two tractors",
        "BJ BJ SJ SJ ♥4 ♥4 ♥3 ♥3",
        "♥6 ♥6 ♠6 ♠6 ♣6 ♣6 ♥A ♥A ♥2 ♥5 ♥7 ♥8",
        "♥6 ♥6 ♠6 ♠6 ♣6 ♣6 ♥A ♥A",
        OK,
        None,
    ),
    (
        "2 throw of two tractors: one tractor then pairs",
        "BJ BJ SJ SJ ♥4 ♥4 ♥3 ♥3",
        "♥6 ♥6 ♠6 ♠6 ♥9 ♥9 ♥7 ♥2 ♥5 ♥8",
        "♥6 ♥6 ♠6 ♠6 ♥9 ♥9 ♥7 ♥2",
        OK,
        None,
    ),
    # --- count and possession
    ("count: same number as the leader", "♣9 ♣9", "♣3 ♣4 ♣5", "♣3", "wrong_count", "Play 2 cards, not 1"),
    ("possession: cards must be in hand", "♣9", "♣3 ♣4", "♣5", "not_in_hand", "You do not hold ♣5"),
    (
        "possession: both copies needed for a pair",
        "♣9 ♣9",
        "♣3 ♣4",
        "♣3 ♣3",
        "not_in_hand",
        "You do not hold ♣3",
    ),
]


@pytest.mark.parametrize(
    ("rule", "lead", "hand", "play", "code", "message"), CASES, ids=[c[0] for c in CASES]
)
def test_rules_1_5_following(
    rule: str, lead: str, hand: str, play: str, code: str | None, message: str | None
) -> None:
    led = classify_lead(L6, parse_cards(lead), throws_allowed=True)
    if code is None:
        check_follow(L6, led, parse_cards(hand), parse_cards(play))
        return
    with pytest.raises(RuleError) as e:
        check_follow(L6, led, parse_cards(hand), parse_cards(play))
    assert e.value.code == code
    assert str(e.value) == message


def test_rules_1_5_following_params_are_canonical_text() -> None:
    led = classify_lead(L6, parse_cards("♣9 ♣9"), throws_allowed=False)
    with pytest.raises(RuleError) as e:
        check_follow(L6, led, parse_cards("♣8 ♣8 ♣2 ♣3"), parse_cards("♣2 ♣3"))
    assert e.value.params == {"suit": "♣", "cards": "♣8 ♣8"}


def test_rules_1_5_no_trump_following() -> None:
    ctx = trump_context(9, None)
    led = classify_lead(ctx, parse_cards("SJ"), throws_allowed=False)
    with pytest.raises(RuleError) as e:
        check_follow(ctx, led, parse_cards("♦9 ♠A"), parse_cards("♠A"))
    assert e.value.code == "must_follow_suit"
    check_follow(ctx, led, parse_cards("♦9 ♠A"), parse_cards("♦9"))
