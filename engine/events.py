"""What the engines hand to the other layers: events, deal summaries and match results.

One vocabulary for both games.  An :class:`Event` is ``(kind, data)``; ``data`` is a plain,
JSON-able dict whose shape is the TypedDict named for the kind below (TypedDicts are dicts at
run time: the bot reads ``event.data["seat"]`` as before, mypy checks the engines that build
them).  Names shared by both games:

============== ==============================================================================
kind           data
============== ==============================================================================
deal_started   :class:`DealStarted` — a new deal began (not sent for a match's first Shengji
               deal, which starts with the match; Guandan's first deal starts with
               ``sys next_deal`` and sends it)
deal_over      :class:`ShengjiDealSummary` / :class:`GuandanDealSummary` (both carry
               ``deal_no``, ``level``, ``forfeit``)
deal_abandoned :class:`DealAbandoned` — ``sys time_up`` stopped an unfinished deal (D2 off)
time_up        :class:`TimeUp`
match_over     :class:`MatchResult` (also what ``Match.result()`` returns)
play           :class:`Played` (a seat played cards)
forfeit        ``{"seat": int}``
============== ==============================================================================

The deal number is ``deal_no`` everywhere (events, summaries, charges).  Events stored before the
names were unified (November 2026) have Shengji's ``deal_start`` and the key ``deal``:
:func:`upgrade_event` maps a stored old event to the current names (``storage`` applies it to events
read back from the database; replays re-derive events from the actions and need nothing).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NotRequired, TypedDict


@dataclass(frozen=True)
class Event:
    """Something that happened, for announcements (the bot renders it; text never comes from here)."""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)


# --- kinds -------------------------------------------------------------------------------------

DEAL_STARTED = "deal_started"
DEAL_OVER = "deal_over"
DEAL_ABANDONED = "deal_abandoned"
TIME_UP = "time_up"
MATCH_OVER = "match_over"


# --- payloads ----------------------------------------------------------------------------------


class DealStarted(TypedDict):
    deal_no: int
    levels: list[int]
    dealer: NotRequired[int | None]  # Shengji: the dealer (None while grabbed)
    level: NotRequired[int]  # Guandan: the level played this deal


class TimeUp(TypedDict):
    deal_no: int  # the deal in progress (or the last one) when the match time ran out


class Charge(TypedDict):
    """A Shengji penalty charge (D9): ``signed`` is what it adds to the defenders' points."""

    deal_no: int
    seat: int
    points: int
    signed: int
    reason: str
    cards: str
    reversed: NotRequired[bool]
    abandoned: NotRequired[bool]


class DealAbandoned(TypedDict):
    deal_no: int
    phase: str
    charges: NotRequired[list[Charge]]  # Shengji: the charges of the abandoned deal (they count for nothing)


class Played(TypedDict):
    seat: int
    cards: str
    forced: NotRequired[bool]  # Shengji: the unit a failed throw forced
    kind: NotRequired[str]  # Guandan: the combination read (``Combo.kind``)
    reading: NotRequired[str]
    label: NotRequired[str]
    left: NotRequired[int]


class ShengjiDealSummary(TypedDict):
    """A finished Shengji deal (``deal_over`` data, ``history`` entries)."""

    deal_no: int
    dealer: int
    level: int
    trump: int | None
    levels_before: list[int]
    levels_after: list[int]
    points: int
    trick_points: int
    capture: int
    capture_multiplier: int
    charges: list[Charge]
    winner: int  # the side that won the deal (0 = seats 0/2)
    winner_role: str  # "dealer" / "defenders"
    steps: int
    next_dealer: int
    kitty: str
    forfeit: int | None
    passed_a: bool


class GuandanDealSummary(TypedDict):
    """A finished Guandan deal (``deal_over`` data, ``history`` entries)."""

    deal_no: int
    level: int
    order: list[int]
    result: str
    winner_side: int
    gain: int
    levels: list[int]
    reset_sides: list[int]
    forfeit: int | None


DealSummary = ShengjiDealSummary | GuandanDealSummary


class MatchResult(TypedDict):
    """The end of a match (``match_over`` data and ``Match.result()``)."""

    winner: int  # side 0 (seats 0/2) or 1 (seats 1/3)
    levels: list[int]
    reason: str  # "passed_a" / "a_rule" / "deals" / "time_up"
    deals: int  # deals that counted
    abandoned_deal: NotRequired[int]
    tie_break: NotRequired[str | None]  # Shengji: "dealer_side" / "cut" when levels were equal
    cut: NotRequired[list[list[str]]]  # Shengji: the cut's draws
    last_upstream: NotRequired[int | None]  # Guandan: 上游 of the last finished deal


# --- old stored events -------------------------------------------------------------------------

_OLD_KINDS = {"deal_start": DEAL_STARTED}
_DEAL_KEYED = {DEAL_STARTED, DEAL_OVER, DEAL_ABANDONED, TIME_UP, "charge_reversed"}


def upgrade_data(kind: str, data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` of a stored event of ``kind`` (already upgraded) with the current field names."""
    out = dict(data)
    if kind in _DEAL_KEYED and "deal" in out and "deal_no" not in out:
        out["deal_no"] = out.pop("deal")
    for key in ("charges",):
        if isinstance(out.get(key), list):
            out[key] = [upgrade_data("charge_reversed", c) if isinstance(c, Mapping) else c for c in out[key]]
    return out


def upgrade_event(kind: str, data: Mapping[str, Any]) -> Event:
    """A stored event (possibly written with the old names) in the current vocabulary."""
    new_kind = _OLD_KINDS.get(kind, kind)
    return Event(new_kind, upgrade_data(new_kind, data))
