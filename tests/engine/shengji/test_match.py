"""The deal and match state machine: docs/rules.md 1.1, 1.3 C, 1.4, 1.5 (failed throws), 1.7, 1.8; D2-D4, D6, D9."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.cards import card_text, parse_cards, total_points
from engine.errors import RuleError
from engine.registry import load_preset, replay
from engine.shengji.ai import ai_step
from engine.shengji.game import ShengjiMatch
from tests.engine.shengji.rigging import rig


def options(preset: str, **over: Any) -> Any:
    return load_preset(preset).with_overrides(over).rules if over else load_preset(preset).rules


def deal_all(m: ShengjiMatch, bids: dict[int, str] | None = None) -> None:
    """Deal every card; ``bids`` maps a draw count to a bid action made after that many draws."""
    bids = bids or {}
    while m.phase == "dealing":
        if m.draws in bids:
            m.apply(bids.pop(m.draws))
        m.apply("sys deal")


def close(m: ShengjiMatch) -> None:
    m.apply("sys close_bidding")


def finish_deal_with_ai(m: ShengjiMatch, seed: int = 1) -> None:
    rng = random.Random(seed)
    while m.phase not in ("deal_over", "match_over"):
        step = ai_step(m, rng)
        assert step is not None
        m.apply(step)


def bury_auto(m: ShengjiMatch) -> None:
    assert m.dealer is not None
    m.apply(m.auto_action(m.dealer))


# --- 1.1 dealing ----------------------------------------------------------------------------


def test_rules_1_1_hundred_single_draws_counter_clockwise_then_kitty_of_eight() -> None:
    m = ShengjiMatch(options("shengji-17-deals"), 11)
    first = m.first_drawer
    m.apply("sys deal")
    assert len(m.hands[first]) == 1
    m.apply("sys deal")
    assert len(m.hands[(first + 1) % 4]) == 1
    deal_all(m)
    assert [len(h) for h in m.hands] == [25, 25, 25, 25]
    assert len(m.kitty) == 8 and m.phase == "window"
    with pytest.raises(RuleError):
        m.apply("sys deal")


def test_rules_1_1_first_drawer_is_random_from_the_seed_later_the_dealer() -> None:
    drawers = {ShengjiMatch(options("shengji-17-deals"), s).first_drawer for s in range(20)}
    assert len(drawers) > 1
    m = ShengjiMatch(options("shengji-17-deals"), 3)
    finish_deal_with_ai(m)
    m.apply("sys next_deal")
    assert m.first_drawer == m.dealer


# --- 1.3 C who declares, dealer grab --------------------------------------------------------------


def test_rules_1_3_c_first_deal_first_declarer_becomes_dealer() -> None:
    m = ShengjiMatch(options("shengji-17-deals"), 1)
    rig(m, {1: "♥2 BJ"})
    deal_all(m, {8: "1 bid ♥2 BJ"})
    close(m)
    assert (m.dealer, m.trump_suit, m.level, m.phase) == (1, 1, 2, "bury")
    assert len(m.hands[1]) == 33


def test_rules_1_3_c_17_deals_first_deal_overturner_becomes_dealer() -> None:
    """反主反打."""
    m = ShengjiMatch(options("shengji-17-deals"), 1)
    rig(m, {1: "♥2 BJ", 2: "♠2 ♠2 SJ"})
    deal_all(m, {8: "1 bid ♥2 BJ", 12: "2 bid ♠2 ♠2 SJ"})
    close(m)
    assert (m.dealer, m.trump_suit) == (2, 0)


@pytest.mark.parametrize(
    ("preset", "first", "over"),
    [
        ("shengji-timed-2h", "1 bid ♥2", "2 bid ♠2 ♠2"),
        ("shengji-50min", "1 bid ♥2 BJ", "2 bid ♠2 ♠2 SJ"),
    ],
)
def test_rules_1_3_c_first_deal_overturn_changes_trump_only(preset: str, first: str, over: str) -> None:
    """开局反主不反庄家 (2h) / 改主不改庄 (50min)."""
    m = ShengjiMatch(options(preset), 1)
    rig(m, {1: "♥2 BJ", 2: "♠2 ♠2 SJ"})
    deal_all(m, {8: first, 12: over})
    close(m)
    assert (m.dealer, m.trump_suit) == (1, 0)


def test_rules_1_3_c_bid_not_allowed_gives_a_reason_and_changes_nothing() -> None:
    m = ShengjiMatch(options("shengji-17-deals"), 1)
    rig(m, {1: "♥2 BJ", 2: "♥2 SJ"})
    deal_all(m, {8: "1 bid ♥2 BJ"})
    before = m.snapshot()
    with pytest.raises(RuleError) as err:
        m.apply("2 bid ♥2 SJ")
    assert err.value.code == "bid_wrong_joker"
    with pytest.raises(RuleError) as err:
        m.apply("2 bid ♥2 BJ")
    assert err.value.code == "not_in_hand"
    assert m.snapshot() == before


def _second_deal(preset: str, seed: int = 4, **over: Any) -> ShengjiMatch:
    m = ShengjiMatch(options(preset, **over), seed)
    finish_deal_with_ai(m)
    m.apply("sys next_deal")
    return m


def test_rules_1_3_c_17_deals_nobody_declares_redeal_and_grab_again() -> None:
    m = _second_deal("shengji-17-deals")
    assert m.dealer is not None
    deal_all(m)
    for s in range(4):
        m.apply(f"{s} pass_bid")
    assert m.system_step() == "sys close_bidding"
    close(m)
    assert (m.phase, m.dealer, m.redeal_no, m.grab) == ("dealing", None, 1, True)


def test_rules_1_3_c_17_deals_own_level_declaration_makes_the_declarer_dealer() -> None:
    m = _second_deal("shengji-17-deals")
    assert m.dealer is not None
    dealer_side = m.dealer % 2
    m.levels[dealer_side] = 5  # the dealer side is at 5, the others at 2
    m.levels[1 - dealer_side] = 2
    other = (m.dealer + 1) % 4
    rig(m, {other: "♥2 BJ"})
    deal_all(m)
    with pytest.raises(RuleError):
        m.apply(f"{(other + 1) % 4} bid ♥2 BJ")  # the dealer side has no own-level option
    m.apply(f"{other} bid ♥2 BJ")
    close(m)
    assert (m.dealer, m.level, m.trump_suit) == (other, 2, 1)


def test_rules_1_3_c_first_deal_nobody_declares_redeals_every_preset() -> None:
    for preset in ("shengji-17-deals", "shengji-timed-2h", "shengji-50min"):
        m = ShengjiMatch(options(preset), 2)
        deal_all(m)
        close(m)
        assert (m.phase, m.redeal_no, m.dealer) == ("dealing", 1, None)


def test_rules_1_3_c_redeals_in_a_row_pause_the_table() -> None:
    m = ShengjiMatch(options("shengji-17-deals", max_redeals_before_pause=2), 2)
    deal_all(m)
    close(m)
    deal_all(m)
    close(m)
    assert m.phase == "paused"
    assert m.public_view()["table"]["paused"] == "no_bid_redeals"
    assert m.turns() == [] and m.system_step() is None
    m.apply("sys resume")
    assert m.phase == "dealing" and m.redeal_no == 2


@pytest.mark.parametrize(("first_card", "trump"), [("♣9", 2), ("SJ", None), ("♥2", 1)])
def test_rules_1_3_c_2h_kitty_turn_fixes_trump(first_card: str, trump: int | None) -> None:
    """定主: the dealer turns the first kitty card; its suit is trump, a joker means no trump."""
    m = _second_deal("shengji-timed-2h")
    dealer = m.dealer
    rig(m, {}, kitty=first_card)
    deal_all(m)
    events = m.apply("sys close_bidding")
    assert any(e.kind == "kitty_turned" and e.data["cards"] == first_card for e in events)
    assert (m.dealer, m.trump_suit, m.phase) == (dealer, trump, "bury")
    assert m.public_view()["table"]["turned_kitty"] == [first_card]


def test_rules_1_3_c_50min_blackout_other_side_deals_at_its_own_level() -> None:
    m = _second_deal("shengji-50min")
    old = m.dealer
    assert old is not None
    m.levels[old % 2], m.levels[1 - old % 2] = 5, 3
    nxt, partner = (old + 1) % 4, (old + 3) % 4
    rig(m, {partner: "♥3 BJ"})
    deal_all(m)
    close(m)
    assert m.phase == "blackout" and m.turns()[0].seat == nxt
    with pytest.raises(RuleError):
        m.apply(f"{partner} bid ♥3 BJ")  # the new dealer declares first
    m.apply(f"{nxt} pass_bid")
    m.apply(f"{partner} bid ♥3 BJ")
    assert (m.dealer, m.level, m.trump_suit, m.phase) == (nxt, 3, 1, "bury")


def test_d4_double_blackout_turns_kitty_until_a_level_card() -> None:
    m = _second_deal("shengji-50min")
    old = m.dealer
    assert old is not None
    m.levels[old % 2], m.levels[1 - old % 2] = 5, 3
    rig(m, {}, kitty="♠9 BJ ♦5 ♥3 ♣3 ♠4 ♠4 ♠7")
    deal_all(m)
    close(m)
    m.apply(f"{(old + 1) % 4} pass_bid")
    m.apply(f"{(old + 3) % 4} pass_bid")
    # ♦5 is the dealer side's level: that side deals (the old dealer), ♦ is trump
    assert (m.dealer, m.level, m.trump_suit) == (old, 5, 3)
    assert m.public_view()["table"]["turned_kitty"] == ["♠9", "BJ", "♦5"]


def test_d4_double_blackout_without_a_level_card_redeals() -> None:
    m = _second_deal("shengji-50min")
    old = m.dealer
    assert old is not None
    m.levels[0], m.levels[1] = 5, 3
    rig(m, {}, kitty="♠9 BJ ♦6 ♥4 ♣4 ♠4 ♠7 ♠8")
    deal_all(m)
    close(m)
    m.apply(f"{(old + 1) % 4} pass_bid")
    m.apply(f"{(old + 3) % 4} pass_bid")
    assert (m.phase, m.redeal_no, m.dealer) == ("dealing", 1, old)


# --- 1.4 kitty, late overturns ------------------------------------------------------------------


def test_rules_1_4_dealer_buries_exactly_eight() -> None:
    m = ShengjiMatch(options("shengji-17-deals"), 1)
    rig(m, {1: "♥2 BJ"})
    deal_all(m, {8: "1 bid ♥2 BJ"})
    close(m)
    before = m.snapshot()
    seven = " ".join(card_text(c) for c in m.hands[1][:7])
    with pytest.raises(RuleError) as err:
        m.apply(f"1 bury {seven}")
    assert err.value.code == "bury_eight"
    with pytest.raises(RuleError) as err:
        m.apply(f"0 bury {seven} {card_text(m.hands[1][7])}")
    assert err.value.code == "not_your_turn"
    assert m.snapshot() == before
    bury_auto(m)
    assert len(m.hands[1]) == 25 and len(m.kitty) == 8 and m.phase == "play"
    assert m.seat_view(1)["kitty"] and "kitty" not in m.seat_view(0)


def test_d6_kitty_auto_bury_prefers_non_trump_non_point() -> None:
    m = ShengjiMatch(options("shengji-17-deals"), 1)
    rig(m, {1: "♥2 BJ"})
    deal_all(m, {8: "1 bid ♥2 BJ"})
    close(m)
    bury_auto(m)
    assert m.ctx is not None
    buried = m.kitty
    assert not any(m.ctx.is_trump(c) for c in buried)
    assert total_points(buried) == 0 or all(total_points([c]) == 0 for c in buried[:1])


def _later_deal_with_declaration(preset: str, seed: int = 4) -> ShengjiMatch:
    m = _second_deal(preset, seed)
    dealer = m.dealer
    assert dealer is not None
    lvl = m.levels[dealer % 2]
    rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(lvl, str(lvl))
    first = "♥" + rank + (" BJ" if m.options.bid_style == "joker_level" else "")
    over = f"♠{rank} ♠{rank}" + (" SJ" if m.options.bid_style == "joker_level" else "")
    other = (dealer + 1) % 4
    rig(m, {dealer: first, other: over})
    deal_all(m, {8: f"{dealer} bid {first}"})
    close(m)
    bury_auto(m)
    return m


def test_rules_1_3_c_17_deals_late_overturn_takes_and_reburies_the_kitty() -> None:
    """反主抄底: the overturner takes the 8 buried cards, re-buries 8, only they see them; dealer unchanged."""
    m = _later_deal_with_declaration("shengji-17-deals")
    dealer = m.dealer
    assert dealer is not None and m.phase == "late"
    other = (dealer + 1) % 4
    old_kitty = list(m.kitty)
    assert m.turns()[0].seat == dealer
    with pytest.raises(RuleError):
        m.apply(f"{other} pass_overturn")  # offered in turn from the dealer
    m.apply(f"{dealer} pass_overturn")
    lvl = m.level
    rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(lvl or 0, str(lvl))
    m.apply(f"{other} overturn ♠{rank} ♠{rank} SJ")
    assert m.phase == "rebury" and len(m.hands[other]) == 33 and m.trump_suit == 0
    assert all(c in m.hands[other] for c in old_kitty)
    m.apply(m.auto_action(other))
    assert m.burier == other and m.dealer == dealer
    assert "kitty" in m.seat_view(other)
    for s in (dealer, (dealer + 2) % 4, (dealer + 3) % 4):
        assert "kitty" not in m.seat_view(s)
    pub = m.public_view()["table"]
    del pub["last_deal"]  # the previous deal's summary (its kitty is public now)
    text = repr(pub)
    assert all(card_text(c) not in text for c in set(m.kitty) - _shown(m))
    while m.phase == "late":
        m.apply(m.auto_action(m.turns()[0].seat))
    assert m.phase == "play" and m.to_play() == dealer


def _shown(m: ShengjiMatch) -> set[int]:
    shown: set[int] = set()
    for b in m.bids:
        shown.update(parse_cards(b["cards"]))
    shown.update(m.turned)
    return shown


def test_rules_1_3_b_2h_late_overturn_in_turn_kitty_stays() -> None:
    m = _later_deal_with_declaration("shengji-timed-2h")
    dealer = m.dealer
    assert dealer is not None and m.phase == "late"
    kitty = list(m.kitty)
    other = (dealer + 1) % 4
    m.apply(f"{dealer} pass_overturn")
    lvl = m.level
    rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(lvl or 0, str(lvl))
    m.apply(f"{other} overturn ♠{rank} ♠{rank}")
    assert m.phase == "late" and m.kitty == kitty and m.burier == dealer and m.trump_suit == 0
    m.apply(f"{(dealer + 2) % 4} pass_overturn")
    m.apply(f"{(dealer + 3) % 4} pass_overturn")
    assert m.phase == "play"


def test_rules_1_3_c_50min_no_late_overturn() -> None:
    m = _later_deal_with_declaration("shengji-50min")
    assert m.phase == "play"


# --- 1.5 failed throws (D9 charges) --------------------------------------------------------------


def _play_ready(preset: str, hands: dict[int, str], **over: Any) -> ShengjiMatch:
    """A first deal where seat 0 declared ♥ and deals; then the given hands replace seat hands' cards."""
    m = ShengjiMatch(options(preset, **over), 1)
    rank = {11: "J", 12: "Q", 13: "K", 14: "A"}.get(m.options.start_level, str(m.options.start_level))
    decl = f"♥{rank} BJ" if m.options.bid_style == "joker_level" else f"♥{rank}"
    rig(m, {0: decl + " " + hands.get(0, ""), **{s: h for s, h in hands.items() if s}})
    deal_all(m, {40: f"0 bid {decl}"})
    if m.phase == "window":
        close(m)
    # bury the 8 cards not named in the rigging, away from the named ones
    named = parse_cards(decl + " " + hands.get(0, ""))
    rest = list(m.hands[0])
    for c in named:
        rest.remove(c)
    m.apply("0 bury " + " ".join(card_text(c) for c in rest[:8]))
    while m.phase == "late":
        m.apply(m.auto_action(m.turns()[0].seat))
    assert m.phase == "play" and m.to_play() == 0
    return m


def test_rules_1_5_failed_throw_plays_lowest_failing_unit_and_charges() -> None:
    m = _play_ready("shengji-17-deals", {0: "♠A ♠Q", 1: "♠K"})
    m.apply("0 play ♠A ♠Q")
    assert m.trick == [(0, tuple(parse_cards("♠Q")))]
    assert m.charges[0]["points"] == 20 and m.charges[0]["signed"] == 20  # dealer side failed: adds
    assert m.defenders_total() == 20


def test_rules_1_5_throws_forbidden_in_50min() -> None:
    m = _play_ready("shengji-50min", {0: "♠A ♠A ♠K"})
    with pytest.raises(RuleError) as err:
        m.apply("0 play ♠A ♠A ♠K")
    assert err.value.code == "throws_forbidden"


def test_rules_1_5_2h_opponents_choose_the_failing_unit() -> None:
    m = _play_ready("shengji-timed-2h", {0: "♠A ♠J ♠J ♠9", 1: "♠K ♠Q ♠Q"})
    m.apply("0 play ♠A ♠J ♠J ♠9")
    assert m.phase == "choose"
    assert {t.seat for t in m.turns()} == {1, 3}
    with pytest.raises(RuleError):
        m.apply("2 choose pair")
    m.apply("3 choose pair")
    assert m.trick == [(0, tuple(parse_cards("♠J ♠J")))] and m.phase == "play"
    assert m.charges[0]["points"] == 40


# --- kitty capture on the last trick (docs/rules.md 1.6) -------------------------------------------------


def _last_trick(preset: str, hands: list[str], kitty: str, leader: int) -> ShengjiMatch:
    m = _play_ready(preset, {})
    m.hands = [parse_cards(h) for h in hands]
    m.kitty = parse_cards(kitty)
    m.leader = leader
    return m


@pytest.mark.parametrize(
    ("preset", "lead", "follows", "captured"),
    [
        ("shengji-17-deals", "♠A", ["♠3", "♠4", "♠6"], 40),  # single x2
        ("shengji-17-deals", "♠A ♠A", ["♠3 ♠3", "♠4 ♠4", "♠6 ♠6"], 80),  # pair x4
        ("shengji-17-deals", "♠A ♠A ♠K ♠K", ["♠3 ♠3 ♠4 ♠4", "♠6 ♠6 ♠7 ♠7", "♠8 ♠8 ♠9 ♠9"], 160),  # x8
        ("shengji-timed-2h", "♠A ♠A ♠K ♠K", ["♠3 ♠3 ♠4 ♠4", "♠6 ♠6 ♠7 ♠7", "♠8 ♠8 ♠9 ♠9"], 60),  # x6 halved
        ("shengji-timed-2h", "♥A ♥A ♥K ♥K", ["♥3 ♥3 ♥4 ♥4", "♥6 ♥6 ♥7 ♥7", "♥8 ♥8 ♥9 ♥9"], 120),  # trump x6
        (
            "shengji-50min",
            "♠A ♠A ♠K ♠K ♠Q ♠Q",
            ["♠3 ♠3 ♠4 ♠4 ♠6 ♠6", "♠7 ♠7 ♠8 ♠8 ♠9 ♠9", "♣3 ♣3 ♣4 ♣4 ♣6 ♣6"],
            320,
        ),  # x16
    ],
)
def test_rules_1_6_kitty_capture_by_defenders_on_last_trick(
    preset: str, lead: str, follows: list[str], captured: int
) -> None:
    hands = [""] * 4
    hands[1] = lead
    for i, f in enumerate(follows):
        hands[(2 + i) % 4] = f
    m = _last_trick(preset, hands, "♠5 ♣5 ♦K ♠2 ♠2 ♣2 ♣2 ♦2", leader=1)  # 20 kitty points
    m.apply(f"1 play {lead}")
    for i, f in enumerate(follows):
        m.apply(f"{(2 + i) % 4} play {f}")
    assert m.phase in ("deal_over", "match_over")
    assert m.history[-1]["capture"] == captured


def test_rules_1_6_dealer_side_winning_last_trick_captures_nothing() -> None:
    m = _last_trick("shengji-17-deals", ["♠A", "♠3", "♠4", "♠6"], "♠5 ♣5 ♦K ♠2 ♠2 ♣2 ♣2 ♦2", leader=0)
    for s, c in enumerate(["♠A", "♠3", "♠4", "♠6"]):
        m.apply(f"{s} play {c}")
    assert m.history[-1]["capture"] == 0


# --- 1.7 / 1.8 deal results, match end ------------------------------------------------------------


def test_d3_passing_a_ends_the_match_at_once() -> None:
    m = _play_ready("shengji-17-deals", {}, start_level=14)
    # seat 0 deals at A; a defender forfeits the deal: the dealer side holds at A
    m.apply("sys forfeit_deal 1")
    assert m.finished
    res = m.result()
    assert res is not None and (res["winner"], res["reason"]) == (0, "passed_a")


def test_forfeit_by_dealer_side_is_a_takeover() -> None:
    m = _play_ready("shengji-17-deals", {})
    m.apply("sys forfeit_deal 2")
    last = m.history[-1]
    assert (last["winner_role"], last["winner"], last["points"], last["next_dealer"], last["forfeit"]) == (
        "defenders",
        1,
        80,
        1,
        2,
    )


def test_rules_1_8_match_ends_after_the_deal_limit() -> None:
    m = _play_ready("shengji-17-deals", {}, deals=1)
    m.apply("sys forfeit_deal 1")  # dealer side +3
    res = m.result()
    assert res is not None and (res["reason"], res["winner"], res["levels"]) == ("deals", 0, [5, 2])


def test_rules_1_8_equal_levels_dealer_side_wins() -> None:
    m = _play_ready("shengji-17-deals", {}, deals=1)
    m.apply("sys forfeit_deal 0")  # takeover without steps: levels stay equal; seat 1 deals next
    res = m.result()
    assert res is not None and (res["winner"], res["tie_break"], res["levels"]) == (1, "dealer_side", [2, 2])


def test_rules_1_8_equal_levels_cut_the_cards_recorded() -> None:
    results = []
    for seed in range(6):
        m = ShengjiMatch(options("shengji-50min", deals=1), seed)
        rig(m, {0: "♥2 BJ"})
        deal_all(m, {40: "0 bid ♥2 BJ"})
        close(m)
        bury_auto(m)
        m.apply("sys forfeit_deal 0")
        res = m.result()
        assert res is not None and res["tie_break"] == "cut"
        draws = res["cut"]
        for a, b in draws[:-1]:
            assert parse_cards(a)[0] % 13 == parse_cards(b)[0] % 13 or a[-1:] == b[-1:]
        a, b = (parse_cards(x)[0] for x in draws[-1])
        from engine.cards import rank_of

        assert rank_of(a) != rank_of(b)
        assert res["winner"] == (0 if rank_of(a) > rank_of(b) else 1)
        results.append(res["winner"])
        assert m.cut() == (res["winner"], draws)  # from the seed: the same draw every time
    assert set(results) == {0, 1}


def test_d2_time_up_lets_the_deal_in_progress_finish() -> None:
    m = _play_ready("shengji-timed-2h", {})
    m.apply("sys time_up")
    assert not m.finished and m.phase == "play"
    finish_deal_with_ai(m)
    res = m.result()
    assert m.finished and res is not None and res["reason"] == "time_up"


def test_d2_time_up_between_deals_ends_at_once() -> None:
    m = ShengjiMatch(options("shengji-timed-2h"), 5)
    finish_deal_with_ai(m)
    assert m.phase == "deal_over"
    m.apply("sys time_up")
    assert m.finished


# --- clocks, log, replay ----------------------------------------------------------------------------


def test_rules_1_9_2h_clocks_named_per_turn() -> None:
    m = ShengjiMatch(options("shengji-timed-2h"), 1)
    rig(m, {0: "♥2"})
    deal_all(m, {40: "0 bid ♥2"})
    close(m)
    assert m.turns()[0].clock == "kitty_clock"
    bury_auto(m)
    while m.phase == "late":
        m.apply(m.auto_action(m.turns()[0].seat))
    assert m.turns()[0].clock == "lead_clock"
    m.apply(m.auto_action(0))
    assert m.turns()[0].clock == "follow_clock"
    m17 = ShengjiMatch(options("shengji-17-deals"), 1)
    rig(m17, {0: "♥2 BJ"})
    deal_all(m17, {40: "0 bid ♥2 BJ"})
    close(m17)
    assert m17.turns()[0].clock is None


def test_log_replays_to_the_same_state() -> None:
    m = ShengjiMatch(options("shengji-17-deals", deals=2), 9)
    rng = random.Random(2)
    while not m.finished:
        step = ai_step(m, rng)
        assert step is not None
        m.apply(step)
    again = replay("shengji", m.options, 9, m.log)
    assert isinstance(again, ShengjiMatch)
    assert again.snapshot() == m.snapshot()


def test_log_is_canonical_text() -> None:
    m = ShengjiMatch(options("shengji-17-deals"), 1)
    rig(m, {1: "♥2 BJ"})
    deal_all(m, {8: "1 bid bj 2h"})
    assert "1 bid ♥2 BJ" in m.log


def test_d9_charges_are_events_and_a_referee_can_reverse_them() -> None:
    m = _play_ready("shengji-17-deals", {0: "♠A ♠Q", 1: "♠K"})
    events = m.apply("0 play ♠A ♠Q")
    assert any(e.kind == "throw_failed" and e.data["penalty"] == 20 for e in events)
    assert m.public_view()["table"]["charges"][0]["points"] == 20
    with pytest.raises(RuleError):
        m.apply("sys reverse_charge 1")
    m.apply("sys reverse_charge 0")
    assert m.defenders_total() == 0
    with pytest.raises(RuleError):
        m.apply("sys reverse_charge 0")


def test_rules_1_6_defender_failed_throw_subtracts() -> None:
    m = _play_ready("shengji-17-deals", {1: "♠A ♠Q ♠Q ♠9", 2: "♠K ♠K"})
    m.leader = 1  # test set-up: seat 1 (a defender) leads
    m.apply("1 play ♠A ♠Q ♠Q ♠9")
    assert m.charges[0]["signed"] == -40 and m.defenders_total() == -40
    assert m.trick[0][1] == tuple(parse_cards("♠9"))  # the lowest failing unit: the single


def test_rules_1_5_2h_opponents_choice_names_a_failing_tractor_pair() -> None:
    m = _play_ready("shengji-timed-2h", {0: "♠A ♠J ♠J ♠10 ♠10 ♠9", 3: "♠K ♠K ♠Q ♠Q"})
    m.apply("0 play ♠A ♠J ♠J ♠10 ♠10 ♠9")
    assert m.phase == "choose"
    assert m.public_view()["table"]["pending_choice"]["options"] == ["pair", "single"]
    assert m.auto_action(1) == "1 choose single"  # the clock default: the lower unit
    m.apply("1 choose pair")
    assert m.trick == [(0, tuple(parse_cards("♠J ♠J ♠10 ♠10")))]
    assert m.charges[0]["points"] == 60


@pytest.mark.parametrize("preset", ["shengji-17-deals", "shengji-timed-2h", "shengji-50min"])
def test_d6_move_clock_auto_actions_finish_a_deal(preset: str) -> None:
    """Every required turn answered by auto_action (the lowest legal play) completes the deal."""
    m = _play_ready(preset, {})
    while m.phase not in ("deal_over", "match_over"):
        turns = [t for t in m.turns() if t.required]
        assert turns, m.phase
        m.apply(m.auto_action(turns[0].seat))
    assert len(m.history) == 1 and sum(len(h) for h in m.hands) == 0


def test_d2_time_up_then_a_redeal_ends_the_match() -> None:
    m = ShengjiMatch(options("shengji-timed-2h"), 2)
    m.apply("sys time_up")
    deal_all(m)
    close(m)  # nobody declared in the first deal: no deal is in progress any more
    res = m.result()
    # no side has dealt yet, so "the side currently dealing" does not exist: the cards are cut
    assert res is not None and res["reason"] == "time_up" and res["tie_break"] == "cut"
