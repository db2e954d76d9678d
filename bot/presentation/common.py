"""The text every game's presenter shares: seats, sides, ranks, cards, the players line, whose turn it
is, a trick, a clock.  Game-specific text is in ``bot.presentation.games``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import lru_cache
from typing import Any
from zoneinfo import ZoneInfo

from bot.presentation.i18n import cards as tcards
from bot.presentation.i18n import t
from engine.cards import SUIT_SYMBOLS, parse_cards
from engine.views import PublicView, SeatView

SCREEN_TZ = ZoneInfo("Asia/Shanghai")  # time is UTC inside, China time on screen
SEATS = {"zh": ("南", "东", "北", "西"), "en": ("S", "E", "N", "W")}
SIDES = {"zh": ("南北", "东西"), "en": ("N-S", "E-W")}
RANKS_TEXT = {11: "J", 12: "Q", 13: "K", 14: "A"}

# a trick's entry as a view gives it: a Shengji ``{"seat", "cards"}`` (or ``[seat, cards]`` in a finished
# trick), a Guandan ``{"seat", "action", "play"}``
TrickEntry = PublicView | Sequence[object]
EntryText = Callable[[str, PublicView], str]
EventData = Mapping[str, Any]  # an engine event's data (``engine.events.Event.data``)


def seat_name(lang: str, seat: int) -> str:
    return SEATS[lang][seat % 4]


def side_name(lang: str, side: int) -> str:
    return SIDES[lang][side % 2]


def rank_text(r: int | None) -> str:
    if r is None:
        return "?"
    return RANKS_TEXT.get(r, str(r))


def ctext(lang: str, text: str | None) -> str:
    return tcards(lang, text or "")


def suit_text(suit: int | str | None) -> str:
    if suit is None:
        return "?"
    if isinstance(suit, int):
        return SUIT_SYMBOLS[suit] if 0 <= suit < 4 else "NT"
    return str(suit)


def who(lang: str, names: Sequence[str], seat: int) -> str:
    return f"{seat_name(lang, seat)} {names[seat]}"


def finishes_deal(options: Mapping[str, object] | None) -> bool:
    """D2: the option ``time_up_finishes_deal`` (default True): is the deal in progress played out at time-up?"""
    return bool((options or {}).get("time_up_finishes_deal", True))


def public_part(view: PublicView) -> PublicView:
    """The public part of a view (``public_view``, or the table inside a Shengji ``seat_view``)."""
    table = view.get("table")
    if isinstance(table, dict) and "phase" in table:
        return table
    return view


def parse_hand(view: SeatView) -> list[int]:
    """A seat view's hand as card codes."""
    hand = view.get("hand") or []
    if isinstance(hand, str):
        return parse_cards(hand) if hand else []
    out: list[int] = []
    for h in hand:
        out.extend(_card_codes(h) if isinstance(h, str) else (int(h),))
    return out


@lru_cache(maxsize=512)
def _card_codes(text: str) -> tuple[int, ...]:
    """One card text of a view ("♠10") as codes: a view's hand is a list of the 54 cards' texts, parsed for every
    seat at every version (a table page's push parses four hands; the parser is a regular expression)."""
    return tuple(parse_cards(text))


def until(lang: str, deadline: datetime | None) -> str:
    if deadline is None:
        return ""
    return " ⏱ " + t(lang, "table.until", time=deadline.astimezone(SCREEN_TZ).strftime("%H:%M:%S"))


def count_text(lang: str, v: object) -> str:
    return t(lang, "gd.more_than_10") if v == "more_than_10" else str(v)


def counts_list(lang: str, answer: Mapping[str, object]) -> str:
    """A count-of-cards answer: each seat and how many cards it holds."""
    return " · ".join(f"{seat_name(lang, int(s))} {count_text(lang, v)}" for s, v in sorted(answer.items()))


def names_line(
    lang: str, names: Sequence[str], dealer: int | None, marks: Mapping[int, str] | None = None
) -> str:
    parts = []
    for seat in range(4):
        s = f"{seat_name(lang, seat)} {names[seat]}"
        if dealer is not None and seat == dealer:
            s += " ★" + t(lang, "table.dealer")
        elif dealer is not None and seat % 2 == dealer % 2:
            s += " ★"
        if marks and seat in marks:
            s += " " + marks[seat]
        parts.append(s)
    return "   ".join(parts)


def turn_line(lang: str, p: PublicView, names: Sequence[str]) -> str:
    """Whose turn it is (and their clock); ``p`` carries ``_clocks``, ``_computers`` and ``_deadline``."""
    turns = p.get("turns") or []
    required = [tr for tr in turns if tr.get("required", True)]
    if not required:
        return ""
    tr = required[0]
    seat = tr["seat"]
    kind = tr.get("kind", "")
    line = t(lang, "table.turn", who=f"{seat_name(lang, seat)} {names[seat]}", what=t(lang, f"turn.{kind}"))
    seconds = tr.get("seconds")
    if seconds is None and tr.get("clock"):
        seconds = (p.get("_clocks") or {}).get(tr["clock"])
    if seat in (p.get("_computers") or ()):
        seconds = None  # computer players have no move clock
    if seconds:
        line += f" ⏱ {seconds}s"
        due = p.get("_deadline")
        if isinstance(due, datetime):
            line += " " + t(lang, "table.until", time=due.astimezone(SCREEN_TZ).strftime("%H:%M:%S"))
    return line


def trick_line(
    lang: str,
    entries: Sequence[TrickEntry],
    names: Sequence[str],
    entry_text: EntryText,
    next_seat: int | None,
) -> str:
    """A trick as ``name cards │ name cards │ next …``; ``entry_text`` is the game's text of one play."""
    parts = []
    for e in entries:
        entry: PublicView = e if isinstance(e, Mapping) else {"seat": e[0], "cards": e[1]}
        seat = entry["seat"]
        parts.append(f"{names[seat]} {entry_text(lang, entry)}")
    if next_seat is not None:
        parts.append(f"{names[next_seat]} …")
    return " │ ".join(parts)
