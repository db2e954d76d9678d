"""What one Shengji seat knows during the play of a deal (its information set), and worlds that fit it.

:func:`information` reads a match for one seat and keeps only what that seat may know: its own hand,
the public table and every trick played, the voids the play has shown, the cards each seat showed in a
declaration (still held unless played since), and the kitty only when this seat buried it.  The strong
player (``engine.shengji.ai_strong``) sees nothing else: it never receives the match.

:func:`determinize` builds a full match state — a *world* — from that information and one random deal
of the unseen cards (``engine.search.sampling``), consistent with the voids and shown cards; the search
plays candidate moves out in such worlds.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from engine.cards import Card, cards_text, full_deck, parse_cards
from engine.events import Charge
from engine.search.sampling import deal_hidden
from engine.shengji.formats import classify_lead
from engine.shengji.match import ShengjiRules
from engine.shengji.options import ShengjiOptions
from engine.shengji.order import TrumpContext, trump_context

KITTY_SLOT = 4


@dataclass(frozen=True)
class ShengjiInformation:
    """One seat's information set during the play (phase ``play``); hashable, picklable, no hidden card."""

    seat: int
    options: ShengjiOptions
    levels: tuple[int, int]
    dealer: int
    level: int
    trump_suit: int | None
    deal_no: int
    deals_played: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    kitty: tuple[Card, ...] | None  # the kitty this seat buried (None: not known to it)
    leader: int
    trick: tuple[tuple[int, tuple[Card, ...]], ...]  # the trick in progress
    tricks: tuple[
        tuple[int, tuple[tuple[int, tuple[Card, ...]], ...], int, int], ...
    ]  # (leader, plays, winner, points)
    defender_points: int
    charges: tuple[tuple[int, int, int, str, str], ...]  # (seat, points, signed, reason, cards) of this deal
    voids: tuple[frozenset[int], ...]  # per seat: the groups it has shown void in
    shown: tuple[tuple[Card, ...], ...]  # per seat: cards shown in declarations and not played since

    @property
    def ctx(self) -> TrumpContext:
        return trump_context(self.level, self.trump_suit)

    def played(self) -> list[Card]:
        """Every card played this deal (finished tricks and the trick in progress)."""
        out: list[Card] = []
        for _, plays, _, _ in self.tricks:
            for _, cards in plays:
                out.extend(cards)
        for _, cards in self.trick:
            out.extend(cards)
        return out

    def unseen(self) -> list[Card]:
        """The cards this seat has not seen: in the other hands or (when not its own) the kitty."""
        rest = full_deck(2)
        for c in [*self.hand, *self.played(), *(self.kitty or ())]:
            rest.remove(c)
        return rest


def _voids(ctx: TrumpContext, tricks: list[tuple[int, list[tuple[int, tuple[Card, ...]]]]]) -> list[set[int]]:
    """Groups each seat is void in: it followed a lead with fewer cards of the led group than asked."""
    voids: list[set[int]] = [set(), set(), set(), set()]
    for _, plays in tricks:
        if not plays:
            continue
        lead_cards = plays[0][1]
        g = ctx.group_of[lead_cards[0]]
        if any(ctx.group_of[c] != g for c in lead_cards):
            continue  # a failed throw's forced unit is still one group; defensive
        for s, cards in plays[1:]:
            if sum(1 for c in cards if ctx.group_of[c] == g) < len(lead_cards):
                voids[s].add(g)
    return voids


def shown_in_bids(m: ShengjiRules) -> list[list[Card]]:
    """The cards each seat showed in its declarations and overturns (public; a card at most twice)."""
    shown: list[list[Card]] = [[], [], [], []]
    for b in m.bids:
        s = int(b["seat"])
        for c in parse_cards(str(b["cards"])):
            if shown[s].count(c) < 2:
                shown[s].append(c)
    return shown


def information(m: ShengjiRules, seat: int) -> ShengjiInformation:
    """``seat``'s information set now (the play phase of a deal)."""
    if m.phase != "play" or m.ctx is None or m.dealer is None or m.level is None or m.leader is None:
        raise ValueError("the information set is defined during the play of a deal")
    ctx = m.ctx
    tricks = []
    for t in m.tricks:
        plays = tuple((int(s), tuple(parse_cards(text))) for s, text in t["plays"])
        tricks.append((t["leader"], plays, t["winner"], t["points"]))
    trick = tuple((s, tuple(c)) for s, c in m.trick)
    voids = _voids(ctx, [(t[0], list(t[1])) for t in tricks] + [(m.leader, list(trick))])
    played_by: list[list[Card]] = [[], [], [], []]
    for _, plays, _, _ in tricks:
        for s, cards in plays:
            played_by[s].extend(cards)
    for s, cards in trick:
        played_by[s].extend(cards)
    shown = shown_in_bids(m)
    for s in range(4):
        for c in played_by[s]:
            if c in shown[s]:
                shown[s].remove(c)
    if m.dealer == seat or m.burier == seat:
        shown[m.dealer] = []  # the dealer may have buried what it showed: no constraint it could rely on
    charges = tuple(
        (int(c["seat"]), int(c["points"]), int(c["signed"]), str(c["reason"]), str(c["cards"]))
        for c in m.charges
    )
    return ShengjiInformation(
        seat=seat,
        options=m.options,
        levels=(m.levels[0], m.levels[1]),
        dealer=m.dealer,
        level=m.level,
        trump_suit=m.trump_suit,
        deal_no=m.deal_no,
        deals_played=m.deals_played,
        hand=tuple(sorted(m.hands[seat])),
        hand_sizes=(len(m.hands[0]), len(m.hands[1]), len(m.hands[2]), len(m.hands[3])),
        kitty=tuple(sorted(m.kitty)) if m.burier == seat else None,
        leader=m.leader,
        trick=trick,
        tricks=tuple(tricks),
        defender_points=m.defender_points,
        charges=charges,
        voids=tuple(frozenset(v) for v in voids),
        shown=tuple(tuple(sorted(x)) if s != seat and s != m.dealer else () for s, x in enumerate(shown)),
    )


def sample_hidden(info: ShengjiInformation, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """One deal of the unseen cards: the four hands (this seat's own as it is) and the kitty."""
    others = [s for s in range(4) if s != info.seat]
    sizes = [info.hand_sizes[s] for s in others]
    kitty_known = info.kitty is not None
    if not kitty_known:
        sizes.append(8)
    grp = info.ctx.group_of

    def allowed(slot: int, c: Card) -> bool:
        return slot >= len(others) or grp[c] not in info.voids[others[slot]]

    fixed = [list(info.shown[s]) for s in others]
    dealt = deal_hidden(info.unseen(), sizes, rng, allowed, fixed)
    hands: list[list[Card]] = [[], [], [], []]
    hands[info.seat] = list(info.hand)
    for slot, s in enumerate(others):
        hands[s] = dealt[slot]
    kitty = list(info.kitty) if info.kitty is not None else dealt[len(others)]
    return hands, kitty


def determinize(info: ShengjiInformation, hands: list[list[Card]], kitty: list[Card]) -> ShengjiRules:
    """A match in the play phase that looks to ``info.seat`` exactly as its information says, with
    ``hands`` and ``kitty`` as the hidden cards (one world of the search).  Its seed is 0: the match's own
    seed is hidden (it fixes the shuffle), and a world is only played to the end of the deal."""
    m = ShengjiRules.__new__(ShengjiRules)
    ctx = info.ctx
    m.options = info.options
    m.seed = 0
    m.log = []
    m.levels = list(info.levels)
    m.dealer = info.dealer
    m.deal_no = info.deal_no
    m.redeal_no = 0
    m.redeals_in_row = 0
    m.deals_played = info.deals_played
    m.time_up = False
    m.paused_reason = None
    m._result = None
    m.history = []
    m.penalties = []
    m.phase = "play"
    m.deck = []
    m.grab = False
    m.first_drawer = info.dealer
    m.draws = 100
    m.hands = [list(h) for h in hands]
    m.kitty = list(kitty)
    m.bid = None
    m.bids = []
    m.first_declarer = None
    m.own_level_dealer = None
    m.overturned = False
    m.passed = set()
    m.blackout_seats = []
    m.blackout_old_dealer = None
    m.turned = []
    m.late_order = []
    m.late_index = 0
    m.rebury_seat = None
    m.burier = info.dealer
    m.trump_suit = info.trump_suit
    m.level = info.level
    m.ctx = ctx
    m.leader = info.leader
    m.trick = [(s, tuple(c)) for s, c in info.trick]
    m.trick_texts = [cards_text(c) for _, c in info.trick]
    # the trick's first play is what leads it: a throw that stood, or a failed throw's forced unit
    m.lead = classify_lead(ctx, info.trick[0][1], True) if info.trick else None
    m.tricks = [
        {"leader": ld, "plays": [[s, cards_text(c)] for s, c in plays], "winner": w, "points": p}
        for ld, plays, w, p in info.tricks
    ]
    m.defender_points = info.defender_points
    m.charges = [_charge(info.deal_no, c) for c in info.charges]
    m.capture = 0
    m.capture_multiplier = 0
    m.pending_choice = None
    m.deal_result = None
    return m


def _charge(deal_no: int, c: tuple[int, int, int, str, str]) -> Charge:
    return {"deal_no": deal_no, "seat": c[0], "points": c[1], "signed": c[2], "reason": c[3], "cards": c[4]}
