"""A Guandan match: deals, tribute, play, levels and match end as text actions (engine.game.Match).

Actions (canonical text, what ``log`` holds):

* ``sys next_deal`` — shuffle and deal the next deal (the first one too); ``sys time_up`` — the match
  time limit passed: the deal in progress finishes, then the match ends (docs/rules.md 2.7, D2); with
  ``time_up_finishes_deal = False`` the match ends at once and the unfinished deal does not count
  (levels as after the last finished deal, ties to the last finished deal's 上游) — except in the
  first deal, which is always played out, as no deal has decided anything yet;
  ``sys forfeit_deal <seat>`` — a move clock expired with on_timeout = forfeit_deal: the deal ends
  as a loss for that seat's side (the opponents count as 上游 + 二游, +3);
* ``<seat> tribute <card>`` / ``<seat> return <card>`` — pay / return tribute (docs/rules.md 2.6, D8);
* ``<seat> play <cards>`` or ``<seat> play <cards> as <reading id>`` — when the selection has
  more than one reading that may be played now the reading must be named
  (``Combo.reading_id()``, e.g. ``sf9.5``; RuleError ``choose_reading`` lists them); the log
  always names the reading when there was a choice;
* ``<seat> pass`` — 过 (not when leading);
* ``<seat> ask_counts`` — ask the card counts (不问不报, docs/rules.md 2.4).  The answer is a *public*
  event (asking happens aloud at the table): each other player's count when it is 10 or
  fewer, ``"more_than_10"`` otherwise.  Any seat may ask at any time during play.

Move clocks (D10): ``turns()`` names the clock option of each turn (``play_clock``,
``tribute_clock``, ``return_clock``) when that option is above 0; the option value is the
number of seconds.  The bot/scheduler starts the clock when the turn appears, and on expiry
applies ``auto_action(seat)`` (on_timeout = autoplay): pass when allowed, else the lowest
legal play; the lowest allowed tribute / return card; with on_timeout = forfeit_deal it applies
``sys forfeit_deal <seat>`` instead.  Organisers turning clocks on should
use 20 / 15 / 30 seconds (D10).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from typing import Any

from engine.cards import card_text, cards_text, parse_cards
from engine.errors import RuleError
from engine.events import (
    DEAL_ABANDONED,
    DEAL_STARTED,
    TIME_UP,
    DealAbandoned,
    DealStarted,
    Event,
    GuandanDealSummary,
    MatchResult,
    TimeUp,
)
from engine.game import DealtCards, Turn, timeout_action
from engine.guandan.combos import KINDS, Combo, classify_or_error, find_reading, playable_readings
from engine.guandan.deal import DealPlay, deal_hands, first_leader
from engine.guandan.enumerate import lowest_play
from engine.guandan.levels import LevelChange, level_change, side_of, time_winner
from engine.guandan.options import GuandanOptions
from engine.guandan.tribute import (
    TributePlan,
    assign_double,
    check_return,
    check_tribute,
    plan_tribute,
    return_choices,
    tribute_choices,
)

PHASES = ("new", "tribute", "return", "play", "deal_over", "over")
CLOCKS = ("play_clock", "tribute_clock", "return_clock")
_READING_RE = re.compile(r"^(?:[a-z]{1,2}\d+\.\d+|" + "|".join(KINDS) + r")$")


def counts_answer(count: int) -> int | str:
    """What a player must answer when asked their count: the number when 10 or fewer (docs/rules.md 2.4)."""
    return count if count <= 10 else "more_than_10"


class GuandanRules:
    """The rules of one Guandan match between side 0 (seats 0/2) and side 1 (seats 1/3): its state and every
    action (the views and the computer player read it: ``engine.guandan.game.GuandanMatch``)."""

    game = "guandan"

    def __init__(self, options: GuandanOptions, seed: int) -> None:
        self.options = options
        self.seed = seed
        self.log: list[str] = []
        self.levels: list[int] = [options.start_level, options.start_level]
        self.a_failures: list[int] = [0, 0]
        self.deal_no = 0
        self.redeal_no = 0  # Guandan never deals again (the Match protocol asks)
        self.phase = "new"
        self.deal_level = options.start_level
        self.hands: list[list[int]] = [[], [], [], []]
        self.play: DealPlay | None = None
        self.prev_order: list[int] = []
        self.last_upstream: int | None = None
        self.time_up = False
        self.tribute: TributePlan | None = None
        self.tribute_paid: dict[int, int] = {}  # payer -> card
        self.tribute_to: dict[int, int] = {}  # payer -> receiver
        self.returns_due: dict[int, int] = {}  # receiver -> payer, still to return
        self.returned: dict[int, int] = {}  # receiver -> card returned
        self.lead_after_tribute: int | None = None
        self.last_change: LevelChange | None = None
        self.history: list[GuandanDealSummary] = []  # one summary per finished deal
        self.counts_asked: dict[str, Any] | None = None
        self.plays: list[tuple[int, int, str, Combo | None]] = []  # (trick no, seat, action, combo) this deal
        self._result: MatchResult | None = None

    # --- the Match protocol ---------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.phase == "over"

    def result(self) -> MatchResult | None:
        return self._result

    def turns(self) -> list[Turn]:
        o = self.options
        if self.phase == "play" and self.play is not None and not self.play.over:
            kind = "lead" if self.play.to_beat is None else "play"
            return [Turn(self.play.turn, kind, "play_clock" if o.play_clock else None)]
        if self.phase == "tribute" and self.tribute is not None:
            return [
                Turn(p, "tribute", "tribute_clock" if o.tribute_clock else None)
                for p in self.tribute.payers
                if p not in self.tribute_paid
            ]
        if self.phase == "return":
            return [
                Turn(r, "return", "return_clock" if o.return_clock else None)
                for r in sorted(self.returns_due)
            ]
        return []

    def system_step(self) -> str | None:
        if self.phase in ("new", "deal_over"):
            return "sys next_deal"
        return None

    def apply(self, action: str) -> list[Event]:
        text = " ".join(action.split())
        head, _, rest = text.partition(" ")
        if head == "sys":
            events, canonical = self._apply_sys(rest)
        else:
            if not head.isdigit() or not 0 <= int(head) <= 3:
                raise RuleError("bad_action", "Not an action: {action}", action=action)
            events, canonical = self._apply_seat(int(head), rest)
        self.log.append(canonical)
        return events

    def auto_action(self, seat: int) -> str:
        """What a move-clock expiry does for ``seat``: pass when allowed, else the lowest legal play;
        the lowest allowed tribute / return card."""
        if self.phase == "play" and self.play is not None and self.play.turn == seat:
            if self.play.to_beat is not None:
                return f"{seat} pass"
            combo = lowest_play(self.hands[seat], self.deal_level, None)
            if combo is None:  # pragma: no cover - a leader always holds a single
                raise RuleError("no_play", "No legal play")
            return self.play_text(seat, combo)
        if (
            self.phase == "tribute"
            and self.tribute is not None
            and seat in self.tribute.payers
            and seat not in self.tribute_paid
        ):
            return f"{seat} tribute {card_text(tribute_choices(self.hands[seat], self.deal_level)[0])}"
        if self.phase == "return" and seat in self.returns_due:
            return f"{seat} return {card_text(self.return_choices(seat)[0])}"
        raise RuleError("not_your_turn", "Seat {seat} has nothing to do now", seat=seat)

    def timeout_action(self, seat: int) -> str:
        return timeout_action(self, seat)

    def clock_seconds(self, clock: str | None) -> int:
        return int(getattr(self.options, clock)) if clock in CLOCKS else 0

    def hand(self, seat: int) -> list[int]:
        return self.hands[seat]

    def current_trick(self) -> list[tuple[int, tuple[int, ...]]]:
        if self.play is None:
            return []
        return [(e.seat, () if e.combo is None else tuple(e.combo.cards)) for e in self.play.trick]

    def forced_action(self, seat: int) -> str | None:
        """Never: a Guandan player may always pass or choose which combination to lead."""
        return None

    def dealt_cards(self) -> DealtCards | None:
        if self.deal_no == 0:
            return None
        return DealtCards(
            tuple(tuple(h) for h in deal_hands(self.seed, self.deal_no, self.options.board_turn))
        )

    # --- helpers for the bot and the computer player -------------------------------------
    def play_text(self, seat: int, combo: Combo) -> str:
        """The action text playing ``combo`` now (names the reading when the cards have several)."""
        to_beat = self.play.to_beat if self.play is not None else None
        options = playable_readings(combo.cards, self.deal_level, to_beat)
        text = f"{seat} play {cards_text(combo.cards)}"
        if len(options) > 1:
            text += f" as {combo.reading_id()}"
        return text

    def readings_for(self, seat: int, cards: Sequence[int]) -> list[Combo]:
        """The readings of ``cards`` that ``seat`` may play now (RuleError with the reason when none)."""
        play = self._need_play()
        play.check_turn(seat)
        options = playable_readings(cards, self.deal_level, play.to_beat)
        if not options:
            classify_or_error(cards, self.deal_level)
            assert play.to_beat is not None
            raise RuleError(
                "does_not_beat",
                "{cards} does not beat {table}",
                cards=cards_text(cards),
                table=play.to_beat.label(self.deal_level),
            )
        return options

    def counts(self) -> list[int]:
        return [len(h) for h in self.hands]

    def return_choices(self, seat: int) -> list[int]:
        """The cards ``seat`` may return now: rank ``return_max_rank`` or lower, else their lowest (D8)."""
        return return_choices(self.hands[seat], self.deal_level, self.options.return_max_rank)

    def tribute_to_payer(self, receiver: int) -> int:
        """The payer whose tribute ``receiver`` got (-1 when none)."""
        for payer, r in self.tribute_to.items():
            if r == receiver:
                return payer
        return -1

    # --- system actions -----------------------------------------------------------------
    def _apply_sys(self, rest: str) -> tuple[list[Event], str]:
        if self.phase == "over":
            raise RuleError("match_over", "The match is over")
        if rest == "next_deal":
            if self.phase not in ("new", "deal_over"):
                raise RuleError("deal_in_progress", "The deal in progress is not finished")
            return self._start_deal(), "sys next_deal"
        if rest == "time_up":
            if self.time_up:
                raise RuleError("time_already_up", "The match time is already up")
            self.time_up = True
            up: TimeUp = {"deal_no": self.deal_no}
            events = [Event(TIME_UP, dict(up))]
            if self.phase == "deal_over":
                events += self._end_match("time_up")
            elif not self.options.time_up_finishes_deal and self.history:
                # D2 off: the deal in progress stops and does not count
                abandoned: DealAbandoned = {"deal_no": self.deal_no, "phase": self.phase}
                events.append(Event(DEAL_ABANDONED, dict(abandoned)))
                if self.play is not None:
                    self.play.over = True
                    self.play.turn = -1
                events += self._end_match("time_up", abandoned_deal=self.deal_no)
            return events, "sys time_up"
        verb, _, arg = rest.partition(" ")
        if verb == "forfeit_deal":
            if not (arg.isdigit() and 0 <= int(arg) <= 3):
                raise RuleError("bad_action", "Not an action: {action}", action="sys " + rest)
            if self.phase not in ("tribute", "return", "play"):
                raise RuleError("no_deal_to_forfeit", "No deal is in progress")
            return self._forfeit(int(arg)), f"sys forfeit_deal {arg}"
        raise RuleError("bad_action", "Not an action: {action}", action="sys " + rest)

    def _forfeit(self, seat: int) -> list[Event]:
        """``sys forfeit_deal <seat>`` (on_timeout = forfeit_deal): the deal ends as a loss for that side.

        The opponents are recorded as 上游 and 二游 (an opponent already out first, else the forfeiting
        seat's next), so they go up 3 and the forfeiting side pays a double-down tribute next deal."""
        done = self.play.finish_order if self.play is not None else []
        opponents = [(seat + 1) % 4, (seat + 3) % 4]
        first = next((s for s in done if s in opponents), opponents[0])
        order = [first, (first + 2) % 4]
        if self.play is not None:
            self.play.over = True
            self.play.turn = -1
        return [Event("forfeit", {"seat": seat})] + self._end_deal(order, forfeit=seat)

    def _start_deal(self) -> list[Event]:
        self.deal_no += 1
        if self.deal_no > 1 and self.last_upstream is not None:
            self.deal_level = self.levels[side_of(self.last_upstream)]
        else:
            self.deal_level = self.options.start_level
        self.hands = deal_hands(self.seed, self.deal_no, self.options.board_turn)
        self.tribute_paid, self.tribute_to, self.returns_due, self.returned = {}, {}, {}, {}
        self.counts_asked = None
        self.plays = []
        self.play = None
        started: DealStarted = {
            "deal_no": self.deal_no,
            "level": self.deal_level,
            "levels": list(self.levels),
        }
        events = [Event(DEAL_STARTED, dict(started))]
        if self.deal_no == 1 or not self.prev_order:
            self.tribute = None
            leader = first_leader(self.seed, self.options.board_turn)
            events.append(Event("first_leader", {"seat": leader}))
            self._start_play(leader)
            return events
        plan = plan_tribute(self.prev_order, self.hands, self.options.tribute_on_one_four)
        self.tribute = plan
        events.append(
            Event(
                "tribute_plan",
                {
                    "kind": plan.kind,
                    "payers": list(plan.payers),
                    "upstream": plan.upstream,
                    "result": plan.result,
                },
            )
        )
        if plan.kind in ("none", "anti"):
            assert plan.leader is not None
            self._start_play(plan.leader)
        else:
            self.phase = "tribute"
            self.tribute_to = dict(plan.receivers)
            self.lead_after_tribute = plan.leader
        return events

    def _start_play(self, leader: int) -> None:
        self.phase = "play"
        self.play = DealPlay(self.deal_level, self.hands, leader)

    # --- seat actions -------------------------------------------------------------------
    def _apply_seat(self, seat: int, rest: str) -> tuple[list[Event], str]:
        verb, _, arg = rest.partition(" ")
        if self.phase == "over":
            raise RuleError("match_over", "The match is over")
        if verb == "play":
            return self._do_play(seat, arg)
        if verb == "pass":
            if arg:
                raise RuleError("bad_action", "Not an action: {action}", action=f"{seat} {rest}")
            play = self._need_play()
            play.pass_turn(seat)
            self.plays.append((self._trick_of_last(play), seat, "pass", None))
            events = [Event("pass", {"seat": seat})]
            if play.trick == [] and play.to_beat is None:
                events.append(Event("new_lead", {"seat": play.leader, "jiefeng": play.jiefeng}))
            return events, f"{seat} pass"
        if verb == "tribute":
            return self._do_tribute(seat, arg)
        if verb == "return":
            return self._do_return(seat, arg)
        if verb == "ask_counts":
            self._need_play()
            answer = {str(s): counts_answer(len(self.hands[s])) for s in range(4) if s != seat}
            self.counts_asked = {"by": seat, "answer": answer}
            return [Event("counts", {"by": seat, "answer": answer})], f"{seat} ask_counts"
        raise RuleError("bad_action", "Not an action: {action}", action=f"{seat} {rest}")

    def _trick_of_last(self, play: DealPlay) -> int:
        return play.trick_no - (1 if not play.trick else 0)

    def _need_play(self) -> DealPlay:
        if self.phase != "play" or self.play is None:
            raise RuleError("not_playing", "Nobody plays now")
        return self.play

    def _do_play(self, seat: int, arg: str) -> tuple[list[Event], str]:
        self._need_play()
        cards_part, sep, reading = arg.rpartition(" as ")
        if not sep or not _READING_RE.match(reading.strip()):
            cards_part, sep, reading = arg, "", ""  # "as" may be the ace of spades ("ks as qs")
        cards = parse_cards(cards_part)
        options = self.readings_for(seat, cards)
        if sep:
            combo = find_reading(options, reading.strip())
            if combo is None:
                raise RuleError(
                    "unknown_reading",
                    "{cards} cannot be played as {reading}; readings: {readings}",
                    cards=cards_text(cards),
                    reading=reading.strip(),
                    readings=" / ".join(c.reading_id() for c in options),
                )
        elif len(options) > 1:
            raise RuleError(
                "choose_reading",
                "Choose how to play {cards}: {readings}",
                cards=cards_text(cards),
                readings=" / ".join(c.reading_id() for c in options),
                labels=" / ".join(c.label(self.deal_level) for c in options),
            )
        else:
            combo = options[0]
        canonical = f"{seat} play {cards_text(combo.cards)}"
        if len(options) > 1:
            canonical += f" as {combo.reading_id()}"
        return self.play_combo(seat, combo), canonical

    def play_combo(self, seat: int, combo: Combo) -> list[Event]:
        """Play an already-read ``combo`` (checked); used by ``apply`` and the benchmarks.

        Does not write the log: ``apply`` does."""
        play = self._need_play()
        trick = play.trick_no
        ended = play.play(seat, combo)
        self.plays.append((trick, seat, "play", combo))
        events = [
            Event(
                "play",
                {
                    "seat": seat,
                    "cards": cards_text(combo.cards),
                    "kind": combo.kind,
                    "reading": combo.reading_id(),
                    "label": combo.label(self.deal_level),
                    "left": len(self.hands[seat]),
                },
            )
        ]
        if not self.hands[seat]:
            events.append(Event("finished", {"seat": seat, "place": len(play.finish_order)}))
        if ended:
            events += self._end_deal()
        return events

    def _do_tribute(self, seat: int, arg: str) -> tuple[list[Event], str]:
        plan = self.tribute
        if self.phase != "tribute" or plan is None:
            raise RuleError("no_tribute_now", "No tribute is due now")
        if seat not in plan.payers or seat in self.tribute_paid:
            raise RuleError("not_a_payer", "Seat {seat} pays no tribute now", seat=seat)
        cards = parse_cards(arg)
        if len(cards) != 1:
            raise RuleError("one_card", "Give exactly one card")
        c = cards[0]
        check_tribute(self.hands[seat], self.deal_level, c)
        self.hands[seat].remove(c)
        self.tribute_paid[seat] = c
        events = [Event("tribute_paid", {"seat": seat, "card": card_text(c)})]
        if len(self.tribute_paid) == len(plan.payers):
            if plan.kind == "double":
                pairs, leader = assign_double(plan.upstream, self.tribute_paid, self.deal_level)
                self.tribute_to = dict(pairs)
                self.lead_after_tribute = leader
            for payer, receiver in self.tribute_to.items():
                bisect.insort(self.hands[receiver], self.tribute_paid[payer])
                self.returns_due[receiver] = payer
                events.append(
                    Event(
                        "tribute_received",
                        {"payer": payer, "receiver": receiver, "card": card_text(self.tribute_paid[payer])},
                    )
                )
            self.phase = "return"
        return events, f"{seat} tribute {card_text(c)}"

    def _do_return(self, seat: int, arg: str) -> tuple[list[Event], str]:
        if self.phase != "return" or seat not in self.returns_due:
            raise RuleError("no_return_now", "Seat {seat} returns no card now", seat=seat)
        cards = parse_cards(arg)
        if len(cards) != 1:
            raise RuleError("one_card", "Give exactly one card")
        c = cards[0]
        check_return(self.hands[seat], self.deal_level, c, self.options.return_max_rank)
        payer = self.returns_due.pop(seat)
        self.hands[seat].remove(c)
        bisect.insort(self.hands[payer], c)
        self.returned[seat] = c
        # the returned card is private to the two players: the public event names no card
        events = [Event("tribute_returned", {"seat": seat, "to": payer})]
        if not self.returns_due:
            assert self.lead_after_tribute is not None
            self._start_play(self.lead_after_tribute)
            events.append(Event("new_lead", {"seat": self.lead_after_tribute, "jiefeng": False}))
        return events, f"{seat} return {card_text(c)}"

    # --- end of a deal and of the match ---------------------------------------------------
    def _end_deal(self, order: list[int] | None = None, forfeit: int | None = None) -> list[Event]:
        if order is None:
            order = list(self._need_play().finish_order)
        change = level_change(
            self.levels, self.deal_level, order, self.a_failures, self.options.a_failures_reset
        )
        self.last_change = change
        self.levels = list(change.levels_after)
        self.a_failures = list(change.a_failures)
        self.prev_order = order
        self.last_upstream = order[0]
        summary: GuandanDealSummary = {
            "deal_no": self.deal_no,
            "level": self.deal_level,
            "order": order,
            "result": change.result,
            "winner_side": change.winner_side,
            "gain": change.gain,
            "levels": list(self.levels),
            "reset_sides": list(change.reset_sides),
            "forfeit": forfeit,
        }
        self.history.append(summary)
        self.phase = "deal_over"
        events = [Event("deal_over", dict(summary))]
        if change.match_winner is not None:
            events += self._end_match("a_rule", change.match_winner)
        elif self.options.deals and self.deal_no >= self.options.deals:
            events += self._end_match("deals")
        elif self.time_up:
            events += self._end_match("time_up")
        return events

    def _end_match(
        self, reason: str, winner: int | None = None, abandoned_deal: int | None = None
    ) -> list[Event]:
        if winner is None:
            winner = time_winner(self.levels, self.last_upstream if self.last_upstream is not None else 0)
        self.phase = "over"
        result: MatchResult = {
            "winner": winner,
            "levels": list(self.levels),
            "reason": reason,
            "deals": self.deal_no if abandoned_deal is None else len(self.history),
            "last_upstream": self.last_upstream,
        }
        if abandoned_deal is not None:
            result["abandoned_deal"] = abandoned_deal
        self._result = result
        return [Event("match_over", dict(result))]
