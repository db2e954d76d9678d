"""One Guandan deal: shuffle, 27 cards each, the play flow (docs/rules.md 2.1 and 2.4).

``deal_hands`` shuffles 108 cards from ``rng_for(seed, "deal", deal_no)``; ``first_leader``
draws a random card of that deck (``rng_for(seed, "first_lead")``): its holder leads the
first deal.  ``DealPlay`` runs the play: lead, beat or pass, a new lead when everyone
else has passed, the finishing order (上游/二游/三游/末游), 接风, and the end of the deal.
It takes ``Combo`` values (already read by ``combos``); text parsing lives in ``match``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.cards import full_deck
from engine.errors import RuleError
from engine.guandan.combos import Combo, beats
from engine.guandan.levels import partner_of
from engine.rng import rng_for

HAND_SIZE = 27


def deal_hands(seed: int, deal_no: int, turn: int = 0) -> list[list[int]]:
    """The four 27-card hands of deal ``deal_no`` (1-based), each sorted by kind; a duplicate board
    (option ``board_turn``) turns them: seat ``s`` gets quarter ``(s - turn) % 4`` of the deck."""
    deck = full_deck(2)
    rng_for(seed, "deal", deal_no).shuffle(deck)
    quarters = [sorted(deck[q * HAND_SIZE : (q + 1) * HAND_SIZE]) for q in range(4)]
    turn = max(turn, 0)
    return [quarters[(s - turn) % 4] for s in range(4)]


def first_leader(seed: int, turn: int = 0) -> int:
    """The seat holding the randomly drawn card of the first deal (docs/rules.md 2.6: 抽随机牌); on a
    turned duplicate board the seat now holding that card."""
    return (rng_for(seed, "first_lead").randrange(4 * HAND_SIZE) // HAND_SIZE + max(turn, 0)) % 4


@dataclass
class TrickEntry:
    seat: int
    combo: Combo | None  # None: a pass


@dataclass
class DealPlay:
    """The play of one deal at ``level`` starting with ``leader`` on the lead."""

    level: int
    hands: list[list[int]]
    leader: int
    turn: int = -1
    to_beat: Combo | None = None
    last_seat: int = -1  # seat of ``to_beat``
    passes: int = 0
    finish_order: list[int] = field(default_factory=list)
    trick: list[TrickEntry] = field(default_factory=list)
    last_trick: list[TrickEntry] = field(default_factory=list)
    trick_no: int = 1
    over: bool = False
    jiefeng: bool = False  # the current lead came by 接风

    def __post_init__(self) -> None:
        if self.turn < 0:
            self.turn = self.leader

    # --- queries ------------------------------------------------------------------------
    def active(self, seat: int) -> bool:
        return bool(self.hands[seat])

    def can_pass(self, seat: int) -> bool:
        return not self.over and seat == self.turn and self.to_beat is not None

    def counts(self) -> list[int]:
        return [len(h) for h in self.hands]

    def _next_active(self, seat: int) -> int:
        for k in range(1, 5):
            s = (seat + k) % 4
            if self.hands[s]:
                return s
        return seat

    # --- actions ------------------------------------------------------------------------
    def check_turn(self, seat: int) -> None:
        if self.over:
            raise RuleError("deal_over", "The deal is over")
        if seat != self.turn:
            raise RuleError("not_your_turn", "It is not your turn: seat {turn} plays", turn=self.turn)

    def check_play(self, seat: int, combo: Combo) -> None:
        """RuleError unless ``seat`` may play ``combo`` now (turn, cards held, beats the table)."""
        self.check_turn(seat)
        hand = self.hands[seat]
        need: dict[int, int] = {}
        for c in combo.cards:
            need[c] = need.get(c, 0) + 1
        for c, n in need.items():
            if hand.count(c) < n:
                from engine.cards import card_text

                raise RuleError("not_in_hand", "You do not hold {card}", card=card_text(c))
        if self.to_beat is not None and not beats(combo, self.to_beat):
            raise RuleError(
                "does_not_beat",
                "{cards} does not beat {table}",
                cards=combo.to_text(),
                table=self.to_beat.to_text(),
            )

    def play(self, seat: int, combo: Combo) -> bool:
        """Play ``combo`` (checked); True when it ended the deal."""
        self.check_play(seat, combo)
        hand = self.hands[seat]
        for c in combo.cards:
            hand.remove(c)
        self.trick.append(TrickEntry(seat, combo))
        self.to_beat = combo
        self.last_seat = seat
        self.passes = 0
        if not hand:
            self.finish_order.append(seat)
            if len(self.finish_order) >= 3 or partner_of(seat) in self.finish_order:
                self.over = True
                self.turn = -1
                return True
        self.turn = self._next_active(seat)
        return False

    def pass_turn(self, seat: int) -> None:
        """Pass (过); not allowed when leading."""
        self.check_turn(seat)
        if self.to_beat is None:
            raise RuleError("must_lead", "You lead: play any combination (passing is not allowed)")
        self.trick.append(TrickEntry(seat, None))
        self.passes += 1
        nxt = self._next_active(seat)
        last = self.last_seat
        if self.hands[last]:
            if nxt == last:
                self._new_trick(last, jiefeng=False)
                return
        elif self.passes >= sum(1 for h in self.hands if h):
            self._new_trick(partner_of(last), jiefeng=True)  # 接风 (docs/rules.md 2.4)
            return
        self.turn = nxt

    def _new_trick(self, leader: int, jiefeng: bool) -> None:
        self.last_trick = self.trick
        self.trick = []
        self.trick_no += 1
        self.to_beat = None
        self.last_seat = -1
        self.passes = 0
        self.leader = leader
        self.turn = leader
        self.jiefeng = jiefeng


def cards_in_play(play: DealPlay) -> int:
    return sum(len(h) for h in play.hands)


def holds(hand: Sequence[int], cards: Sequence[int]) -> bool:
    need: dict[int, int] = {}
    for c in cards:
        need[c] = need.get(c, 0) + 1
    return all(hand.count(c) >= n for c, n in need.items())
