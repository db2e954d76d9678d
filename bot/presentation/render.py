"""The chat's messages of a match: the group's table message, the private hand message, the announcements.

Built only from the engine's views (``public_view`` for the group, ``seat_view`` for a seat), plus
``readings_for`` / the view's legal options for the buttons.  What differs per game is the game's presenter
(``bot.presentation.games``); this module holds what every game shares and finds the presenter by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.presentation.common import (
    SCREEN_TZ,
    EventData,
    counts_list,
    ctext,
    finishes_deal,
    parse_hand,
    public_part,
    rank_text,
    seat_name,
    side_name,
    trick_line,
)
from bot.presentation.games import presenter
from bot.presentation.games.shengji import trump_level as shengji_trump_level
from bot.presentation.i18n import t
from bot.presentation.keyboards import lobby, my_hand_button, open_chat_button
from bot.presentation.markup import Keyboard
from engine.events import Event
from engine.game import Match
from engine.views import PublicView, SeatView

__all__ = [
    "ANNOUNCED",
    "SCREEN_TZ",
    "announcement",
    "deal_marker",
    "hand_message",
    "lobby",
    "open_chat_button",
    "public_part",
    "seat_name",
    "shengji_trump_level",
    "table_message",
]

ANNOUNCED = {
    "deal_over",
    "match_over",
    "throw_failed",
    "paused",
    "redeal",
    "time_up",
    "counts",
    "blackout",
    "kitty_turned",
    "deal_abandoned",
}


def _pub(view: PublicView) -> PublicView:
    """The public part of a view as a dict (a copy when the view is not a dict)."""
    p = public_part(view)
    return p if isinstance(p, dict) else dict(p)


def deal_marker(game: str, view: PublicView) -> int:
    """Which deal (and Shengji redeal) a view shows; 0 while nothing is dealt yet (no hand message then)."""
    return presenter(game).deal_marker(view)


def _trick_line(
    lang: str, entries: Sequence[PublicView], names: Sequence[str], game: str, next_seat: int | None
) -> str:
    """A trick as the table message shows it (the load test's replica reads it)."""
    return trick_line(lang, entries, names, presenter(game).entry_text, next_seat)


def table_message(
    lang: str,
    game: str,
    view: PublicView,
    names: Sequence[str],
    deadline: datetime | None,
    bot_username: str | None,
    title: str,
    clocks: dict[str, int] | None = None,
    computers: frozenset[int] = frozenset(),
) -> tuple[str, Keyboard | None]:
    """The group's table message; ``computers``: seats of computer players (no move clock is shown for them)."""
    p = dict(public_part(view))
    p["_clocks"] = clocks or {}
    p["_computers"] = computers
    p["_deadline"] = deadline
    lines = presenter(game).table_lines(lang, p, names, title)
    return "\n".join(x for x in lines if x), my_hand_button(lang, bot_username)


def hand_message(
    lang: str,
    game: str,
    match_id: int,
    m: Match,
    seat: int,
    view: SeatView,
    selection: list[int],
    names: Sequence[str],
    deadline: datetime | None,
) -> tuple[str, Keyboard]:
    """A seat's private hand message: its text and its keyboard (the cards to tap, then the actions)."""
    return presenter(game).hand_message(
        lang, match_id, m, seat, view, parse_hand(view), selection, names, deadline
    )


# --- announcements -------------------------------------------------------------------------------


def announcement(
    lang: str, game: str, ev: Event, names: Sequence[str], options: EventData | None = None
) -> str | None:
    """The group announcement of an engine event (None: not announced); ``options`` are the match's rules."""
    d = ev.data
    k = ev.kind
    if k == "deal_over":
        return presenter(game).deal_summary(lang, d, names)
    if k == "match_over":
        levels = d.get("levels") or [0, 0]
        lv = [rank_text(x) if isinstance(x, int) else str(x) for x in levels]
        return t(
            lang,
            "ann.match_over",
            side=side_name(lang, int(d.get("winner", 0))),
            a=side_name(lang, 0),
            la=lv[0],
            b=side_name(lang, 1),
            lb=lv[1],
            reason=t(lang, f"reason.{d.get('reason')}"),
            deals=d.get("deals", ""),
        )
    if k == "throw_failed":
        if d.get("holder") is not None and d.get("beating") and d.get("unit"):
            return t(
                lang,
                "ann.throw_failed",
                holder=names[int(d["holder"])],
                beating=ctext(lang, d["beating"]),
                unit=ctext(lang, d["unit"]),
                penalty=d.get("penalty", 0),
            )
        return t(
            lang,
            "ann.throw_failed_plain",
            who=names[d["seat"]],
            cards=ctext(lang, d.get("cards", "")),
            penalty=d.get("penalty", 0),
        )
    if k == "paused":
        return t(lang, "ann.paused", n=d.get("redeals", ""))
    if k == "redeal":
        return t(lang, "ann.redeal")
    if k == "time_up":
        return t(lang, "ann.time_up" if finishes_deal(options) else "ann.time_up_stop")
    if k == "deal_abandoned":
        return t(lang, "ann.deal_abandoned", deal=d.get("deal_no", ""))
    if k == "counts":
        return t(lang, "ann.counts", who=names[int(d["by"])], list=counts_list(lang, d.get("answer") or {}))
    if k == "blackout":
        return t(lang, "ann.blackout", side=side_name(lang, int(d.get("side", 0))))
    if k == "kitty_turned":
        return t(lang, "ann.kitty_turned", cards=ctext(lang, d.get("cards", "")))
    return None
