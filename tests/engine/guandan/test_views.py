"""Views (architecture: hidden information is removed in the engine): no view leaks a hidden card."""

from __future__ import annotations

import json
import random
import re
from typing import Any

from engine.cards import card_text
from engine.guandan.game import GuandanMatch
from engine.guandan.options import GuandanOptions
from tests.engine.guandan.test_flow import run, table

CARD_RE = re.compile(r"BJ|SJ|[♠♥♣♦](?:10|[2-9JQKA])")


def _strip_labels(x: Any) -> Any:
    """Drop ``label`` texts: they name what wild cards stand for (``同花顺 ♠7-J``), not cards held."""
    if isinstance(x, dict):
        return {k: _strip_labels(v) for k, v in x.items() if k != "label"}
    if isinstance(x, list):
        return [_strip_labels(v) for v in x]
    return x


def tokens(view: dict[str, Any]) -> set[str]:
    return set(CARD_RE.findall(json.dumps(_strip_labels(view), ensure_ascii=False)))


def public_cards(m: GuandanMatch) -> set[str]:
    """Cards anybody may have seen: played this deal, and tribute paid (shown to the table)."""
    seen = {card_text(c) for _, _, _, combo in m.plays if combo is not None for c in combo.cards}
    seen |= {card_text(c) for c in m.tribute_paid.values()}
    return seen


def check_no_leak(m: GuandanMatch) -> None:
    """public_view shows only public cards; seat_view adds only the seat's own hand and own return."""
    public = public_cards(m)
    assert tokens(m.public_view()) <= public
    for seat in range(4):
        view = m.seat_view(seat)
        own = {card_text(c) for c in m.hands[seat]}
        for receiver, c in m.returned.items():
            if seat in (receiver, m.tribute_to_payer(receiver)):
                own.add(card_text(c))
        assert tokens(view) <= public | own, (seat, tokens(view) - public - own)
        assert "hands" not in view


def test_seat_view_shows_own_hand_display_sorted_at_the_level() -> None:
    m = table(["♠3 ♥7 BJ ♠A ♣7 ♦2", "♠4", "♠5", "♠6"], level=7)
    assert m.seat_view(0)["hand"] == ["BJ", "♥7", "♣7", "♠A", "♠3", "♦2"]  # BJ SJ level A … 2
    assert "hand" not in m.public_view()


def test_hint_only_for_the_seat_to_act_with_pass_allowed() -> None:
    m = table(["♠3 ♠9", "♠4 ♠10", "♠5 ♠J", "♠6 ♠Q"])
    assert m.seat_view(0)["hint"] == {"kind": "lead", "can_pass": False, "to_beat": None, "must_lead": True}
    assert m.seat_view(1)["hint"] is None
    run(m, "0 play ♠9")
    hint = m.seat_view(1)["hint"]
    assert hint["can_pass"] is True and hint["to_beat"]["cards"] == "♠9"
    view = m.public_view()
    assert view["trick"] == [
        {
            "seat": 0,
            "action": "play",
            "play": {"cards": "♠9", "kind": "single", "reading": "s9.1", "label": "单张 9", "bomb": False},
        }
    ]
    assert view["turns"] == [{"seat": 1, "kind": "play", "clock": None, "seconds": None}]


def test_views_leak_no_hidden_card_through_a_computer_match() -> None:
    m = GuandanMatch(GuandanOptions(deals=3), 99)
    rng = random.Random(1)
    steps = 0
    while not m.finished:
        step = m.system_step()
        if step is not None:
            m.apply(step)
        else:
            seat = m.turns()[0].seat
            action = m.ai_action(seat, rng)
            assert action is not None
            m.apply(action)
        steps += 1
        if steps % 7 == 0 or m.phase in ("tribute", "return"):
            check_no_leak(m)
    check_no_leak(m)


def test_terminal_replay_shows_a_whole_deal_in_chinese_and_english(monkeypatch: Any) -> None:
    from bot.devtools.replay_guandan import replay_lines

    monkeypatch.delenv("LANG", raising=False)
    zh = replay_lines(2026, None)
    assert zh[0].startswith("掼蛋") and any(line.startswith("第 1 轮") for line in zh)
    assert zh[-2].startswith("名次") and "上游" in zh[-2]
    en = replay_lines(2026, "en")
    assert en[0].startswith("Guandan") and en[-2].startswith("Finishing order")
    monkeypatch.setenv("LANG", "en_US.UTF-8")
    assert replay_lines(2026, None) == en
    assert replay_lines(2026, "zh") == zh
