"""The shapes of the views the engines hand to the bot: TypedDicts (plain JSON-able dicts at run time).

``Match.seat_view(seat)`` / ``Match.public_view()`` return, per game:

* Shengji: :class:`ShengjiSeatView` / :class:`ShengjiPublicView`, both built around the public
  :class:`ShengjiTable` under ``"table"``;
* Guandan: :class:`GuandanSeatView` (the public view plus the seat's hand and hint) /
  :class:`GuandanPublicView`.

Cards are canonical card text (``"♠10"``, ``"BJ"``).  No view holds a card its reader may not see
(docs/rules.md §1.4).  The protocol types them as :data:`SeatView` / :data:`PublicView` (read-only
mappings) so code for both games can pass them around; game-specific code may use the precise
types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NotRequired, TypedDict

from engine.events import Charge, GuandanDealSummary, MatchResult, ShengjiDealSummary

SeatView = Mapping[str, Any]
PublicView = Mapping[str, Any]


# --- Shengji ------------------------------------------------------------------------------------


class TurnView(TypedDict):
    seat: int
    kind: str
    clock: str | None
    required: NotRequired[bool]  # Shengji
    seconds: NotRequired[int | None]  # Guandan: the clock's seconds


class ShengjiPlayView(TypedDict):
    seat: int
    cards: str


class ShengjiTrickSummary(TypedDict):
    """A finished trick: its leader, every play as ``[seat, cards]``, the winner and its points."""

    leader: int
    plays: list[list[Any]]
    winner: int
    points: int


class ShengjiDeclaration(TypedDict):
    seat: int
    cards: str
    kind: str
    trump: int | None
    level: int
    locked: bool


class ShengjiBidEntry(TypedDict):
    seat: int
    cards: str
    kind: str


class ShengjiPendingChoice(TypedDict):
    thrower: int
    cards: str
    options: list[str]
    units: dict[str, str]


class ShengjiTable(TypedDict):
    """The public Shengji table: everything any seat or spectator may see."""

    game: str
    phase: str
    deal: int  # the deal number (``Match.deal_no``)
    redeal: int
    deals_played: int
    levels: list[int]
    dealer: int | None
    dealer_grabbed: bool
    first_drawer: int
    cards_dealt: int
    hand_sizes: list[int]
    level: int | None
    trump: int | None
    declaration: ShengjiDeclaration | None
    bids: list[ShengjiBidEntry]
    passed: list[int]
    turned_kitty: list[str]
    kitty_buried_by: int | None
    leader: int | None
    trick: list[ShengjiPlayView]
    winning: int | None  # the seat whose play wins the current trick so far
    last_trick: ShengjiTrickSummary | None
    tricks_played: int
    points: int
    point_cards: list[str]  # the point cards in the tricks the defenders have won (their ``points``)
    charges: list[Charge]
    defenders_total: int
    pending_choice: ShengjiPendingChoice | None
    turns: list[TurnView]
    paused: str | None
    time_up: bool
    last_deal: ShengjiDealSummary | None
    finished: bool
    result: MatchResult | None


class ShengjiPublicView(TypedDict):
    table: ShengjiTable


class ShengjiSeatView(TypedDict):
    seat: int
    hand: list[str]
    table: ShengjiTable
    legal_bids: list[str]
    my_turns: list[str]
    kitty: NotRequired[list[str]]  # only for whoever buried it, once buried


# --- Guandan ------------------------------------------------------------------------------------


class GuandanComboView(TypedDict):
    cards: str
    kind: str
    reading: str
    label: str
    bomb: bool


class GuandanTrickEntry(TypedDict):
    seat: int
    action: str  # "play" / "pass"
    play: GuandanComboView | None


class GuandanTributeView(TypedDict):
    kind: str
    upstream: int | None
    payers: list[int]
    paid: dict[str, str]
    receivers: dict[str, int]
    returned: list[int]
    leader: int | None
    my_return: NotRequired[dict[str, Any] | None]  # seat view only: the card this seat returned / got back


class GuandanPublicView(TypedDict):
    game: str
    phase: str
    deal_no: int
    level: int
    level_text: str
    levels: list[int]
    level_texts: list[str]
    a_failures: list[int]
    time_up: bool
    counts: list[int] | None
    counts_asked: dict[str, Any] | None
    turns: list[TurnView]
    finish_order: list[int]
    table: GuandanComboView | None
    trick: list[GuandanTrickEntry]
    last_trick: list[GuandanTrickEntry]
    leader: int | None
    tribute: GuandanTributeView | None
    last_deal: GuandanDealSummary | None
    result: MatchResult | None
    table_seat: NotRequired[int | None]
    jiefeng: NotRequired[bool]
    trick_no: NotRequired[int]


class GuandanHint(TypedDict):
    kind: str  # "lead" / "play" / "tribute" / "return"
    can_pass: NotRequired[bool]
    to_beat: NotRequired[GuandanComboView | None]
    must_lead: NotRequired[bool]
    choices: NotRequired[list[str]]
    to: NotRequired[int]


class GuandanSeatView(GuandanPublicView):
    seat: int
    hand: list[str]
    hand_size: int
    hint: GuandanHint | None
