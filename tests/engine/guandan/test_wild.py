"""Wild cards (逢人配, docs/rules.md 2.2) and selections with several readings (2.3, last paragraph)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_cards
from engine.errors import RuleError
from engine.guandan.combos import beats, classify_or_error, playable_readings, readings
from engine.guandan.wild import count_wilds, split_wilds, substitutions, wild_note


def keys(text: str, level: int) -> list[tuple[str, int, int]]:
    return [r.key for r in readings(parse_cards(text), level)]


def test_rules_2_2_notice_example_straight_flush_completed_by_a_wild_card() -> None:
    """Notice 三: at level 10, ♣2 ♣3 ♣4 ♣6 with ♥10 make the straight flush ♣2-6."""
    rs = readings(parse_cards("♣2 ♣3 ♣4 ♣6 ♥10"), 10)
    assert [r.key for r in rs] == [("straight_flush", 6, 5), ("straight", 6, 5)]
    sf = rs[0]
    assert sf.to_text() == "straight_flush ♣2 ♣3 ♣4 ♣5 ♣6"
    assert sf.label(10) == "同花顺 ♣2-6"
    assert sf.cards_text() == "♣2 ♣3 ♣4 ♥10 ♣6"
    assert wild_note(sf, 10) == "♥10=♣5"
    assert sf.wild_count == 1


def test_rules_2_2_notice_example_nine_and_ten_card_bombs() -> None:
    """Notice 三: eight natural cards and one wild make a 9-card bomb, two wilds a 10-card bomb."""
    eight = "♠7 ♠7 ♥7 ♥7 ♣7 ♣7 ♦7 ♦7"
    assert keys(eight + " ♥10", 10) == [("bomb", 7, 9)]
    assert keys(eight + " ♥10 ♥10", 10) == [("bomb", 7, 10)]
    ten = readings(parse_cards(eight + " ♥10 ♥10"), 10)[0]
    assert ten.to_text() == "bomb " + " ".join(["♠7", "♠7", "♥7", "♥7", "♣7", "♣7", "♦7", "♦7", "♥7", "♥7"])
    assert ten.bomb_tier == 100


@pytest.mark.parametrize(
    ("text", "level", "expected"),
    [
        # a wild card completes any group but a joker one
        ("♠5 ♥10", 10, [("pair", 5, 2)]),
        ("♠5 ♣5 ♥10", 10, [("triple", 5, 3)]),
        ("♠5 ♥10 ♥10", 10, [("triple", 5, 3)]),
        ("♠5 ♣5 ♦5 ♥10", 10, [("bomb", 5, 4)]),
        ("♠5 ♣5 ♥10 ♥10", 10, [("bomb", 5, 4)]),
        # a wild card played as itself is the level card
        ("♥10", 10, [("single", 15, 1)]),
        ("♥10 ♥10", 10, [("pair", 15, 2)]),
        ("♠10 ♥10", 10, [("pair", 15, 2)]),
        ("♠10 ♣10 ♥10 ♥10", 10, [("bomb", 15, 4)]),
        # full house: a wild in the triple or the pair; two readings when both fit
        ("♠5 ♣5 ♠8 ♣8 ♥10", 10, [("full_house", 8, 5), ("full_house", 5, 5)]),
        ("♠5 ♣5 ♦5 ♠8 ♥10", 10, [("full_house", 5, 5)]),
        ("♠5 ♣5 ♦5 BJ BJ", 10, [("full_house", 5, 5)]),
        # a bomb and a full house from the same five cards (2.3: the player chooses)
        ("♠5 ♣5 ♦5 ♥10 ♥10", 10, [("bomb", 5, 5), ("full_house", 5, 5)]),
        ("♠10 ♣10 ♦10 ♥10 ♥10", 10, [("bomb", 15, 5), ("full_house", 15, 5)]),
        # straights, tubes, plates completed by wild cards; A low or high, no wrap
        ("♠A ♦2 ♣3 ♠4 ♥10", 10, [("straight", 5, 5)]),
        ("♠J ♦Q ♣K ♠A ♥10", 10, [("straight", 14, 5)]),
        ("♠3 ♦4 ♣6 ♥10 ♥10", 10, [("straight", 7, 5), ("straight", 6, 5)]),
        ("♠Q ♦K ♣A ♥10 ♥10", 10, [("straight", 14, 5)]),
        ("♠3 ♦3 ♣4 ♠4 ♦5 ♥10", 10, [("tube", 5, 6)]),
        ("♠A ♦A ♣2 ♥10 ♦3 ♥10", 10, [("tube", 3, 6)]),
        ("♠3 ♦3 ♣3 ♠4 ♥10 ♥10", 10, [("plate", 4, 6)]),
        ("♠K ♦K ♣A ♥10 ♥10 ♠A", 10, [("tube", 14, 6), ("plate", 14, 6)]),
        ("♠3 ♦3 ♣4 ♠4 ♥10 ♥10", 10, [("tube", 5, 6), ("tube", 4, 6), ("plate", 4, 6)]),
        # the level card at its natural place: ♥10 as itself inside 8-Q
        ("♠8 ♦9 ♥10 ♣J ♠Q", 10, [("straight", 12, 5)]),
        ("♥8 ♥9 ♥10 ♥J ♥Q", 10, [("straight_flush", 12, 5), ("straight", 12, 5)]),
        ("♠8 ♠9 ♥10 ♠J ♠Q", 10, [("straight_flush", 12, 5), ("straight", 12, 5)]),
    ],
)
def test_rules_2_2_wild_card_readings(text: str, level: int, expected: list[tuple[str, int, int]]) -> None:
    assert keys(text, level) == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("SJ ♥10", "wild_not_joker"),
        ("BJ ♥10", "wild_not_joker"),
        ("BJ BJ SJ ♥10", "wild_not_joker"),
        ("BJ SJ ♥10 ♥10", "wild_not_joker"),
        ("♠3 ♦4 ♣5 SJ ♥10", "jokers_in_straight"),
        ("♠Q ♦K ♣A ♠2 ♥10", "straight_wraps"),
        ("♠3 ♦4 ♣5 ♥10", "straight_needs_five"),
        ("♠3 ♦5 ♣8 ♠9 ♥10", "not_consecutive"),
    ],
)
def test_rules_2_2_jokers_cannot_be_substituted_and_wilds_do_not_rescue_invalid_shapes(
    text: str, code: str
) -> None:
    with pytest.raises(RuleError) as err:
        classify_or_error(parse_cards(text), 10)
    assert err.value.code == code


def test_rules_2_3_player_chooses_among_playable_readings() -> None:
    """With 5♠ 5♣ 5♦ and two wild cards on a full house of 8s only the bomb reading can be played."""
    cards = parse_cards("♠5 ♣5 ♦5 ♥10 ♥10")
    fh8 = readings(parse_cards("♠8 ♣8 ♦8 ♠2 ♣2"), 10)[0]
    rs = playable_readings(cards, 10, fh8)
    assert [r.key for r in rs] == [("bomb", 5, 5)]
    fh3 = readings(parse_cards("♠3 ♣3 ♦3 ♠2 ♣2"), 10)[0]
    assert [r.kind for r in playable_readings(cards, 10, fh3)] == ["bomb", "full_house"]
    ids = [r.reading_id() for r in readings(cards, 10)]
    assert len(set(ids)) == len(ids) == 2


def test_rules_2_2_wild_straight_flush_beats_five_card_bomb_and_loses_to_six() -> None:
    sf = readings(parse_cards("♣2 ♣3 ♣4 ♣6 ♥10"), 10)[0]
    assert beats(sf, readings(parse_cards("♠A ♣A ♦A ♥A ♠A"), 10)[0])
    assert not beats(sf, readings(parse_cards("♠2 ♣2 ♦2 ♥2 ♠2 ♥10"), 10)[0])


def test_rules_2_2_wild_helpers() -> None:
    cards = parse_cards("♠3 ♥10 ♣4 ♥10 ♥9")
    naturals, wilds = split_wilds(cards, 10)
    assert naturals == parse_cards("♠3 ♣4 ♥9")
    assert wilds == parse_cards("♥10 ♥10")
    assert count_wilds(cards, 10) == 2
    pair = readings(parse_cards("♠10 ♥10"), 10)[0]
    assert substitutions(pair, 10) == []
    assert wild_note(pair, 10) == ""
    assert pair.wild_count == 0


# --- property: wild-card readings equal a brute force over every substitution -------------------------


def natural_keys(cards: list[int], level: int) -> set[tuple[str, int, int]]:
    """An independent, plain classifier of cards without wild cards (docs/rules.md 2.3 table)."""
    from collections import Counter

    from engine.guandan.ranks import order_value

    n = len(cards)
    ranks = [c % 13 + 2 if c < 52 else (15 if c == 52 else 16) for c in cards]
    cnt = Counter(ranks)
    out: set[tuple[str, int, int]] = set()
    jokers = any(r >= 15 for r in ranks)
    if len(cnt) == 1:
        r = ranks[0]
        kind = {1: "single", 2: "pair", 3: "triple"}.get(n, "bomb")
        if kind in ("single", "pair") or r < 15:
            out.add((kind, order_value(r, level), n))
    if sorted(cards) == [52, 52, 53, 53]:
        out.add(("joker_bomb", 17, 4))
    if n == 5 and len(cnt) == 2:
        for t, p in (tuple(cnt), tuple(cnt)[::-1]):
            if cnt[t] == 3 and cnt[p] == 2 and t < 15:
                out.add(("full_house", order_value(t, level), 5))
    if not jokers:
        for k, m, kind in ((5, 1, "straight"), (3, 2, "tube"), (2, 3, "plate")):
            if n != k * m:
                continue
            for top in range(k, 15):
                window = [14 if p == 1 else p for p in range(top - k + 1, top + 1)]
                if all(cnt[r] == m for r in window):
                    out.add((kind, top, n))
                    if kind == "straight" and len({c // 13 for c in cards}) == 1:
                        out.add(("straight_flush", top, n))
    return out


def brute_keys(cards: list[int], level: int) -> set[tuple[str, int, int]]:
    import itertools

    wild = 13 + level - 2
    naturals = [c for c in cards if c != wild]
    w = len(cards) - len(naturals)
    if not naturals:  # decision (wild.py): wild cards alone are themselves
        return natural_keys(cards, level)
    out: set[tuple[str, int, int]] = set()
    for subs in itertools.product(range(52), repeat=w):
        out |= natural_keys(naturals + list(subs), level)
    return out


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32), level=st.integers(2, 14), size=st.integers(1, 10), n_wild=st.integers(0, 2)
)
def test_rules_2_2_readings_equal_every_substitution_of_the_wild_cards(
    seed: int, level: int, size: int, n_wild: int
) -> None:
    import random

    rng = random.Random(seed)
    wild = 13 + level - 2
    low = rng.randint(1, 12)
    ranks = [14 if p == 1 else p for p in range(low, min(low + rng.randint(1, 5), 15))]
    suits = rng.sample(range(4), rng.randint(1, 4))
    pool = [s * 13 + r - 2 for r in ranks for s in suits for _ in range(2)] + [52, 52, 53, 53][
        : rng.randint(0, 4)
    ]
    pool = [c for c in pool if c != wild]
    rng.shuffle(pool)
    n_wild = min(n_wild, size)
    cards = pool[: size - n_wild] + [wild] * n_wild
    rng.shuffle(cards)
    assert {r.key for r in readings(cards, level)} == brute_keys(cards, level)


def test_rules_2_3_no_five_cards_read_as_both_a_bomb_and_a_straight_flush() -> None:
    """2.3 lists a bomb and a straight flush among the readings wild cards allow; with two decks they never
    come from one selection (a bomb needs one natural rank, a straight flush five ranks, and there are
    at most two wild cards), so the choice is always bomb/full house or straight flush/straight."""
    import itertools

    level = 10
    wild = 13 + level - 2
    kinds = [c for c in range(52) if c != wild]
    seen_sf = seen_bomb = False
    for three in itertools.combinations_with_replacement(kinds, 3):
        ks = {r.kind for r in readings([*three, wild, wild], level)}
        seen_sf |= "straight_flush" in ks
        seen_bomb |= "bomb" in ks
        assert not {"bomb", "straight_flush"} <= ks, three
    assert seen_sf and seen_bomb
