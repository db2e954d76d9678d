"""What a seat may see and what everybody may see (docs/rules.md 1.4: hidden cards stay hidden).

``seat_view(match, seat)``: own hand (canonical texts, display-sorted, trumps first), the
public table, legal bid options and — only for whoever buried it — the buried kitty.
``public_view(match)``: no hidden card at all; the buried kitty appears only in finished
deals' summaries.  Both are JSON-able.
"""

from __future__ import annotations

from engine.cards import Card, card_text, cards_text, parse_cards, points
from engine.shengji.match import ShengjiRules
from engine.shengji.order import TrumpContext, trump_context
from engine.shengji.trick import trick_winner
from engine.views import (
    ShengjiPlayView,
    ShengjiPublicView,
    ShengjiSeatView,
    ShengjiTable,
    ShengjiTrickSummary,
    TurnView,
)


def display_context(m: ShengjiRules, seat: int) -> TrumpContext:
    """The order a hand is shown in: the deal's trump once known, else the current declaration."""
    if m.ctx is not None:
        return m.ctx
    if m.bid is not None:
        return trump_context(m.bid.level, m.bid.suit)
    side = seat % 2 if m.dealer is None else m.dealer % 2
    return trump_context(m.levels[side], None)


def _texts(cards: list[Card]) -> list[str]:
    return [card_text(c) for c in cards]


def winning_seat(m: ShengjiRules) -> int | None:
    """The seat whose play wins the trick so far (None: no trick under way); public, from the played cards."""
    if not m.trick or m.ctx is None or m.lead is None:
        return None
    return m.trick[trick_winner(m.ctx, m.lead, [cards for _, cards in m.trick])][0]


def point_cards_won(m: ShengjiRules) -> list[str]:
    """The point cards (5, 10, K) in the tricks the defenders have won this deal, in the order won
    (public: every played card is); empty before the dealer is known."""
    if m.dealer is None:
        return []
    out: list[str] = []
    for trick in m.tricks:
        if trick["winner"] % 2 != m.dealer % 2:
            for _, cards in trick["plays"]:
                out += [card_text(c) for c in parse_cards(cards) if points(c)]
    return out


def table(m: ShengjiRules) -> ShengjiTable:
    """The public table: everything any seat or spectator may see."""
    turns: list[TurnView] = [
        {"seat": t.seat, "kind": t.kind, "clock": t.clock, "required": t.required} for t in m.turns()
    ]
    trick: list[ShengjiPlayView] = [{"seat": s, "cards": cards_text(c)} for s, c in m.trick]
    last_trick: ShengjiTrickSummary | None = m.tricks[-1] if m.tricks else None
    pc = m.pending_choice
    out: ShengjiTable = {
        "game": "shengji",
        "phase": m.phase,
        "deal": m.deal_no,
        "redeal": m.redeal_no,
        "deals_played": m.deals_played,
        "levels": list(m.levels),
        "dealer": m.dealer,
        "dealer_grabbed": m.grab,
        "first_drawer": m.first_drawer,
        "cards_dealt": m.draws,
        "hand_sizes": [len(h) for h in m.hands],
        "level": m.level,
        "trump": m.trump_suit,
        "declaration": None
        if m.bid is None
        else {
            "seat": m.bid.seat,
            "cards": m.bid.text,
            "kind": m.bid.kind,
            "trump": m.bid.suit,
            "level": m.bid.level,
            "locked": m.bid.locked,
        },
        "bids": [b.copy() for b in m.bids],
        "passed": sorted(m.passed),
        "turned_kitty": _texts(m.turned),
        "kitty_buried_by": m.burier if m.phase in ("late", "play", "choose") else None,
        "leader": m.leader,
        "trick": trick,
        "winning": winning_seat(m),
        "last_trick": last_trick,
        "tricks_played": len(m.tricks),
        "points": m.defender_points,
        "point_cards": point_cards_won(m),
        "charges": [c.copy() for c in m.charges],
        "defenders_total": m.defenders_total() if m.dealer is not None else 0,
        "pending_choice": None
        if pc is None
        else {
            "thrower": pc["thrower"],
            "cards": pc["cards"],
            "options": list(pc["options"]),
            "units": dict(pc["units"]),
        },
        "turns": turns,
        "paused": m.paused_reason,
        "time_up": m.time_up,
        "last_deal": None if not m.history else m.history[-1].copy(),
        "finished": m.finished,
        "result": m.result(),
    }
    return out


def seat_view(m: ShengjiRules, seat: int) -> ShengjiSeatView:
    ctx = display_context(m, seat)
    view: ShengjiSeatView = {
        "seat": seat,
        "hand": _texts(ctx.sort_for_display(m.hands[seat])),
        "table": table(m),
        "legal_bids": [cards_text(cs) for cs in m.legal_bids(seat)],
        "my_turns": [t.kind for t in m.turns() if t.seat == seat],
    }
    if m.burier == seat and m.kitty and m.phase in ("late", "rebury", "play", "choose"):
        view["kitty"] = _texts(m.kitty)
    return view


def public_view(m: ShengjiRules) -> ShengjiPublicView:
    return {"table": table(m)}
