"""What one Guandan seat knows during the play of a deal (its information set), and worlds that fit it.

:func:`information` keeps only what the seat may know: its own hand, every play and pass of the deal
(public), the card counts (public: everybody can count the cards played), the tribute cards (shown to
the table: a receiver still holds its tribute card unless it played one like it since) and, for a
receiver, the card it returned (the payer holds it).  The strong player (``engine.guandan.ai_strong``)
sees nothing else.

:func:`world` builds a :class:`~engine.guandan.deal.DealPlay` from that information and one random deal
of the unseen cards (``engine.search.sampling``); the search plays candidate moves out in such worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import Card, full_deck
from engine.guandan.combos import Combo
from engine.guandan.deal import DealPlay, TrickEntry
from engine.guandan.match import GuandanRules
from engine.guandan.options import GuandanOptions
from engine.search.sampling import deal_hidden


@dataclass(frozen=True)
class GuandanInformation:
    """One seat's information set during the play; hashable, picklable, no hidden card."""

    seat: int
    options: GuandanOptions
    levels: tuple[int, int]
    a_failures: tuple[int, int]
    level: int
    hand: tuple[Card, ...]
    counts: tuple[int, int, int, int]
    played: tuple[Card, ...]  # every card played this deal
    leader: int
    turn: int
    to_beat: Combo | None
    last_seat: int
    passes: int
    finish_order: tuple[int, ...]
    trick: tuple[tuple[int, Combo | None], ...]
    trick_no: int
    jiefeng: bool
    known: tuple[tuple[Card, ...], ...]  # per seat: cards it is known to hold (tribute, a returned card)

    def unseen(self) -> list[Card]:
        rest = full_deck(2)
        for c in [*self.hand, *self.played]:
            rest.remove(c)
        return rest


def information(m: GuandanRules, seat: int) -> GuandanInformation:
    """``seat``'s information set now (the play phase of a deal)."""
    play = m.play
    if m.phase != "play" or play is None or play.over:
        raise ValueError("the information set is defined during the play of a deal")
    played_by: list[list[Card]] = [[], [], [], []]
    for _, s, action, combo in m.plays:
        if action == "play" and combo is not None:
            played_by[s].extend(combo.cards)
    known: list[list[Card]] = [[], [], [], []]
    for payer, card in m.tribute_paid.items():
        receiver = m.tribute_to.get(payer)
        if receiver is not None and m.phase == "play":
            known[receiver].append(card)
    for receiver, card in m.returned.items():
        if receiver == seat:
            known[m.tribute_to_payer(receiver)].append(card)
    for s in range(4):
        for c in played_by[s]:
            if c in known[s]:
                known[s].remove(c)
    return GuandanInformation(
        seat=seat,
        options=m.options,
        levels=(m.levels[0], m.levels[1]),
        a_failures=(m.a_failures[0], m.a_failures[1]),
        level=m.deal_level,
        hand=tuple(sorted(m.hands[seat])),
        counts=(len(m.hands[0]), len(m.hands[1]), len(m.hands[2]), len(m.hands[3])),
        played=tuple(sorted(c for cards in played_by for c in cards)),
        leader=play.leader,
        turn=play.turn,
        to_beat=play.to_beat,
        last_seat=play.last_seat,
        passes=play.passes,
        finish_order=tuple(play.finish_order),
        trick=tuple((e.seat, e.combo) for e in play.trick),
        trick_no=play.trick_no,
        jiefeng=play.jiefeng,
        known=tuple(tuple(sorted(k)) if s != seat else () for s, k in enumerate(known)),
    )


def sample_hands(info: GuandanInformation, rng: random.Random) -> list[list[Card]]:
    """One deal of the unseen cards over the other seats (this seat's own hand as it is)."""
    others = [s for s in range(4) if s != info.seat]
    dealt = deal_hidden(
        info.unseen(), [info.counts[s] for s in others], rng, fixed=[list(info.known[s]) for s in others]
    )
    hands: list[list[Card]] = [[], [], [], []]
    hands[info.seat] = list(info.hand)
    for slot, s in enumerate(others):
        hands[s] = sorted(dealt[slot])
    return hands


def world(info: GuandanInformation, hands: list[list[Card]]) -> DealPlay:
    """The play of the deal as ``info`` sees it, with ``hands`` as the four hands."""
    return DealPlay(
        level=info.level,
        hands=[list(h) for h in hands],
        leader=info.leader,
        turn=info.turn,
        to_beat=info.to_beat,
        last_seat=info.last_seat,
        passes=info.passes,
        finish_order=list(info.finish_order),
        trick=[TrickEntry(s, c) for s, c in info.trick],
        trick_no=info.trick_no,
        jiefeng=info.jiefeng,
    )
