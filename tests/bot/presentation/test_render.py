"""Hand and table rendering from engine views: keyboard limits, trumps first, nothing hidden shown."""

from __future__ import annotations

import random

from bot.presentation import render
from bot.presentation.games import shengji
from engine.cards import card_text
from engine.guandan.options import GuandanOptions
from engine.registry import new_match
from engine.shengji.options import ShengjiOptions

NAMES = ["张三", "李四", "王五", "赵六"]


def _play_until(m, predicate, seed=3):
    rng = random.Random(seed)
    for _ in range(5000):
        if predicate(m):
            return m
        acted = False
        for turn in m.turns():
            action = m.ai_action(turn.seat, rng)
            if action:
                m.apply(action)
                acted = True
                break
        if acted:
            continue
        step = m.system_step()
        if step:
            m.apply(step)
        elif m.public_view()["table"]["phase"] == "window":
            m.apply("sys close_bidding")
    raise AssertionError("state not reached")


def _buttons(markup):
    return [b for row in markup.rows for b in row]


def test_shengji_hand_keyboard_limits_and_trumps_first():
    m = new_match("shengji", ShengjiOptions(bid_window_seconds=0), 11)
    m = _play_until(m, lambda x: x.public_view()["table"]["phase"] == "bury")
    dealer = m.public_view()["table"]["dealer"]
    view = m.seat_view(dealer)
    text, markup = render.hand_message("zh", "shengji", 123456, m, dealer, view, [], NAMES, None)
    buttons = _buttons(markup)
    assert len(buttons) <= 100
    assert all(len(row) <= 8 for row in markup.rows)
    assert all(len(b.callback_data.encode()) <= 64 for b in buttons if b.callback_data)
    assert any(b.text.startswith("扣底 (0/8)") for b in buttons)
    # the first keyboard row is trump: jokers or level cards or the trump suit
    t = m.public_view()["table"]
    first = markup.rows[0][0].text
    assert first in ("大王", "小王") or first.endswith(str(t["level"])) or first[0] == "♠♥♣♦"[t["trump"] or 0]
    assert "你的牌 (33)" in text


def test_public_table_message_shows_no_hand_card_before_play():
    """Privacy: at the first lead the group message holds only the (public) declaration's cards."""
    m = new_match("shengji", ShengjiOptions(bid_window_seconds=0), 5)
    m = _play_until(m, lambda x: x.public_view()["table"]["phase"] == "play")
    text, _ = render.table_message("en", "shengji", m.public_view(), NAMES, None, "bot", "Shengji")
    decl = m.public_view()["table"]["declaration"]
    shown = set(decl["cards"].split()) if decl else set()
    every = {card_text(c) for c in range(54)}
    for word in text.replace("│", " ").split():
        if word in every:
            assert word in shown, word


def test_guandan_hand_has_pass_and_ask_counts_when_following():
    m = new_match("guandan", GuandanOptions(), 8)
    m.apply("sys next_deal")
    rng = random.Random(1)
    turn = m.turns()[0]
    m.apply(m.ai_action(turn.seat, rng))
    seat = m.turns()[0].seat
    view = m.seat_view(seat)
    text, markup = render.hand_message("zh", "guandan", 7, m, seat, view, [], NAMES, None)
    labels = [b.text for b in _buttons(markup)]
    assert "不要" in labels and "问张数" in labels
    assert "轮到你" in text


def test_selected_cards_are_marked():
    m = new_match("guandan", GuandanOptions(), 8)
    m.apply("sys next_deal")
    seat = 0
    view = m.seat_view(seat)
    hand = render.parse_hand(view) if hasattr(render, "parse_hand") else None
    from bot.presentation.keyboards import parse_hand

    hand = parse_hand(view)
    text, markup = render.hand_message("en", "guandan", 7, m, seat, view, [hand[0]], NAMES, None)
    assert sum(1 for b in _buttons(markup) if b.text.startswith("✅")) == 1


def test_shengji_summary_says_who_keeps_or_takes_the_deal():
    base = {
        "deal_no": 1,
        "dealer": 0,
        "points": 85,
        "steps": 0,
        "levels_before": [2, 2],
        "levels_after": [2, 2],
        "next_dealer": 1,
        "kitty": "♠5 BJ",
        "capture": 0,
    }
    take = shengji.deal_summary("zh", dict(base, winner="defenders"), NAMES)
    assert "东西 上台" in take and "底牌: ♠5 大王" in take and "东 李四 坐庄" in take
    keep = shengji.deal_summary("en", dict(base, winner="dealer", points=40, next_dealer=2), NAMES)
    assert "N-S keep the deal" in keep
    up = shengji.deal_summary(
        "zh", dict(base, winner="dealer", points=0, steps=3, levels_after=[5, 2], next_dealer=2), NAMES
    )
    assert "南北 升 3 级" in up and "南北 5" in up


def test_shengji_summary_announces_a_defenders_takeover_from_the_engine_summary():
    """docs/rules.md deal settlement: defenders with 80-115 take the deal without a level change (上台), not 保庄.

    The engine's deal_over gives ``winner`` as a side number and ``winner_role`` as the role."""
    from engine.game import Event

    d = {
        "deal_no": 2,
        "dealer": 0,
        "points": 95,
        "steps": 0,
        "levels_before": [3, 2],
        "levels_after": [3, 2],
        "next_dealer": 1,
        "kitty": "♠5",
        "capture": 0,
        "winner": 1,
        "winner_role": "defenders",
    }
    zh = render.announcement("zh", "shengji", Event("deal_over", d), NAMES)
    assert "东西 上台" in zh and "保庄" not in zh
    en = shengji.deal_summary("en", d, NAMES)
    assert "E-W take the deal" in en
    kept = shengji.deal_summary(
        "zh", dict(d, points=60, winner=0, winner_role="dealer", next_dealer=2), NAMES
    )
    assert "南北 保庄" in kept


def test_deal_marker_changes_with_each_deal_and_redeal():
    assert render.deal_marker("shengji", {"table": {"phase": "play", "deal": 3, "redeal": 1}}) == 301
    assert render.deal_marker("guandan", {"phase": "play", "deal_no": 2}) == 2


def test_guandan_selection_with_several_readings_offers_one_button_each():
    """The hand message (docs/bot.md): when a selection has several readings (wild card), one button per reading replaces Play."""
    from engine.cards import parse_cards

    m = new_match("guandan", GuandanOptions(), 8)
    m.apply("sys next_deal")
    seat = m.turns()[0].seat
    m.hands[seat][:] = sorted(parse_cards("♥2 ♠3 ♠4 ♠5 ♠6 ♣9 ♦9 ♣K"))  # ♥2 is the wild card at level 2
    selection = parse_cards("♥2 ♠3 ♠4 ♠5 ♠6")
    text, markup = render.hand_message("zh", "guandan", 9, m, seat, m.seat_view(seat), selection, NAMES, None)
    labels = [b.text for b in _buttons(markup)]
    assert "出 同花顺 ♠3-7" in labels and "出 顺子 2-6" in labels
    assert not any(x.startswith("出牌") for x in labels)
    datas = [b.callback_data for b in _buttons(markup)]
    assert "r:9:1:sf7.5" in datas


def test_failed_throw_announcement_names_holder_beating_cards_and_forced_unit():
    """docs/rules.md 甩牌: the table is told who beats the throw, with what, and which unit is played instead."""
    from engine.game import Event

    ev = Event(
        "throw_failed",
        {"seat": 0, "cards": "♥A ♥Q ♥Q", "penalty": 40, "holder": 1, "beating": "♥K ♥K", "unit": "♥Q ♥Q"},
    )
    assert (
        render.announcement("zh", "shengji", ev, NAMES) == "甩牌失败:李四有更大的 ♥K ♥K,改出 ♥Q ♥Q,罚 40 分"
    )
    assert render.announcement("en", "shengji", ev, NAMES) == (
        "Failed throw: 李四 holds higher ♥K ♥K; ♥Q ♥Q is played instead, 40 points charged"
    )


def test_time_up_without_finishing_the_deal_announces_the_abandoned_deal():
    """D2 with time_up_finishes_deal = false: no "the deal in progress is the last"; the stopped deal is told."""
    from engine.game import Event

    stop = {"time_up_finishes_deal": False}
    zh = render.announcement("zh", "shengji", Event("time_up", {}), NAMES, stop)
    en = render.announcement("en", "guandan", Event("time_up", {"deal_no": 3}), NAMES, stop)
    assert "打完本副" not in zh and "last" not in en and "⏰" in zh
    assert "打完本副" in render.announcement("zh", "shengji", Event("time_up", {}), NAMES, {})
    assert "deal 4 stops" in render.announcement(
        "en", "shengji", Event("deal_abandoned", {"deal_no": 4}), NAMES, stop
    )
    assert "第 2 副" in render.announcement(
        "zh", "guandan", Event("deal_abandoned", {"deal_no": 2}), NAMES, stop
    )


def test_time_up_table_line_follows_time_up_finishes_deal():
    """D2: the table message does not promise the deal is played out when the option is off."""
    m = new_match("shengji", ShengjiOptions(bid_window_seconds=0, time_up_finishes_deal=False), 5)
    m = _play_until(m, lambda x: x.public_view()["table"]["phase"] == "play")
    m.apply("sys time_up")
    text, _ = render.table_message(
        "zh", "shengji", m.public_view(), NAMES, None, None, "T", clocks={"time_up_finishes_deal": False}
    )
    assert "比赛时间到" in text and "打完本副" not in text
