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
Views are JSON-able dicts with no card a seat may not see (``public_view``: no hidden card).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Protocol


@dataclass(frozen=True)
class Turn:
    """A seat that may act now, what kind of action, and which move clock applies."""

    seat: int
    kind: str  # e.g. "bid", "kitty", "lead", "follow", "rebury", "overturn", "choose", "play", "tribute", "return"
    clock: str | None = None  # the option naming its clock in seconds ("lead_clock"), None when no clock applies
    required: bool = True  # False for optional actions (a bid during dealing)


@dataclass(frozen=True)
class Event:
    """Something that happened, for announcements (the bot renders it; text never comes from here)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


class Match(Protocol):
    game: str
    options: Any
    seed: int
    log: list[str]

    def apply(self, action: str) -> list[Event]:
        """Apply one action text; RuleError (state unchanged) when not allowed."""

    def turns(self) -> list[Turn]:
        """Who may act now (several seats while bids are possible; empty when the table itself moves)."""

    def system_step(self) -> str | None:
        """The table's next own action ("sys deal", "sys next_deal", ...) or None while waiting on players."""

    def auto_action(self, seat: int) -> str:
        """The action a move-clock expiry takes for ``seat`` (the lowest legal play, a pass, ...)."""

    def ai_action(self, seat: int, rng: random.Random) -> str | None:
        """The computer player's action for ``seat`` now, or None when it has nothing to do."""

    def seat_view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may see: own hand, public table, legal options."""

    def public_view(self) -> dict[str, Any]:
        """What everybody may see: no hidden card."""

    @property
    def finished(self) -> bool:
        """True when the match is over."""

    def result(self) -> dict[str, Any] | None:
        """The match result once finished: winner side (0 = seats 0/2, 1 = seats 1/3), levels, reason."""


def new_match(game: str, options: Any, seed: int) -> Match:
    """A new match of ``game`` ("shengji" or "guandan")."""
    if game == "shengji":
        from engine.shengji.match import ShengjiMatch
        return ShengjiMatch(options, seed)
    if game == "guandan":
        from engine.guandan.match import GuandanMatch
        return GuandanMatch(options, seed)
    raise ValueError(f"unknown game {game!r}")


def replay(game: str, options: Any, seed: int, log: list[str]) -> Match:
    """The match rebuilt from its log (raises if an entry no longer applies)."""
    match = new_match(game, options, seed)
    for action in log:
        match.apply(action)
    return match
