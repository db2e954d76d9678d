"""The Shengji deal and match state machine (docs/rules.md section 1; decisions D1-D4, D6, D9).

:class:`ShengjiRules` is the state machine; :class:`engine.shengji.game.ShengjiMatch` adds the views and the
computer player and implements :class:`engine.game.Match`.  Everything that happens is
one action text in ``log``; replaying the log on a new match with the same options and
seed rebuilds the exact state (``snapshot()`` compares states).

Phases of a deal::

    dealing ──(100 × "sys deal")──> window ──("sys close_bidding")──> bury
       │  bids between draws          │ bids, "<s> pass_bid"           │ "<dealer> bury c1..c8"
       │                              ├─ nobody declared: redeal / kitty turn / blackout
       │                              │                                 v
       │                              blackout ("<s> bid" | "<s> pass_bid", new dealer then partner)
       v
    late ("<s> overturn ..." | "<s> pass_overturn", from the dealer) ─> rebury (反主抄底)
    play ("<s> play ...") ─> choose ("<opp> choose pair|single", failed throw) ─> deal_over
    deal_over ──("sys next_deal")──> dealing ...          paused ──("sys resume")──> dealing

``"sys time_up"`` may come at any time: the deal in progress finishes (D2), or with
``time_up_finishes_deal = False`` the match ends at once and the unfinished deal does not count
(levels as after the last finished deal; ties as usual: the side dealing the abandoned deal, or the
cut when no side deals yet);
``"sys forfeit_deal <seat>"`` ends the deal as a loss for that seat's side (see
:meth:`ShengjiRules._forfeit`); ``"sys reverse_charge <index>"`` lets a referee reverse a
charge of the deal in progress (D9).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, NamedTuple

from engine.cards import (
    NUM_KINDS,
    Card,
    card_text,
    cards_text,
    counts_of,
    full_deck,
    parse_cards,
    rank_of,
    total_points,
)
from engine.errors import RuleError
from engine.events import (
    DEAL_ABANDONED,
    DEAL_STARTED,
    TIME_UP,
    Charge,
    DealAbandoned,
    DealStarted,
    Event,
    MatchResult,
    ShengjiDealSummary,
    TimeUp,
)
from engine.game import DealtCards, Reading, Turn, timeout_action
from engine.rng import rng_for
from engine.shengji import deal as dealmod
from engine.shengji.bidding import Bid, BidContext, bid_options, canonical_bid_cards, check_bid
from engine.shengji.follow import check_follow
from engine.shengji.formats import Lead, Unit, classify_lead, play_multiplier_format
from engine.shengji.legal import lowest_legal_play
from engine.shengji.options import ShengjiOptions
from engine.shengji.order import TrumpContext, trump_context
from engine.shengji.scoring import kitty_capture, settle_deal, takeover_threshold
from engine.shengji.throw import ThrowResult, check_throw, penalty
from engine.shengji.trick import trick_winner, winning_is_trump
from engine.views import ShengjiBidEntry, ShengjiTrickSummary

PLAYER_VERBS = ("bid", "pass_bid", "bury", "overturn", "pass_overturn", "play", "choose")
SYS_VERBS = ("deal", "close_bidding", "next_deal", "time_up", "resume", "forfeit_deal", "reverse_charge")
CARD_VERBS = ("bid", "bury", "overturn", "play")
DEAL_PHASES = ("bury", "late", "rebury", "play", "choose")
CLOCKS = ("lead_clock", "follow_clock", "kitty_clock")


class Move(NamedTuple):
    """An action already read: what ``ShengjiRules.apply_move`` takes (``apply`` reads the text into one).

    ``seat`` None for the table's own steps (``sys``); ``cards`` for bid / bury / overturn / play;
    ``arg`` the raw argument of the other verbs (``choose pair``, ``sys forfeit_deal 2``)."""

    seat: int | None
    verb: str
    cards: tuple[Card, ...] = ()
    arg: str = ""

    def text(self) -> str:
        """The action text of this move (``apply`` accepts it; the log holds its canonical form)."""
        who = "sys" if self.seat is None else str(self.seat)
        rest = cards_text(self.cards) if self.cards else self.arg
        return f"{who} {self.verb} {rest}" if rest else f"{who} {self.verb}"


@functools.lru_cache(maxsize=1 << 16)
def _parse(action: str) -> Move:
    """The :class:`Move` of an action text (RuleError when it is not one)."""
    parts = action.strip().split(None, 2)
    if len(parts) < 2:
        raise RuleError("bad_action", "Not an action: {action}", action=action)
    who, verb = parts[0], parts[1]
    arg = parts[2] if len(parts) > 2 else ""
    if who == "sys":
        if verb not in SYS_VERBS:
            raise RuleError("bad_action", "Not an action: {action}", action=action)
        return Move(None, verb, (), arg)
    if who not in ("0", "1", "2", "3") or verb not in PLAYER_VERBS:
        raise RuleError("bad_action", "Not an action: {action}", action=action)
    cards: tuple[Card, ...] = ()
    if verb in CARD_VERBS:
        cards = tuple(parse_cards(arg))
        if not cards:
            raise RuleError("no_cards", "Name the cards to show or play")
    return Move(int(who), verb, cards, arg)


def _side(seat: int) -> int:
    return seat % 2


def _remove(hand: list[Card], cards: tuple[Card, ...] | list[Card]) -> None:
    for c in cards:
        hand.remove(c)


def _holds(hand: list[Card], cards: tuple[Card, ...] | list[Card]) -> bool:
    if len(cards) == 1:
        return cards[0] in hand
    need = counts_of(cards)
    have = counts_of(hand)
    return all(have[k] >= n for k, n in enumerate(need) if n)


class ShengjiRules:
    """The rules of one Shengji match between seats {0, 2} (side 0) and {1, 3} (side 1): its state and every
    action (the views and the computer player read it: ``engine.shengji.game.ShengjiMatch``)."""

    game = "shengji"

    def __init__(self, options: ShengjiOptions, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.log: list[str] = []
        self.levels: list[int] = [options.start_level, options.start_level]
        self.dealer: int | None = None  # dealer of the deal in progress (None while grabbed)
        self.deal_no = 1
        self.redeal_no = 0
        self.redeals_in_row = 0
        self.deals_played = 0
        self.time_up = False
        self.paused_reason: str | None = None
        self._result: MatchResult | None = None
        self.history: list[ShengjiDealSummary] = []  # one summary per finished deal
        self.penalties: list[Charge] = []  # every charge of the match (D9)
        self._start_deal()

    # ------------------------------------------------------------------ deal set-up
    def _start_deal(self) -> None:
        self.phase = "dealing"
        self.deck = dealmod.shuffled_deck(self.seed, self.deal_no, self.redeal_no)
        self.grab = self.dealer is None
        turn = self.options.board_turn
        self.first_drawer = (
            (dealmod.grab_first_drawer(self.seed, self.deal_no, self.redeal_no) + max(turn, 0)) % 4
            if self.dealer is None
            else self.dealer
        )
        self.draws = 0
        self.hands: list[list[Card]] = [[], [], [], []]
        self.kitty: list[Card] = self.deck[dealmod.DRAWS :]
        self.bid: Bid | None = None
        self.bids: list[ShengjiBidEntry] = []
        self.first_declarer: int | None = None
        self.own_level_dealer: int | None = None
        self.overturned = False
        self.passed: set[int] = set()
        self.blackout_seats: list[int] = []
        self.blackout_old_dealer: int | None = None
        self.turned: list[Card] = []  # kitty cards turned face up (kitty turn, double blackout)
        self.late_order: list[int] = []
        self.late_index = 0
        self.rebury_seat: int | None = None
        self.burier: int | None = None
        self.trump_suit: int | None = None
        self.level: int | None = None
        self.ctx: TrumpContext | None = None
        self.leader: int | None = None
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.trick_texts: list[str] = []  # the canonical text of each play in ``trick``
        self.lead: Lead | None = None
        self.tricks: list[ShengjiTrickSummary] = []
        self.defender_points = 0
        self.charges: list[Charge] = []
        self.capture = 0
        self.capture_multiplier = 0
        self.pending_choice: dict[str, Any] | None = None
        self.deal_result: ShengjiDealSummary | None = None

    # ------------------------------------------------------------------ protocol
    @property
    def finished(self) -> bool:
        return self._result is not None

    def result(self) -> MatchResult | None:
        return None if self._result is None else self._result.copy()

    @property
    def dealer_side(self) -> int | None:
        return None if self.dealer is None else self.dealer % 2

    def apply(self, action: str) -> list[Event]:
        """Apply one action text; RuleError (state unchanged) when not allowed.

        Every handler validates completely before it changes anything."""
        return self._apply_read(_parse(action))

    def apply_move(self, move: Move) -> list[Event]:
        """Apply an action already read (a :class:`Move`: the computer players and benchmarks build them
        without text); exactly what ``apply`` does with its text, the log included."""
        seat, verb, cards, _ = move
        if seat is not None and seat not in (0, 1, 2, 3):
            raise RuleError("bad_action", "Not an action: {action}", action=f"{seat} {verb}")
        if verb in CARD_VERBS and (not cards or min(cards) < 0 or max(cards) >= NUM_KINDS):
            raise RuleError("no_cards", "Name the cards to show or play")
        return self._apply_read(move)

    def _apply_read(self, move: Move) -> list[Event]:
        """Apply a move whose seat and cards are known to be well formed (read from text, or checked)."""
        if self._result is not None:
            raise RuleError("match_over", "The match is over")
        seat, verb, cards, arg = move
        if seat is None:
            events, text = self._apply_sys(verb, arg)
        else:
            events, text = self._apply_player(seat, verb, cards, arg)
        self.log.append(text)
        return events

    def turns(self) -> list[Turn]:
        ph = self.phase
        o = self.options
        if ph == "dealing":
            return [Turn(s, "bid", None, False) for s in range(4)]
        if ph == "window":
            return [Turn(s, "bid", None, False) for s in range(4) if s not in self.passed]
        if ph == "blackout":
            return [Turn(self.blackout_seats[0], "bid", None, True)]
        if ph == "bury":
            assert self.dealer is not None
            return [Turn(self.dealer, "kitty", "kitty_clock" if o.kitty_clock else None)]
        if ph == "late":
            return [Turn(self.late_order[self.late_index], "overturn", None)]
        if ph == "rebury":
            assert self.rebury_seat is not None
            return [Turn(self.rebury_seat, "rebury", "kitty_clock" if o.kitty_clock else None)]
        if ph == "play":
            seat = self.to_play()
            if not self.trick:
                return [Turn(seat, "lead", "lead_clock" if o.lead_clock else None)]
            return [Turn(seat, "follow", "follow_clock" if o.follow_clock else None)]
        if ph == "choose":
            assert self.pending_choice is not None
            t = self.pending_choice["thrower"]
            return [Turn((t + 1) % 4, "choose", None), Turn((t + 3) % 4, "choose", None)]
        return []

    def system_step(self) -> str | None:
        if self._result is not None:
            return None
        ph = self.phase
        if ph == "dealing":
            return "sys deal"
        if ph == "window":
            if len(self.passed) == 4 or self.options.bid_window_seconds == 0:
                return "sys close_bidding"
            return None
        if ph == "deal_over":
            return "sys next_deal"
        return None

    def auto_action(self, seat: int) -> str:
        """The move-clock expiry action (D6): lowest legal play, lowest 8 to bury, a pass."""
        ph = self.phase
        if ph in ("window", "blackout"):
            return f"{seat} pass_bid"
        if ph == "late":
            return f"{seat} pass_overturn"
        if ph in ("bury", "rebury"):
            assert self.ctx is not None
            return f"{seat} bury {cards_text(self.ctx.sort_for_display(dealmod.lowest_bury(self.ctx, self.hands[seat])))}"
        if ph == "play" and seat == self.to_play():
            assert self.ctx is not None
            play = lowest_legal_play(self.ctx, self.hands[seat], self.lead if self.trick else None)
            return f"{seat} play {cards_text(self.ctx.sort_for_display(play))}"
        if ph == "choose":
            assert self.pending_choice is not None
            return f"{seat} choose {self.pending_choice['default']}"
        raise RuleError("not_your_turn", "It is not your turn")

    def timeout_action(self, seat: int) -> str:
        return timeout_action(self, seat)

    def clock_seconds(self, clock: str | None) -> int:
        return int(getattr(self.options, clock)) if clock in CLOCKS else 0

    def readings_for(self, seat: int, cards: Sequence[Card]) -> list[Reading]:
        """Shengji reads a play one way only: never a choice of readings."""
        return []

    def hand(self, seat: int) -> list[Card]:
        return self.hands[seat]

    def current_trick(self) -> list[tuple[int, tuple[Card, ...]]]:
        return self.trick

    def forced_action(self, seat: int) -> str | None:
        """``seat``'s play when it has no choice: its last card, or following with all of its cards when
        exactly that many were led (the table plays it for the seat; the last trick costs no call)."""
        if self.phase != "play" or self._result is not None or self.to_play() != seat:
            return None
        hand = self.hands[seat]
        if not hand:
            return None
        if len(hand) > 1 and not (self.trick and all(len(cards) == len(hand) for _, cards in self.trick)):
            return None
        return self.auto_action(seat)

    def dealt_cards(self) -> DealtCards | None:
        if self.draws < dealmod.DRAWS:
            return None
        hands: list[list[Card]] = [[], [], [], []]
        for index in range(dealmod.DRAWS):
            card = self.deck[dealmod.board_index(self.first_drawer, index, self.options.board_turn)]
            hands[dealmod.drawer(self.first_drawer, index)].append(card)
        return DealtCards(
            tuple(tuple(sorted(h)) for h in hands), tuple(self.deck[dealmod.DRAWS :]), self.first_drawer
        )

    # ------------------------------------------------------------------ helpers other parts use
    def to_play(self) -> int:
        """The seat whose play is due (play phase)."""
        assert self.leader is not None
        return (self.leader + len(self.trick)) % 4

    def bid_context(self, window: str | None = None) -> BidContext:
        w = window or {"dealing": "dealing", "window": "final", "blackout": "blackout", "late": "late"}.get(
            self.phase, "dealing"
        )
        dealer = self.dealer
        if self.own_level_dealer is not None:
            dealer = self.own_level_dealer
        return BidContext(
            self.options,
            w,
            (self.levels[0], self.levels[1]),
            dealer,
            self.bid,
            self.first_declarer,
            self.overturned,
        )

    def legal_bids(self, seat: int) -> list[tuple[Card, ...]]:
        """Card sets ``seat`` could show now (bid buttons); empty when no bid is possible."""
        ph = self.phase
        if (
            ph in ("dealing", "window")
            or (ph == "blackout" and self.blackout_seats[0] == seat)
            or (ph == "late" and self.late_order[self.late_index] == seat)
        ):
            return bid_options(self.bid_context(), seat, self.hands[seat])
        return []

    def snapshot(self) -> dict[str, Any]:
        """The complete state as plain data (replay tests compare these)."""
        skip = {"log", "options", "ctx"}
        out: dict[str, Any] = {}
        for k, v in sorted(vars(self).items()):
            if k in skip:
                continue
            if isinstance(v, set):
                v = sorted(v)
            elif isinstance(v, (Bid, Lead)):
                v = repr(v)
            out[k] = repr(v)
        out["log"] = list(self.log)
        return out

    # ------------------------------------------------------------------ system actions
    def _apply_sys(self, verb: str, arg: str) -> tuple[list[Event], str]:
        ph = self.phase
        if verb == "deal":
            if ph != "dealing":
                raise RuleError("not_dealing", "No card is left to deal")
            seat = dealmod.drawer(self.first_drawer, self.draws)
            self.hands[seat].append(
                self.deck[dealmod.board_index(self.first_drawer, self.draws, self.options.board_turn)]
            )
            self.draws += 1
            if self.draws == dealmod.DRAWS:
                self.phase = "window"
                self.passed = set()
                return [Event("bid_window", {})], "sys deal"
            return [], "sys deal"
        if verb == "close_bidding":
            if ph != "window":
                raise RuleError("no_bid_window", "The bid window is not open")
            return self._close_bidding(), "sys close_bidding"
        if verb == "next_deal":
            if ph != "deal_over":
                raise RuleError("deal_in_progress", "The deal is not over")
            self.deal_no += 1
            self.redeal_no = 0
            self._start_deal()
            started: DealStarted = {
                "deal_no": self.deal_no,
                "levels": list(self.levels),
                "dealer": self.dealer,
            }
            return [Event(DEAL_STARTED, dict(started))], "sys next_deal"
        if verb == "time_up":
            if self.time_up:
                raise RuleError("time_already_up", "The match time is already up")
            self.time_up = True
            up: TimeUp = {"deal_no": self.deal_no}
            events = [Event(TIME_UP, dict(up))]
            if ph in ("deal_over", "paused"):
                events += self._end_match("time_up")
            elif not self.options.time_up_finishes_deal:
                events += self._abandon_deal()
            return events, "sys time_up"
        if verb == "resume":
            if ph != "paused":
                raise RuleError("not_paused", "The table is not paused")
            self.paused_reason = None
            self.redeals_in_row = 0
            self._start_deal()
            return [Event("resumed", {})], "sys resume"
        if verb == "forfeit_deal":
            try:
                seat = int(arg.strip())
            except ValueError:
                raise RuleError(
                    "bad_action", "Not an action: {action}", action=f"sys forfeit_deal {arg}"
                ) from None
            if seat not in range(4):
                raise RuleError("bad_action", "Not an action: {action}", action=f"sys forfeit_deal {arg}")
            if ph not in DEAL_PHASES:
                raise RuleError("no_deal_to_forfeit", "No deal with a dealer and trump is in progress")
            return self._forfeit(seat), f"sys forfeit_deal {seat}"
        if verb == "reverse_charge":
            # D9: a referee reverses a charge of the deal in progress ("sys reverse_charge <index>")
            try:
                index = int(arg.strip())
            except ValueError:
                raise RuleError(
                    "bad_action", "Not an action: {action}", action=f"sys reverse_charge {arg}"
                ) from None
            if (
                ph not in DEAL_PHASES
                or not 0 <= index < len(self.charges)
                or self.charges[index].get("reversed")
            ):
                raise RuleError("no_such_charge", "No charge {index} to reverse in this deal", index=index)
            entry = self.charges[index]
            entry["reversed"] = True
            entry["signed"] = 0
            return [Event("charge_reversed", dict(entry))], f"sys reverse_charge {index}"
        raise RuleError("bad_action", "Not an action: {action}", action=f"sys {verb}")

    def _abandon_deal(self) -> list[Event]:
        """D2 with ``time_up_finishes_deal = False``: the deal in progress stops and does not count.

        Its charges stay recorded in ``penalties`` (marked ``abandoned``) but change no level."""
        for c in self.charges:
            c["abandoned"] = True
        abandoned: DealAbandoned = {
            "deal_no": self.deal_no,
            "phase": self.phase,
            "charges": [c.copy() for c in self.charges],
        }
        events = [Event(DEAL_ABANDONED, dict(abandoned))]
        self.pending_choice = None
        self.trick, self.trick_texts = [], []
        return events + self._end_match("time_up", abandoned_deal=self.deal_no)

    def _close_bidding(self) -> list[Event]:
        o = self.options
        bid = self.bid
        events: list[Event] = [Event("bidding_closed", {"bid": None if bid is None else bid.text})]
        if bid is not None:
            if self.dealer is None:
                self.dealer = bid.seat if o.first_deal_overturn_changes_dealer else self.first_declarer
            elif self.own_level_dealer is not None:
                self.dealer = self.own_level_dealer
            assert self.dealer is not None
            self.level = bid.level
            self.trump_suit = bid.suit
            return events + self._take_kitty()
        if self.dealer is None or o.dealer_side_no_bid == "own_level":
            self.dealer = None  # grabbed again (docs/rules.md 1.3 C)
            return events + self._redeal("no_bid")
        if o.dealer_side_no_bid == "kitty_turn":
            first = self.kitty[0]
            self.turned = [first]
            self.level = self.levels[_side(self.dealer)]
            self.trump_suit = dealmod.kitty_turn_trump(first)
            events.append(
                Event(
                    "kitty_turned",
                    {
                        "cards": card_text(first),
                        "found": True,
                        "reason": "kitty_turn",
                        "dealer": self.dealer,
                        "trump": self.trump_suit,
                    },
                )
            )
            return events + self._take_kitty()
        # blackout (停电): the dealer side steps down; the old dealer's next may declare first, then partner
        old = self.dealer
        self.blackout_old_dealer = old
        self.blackout_seats = [(old + 1) % 4, (old + 3) % 4]
        self.phase = "blackout"
        events.append(Event("blackout", {"side": _side(old), "next": self.blackout_seats[0]}))
        return events

    def _double_blackout(self) -> list[Event]:
        old = self.blackout_old_dealer
        assert old is not None
        new_side = (old + 1) % 2
        turn = dealmod.double_blackout_turn(self.kitty, (self.levels[0], self.levels[1]), new_side)
        events = [Event("double_blackout", {"rule": self.options.double_blackout})]
        if self.options.double_blackout == "redeal":
            # D4 with double_blackout = redeal: no kitty card is turned; the same dealer deals again
            self.dealer = old
            return events + self._redeal("double_blackout")
        if turn is None:
            self.turned = list(self.kitty)
            events.append(Event("kitty_turned", {"cards": cards_text(self.turned), "found": False}))
            self.dealer = old
            return events + self._redeal("double_blackout")
        n, side, suit = turn
        self.turned = self.kitty[:n]
        self.dealer = old if side == _side(old) else (old + 1) % 4
        self.level = self.levels[side]
        self.trump_suit = suit
        events.append(
            Event(
                "kitty_turned",
                {
                    "cards": cards_text(self.turned),
                    "found": True,
                    "side": side,
                    "dealer": self.dealer,
                    "trump": suit,
                },
            )
        )
        return events + self._take_kitty()

    def _redeal(self, reason: str) -> list[Event]:
        self.redeals_in_row += 1
        self.redeal_no += 1
        events = [Event("redeal", {"reason": reason, "in_row": self.redeals_in_row})]
        if self.time_up:
            return events + self._end_match("time_up")
        if self.redeals_in_row >= self.options.max_redeals_before_pause:
            self.phase = "paused"
            self.paused_reason = "no_bid_redeals"
            events.append(Event("paused", {"reason": self.paused_reason, "redeals": self.redeals_in_row}))
            return events
        self._start_deal()
        return events

    def _take_kitty(self) -> list[Event]:
        assert self.dealer is not None and self.level is not None
        self.redeals_in_row = 0
        self.ctx = trump_context(self.level, self.trump_suit)
        self.hands[self.dealer].extend(self.kitty)
        self.kitty = []
        self.phase = "bury"
        return [
            Event("trump", {"dealer": self.dealer, "level": self.level, "trump": self.trump_suit}),
            Event("kitty_taken", {"seat": self.dealer}),
        ]

    # ------------------------------------------------------------------ player actions
    def _apply_player(
        self, seat: int, verb: str, cards: tuple[Card, ...], arg: str
    ) -> tuple[list[Event], str]:
        ph = self.phase
        if verb == "bid":
            if ph not in ("dealing", "window", "blackout"):
                raise RuleError("no_bidding_now", "Declaring is not possible now")
            if ph == "blackout" and seat != self.blackout_seats[0]:
                raise RuleError("not_your_turn", "It is not your turn")
            return self._bid(seat, cards)
        if verb == "pass_bid":
            if ph == "window":
                if seat in self.passed:
                    raise RuleError("already_passed", "You have already passed")
                self.passed.add(seat)
                return [Event("pass_bid", {"seat": seat})], f"{seat} pass_bid"
            if ph == "blackout":
                if seat != self.blackout_seats[0]:
                    raise RuleError("not_your_turn", "It is not your turn")
                self.blackout_seats = self.blackout_seats[1:]
                events = [Event("pass_bid", {"seat": seat})]
                if not self.blackout_seats:
                    events += self._double_blackout()
                return events, f"{seat} pass_bid"
            raise RuleError("no_bid_window", "The bid window is not open")
        if verb == "bury":
            if ph == "bury":
                if seat != self.dealer:
                    raise RuleError("not_your_turn", "It is not your turn")
            elif ph == "rebury":
                if seat != self.rebury_seat:
                    raise RuleError("not_your_turn", "It is not your turn")
            else:
                raise RuleError("no_bury_now", "Burying is not possible now")
            return self._bury(seat, cards)
        if verb in ("overturn", "pass_overturn"):
            if ph != "late":
                raise RuleError("no_overturn_now", "Overturning is not possible now")
            if seat != self.late_order[self.late_index]:
                raise RuleError("not_your_turn", "It is not your turn")
            if verb == "pass_overturn":
                events = [Event("pass_overturn", {"seat": seat})]
                self.late_index += 1
                events += self._after_late()
                return events, f"{seat} pass_overturn"
            return self._late_overturn(seat, cards)
        if verb == "play":
            if ph != "play":
                raise RuleError("no_play_now", "Playing is not possible now")
            if seat != self.to_play():
                raise RuleError("not_your_turn", "It is not your turn")
            return self._play(seat, cards)
        if verb == "choose":
            if ph != "choose":
                raise RuleError("no_choice_now", "There is nothing to choose now")
            assert self.pending_choice is not None
            if _side(seat) == _side(self.pending_choice["thrower"]):
                raise RuleError("not_your_turn", "The opponents of the thrower choose")
            what = arg.strip()
            if what not in self.pending_choice["options"]:
                raise RuleError(
                    "bad_choice",
                    "Choose one of: {choices}",
                    choices=", ".join(self.pending_choice["options"]),
                )
            return self._choose(seat, what), f"{seat} choose {what}"
        raise RuleError("bad_action", "Not an action: {action}", action=f"{seat} {verb}")

    def _bid(self, seat: int, cards: tuple[Card, ...]) -> tuple[list[Event], str]:
        ctx = self.bid_context()
        bid = check_bid(ctx, seat, cards, self.hands[seat])
        text = f"{seat} bid {bid.text}"
        self.bid = bid
        self.bids.append({"seat": seat, "cards": bid.text, "kind": bid.kind})
        if self.first_declarer is None:
            self.first_declarer = seat
        if bid.kind == "overturn":
            self.overturned = True
        if bid.kind == "own_level" and self.own_level_dealer is None:
            self.own_level_dealer = seat
        events = [
            Event(
                "bid",
                {"seat": seat, "cards": bid.text, "kind": bid.kind, "trump": bid.suit, "level": bid.level},
            )
        ]
        if self.phase == "window":
            self.passed = set()
        elif self.phase == "blackout":
            assert self.blackout_old_dealer is not None
            self.dealer = (self.blackout_old_dealer + 1) % 4
            self.level = bid.level
            self.trump_suit = bid.suit
            self.blackout_seats = []
            events += self._take_kitty()
        return events, text

    def _bury(self, seat: int, cards: tuple[Card, ...]) -> tuple[list[Event], str]:
        assert self.ctx is not None
        if len(cards) != dealmod.KITTY:
            raise RuleError("bury_eight", "Bury exactly 8 cards, not {n}", n=len(cards))
        if not _holds(self.hands[seat], cards):
            raise RuleError("not_in_hand", "You do not hold {card}", card=cards_text(cards))
        buried = self.ctx.sort_for_display(cards)
        _remove(self.hands[seat], cards)
        self.kitty = buried
        self.burier = seat
        text = f"{seat} bury {cards_text(buried)}"
        events = [Event("buried", {"seat": seat})]
        if self.phase == "rebury":
            self.rebury_seat = None
            self.phase = "late"
            self.late_index += 1
            return events + self._after_late(), text
        lo = self.options.late_overturn
        if lo == "in_turn" or (lo == "rebury" and not self.grab):
            assert self.dealer is not None
            self.phase = "late"
            self.late_order = [(self.dealer + i) % 4 for i in range(4)]
            self.late_index = 0
            return events + [Event("late_overturn_window", {"first": self.dealer})], text
        return events + self._start_play(), text

    def _after_late(self) -> list[Event]:
        if self.late_index >= len(self.late_order):
            return self._start_play()
        return []

    def _late_overturn(self, seat: int, cards: tuple[Card, ...]) -> tuple[list[Event], str]:
        bid = check_bid(self.bid_context("late"), seat, cards, self.hands[seat])
        self.bid = bid
        self.bids.append({"seat": seat, "cards": bid.text, "kind": "late_overturn"})
        self.overturned = True
        self.trump_suit = bid.suit
        self.level = bid.level
        self.ctx = trump_context(bid.level, bid.suit)
        events = [Event("overturn", {"seat": seat, "cards": bid.text, "trump": bid.suit, "late": True})]
        if self.options.late_overturn == "rebury":
            # 反主抄底: the overturner takes the buried 8 and buries 8 of their own choice
            self.hands[seat].extend(self.kitty)
            self.kitty = []
            self.rebury_seat = seat
            self.phase = "rebury"
            events.append(Event("kitty_taken", {"seat": seat}))
        else:
            self.late_index += 1
            events += self._after_late()
        return events, f"{seat} overturn {bid.text}"

    def _start_play(self) -> list[Event]:
        self.phase = "play"
        self.leader = self.dealer
        self.trick, self.trick_texts = [], []
        self.lead = None
        return [Event("play_start", {"leader": self.dealer, "trump": self.trump_suit, "level": self.level})]

    def _play(self, seat: int, cards: tuple[Card, ...]) -> tuple[list[Event], str]:
        ctx = self.ctx
        assert ctx is not None
        hand = self.hands[seat]
        if not _holds(hand, cards):
            raise RuleError(
                "not_in_hand", "You do not hold {card}", card=cards_text(ctx.sort_for_display(cards))
            )
        shown = tuple(ctx.sort_for_display(cards))
        shown_text = cards_text(shown)
        text = f"{seat} play {shown_text}"
        events: list[Event] = []
        if not self.trick:
            lead = classify_lead(ctx, shown, self.options.throws)
            if lead.kind == "throw":
                # D1: all three other hands (partner included), or only the opponents'
                seats = [(seat + i) % 4 for i in ((1, 2, 3) if self.options.throw_check_partner else (1, 3))]
                res = check_throw(ctx, lead, [self.hands[s] for s in seats])
                if res is not None:
                    return self._failed_throw(seat, lead, res, seats), text
            self.lead = lead
        else:
            assert self.lead is not None
            check_follow(ctx, self.lead, hand, shown)
        _remove(hand, shown)
        self.trick.append((seat, shown))
        self.trick_texts.append(shown_text)
        events.append(Event("play", {"seat": seat, "cards": shown_text}))
        if len(self.trick) == 4:
            events += self._finish_trick()
        return events, text

    def _failed_throw(self, seat: int, lead: Lead, res: ThrowResult, seats: list[int]) -> list[Event]:
        """甩牌失败: charge the thrower's side and play the forced unit (or let the opponents choose).

        The ``throw_failed`` event names who beats the forced unit (``holder``, a seat) and with what
        (``beating``, canonical text), and the forced unit (``unit``): "甩牌失败:李四有更大的 ♥K ♥K,
        改出 ♥Q ♥Q,罚 40 分".  When the opponents choose, ``unit`` / ``holder`` / ``beating`` are those of
        the default choice and ``throw_chosen`` repeats them for the unit chosen.  ``seats`` maps
        ``res``'s hand indexes to seats."""
        ctx = self.ctx
        assert ctx is not None
        pen = penalty(len(lead.cards), self.options.throw_penalty_per_card)

        def beaten_by(unit: Unit) -> dict[str, Any]:
            f = res.failure_of(unit)
            return {
                "holder": seats[f.holder],
                "beating": cards_text(ctx.sort_for_display(f.beating)),
                "unit": cards_text(ctx.sort_for_display(unit.cards)),
            }

        events = [
            Event(
                "throw_failed",
                {"seat": seat, "cards": cards_text(lead.cards), "penalty": pen, **beaten_by(res.forced)},
            )
        ]
        self._charge(seat, pen, "failed_throw", cards_text(lead.cards))
        choices = res.choices
        if self.options.failed_throw_choice == "opponents" and len(choices) > 1:
            # "pair" names the failing pair or tractor, "single" the failing single
            opts = {("single" if u.kind == "single" else "pair"): u for u in choices}
            forced = res.forced
            self.pending_choice = {
                "thrower": seat,
                "cards": cards_text(lead.cards),
                "options": sorted(opts),
                "units": {k: cards_text(u.cards) for k, u in opts.items()},
                "default": "single" if forced.kind == "single" else "pair",
                "beaten_by": {k: beaten_by(u) for k, u in opts.items()},
            }
            self.phase = "choose"
            events.append(Event("throw_choice", {"thrower": seat, "options": sorted(opts)}))
            return events
        return events + self._play_forced(seat, res.forced.cards)

    def _play_forced(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None
        unit_lead = classify_lead(ctx, cards, True)
        self.lead = unit_lead
        shown = tuple(ctx.sort_for_display(cards))
        shown_text = cards_text(shown)
        _remove(self.hands[seat], shown)
        self.trick.append((seat, shown))
        self.trick_texts.append(shown_text)
        return [Event("play", {"seat": seat, "cards": shown_text, "forced": True})]

    def _choose(self, seat: int, what: str) -> list[Event]:
        pc = self.pending_choice
        assert pc is not None and self.ctx is not None
        cards = tuple(parse_cards(pc["units"][what]))
        self.pending_choice = None
        self.phase = "play"
        by = pc.get("beaten_by", {}).get(what, {})
        events = [
            Event(
                "throw_chosen",
                {
                    "seat": seat,
                    "unit": what,
                    "cards": pc["units"][what],
                    "holder": by.get("holder"),
                    "beating": by.get("beating"),
                },
            )
        ]
        return events + self._play_forced(pc["thrower"], cards)

    def _charge(self, seat: int, pen: int, reason: str, detail: str) -> None:
        """D9: a charge is recorded; a defender's lowers the defenders' points, a dealer side's raises them."""
        assert self.dealer is not None
        signed = pen if _side(seat) == _side(self.dealer) else -pen
        entry: Charge = {
            "deal_no": self.deal_no,
            "seat": seat,
            "points": pen,
            "signed": signed,
            "reason": reason,
            "cards": detail,
        }
        self.charges.append(entry)
        self.penalties.append(entry)

    def _finish_trick(self) -> list[Event]:
        ctx = self.ctx
        assert ctx is not None and self.lead is not None and self.dealer is not None
        plays = [c for _, c in self.trick]
        idx = trick_winner(ctx, self.lead, plays)
        winner = self.trick[idx][0]
        pts = sum(total_points(c) for c in plays)
        defenders = _side(winner) != _side(self.dealer)
        if defenders:
            self.defender_points += pts
        self.tricks.append(
            {
                "leader": self.trick[0][0],
                "plays": [[s, t] for (s, _), t in zip(self.trick, self.trick_texts, strict=True)],
                "winner": winner,
                "points": pts,
            }
        )
        events = [Event("trick", {"winner": winner, "points": pts, "defenders": defenders})]
        last = not self.hands[winner]
        if last:
            if defenders:
                fmt, pairs = play_multiplier_format(ctx, self.lead, plays[idx])
                kp = total_points(self.kitty)
                cap, mult = kitty_capture(
                    self.options.kitty_multiplier,
                    kp,
                    fmt,
                    pairs,
                    winning_is_trump(ctx, plays[idx]),
                    self.options.offsuit_kitty_half,
                )
                self.capture = cap
                self.capture_multiplier = mult
                events.append(Event("kitty_capture", {"points": cap, "multiplier": mult, "kitty_points": kp}))
            return events + self._end_deal(None)
        self.leader = winner
        self.trick, self.trick_texts = [], []
        self.lead = None
        return events

    def defenders_total(self) -> int:
        """Defenders' points so far: tricks + kitty capture ± charges (may be below zero)."""
        return self.defender_points + self.capture + sum(int(c["signed"]) for c in self.charges)

    def _forfeit(self, seat: int) -> list[Event]:
        """``sys forfeit_deal <seat>`` (on_timeout = forfeit_deal): the deal ends as a loss for that side.

        A defender's forfeit scores the defenders 0 (dealer +3, 大光); a dealer-side forfeit gives the
        defenders at least the takeover threshold (their points so far if higher)."""
        assert self.dealer is not None
        if _side(seat) == _side(self.dealer):
            points = max(self.defenders_total(), takeover_threshold(self.options.level_table))
        else:
            points = 0
        self.pending_choice = None
        return [Event("forfeit", {"seat": seat})] + self._end_deal(points, forfeit=seat)

    def _end_deal(self, forced_points: int | None, forfeit: int | None = None) -> list[Event]:
        assert self.dealer is not None and self.level is not None
        points = self.defenders_total() if forced_points is None else forced_points
        old_dealer = self.dealer
        before = (self.levels[0], self.levels[1])
        st = settle_deal(self.options.level_table, before, self.dealer, points)
        summary: ShengjiDealSummary = {
            "deal_no": self.deal_no,
            "dealer": self.dealer,
            "level": self.level,
            "trump": self.trump_suit,
            "levels_before": list(before),
            "levels_after": list(st.levels),
            "points": points,
            "trick_points": self.defender_points,
            "capture": self.capture,
            "capture_multiplier": self.capture_multiplier,
            "charges": list(self.charges),
            "winner": _side(old_dealer) if st.winner == "dealer" else 1 - _side(old_dealer),
            "winner_role": st.winner,
            "steps": st.steps,
            "next_dealer": st.next_dealer,
            "kitty": cards_text(self.kitty),
            "forfeit": forfeit,
            "passed_a": st.passed_a,
        }
        self.deal_result = summary
        self.history.append(summary)
        self.deals_played += 1
        self.levels = [st.levels[0], st.levels[1]]
        self.dealer = st.next_dealer
        self.phase = "deal_over"
        events = [Event("deal_over", dict(summary))]
        o = self.options
        if st.passed_a and (o.passing_a_ends_match or not o.deals):
            # D3: passing A ends the match at once; with passing_a_ends_match = False and a deal limit the
            # side stays at A and play goes on (without a deal limit passing A still ends the match)
            events += self._end_match("passed_a", winner=_side(old_dealer))
        elif o.deals and self.deals_played >= o.deals:
            events += self._end_match("deals")
        elif self.time_up:
            events += self._end_match("time_up")
        return events

    def _end_match(
        self, reason: str, winner: int | None = None, abandoned_deal: int | None = None
    ) -> list[Event]:
        res: MatchResult = {
            "winner": 0,
            "reason": reason,
            "levels": list(self.levels),
            "deals": self.deals_played,
            "tie_break": None,
        }
        if abandoned_deal is not None:
            res["abandoned_deal"] = abandoned_deal
        if winner is None:
            if self.levels[0] != self.levels[1]:
                winner = 0 if self.levels[0] > self.levels[1] else 1
            elif self.options.tie_break == "dealer_side" and self.dealer is not None:
                winner = _side(self.dealer)
                res["tie_break"] = "dealer_side"
            else:
                winner, draws = self.cut()
                res["tie_break"] = "cut"
                res["cut"] = draws
        res["winner"] = winner
        self._result = res
        self.phase = "match_over"
        return [Event("match_over", dict(res))]

    def cut(self) -> tuple[int, list[list[str]]]:
        """搬点: each side draws a random card (from the seed), higher rank wins, redraw on equal."""
        draws: list[list[str]] = []
        attempt = 0
        while True:
            rng = rng_for(self.seed, "cut", attempt)
            a, b = rng.sample(full_deck(2), 2)
            draws.append([card_text(a), card_text(b)])
            if rank_of(a) != rank_of(b):
                return (0 if rank_of(a) > rank_of(b) else 1), draws
            attempt += 1


def bid_cards_text(cards: list[Card]) -> str:
    return cards_text(canonical_bid_cards(cards))
