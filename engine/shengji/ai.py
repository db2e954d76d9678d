"""The baseline Shengji computer player: always legal, plays sensibly, fast.

It declares with a strong hand (enough trumps), overturns only the other side, buries
non-point cards of short suits, leads high off-suit aces (and ace pairs), follows low,
wins point tricks when it can (trumping them when void), and gives points to a partner
who is winning the trick as the last player.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.cards import Card, cards_text, points
from engine.errors import RuleError
from engine.shengji.bidding import classify_bid
from engine.shengji.follow import is_legal_follow
from engine.shengji.formats import Lead
from engine.shengji.legal import legal_leads_simple, lowest_legal_play, random_legal_play
from engine.shengji.match import Move, ShengjiRules
from engine.shengji.order import TRUMP, TrumpContext, trump_context
from engine.shengji.trick import trick_winner

_DEAL = Move(None, "deal")


def _trump_share(hand: Sequence[Card], level: int, suit: int | None) -> float:
    if not hand:
        return 0.0
    tr = trump_context(level, suit).trump_of
    return sum(1 for c in hand if tr[c]) / len(hand)


def _pick_bid(m: ShengjiRules, seat: int, final: bool) -> str | None:
    hand = m.hands[seat]
    cur = m.bid
    if cur is not None and cur.seat % 2 == seat % 2:
        return None  # never overturn the own side
    if not final and len(hand) < (10 if cur is None else 15):
        return None  # too early to judge the hand
    options = m.legal_bids(seat)
    if not options:
        return None
    best: tuple[float, tuple[Card, ...]] | None = None
    for cs in options:
        _, suit, rank = classify_bid(cs, m.options)
        level = rank if rank is not None else (cur.level if cur is not None else m.levels[seat % 2])
        share = _trump_share(hand, level, suit)
        if best is None or share > best[0] or (share == best[0] and len(cs) < len(best[1])):
            best = (share, cs)
    assert best is not None
    share, cs = best
    if cur is None:
        if (len(hand) >= 10 and share >= 0.36) or final:
            return f"{seat} bid {cards_text(cs)}"
        return None
    if len(hand) >= 15 and share >= 0.42:
        return f"{seat} bid {cards_text(cs)}"
    return None


def choose_bury(ctx: TrumpContext, hand: Sequence[Card]) -> list[Card]:
    """8 cards to bury: non-trump, non-point, from the shortest suits, low before high."""
    return bury_order(ctx, hand)[:8]


def bury_order(ctx: TrumpContext, hand: Sequence[Card]) -> list[Card]:
    """``hand`` in the order the baseline buries: non-trump, non-point, shortest suits, low first."""
    grp, st = ctx.group_of, ctx.strength_of
    length = [0] * 5
    for c in hand:
        length[grp[c]] += 1
    counts = [0] * 54
    for c in hand:
        counts[c] += 1

    def key(c: Card) -> tuple[int, int, int, int, int, int]:
        g = grp[c]
        high = 1 if g != TRUMP and st[c] >= ctx.positions[g] - 2 else 0
        return (
            1 if g == TRUMP else 0,
            1 if points(c) else 0,
            high,
            1 if counts[c] >= 2 else 0,
            length[g],
            st[c],
        )

    return sorted(hand, key=key)


def _lead(m: ShengjiRules, seat: int) -> list[Card]:
    """The lead: the longest plain single, pair or tractor topped by its suit's highest rank (an off-suit
    ace), the first of ``legal_leads_simple``'s order among equals; else the lowest legal play.

    Only the leads that can qualify are built (the plain kinds at their suit's top position, and the
    tractors down from it), in ``legal_leads_simple``'s order: the same lead as filtering that list
    (tests/engine/shengji/test_ai.py compares them), without enumerating every tractor of the hand."""
    ctx = m.ctx
    assert ctx is not None
    hand = m.hands[seat]
    grp, st, npos = ctx.group_of, ctx.strength_of, ctx.positions
    counts = [0] * 54
    for c in hand:
        counts[c] += 1
    tops = ctx.sort_for_display({c for c in hand if grp[c] != TRUMP and st[c] >= npos[grp[c]] - 1})
    best: list[Card] | None = None
    best_key: tuple[int, int] = (-1, -1)
    for k in tops:  # singles, in display order
        key = (1, st[k])
        if key > best_key:
            best, best_key = [k], key
    for k in tops:  # pairs
        if counts[k] >= 2 and (2, st[k]) > best_key:
            best, best_key = [k, k], (2, st[k])
    for g in range(5):  # tractors topped by the suit's highest position, shortest first
        if g == TRUMP:
            continue
        kinds_at = ctx.kinds_at[g]
        top = len(kinds_at) - 1
        if top < 1 or top < npos[g] - 1:
            continue
        partials: list[list[Card]] = [[k] for k in kinds_at[top] if counts[k] >= 2]
        p = top - 1
        while partials and p >= 0:
            below = [k for k in kinds_at[p] if counts[k] >= 2]
            if not below:
                break
            partials = [pp + [k] for pp in partials for k in below]
            key = (2 * len(partials[0]), top)
            if key > best_key:
                best, best_key = [x for k in partials[0] for x in (k, k)], key
            p -= 1
    if best is not None:
        return best
    return lowest_legal_play(ctx, hand, None)


def _lead_reference(m: ShengjiRules, seat: int) -> list[Card]:
    """:func:`_lead` as it was written first (filtering every simple lead): the tests' yardstick."""
    ctx = m.ctx
    assert ctx is not None
    hand = m.hands[seat]
    grp, st = ctx.group_of, ctx.strength_of
    best: list[Card] | None = None
    best_key: tuple[int, int] = (-1, -1)
    for play in legal_leads_simple(ctx, hand, m.options.throws):
        g = grp[play[0]]
        if g == TRUMP:
            continue
        top = max(st[c] for c in play)
        if top < ctx.positions[g] - 1:
            continue  # only the suit's highest rank (an off-suit ace)
        k = (len(play), top)
        if k > best_key:
            best, best_key = play, k
    if best is not None:
        return best
    return lowest_legal_play(ctx, hand, None)


def _candidates(ctx: TrumpContext, hand: Sequence[Card], lead: Lead) -> list[list[Card]]:
    """A few plays that might win the trick (highest of the led group, lowest beating trumps)."""
    grp, st = ctx.group_of, ctx.strength_of
    g = lead.group
    same = [c for c in hand if grp[c] == g]
    trumps = [c for c in hand if grp[c] == TRUMP]
    out: list[list[Card]] = []
    if lead.kind == "single":
        if same:
            out.append([max(same, key=lambda c: (st[c], c))])
        elif trumps:
            for c in sorted(set(trumps), key=lambda c: (points(c) > 0, st[c], c)):
                out.append([c])
    elif lead.kind == "pair":
        pool = same if same else trumps
        counts: dict[Card, int] = {}
        for c in pool:
            counts[c] = counts.get(c, 0) + 1
        pairs = sorted((c for c, n in counts.items() if n >= 2), key=lambda c: st[c])
        if same:
            pairs = pairs[::-1]
        out.extend([c, c] for c in pairs)
    return out


def _follow(m: ShengjiRules, seat: int) -> list[Card]:
    ctx = m.ctx
    lead = m.lead
    assert ctx is not None and lead is not None
    hand = m.hands[seat]
    plays = [c for _, c in m.trick]
    cur = trick_winner(ctx, lead, plays)
    partner_wins = m.trick[cur][0] % 2 == seat % 2
    trick_points = sum(points(c) for p in plays for c in p)
    last = len(plays) == 3
    low = lowest_legal_play(ctx, hand, lead)
    if not partner_wins and (trick_points > 0 or last or lead.kind != "single"):
        for cand in _candidates(ctx, hand, lead):
            if len(cand) != len(lead.cards) or not is_legal_follow(ctx, lead, hand, cand):
                continue
            wins = trick_winner(ctx, lead, [*plays, cand]) == len(plays)
            if wins and (trick_points > 0 or last or points(cand[0]) == 0):
                return cand
    if partner_wins and last and lead.kind == "single":
        g = lead.group
        same = [c for c in hand if ctx.group_of[c] == g]
        pool = same if same else [c for c in hand if not ctx.trump_of[c]]
        rich = [c for c in pool if points(c)]
        if rich:
            cand = [max(rich, key=lambda c: (points(c), -ctx.strength_of[c]))]
            if is_legal_follow(ctx, lead, hand, cand):
                return cand
    return low


def choose_action(m: ShengjiRules, seat: int, rng: random.Random) -> str | None:
    """The computer player's action for ``seat`` now, or None when it has nothing to do."""
    del rng  # deterministic given the state; the parameter lets a stronger player randomise
    ph = m.phase
    if m.finished:
        return None
    if ph == "dealing":
        return _pick_bid(m, seat, final=False)
    if ph == "window":
        if seat in m.passed:
            return None
        return _pick_bid(m, seat, final=True) or f"{seat} pass_bid"
    if ph == "blackout":
        if m.blackout_seats[0] != seat:
            return None
        opts = m.legal_bids(seat)
        return f"{seat} bid {cards_text(opts[0])}" if opts else f"{seat} pass_bid"
    turns = [t for t in m.turns() if t.seat == seat]
    if not turns:
        return None
    ctx = m.ctx
    assert ctx is not None
    if ph in ("bury", "rebury"):
        return f"{seat} bury {cards_text(ctx.sort_for_display(choose_bury(ctx, m.hands[seat])))}"
    if ph == "late":
        b = _pick_bid(m, seat, final=False)
        return (f"{seat} overturn " + b.split(" bid ", 1)[1]) if b else f"{seat} pass_overturn"
    if ph == "choose":
        assert m.pending_choice is not None
        return f"{seat} choose {m.pending_choice['default']}"
    if ph == "play":
        play = _lead(m, seat) if not m.trick else _follow(m, seat)
        return f"{seat} play {cards_text(ctx.sort_for_display(play))}"
    raise RuleError("not_your_turn", "It is not your turn")


def random_legal_action(m: ShengjiRules, rng: random.Random) -> str | None:
    """Some legal action for the table or any seat, at random (property tests, benchmarks).

    None once the match is over.  The text of :func:`random_legal_move` (same choices, same rng draws)."""
    move = random_legal_move(m, rng)
    if move is _DEAL:
        return "sys deal"  # 100 of a deal's ~250 actions
    return None if move is None else move.text()


def random_legal_move(m: ShengjiRules, rng: random.Random) -> Move | None:
    """:func:`random_legal_action` as a :class:`~engine.shengji.match.Move` (``ShengjiRules.apply_move``
    takes it without reading text).  None once the match is over."""
    if m.finished:
        return None
    ph = m.phase
    if ph == "dealing":
        if rng.random() < 0.04:
            seat = rng.randrange(4)
            opts = m.legal_bids(seat)
            if opts:
                return Move(seat, "bid", tuple(rng.choice(opts)))
        return _DEAL
    if ph == "window":
        waiting = [s for s in range(4) if s not in m.passed]
        if not waiting:
            return Move(None, "close_bidding")
        seat = rng.choice(waiting)
        if rng.random() < 0.3:
            opts = m.legal_bids(seat)
            if opts:
                return Move(seat, "bid", tuple(rng.choice(opts)))
        return Move(seat, "pass_bid")
    if ph == "blackout":
        seat = m.blackout_seats[0]
        opts = m.legal_bids(seat)
        if opts and rng.random() < 0.6:
            return Move(seat, "bid", tuple(rng.choice(opts)))
        return Move(seat, "pass_bid")
    if ph in ("bury", "rebury"):
        seat = m.turns()[0].seat
        return Move(seat, "bury", tuple(rng.sample(m.hands[seat], 8)))
    if ph == "late":
        seat = m.late_order[m.late_index]
        if rng.random() < 0.3:
            opts = m.legal_bids(seat)
            if opts:
                return Move(seat, "overturn", tuple(rng.choice(opts)))
        return Move(seat, "pass_overturn")
    if ph == "play":
        ctx = m.ctx
        assert ctx is not None
        seat = m.to_play()
        play = random_legal_play(ctx, m.hands[seat], m.lead if m.trick else None, rng, m.options.throws)
        return Move(seat, "play", tuple(play))
    if ph == "choose":
        assert m.pending_choice is not None
        seat = (m.pending_choice["thrower"] + rng.choice((1, 3))) % 4
        return Move(seat, "choose", arg=rng.choice(m.pending_choice["options"]))
    if ph == "deal_over":
        return Move(None, "next_deal")
    if ph == "paused":
        return Move(None, "resume")
    return None


def ai_step(m: ShengjiRules, rng: random.Random) -> str | None:
    """The next action of a table where the computer plays every seat (demo, tests).

    Required turns first (the computer player), then optional bids, then the table's own step;
    a bid window closes once every seat has passed.  None once the match is over."""
    if m.finished:
        return None
    ph = m.phase
    if ph in ("dealing", "window"):
        for seat in range(4):
            a = choose_action(m, seat, rng)
            if a is not None:
                return a
        return m.system_step()
    for t in m.turns():
        a = choose_action(m, t.seat, rng)
        if a is not None:
            return a
    step = m.system_step()
    if step is None and ph == "paused":
        return "sys resume"
    return step
