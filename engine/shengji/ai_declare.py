"""The strong Shengji player's declarations (报主 / 亮主), overturns (反主) and late overturns, searched.

:func:`declare_information` keeps what a seat knows before the play: its own cards so far, the public
declarations (who showed what; those cards are still in their hands until the kitty is buried), who
passed, the trump and dealer once fixed, and the kitty only when this seat buried it.  :func:`choose_declare`
compares a few actions — the baseline player's own (``engine.shengji.ai``), passing, and each card set the
seat may show now (strongest first) — on worlds consistent with that information: the unseen cards dealt
over the other hands (each holding the cards it showed), the kitty and the cards still to be dealt
(``engine.search.sampling``).  In every world each candidate is applied and the deal finished by the
baseline player at every seat — the rest of the dealing, the others' declarations and its own later ones,
the bury, late overturns and the play — and the result for the seat's side (level steps, the defenders'
points as a tie-break) averaged; the baseline's action is left only when another beats it clearly on the
same worlds (``engine.search.choice``).

During the dealing a declaration is optional at every card; the search runs only when something changed
for the seat (:func:`searched_now`): it just received a level card or a joker, its hand reached 10, 15, 20
or 25 cards, or another seat just declared.  Otherwise it waits (no action).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.cards import BIG_JOKER, SMALL_JOKER, Card, cards_text, full_deck, rank_of
from engine.search.choice import ranking, scaled_worlds
from engine.search.sampling import deal_hidden
from engine.shengji import ai as baseline
from engine.shengji import deal as dealmod
from engine.shengji.bidding import Bid, bid_options
from engine.shengji.information import shown_in_bids
from engine.shengji.match import Move, ShengjiRules
from engine.shengji.options import ShengjiOptions
from engine.shengji.order import trump_context
from engine.shengji.playout import baseline_play, side_result

PHASES = ("dealing", "window", "blackout", "late")
DECLARE_WORLDS = 32  # worlds each candidate meets (all candidates the same worlds)
DECLARE_MIN_WORLDS = 8  # the CPU limit stops no search before this many
MAX_DECLARE_CANDIDATES = 4
CPU_LIMIT = 1.0  # CPU seconds a decision may take (checked between worlds; the tests pass None)
CHECK_SIZES = (10, 15, 20, 25)  # hand sizes at which the dealing-phase search runs in any case
MIN_HAND = 10  # no dealing-phase search before this many cards


@dataclass(frozen=True)
class DeclareInformation:
    """What a seat knows at a declaration decision: hashable, picklable, no hidden card."""

    seat: int
    options: ShengjiOptions
    phase: str
    levels: tuple[int, int]
    dealer: int | None
    deal_no: int
    redeal_no: int
    redeals_in_row: int
    deals_played: int
    grab: bool
    first_drawer: int
    draws: int
    hand: tuple[Card, ...]  # its cards (in the order they came)
    hand_sizes: tuple[int, int, int, int]
    bid: Bid | None
    bids: tuple[tuple[int, str, str], ...]  # (seat, cards, kind) of every declaration of this deal
    first_declarer: int | None
    own_level_dealer: int | None
    overturned: bool
    passed: frozenset[int]
    blackout_seats: tuple[int, ...]
    blackout_old_dealer: int | None
    late_order: tuple[int, ...]
    late_index: int
    burier: int | None
    kitty: tuple[Card, ...] | None  # the kitty it buried (None: not known to it)
    turned: tuple[Card, ...]  # kitty cards turned face up (public)
    trump_suit: int | None
    level: int | None
    shown: tuple[tuple[Card, ...], ...]  # per seat: cards shown in declarations, still held as far as known
    last_bid_by_other: bool  # the last action was another seat's declaration
    last_card: Card | None  # the card the seat received last, when that was the last draw

    def unseen(self) -> list[Card]:
        """The cards this seat has not seen: the others' hands, the kitty and the cards still to come."""
        rest = full_deck(2)
        for c in [*self.hand, *(self.kitty or ())]:
            rest.remove(c)
        return rest


def declare_information(m: ShengjiRules, seat: int) -> DeclareInformation:
    """``seat``'s information set at a declaration decision (phases ``dealing``, ``window``, ``blackout``,
    ``late``)."""
    if m.phase not in PHASES:
        raise ValueError("the declaration information is defined before the play")
    shown = shown_in_bids(m)
    shown[seat] = []
    if m.phase == "late" and m.dealer is not None:
        shown[m.dealer] = []  # the dealer may have buried what it showed
    if m.rebury_seat is not None:
        shown[m.rebury_seat] = []
    last = m.log[-1] if m.log else ""
    parts = last.split(" ", 2)
    last_bid_by_other = len(parts) >= 2 and parts[1] in ("bid", "overturn") and parts[0] != str(seat)
    last_card: Card | None = None
    if m.phase == "dealing" and m.draws > 0 and dealmod.drawer(m.first_drawer, m.draws - 1) == seat:
        last_card = m.hands[seat][-1]
    return DeclareInformation(
        seat=seat,
        options=m.options,
        phase=m.phase,
        levels=(m.levels[0], m.levels[1]),
        dealer=m.dealer,
        deal_no=m.deal_no,
        redeal_no=m.redeal_no,
        redeals_in_row=m.redeals_in_row,
        deals_played=m.deals_played,
        grab=m.grab,
        first_drawer=m.first_drawer,
        draws=m.draws,
        hand=tuple(m.hands[seat]),
        hand_sizes=(len(m.hands[0]), len(m.hands[1]), len(m.hands[2]), len(m.hands[3])),
        bid=m.bid,
        bids=tuple((int(b["seat"]), str(b["cards"]), str(b["kind"])) for b in m.bids),
        first_declarer=m.first_declarer,
        own_level_dealer=m.own_level_dealer,
        overturned=m.overturned,
        passed=frozenset(m.passed),
        blackout_seats=tuple(m.blackout_seats),
        blackout_old_dealer=m.blackout_old_dealer,
        late_order=tuple(m.late_order),
        late_index=m.late_index,
        burier=m.burier,
        kitty=tuple(m.kitty) if m.burier == seat and m.phase == "late" else None,
        turned=tuple(m.turned),
        trump_suit=m.trump_suit,
        level=m.level,
        shown=tuple(tuple(sorted(x)) for x in shown),
        last_bid_by_other=last_bid_by_other,
        last_card=last_card,
    )


def is_decision(m: ShengjiRules, seat: int) -> bool:
    """Whether ``seat`` has a declaration decision now (it may show cards, or must pass in turn)."""
    if m.finished or m.phase not in PHASES:
        return False
    if m.phase == "window":
        return seat not in m.passed
    if m.phase == "blackout":
        return m.blackout_seats[0] == seat
    if m.phase == "late":
        return m.late_order[m.late_index] == seat
    return bool(m.legal_bids(seat))


def searched_now(info: DeclareInformation) -> bool:
    """Whether the strong player searches this decision (the dealing phase: only when something changed
    for the seat, see the module doc; the other phases: whenever it may show cards)."""
    if not _options(info):
        return False
    if info.phase != "dealing":
        return True
    if len(info.hand) < MIN_HAND:
        return False
    if info.last_bid_by_other:
        return True
    c = info.last_card
    return c is not None and (
        len(info.hand) in CHECK_SIZES or c in (SMALL_JOKER, BIG_JOKER) or rank_of(c) in info.levels
    )


def _options(info: DeclareInformation) -> list[tuple[Card, ...]]:
    m = world_shell(info)
    m.hands[info.seat] = list(info.hand)
    return m.legal_bids(info.seat)


def world_shell(info: DeclareInformation) -> ShengjiRules:
    """A match with ``info``'s public state and the seat's own hand; the other hands, kitty and deck empty."""
    m = ShengjiRules.__new__(ShengjiRules)
    m.options = info.options
    m.seed = 0
    m.log = []
    m.levels = list(info.levels)
    m.dealer = info.dealer
    m.deal_no = info.deal_no
    m.redeal_no = info.redeal_no
    m.redeals_in_row = info.redeals_in_row
    m.deals_played = info.deals_played
    m.time_up = False
    m.paused_reason = None
    m._result = None
    m.history = []
    m.penalties = []
    m.phase = info.phase
    m.deck = []
    m.grab = info.grab
    m.first_drawer = info.first_drawer
    m.draws = info.draws
    m.hands = [[], [], [], []]
    m.hands[info.seat] = list(info.hand)
    m.kitty = []
    m.bid = info.bid
    m.bids = [{"seat": s, "cards": c, "kind": k} for s, c, k in info.bids]
    m.first_declarer = info.first_declarer
    m.own_level_dealer = info.own_level_dealer
    m.overturned = info.overturned
    m.passed = set(info.passed)
    m.blackout_seats = list(info.blackout_seats)
    m.blackout_old_dealer = info.blackout_old_dealer
    m.turned = list(info.turned)
    m.late_order = list(info.late_order)
    m.late_index = info.late_index
    m.rebury_seat = None
    m.burier = info.burier
    m.trump_suit = info.trump_suit
    m.level = info.level
    m.ctx = trump_context(info.level, info.trump_suit) if info.level is not None else None
    m.leader = None
    m.trick = []
    m.trick_texts = []
    m.lead = None
    m.tricks = []
    m.defender_points = 0
    m.charges = []
    m.capture = 0
    m.capture_multiplier = 0
    m.pending_choice = None
    m.deal_result = None
    return m


def sample_world(info: DeclareInformation, rng: random.Random) -> ShengjiRules:
    """One world of ``info``: the unseen cards dealt over the other hands (each with the cards it showed),
    the kitty and, during the dealing, the cards still to come (placed in the deck where they will be drawn)."""
    m = world_shell(info)
    others = [s for s in range(4) if s != info.seat]
    pre_play = info.phase in ("dealing", "window", "blackout")
    to_come = dealmod.DRAWS - info.draws if info.phase == "dealing" else 0
    sizes = [info.hand_sizes[s] for s in others]
    if info.kitty is None:
        sizes.append(dealmod.KITTY)
    sizes.append(to_come)
    fixed = [list(info.shown[s]) for s in others]
    dealt = deal_hidden(info.unseen(), sizes, rng, None, fixed)
    for slot, s in enumerate(others):
        m.hands[s] = dealt[slot]
    kitty = list(info.kitty) if info.kitty is not None else dealt[len(others)]
    future = dealt[-1]
    if pre_play:
        # the deck as it was dealt: the hands' cards at their draws, the cards to come after, the kitty last
        deck: list[Card] = [0] * (dealmod.DRAWS + dealmod.KITTY)
        taken = [0, 0, 0, 0]
        turn = info.options.board_turn
        for index in range(dealmod.DRAWS):
            pos = dealmod.board_index(info.first_drawer, index, turn)
            if index < info.draws:
                s = dealmod.drawer(info.first_drawer, index)
                deck[pos] = m.hands[s][taken[s]]
                taken[s] += 1
            else:
                deck[pos] = future[index - info.draws]
        deck[dealmod.DRAWS :] = kitty
        m.deck = deck
        m.kitty = list(kitty)
    else:
        m.kitty = list(kitty)
    return m


def candidates(info: DeclareInformation, world: ShengjiRules) -> list[str]:
    """The actions compared: the baseline player's first (its wait during the dealing is ``""``), passing,
    then the card sets the seat may show, strongest first."""
    seat = info.seat
    base = baseline.choose_action(world, seat, random.Random(0)) or ""
    out = [base]
    if info.phase == "late":
        pass_text = f"{seat} pass_overturn"
    elif info.phase == "dealing":
        pass_text = ""
    else:
        pass_text = f"{seat} pass_bid"
    verb = "overturn" if info.phase == "late" else "bid"
    shows = [
        f"{seat} {verb} {cards_text(cs)}"
        for cs in reversed(bid_options(world.bid_context(), seat, world.hands[seat]))
    ]
    for a in [pass_text, *shows]:
        if a not in out:
            out.append(a)
    return out[:MAX_DECLARE_CANDIDATES]


def rollout(info: DeclareInformation, world: ShengjiRules, action: str) -> float:
    """``action`` (``""``: wait) in ``world``, then the baseline player at every seat to the end of the deal:
    the result for ``info.seat``'s side (level steps, the defenders' points as a tie-break; 0 when the deal
    is dealt again for want of a declaration)."""
    if action:
        world.apply(action)
    rng = random.Random(0)
    redeal = world.redeal_no
    check = [True, True, True, True]  # seats whose declaration choice may have changed
    while world.phase not in ("deal_over", "match_over", "paused"):
        if world.redeal_no != redeal:
            return 0.0
        if world.phase == "dealing":
            # the baseline's choice depends on its own hand and the declaration in force only: ask the seats
            # whose hand or declaration changed (what ``engine.shengji.ai.ai_step`` would find, quicker)
            acted = False
            for s in range(4):
                if check[s]:
                    check[s] = False
                    a = baseline.choose_action(world, s, rng)
                    if a is not None:
                        world.apply(a)
                        check = [True, True, True, True]
                        acted = True
                        break
            if acted:
                continue
            check[dealmod.drawer(world.first_drawer, world.draws)] = True
            world.apply_move(Move(None, "deal"))
            continue
        if world.phase == "play":
            baseline_play(world)
            continue
        a = baseline.ai_step(world, rng)
        if a is None:
            return 0.0
        world.apply(a)
    if not world.history or world.phase == "paused":
        return 0.0
    return side_result(info.seat, world.history[-1])


def declare_play_outs(
    info: DeclareInformation, seed: int, cpu_limit: float | None = None, effort: float = 1.0
) -> tuple[list[str], list[list[float]]]:
    """The candidate actions and each one's result in every world (``results[i][w]``)."""
    rng = random.Random(seed)
    first = sample_world(info, rng)
    cands = candidates(info, first)
    if len(cands) == 1:
        return cands, [[0.0]]
    least, most = scaled_worlds(DECLARE_MIN_WORLDS, DECLARE_WORLDS, effort)
    results: list[list[float]] = [[] for _ in cands]
    start = time.process_time()
    for w in range(most):
        if cpu_limit is not None and w >= least and time.process_time() - start > cpu_limit:
            break
        world = first if w == 0 else sample_world(info, rng)
        state = _freeze(world)
        for i, a in enumerate(cands):
            results[i].append(rollout(info, _thaw(info, state), a))
    return cands, results


def choose_declare(
    info: DeclareInformation, seed: int, cpu_limit: float | None = None, effort: float = 1.0
) -> str | None:
    """The searched action of ``info.seat`` (None: wait, during the dealing)."""
    cands, results = declare_play_outs(info, seed, cpu_limit, effort)
    best = cands[0] if len(cands) == 1 else cands[ranking(results)[0][0]]
    return best or None


def _freeze(m: ShengjiRules) -> tuple[list[list[Card]], list[Card], list[Card]]:
    return [list(h) for h in m.hands], list(m.kitty), list(m.deck)


def _thaw(info: DeclareInformation, state: tuple[list[list[Card]], list[Card], list[Card]]) -> ShengjiRules:
    hands, kitty, deck = state
    m = world_shell(info)
    m.hands = [list(h) for h in hands]
    m.kitty = list(kitty)
    m.deck = list(deck)
    return m
