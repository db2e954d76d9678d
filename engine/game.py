"""What both games offer the bot, storage and scheduler: one small interface.

A match is ``(game, options, seed, log)``.  The log is the ordered list of canonical
action texts; replaying it on a new match rebuilds the exact state.  Action text:

* a player's action starts with the seat number: ``"2 play ♥5 ♥5"``, ``"0 bid ♥2 BJ"``,
  ``"1 bury ♠3 ♠4 ..."``, ``"3 pass"``;
* the table's own steps start with ``sys``: ``"sys deal"`` (next card), ``"sys close_bidding"``,
  ``"sys next_deal"``, ``"sys time_up"`` (the match time limit passed: by default the deal in
  progress finishes, then the match ends; option ``time_up_finishes_deal``, decision D2).
  The engine never reads a clock.

``apply`` raises ``RuleError`` and leaves the state unchanged when an action is not allowed.
Views are JSON-able dicts with no card a seat may not see (``public_view``: no hidden card); their
shapes are the TypedDicts of ``engine.views``, the events' and results' those of ``engine.events``
(one vocabulary for both games).  docs/engine.md describes the whole interface.

This module is the protocol only: it imports no game.  ``engine.registry`` builds the matches
(``new_match``, ``replay``, ``options_class``, ``load_preset``); the games implement this protocol.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.cards import Card
from engine.events import DealSummary, Event, MatchResult
from engine.views import PublicView, SeatView

__all__ = [
    "RULES_VERSION",
    "SUPPORTED_RULES_VERSIONS",
    "DealtCards",
    "Event",
    "Match",
    "MatchOptions",
    "MatchResult",
    "Reading",
    "RulesVersionError",
    "TimedRules",
    "Turn",
    "check_rules_version",
    "computer_step",
    "state_fingerprint",
    "timeout_action",
]


RULES_VERSION = 1
"""The version of the rules this engine plays.  Bump it (and add the old number to
``SUPPORTED_RULES_VERSIONS`` only if the engine still replays it exactly) whenever a change would make
a stored action log replay differently: a rule, an option's meaning, a shuffle, the action texts.
Storage records it with each match; tests/fixtures/replays catch a change that forgot to bump it."""

SUPPORTED_RULES_VERSIONS = frozenset({RULES_VERSION})


class RulesVersionError(ValueError):
    """A stored match was played under a rules version this engine cannot replay."""

    def __init__(self, version: int) -> None:
        known = ", ".join(str(v) for v in sorted(SUPPORTED_RULES_VERSIONS))
        newer = (
            " (newer than this engine: run the release that started it)" if version > RULES_VERSION else ""
        )
        super().__init__(
            f"rules version {version} is not supported{newer}; this engine replays version {known}"
        )
        self.version = version


def check_rules_version(version: int) -> None:
    """RulesVersionError unless this engine replays matches of rules ``version`` exactly."""
    if version not in SUPPORTED_RULES_VERSIONS:
        raise RulesVersionError(version)


@dataclass(frozen=True)
class Turn:
    """A seat that may act now, what kind of action, and which move clock applies."""

    seat: int
    kind: str  # e.g. "bid", "kitty", "lead", "follow", "rebury", "overturn", "choose", "play", "tribute", "return"
    clock: str | None = (
        None  # the option naming its clock in seconds ("lead_clock"), None when no clock applies
    )
    required: bool = True  # False for optional actions (a bid during dealing)


class MatchOptions(Protocol):
    """What every game's options offer (``ShengjiOptions``, ``GuandanOptions``)."""

    @property
    def on_timeout(self) -> str:
        """What a move-clock expiry does (D6): "autoplay" or "forfeit_deal"."""

    @property
    def deals(self) -> int:
        """Deals in a match (0: no deal limit)."""

    @property
    def time_up_finishes_deal(self) -> bool:
        """D2: after ``sys time_up`` the deal in progress is played out."""


class Reading(Protocol):
    """One way to read a selection of cards (Guandan's wild cards: ``engine.guandan.combos.Combo``)."""

    def reading_id(self) -> str:
        """The id an action names with ``as <id>``."""

    @property
    def kind(self) -> str:
        """The combination's kind (``"pair"``, ``"bomb"``, ...)."""

    def label(self, level: int) -> str:
        """A short text naming the combination at ``level``."""


@dataclass(frozen=True)
class DealtCards:
    """The cards of the deal in progress as they were dealt (what a deal proof reveals and checks)."""

    hands: tuple[tuple[Card, ...], ...]  # the four hands as dealt, each sorted (before bury or tribute)
    kitty: tuple[Card, ...] = ()  # Shengji's bottom cards as dealt; Guandan: none
    first_drawer: int | None = None  # Shengji: the seat that drew the first card; Guandan: None


class Match(Protocol):
    """What the bot, storage and scheduler may use of a match (both games implement all of it)."""

    game: str
    seed: int
    log: list[str]

    @property
    def options(self) -> MatchOptions:
        """The match's rule options (a frozen dataclass of the game)."""

    @property
    def deal_no(self) -> int:
        """The deal in progress or last played (1-based; Guandan: 0 before the first ``sys next_deal``)."""

    @property
    def redeal_no(self) -> int:
        """How many times the deal in progress was dealt again (Shengji; Guandan: always 0)."""

    @property
    def history(self) -> Sequence[DealSummary]:
        """One summary per finished deal, in order (the ``deal_over`` event data)."""

    def apply(self, action: str) -> list[Event]:
        """Apply one action text; RuleError (state unchanged) when not allowed."""

    def turns(self) -> list[Turn]:
        """Who may act now (several seats while bids are possible; empty when the table itself moves)."""

    def clock_seconds(self, clock: str | None) -> int:
        """The seconds of the move clock a ``Turn.clock`` names (0: no clock)."""

    def system_step(self) -> str | None:
        """The table's next own action ("sys deal", "sys next_deal", ...) or None while waiting on players."""

    def auto_action(self, seat: int) -> str:
        """The action a move-clock expiry takes for ``seat`` with on_timeout = autoplay (the lowest legal
        play, a pass, ...)."""

    def timeout_action(self, seat: int) -> str:
        """The action a move-clock expiry takes for ``seat`` under the match's ``on_timeout`` option
        (``auto_action`` or ``sys forfeit_deal <seat>``)."""

    def ai_action(self, seat: int, rng: random.Random) -> str | None:
        """The computer player's action for ``seat`` now, or None when it has nothing to do."""

    def readings_for(self, seat: int, cards: Sequence[int]) -> Sequence[Reading]:
        """The readings of ``cards`` that ``seat`` may play now; more than one means the player must
        choose (``play ... as <reading id>``).  Shengji reads a play one way: always empty.
        Guandan: RuleError with the reason when ``cards`` cannot be played now."""

    def seat_view(self, seat: int) -> SeatView:
        """What ``seat`` may see: own hand, public table, legal options (engine.views)."""

    def public_view(self) -> PublicView:
        """What everybody may see: no hidden card (engine.views)."""

    @property
    def phase(self) -> str:
        """The phase of the deal ("dealing", "play", "deal_over", "match_over", ...; docs/engine.md)."""

    def hand(self, seat: int) -> Sequence[Card]:
        """The cards ``seat`` holds now (hidden from everybody else: never show them to another seat)."""

    def current_trick(self) -> Sequence[tuple[int, Sequence[Card]]]:
        """The plays of the trick in progress, in order: ``(seat, cards)`` (a Guandan pass: no cards)."""

    def forced_action(self, seat: int) -> str | None:
        """The action ``seat`` must take now when it has no choice at all (Shengji: its last card, or
        following with every card it holds when exactly that many were led); None otherwise, and always
        None in Guandan (a pass is always a choice).  The table may play it for the seat."""

    def dealt_cards(self) -> DealtCards | None:
        """The deal in progress's cards as dealt once every card is dealt (Shengji: after the 100th draw;
        Guandan: from ``sys next_deal``); None before."""

    @property
    def finished(self) -> bool:
        """True when the match is over."""

    def result(self) -> MatchResult | None:
        """The match result once finished: winner side (0 = seats 0/2, 1 = seats 1/3), levels, reason."""


class TimedRules(Protocol):
    """What ``timeout_action`` reads: a game's rules (``ShengjiRules``, ``GuandanRules``) or a match."""

    @property
    def options(self) -> MatchOptions: ...

    def auto_action(self, seat: int) -> str: ...


def timeout_action(match: TimedRules, seat: int) -> str:
    """``timeout_action`` for any match: ``sys forfeit_deal <seat>`` or the match's ``auto_action``."""
    if match.options.on_timeout == "forfeit_deal":
        return f"sys forfeit_deal {seat}"
    return match.auto_action(seat)


def computer_step(match: Match, rng: random.Random) -> str | None:
    """The next action of a table where the computer plays every seat (fixtures, tests, benchmarks).

    Any seat the computer player wants to act for (optional bids included), else the table's own step,
    else the move-clock action of the first seat due.  None once the match is over."""
    if match.finished:
        return None
    for turn in match.turns():
        action = match.ai_action(turn.seat, rng)
        if action is not None:
            return action
    step = match.system_step()
    if step is not None:
        return step
    due = [t for t in match.turns() if t.required]
    if not due:
        return "sys resume"  # a Shengji table paused after redeals: the referee resumes it
    return match.auto_action(due[0].seat)


def state_fingerprint(match: Match) -> str:
    """SHA-256 (hex) of everything a match shows: its log, the public view, the four seat views, the
    finished deals' summaries and the result (canonical JSON, sorted keys).  Two matches with equal
    fingerprints look the same to every player (replay fixtures compare these)."""
    state = {
        "log": list(match.log),
        "public": match.public_view(),
        "seats": [match.seat_view(seat) for seat in range(4)],
        "history": list(match.history),
        "finished": match.finished,
        "result": match.result(),
    }
    text = json.dumps(state, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
