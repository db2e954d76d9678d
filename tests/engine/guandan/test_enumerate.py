"""Move enumeration agrees with validation (docs/rules.md 2.2-2.4; issue 3 "enumeration agrees with validation")."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import contains, full_deck, parse_cards
from engine.errors import RuleError
from engine.guandan.combos import BOMB_KINDS, Combo, beats, playable_readings, readings
from engine.guandan.enumerate import legal_plays, lowest_play, validate_play


def keyset(plays: list[Combo]) -> set[tuple[str, int, int]]:
    return {c.key for c in plays}


def one(text: str, level: int) -> Combo:
    return readings(parse_cards(text), level)[-1]


HAND = "♠3 ♦3 ♣4 ♠4 ♦5 ♣6 ♠7 ♠7 ♣7 ♦7 ♥9 ♥9 ♠K SJ BJ BJ"  # level 9: ♥9 ♥9 are wild


def test_rules_2_4_lead_lists_every_kind_once_per_key() -> None:
    plays = legal_plays(parse_cards(HAND), 9)
    ks = [c.key for c in plays]
    assert len(ks) == len(set(ks))
    for expected in [
        ("single", 3, 1),
        ("single", 15, 1),
        ("single", 17, 1),
        ("pair", 3, 2),
        ("pair", 5, 2),
        ("pair", 13, 2),
        ("pair", 17, 2),
        ("triple", 7, 3),
        ("triple", 13, 3),
        ("full_house", 7, 5),
        ("full_house", 3, 5),
        ("straight", 7, 5),
        ("straight", 5, 5),
        ("straight", 8, 5),
        ("tube", 5, 6),
        ("tube", 4, 6),
        ("plate", 4, 6),
        ("plate", 7, 6),
        ("bomb", 7, 4),
        ("bomb", 7, 5),
        ("bomb", 7, 6),
        ("bomb", 3, 4),
        ("straight_flush", 7, 5),  # ♠3 ♠4 + ♠7 with two wilds: ♠3-7
    ]:
        assert expected in ks, expected
    assert ("pair", 16, 2) not in ks  # one SJ only
    assert ("joker_bomb", 17, 4) not in ks
    assert ("bomb", 7, 7) not in ks  # 4 natural 7s + 2 wilds = 6 at most


def test_rules_2_4_canonical_choice_spends_no_wild_card_when_naturals_suffice() -> None:
    plays = {c.key: c for c in legal_plays(parse_cards(HAND), 9)}
    assert plays[("pair", 3, 2)].cards_text() == "♠3 ♦3"
    assert plays[("pair", 5, 2)].cards_text() == "♦5 ♥9"
    assert plays[("bomb", 7, 4)].cards_text() == "♠7 ♠7 ♣7 ♦7"
    assert plays[("single", 15, 1)].cards_text() == "♥9"
    # full house: the pair needing no wild card, a rank held exactly twice first
    assert plays[("full_house", 7, 5)].cards_text() == "♠7 ♠7 ♣7 ♠3 ♦3"


def test_rules_2_4_kickers_lists_every_pair_for_a_full_house() -> None:
    plays = [c for c in legal_plays(parse_cards(HAND), 9, kickers=True) if c.key == ("full_house", 7, 5)]
    pairs = {c.cards_text().split(" ", 3)[3] for c in plays}
    assert {"♠3 ♦3", "♠4 ♣4", "BJ BJ", "♠K ♥9", "♥9 ♥9"} <= pairs


def test_rules_2_4_following_lists_only_the_same_kind_higher_plus_bombs() -> None:
    hand = parse_cards(HAND)
    pair6 = one("♠6 ♦6", 9)
    plays = legal_plays(hand, 9, pair6)
    assert all(beats(c, pair6) for c in plays)
    assert {c.kind for c in plays} == {"pair", "bomb", "straight_flush"}
    assert ("pair", 5, 2) not in keyset(plays)
    assert ("pair", 7, 2) in keyset(plays)
    bomb6 = one("♠A ♦A ♣A ♥A ♠A ♦A", 9)
    assert keyset(legal_plays(hand, 9, bomb6)) == set()
    sf = readings(parse_cards("♥2 ♥3 ♥4 ♥5 ♥6"), 9)[0]
    assert sf.kind == "straight_flush"
    assert keyset(legal_plays(hand, 9, sf)) == {
        ("straight_flush", 7, 5),
        ("straight_flush", 8, 5),
        ("bomb", 7, 6),
    }


def test_rules_2_4_lowest_play() -> None:
    hand = parse_cards(HAND)
    lead = lowest_play(hand, 9, None)
    assert lead is not None and lead.cards_text() == "♠3"
    assert lowest_play(parse_cards("♥9 ♥9"), 9, None) == one("♥9", 9)
    follow = lowest_play(hand, 9, one("♠4 ♦4", 9))
    assert follow is not None and follow.key == ("pair", 5, 2)
    bomb = lowest_play(hand, 9, one("♠A ♦A ♣A", 9))
    assert bomb is not None and bomb.key == ("bomb", 3, 4)
    assert lowest_play(hand, 9, one("♠A ♦A ♣A", 9), bombs=False) is None
    assert lowest_play(parse_cards("♠3 ♦4"), 9, one("♠A", 9)) is None


def test_rules_2_4_validate_play_reasons() -> None:
    hand = parse_cards(HAND)
    with pytest.raises(RuleError) as err:
        validate_play(hand, parse_cards("♠A"), 9, None)
    assert err.value.code == "not_in_hand"
    with pytest.raises(RuleError) as err:
        validate_play(hand, parse_cards("♠3 ♣4"), 9, None)
    assert err.value.code == "not_a_combination"
    with pytest.raises(RuleError) as err:
        validate_play(hand, parse_cards("♠3 ♦3"), 9, one("♠4 ♦4", 9))
    assert err.value.code == "does_not_beat"
    assert [r.kind for r in validate_play(hand, parse_cards("♠7 ♠7 ♣7 ♦7"), 9, one("♠4 ♦4", 9))] == ["bomb"]


# --- properties: enumeration agrees with validation --------------------------------------------------


def sub_multisets(hand: list[int], max_size: int = 10) -> Iterator[list[int]]:
    cnt = Counter(hand)
    kinds = sorted(cnt)
    cur: list[int] = []

    def rec(i: int) -> Iterator[list[int]]:
        if i == len(kinds):
            if cur:
                yield list(cur)
            return
        k = kinds[i]
        for m in range(cnt[k] + 1):
            if len(cur) + m > max_size:
                break
            cur.extend([k] * m)
            yield from rec(i + 1)
            del cur[len(cur) - m :]

    yield from rec(0)


def dense_hand(rng: random.Random, level: int, size: int) -> list[int]:
    """A hand from a few neighbouring ranks, jokers and the wild cards, so that most kinds occur."""
    low = rng.randint(1, 10)
    ranks = [14 if p == 1 else p for p in range(low, low + 5)]
    wild = 13 + level - 2
    kinds = [s * 13 + r - 2 for r in ranks for s in range(4)] + [52, 53]
    deck = [k for k in kinds if k != wild for _ in range(2)]
    rng.shuffle(deck)
    n_wild = rng.choice([0, 1, 1, 2, 2])
    return [wild] * n_wild + deck[: size - n_wild]


def check_enumeration(hand: list[int], level: int, to_beat: Combo | None) -> None:
    plays = legal_plays(hand, level, to_beat)
    keys = keyset(plays)
    assert len(keys) == len(plays)
    for c in plays:
        assert contains(hand, c.cards)
        assert c.key in {r.key for r in readings(c.cards, level)}
        assert to_beat is None or beats(c, to_beat)
    for s in sub_multisets(hand):
        for r in playable_readings(s, level, to_beat):
            assert r.key in keys, (s, r)
    with_kickers = legal_plays(hand, level, to_beat, kickers=True)
    assert keyset(with_kickers) == keys
    assert len(set(with_kickers)) == len(with_kickers)
    for c in with_kickers:
        assert contains(hand, c.cards)
        assert c.key in {r.key for r in readings(c.cards, level)}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.integers(2, 14), size=st.integers(6, 11))
def test_rules_2_3_every_validating_subset_of_a_dense_hand_is_enumerated_when_leading(
    seed: int, level: int, size: int
) -> None:
    rng = random.Random(seed)
    check_enumeration(dense_hand(rng, level, size), level, None)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.integers(2, 14), size=st.integers(6, 11))
def test_rules_2_3_every_playable_subset_is_enumerated_when_following(
    seed: int, level: int, size: int
) -> None:
    rng = random.Random(seed)
    hand = dense_hand(rng, level, size)
    other = dense_hand(rng, level, 12)
    candidates = legal_plays(other, level)
    to_beat = rng.choice(candidates)
    check_enumeration(hand, level, to_beat)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), level=st.integers(2, 14))
def test_rules_2_3_random_subsets_of_27_card_hands_that_validate_are_enumerated(
    seed: int, level: int
) -> None:
    rng = random.Random(seed)
    deck = full_deck()
    rng.shuffle(deck)
    hand = deck[:27]
    lead = legal_plays(hand, level)
    lead_keys = keyset(lead)
    for c in lead:
        assert contains(hand, c.cards)
        assert c.key in {r.key for r in readings(c.cards, level)}
    to_beat = rng.choice(legal_plays(deck[27:54], level))
    follow = legal_plays(hand, level, to_beat)
    follow_keys = keyset(follow)
    assert all(beats(c, to_beat) and c.key in lead_keys for c in follow)
    assert {c.key for c in lead if beats(c, to_beat)} == follow_keys
    by_rank = sorted(hand, key=lambda c: (c % 13, c))
    for _ in range(300):
        k = rng.randint(1, 10)
        if rng.random() < 0.5:
            start = rng.randrange(len(by_rank))
            s = by_rank[start : start + k]  # neighbouring ranks: far more of these validate
        else:
            s = rng.sample(hand, k)
        for r in readings(s, level):
            assert r.key in lead_keys, (s, r)
            assert (r.key in follow_keys) == beats(r, to_beat)


def test_rules_2_3_bomb_kinds_come_last_in_strength_order() -> None:
    plays = legal_plays(parse_cards(HAND), 9)
    kinds = [c.kind in BOMB_KINDS for c in plays]
    first_bomb = kinds.index(True)
    assert all(kinds[first_bomb:])
    bombs = plays[first_bomb:]
    assert all(beats(b, a) for a, b in zip(bombs, bombs[1:], strict=False))


def test_rules_2_3_canonical_straight_keeps_a_straight_flush_intact() -> None:
    """A plain straight read from a hand holding ♠3-7 and ♦4-6 uses an off-suit card, so it is no straight flush;
    the straight flush is listed with its own cards, from the suit needing the fewest wild cards."""
    plays = {c.key: c for c in legal_plays(parse_cards("♠3 ♠4 ♠5 ♠6 ♠7 ♦5 ♦4 ♦6 ♥9"), 9)}
    straight = plays[("straight", 7, 5)]
    assert straight.cards_text() == "♠3 ♠4 ♠5 ♦6 ♠7"
    assert [r.kind for r in readings(straight.cards, 9)] == ["straight"]
    assert plays[("straight_flush", 7, 5)].cards_text() == "♠3 ♠4 ♠5 ♠6 ♠7"
    assert plays[("straight_flush", 8, 5)].cards_text() == "♠4 ♠5 ♠6 ♠7 ♥9"


def _straight_flushes_reference(h: Any, above: int) -> list[Any]:
    """``_Hand.straight_flushes`` as first written (a flag per rank and suit, counted position by position)."""
    from engine.guandan.combos import STRAIGHT_FLUSH, Combo
    from engine.guandan.enumerate import _POS_RANK, _RANKS

    out = []
    present = [[False] * 15 for _ in range(4)]
    for r in _RANKS:
        for k in h.nat[r]:
            present[k // 13][r] = True
    for top in range(max(5, above + 1), 15):
        best: tuple[int, int] | None = None
        for suit in range(4):
            pres = present[suit]
            need = 0
            for p in range(top - 4, top + 1):
                if not pres[_POS_RANK[p]]:
                    need += 1
            if need <= h.w and (best is None or need < best[0]):
                best = (need, suit)
        if best is None:
            continue
        suit = best[1]
        pres = present[suit]
        cards, as_cards = [], []
        for p in range(top - 4, top + 1):
            r = _POS_RANK[p]
            k = suit * 13 + r - 2
            cards.append(k if pres[r] else h.wild)
            as_cards.append(k)
        out.append(Combo(STRAIGHT_FLUSH, tuple(cards), top, 5, tuple(as_cards)))
    return out


def test_straight_flushes_are_the_reference_ones_on_thousands_of_hands() -> None:
    """The bit-mask search finds the same straight flushes, cards and wild stand-ins as the first version
    (random hands of 1–27 cards from two decks, every level, every ``above``)."""
    from engine.cards import full_deck
    from engine.guandan.enumerate import _Hand

    rng = random.Random(2026)
    deck = full_deck(2)
    found = 0
    for _ in range(8000):
        level = rng.randrange(2, 15)
        hand = rng.sample(deck, rng.randrange(1, 28))
        if rng.random() < 0.3:  # more wild cards than a random hand holds
            hand += [13 + level - 2] * rng.randrange(1, 3)
        h = _Hand(hand, level)
        above = rng.choice([-1, 4, 7, 10, 13])
        got = h.straight_flushes(above)
        assert got == _straight_flushes_reference(h, above), (hand, level, above)
        found += len(got)
    assert found > 1000
