"""Per-seat and public views of a Guandan match: JSON-able dicts, no card a seat may not see.

Cards are canonical text (``"♠10"``).  What is public: every played card, the tribute cards
(shown to the table: they decide who leads), levels, the finishing order, whose turn, the
last answer to ``ask_counts``.  Card counts appear under ``counts`` only with the option
``always_show_counts`` (else ``None``; players ask, 不问不报).  A seat also sees its own hand
(display-sorted at the deal's level: BJ SJ level A K … 2) and the card it returned or was
returned.  The ``hint`` block exists only when the seat has something to do.
"""

from __future__ import annotations

from typing import Any

from engine.cards import card_text, cards_text
from engine.guandan.combos import Combo
from engine.guandan.levels import level_text
from engine.guandan.match import GuandanRules
from engine.guandan.ranks import sort_for_display
from engine.guandan.tribute import tribute_choices
from engine.views import GuandanComboView, GuandanHint, GuandanPublicView, GuandanSeatView, GuandanTrickEntry


def _combo(combo: Combo | None, level: int) -> GuandanComboView | None:
    if combo is None:
        return None
    return {
        "cards": cards_text(combo.cards),
        "kind": combo.kind,
        "reading": combo.reading_id(),
        "label": combo.label(level),
        "bomb": combo.is_bomb,
    }


def _trick(entries: list[Any], level: int) -> list[GuandanTrickEntry]:
    return [
        {"seat": e.seat, "action": "pass" if e.combo is None else "play", "play": _combo(e.combo, level)}
        for e in entries
    ]


def public_view(m: GuandanRules) -> GuandanPublicView:
    """What everybody may see."""
    level = m.deal_level
    view: GuandanPublicView = {
        "game": "guandan",
        "phase": m.phase,
        "deal_no": m.deal_no,
        "level": level,
        "level_text": level_text(level),
        "levels": list(m.levels),
        "level_texts": [level_text(x) for x in m.levels],
        "a_failures": list(m.a_failures),
        "time_up": m.time_up,
        "counts": m.counts() if m.options.always_show_counts and m.deal_no else None,
        "counts_asked": m.counts_asked,
        "turns": [
            {
                "seat": t.seat,
                "kind": t.kind,
                "clock": t.clock,
                "seconds": m.clock_seconds(t.clock) if t.clock else None,
            }
            for t in m.turns()
        ],
        "finish_order": [],
        "table": None,
        "trick": [],
        "last_trick": [],
        "leader": None,
        "tribute": None,
        "last_deal": m.history[-1] if m.history else None,
        "result": m.result(),
    }
    play = m.play
    if play is not None:
        view["finish_order"] = list(play.finish_order)
        view["table"] = _combo(play.to_beat, level)
        view["table_seat"] = play.last_seat if play.to_beat is not None else None
        view["trick"] = _trick(play.trick, level)
        view["last_trick"] = _trick(play.last_trick, level)
        view["leader"] = play.leader
        view["jiefeng"] = play.jiefeng
        view["trick_no"] = play.trick_no
    if m.tribute is not None:
        view["tribute"] = {
            "kind": m.tribute.kind,
            "upstream": m.tribute.upstream,
            "payers": list(m.tribute.payers),
            "paid": {str(p): card_text(c) for p, c in m.tribute_paid.items()},
            "receivers": {str(p): r for p, r in m.tribute_to.items()}
            if m.phase != "tribute" or m.tribute.kind == "single"
            else {},
            "returned": sorted(m.returned),
            "leader": m.lead_after_tribute if m.tribute.kind in ("single", "double") else m.tribute.leader,
        }
    return view


def seat_view(m: GuandanRules, seat: int) -> GuandanSeatView:
    """What ``seat`` may see: the public view, its own hand, and hints when it is its turn."""
    level = m.deal_level
    hand = sort_for_display(m.hands[seat], level)
    view: GuandanSeatView = {
        **public_view(m),
        "seat": seat,
        "hand": [card_text(c) for c in hand],
        "hand_size": len(hand),
        "hint": None,
    }
    if m.tribute is not None and view["tribute"] is not None:
        mine: dict[str, Any] = {}
        for receiver, c in m.returned.items():
            payer = m.tribute_to_payer(receiver)
            if seat in (receiver, payer):
                mine = {"from": receiver, "to": payer, "card": card_text(c)}
        view["tribute"]["my_return"] = mine or None
    hint: GuandanHint | None = None
    for t in m.turns():
        if t.seat != seat:
            continue
        if t.kind in ("lead", "play"):
            assert m.play is not None
            hint = {
                "kind": t.kind,
                "can_pass": m.play.to_beat is not None,
                "to_beat": _combo(m.play.to_beat, level),
                "must_lead": m.play.to_beat is None,
            }
        elif t.kind == "tribute":
            hint = {
                "kind": "tribute",
                "choices": [card_text(c) for c in tribute_choices(m.hands[seat], level)],
            }
        elif t.kind == "return":
            hint = {
                "kind": "return",
                "to": m.returns_due[seat],
                "choices": [card_text(c) for c in m.return_choices(seat)],
            }
    view["hint"] = hint
    return view
