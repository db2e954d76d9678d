"""The frames a table page receives: built from the engine's views only.

``state_frame`` gives everybody the same ``table`` part (the engine's ``public_view``: no hidden
card) and, to a seated player only, a ``me`` part from that seat's ``seat_view``: the hand in the
order the hand message shows it (each game's chat presenter, ``bot.presentation.games``: Shengji trumps first, then each suit),
the kitty for whoever buried it, and the actions the rules allow that seat now (the same buttons
as the hand message, ``bot.presentation.render.hand_message``).  A spectator's frame has no ``me``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Protocol

from bot.presentation.common import parse_hand
from bot.presentation.common import public_part as view_public_part
from bot.presentation.games import guandan as guandan_chat
from bot.presentation.games import shengji as shengji_chat
from bot.presentation.i18n import cards, t
from engine.cards import card_text, cards_text, parse_card, rank_of
from engine.errors import RuleError
from engine.game import Match
from engine.guandan.combos import KIND_NAMES_ZH
from engine.guandan.enumerate import legal_plays

MAX_BEATS = 40  # the hint's plays that beat the table, weakest first (bombs last)
PHASES_WITH_HAND_LEVEL = ("dealing", "window", "blackout", "bury", "rebury", "late", "play", "choose")


# A JSON object as the page receives it (``json.dumps``) and sends it (``json.loads``): the engine's views are
# passed on as they are, so its values are whatever JSON the views hold (read by key where the page needs one).
Frame = dict[str, Any]


class GamePage(Protocol):
    """What differs between the games on the page: where the public table is in the engine's view, how a
    hand is grouped, which actions a seat may take now."""

    def public_part(self, m: Match) -> Frame: ...

    def seat_part(self, m: Match, seat: int, *, hints: bool) -> Frame: ...


class ShengjiPage:
    def public_part(self, m: Match) -> Frame:
        return dict(m.public_view()["table"])  # Shengji's view wraps the table in ``table``

    def seat_part(self, m: Match, seat: int, *, hints: bool) -> Frame:
        view: Frame = dict(m.seat_view(seat))
        p = view_public_part(view)  # the seat's view holds the public table: not built again
        hand = parse_hand(view)
        trump, level = shengji_chat.trump_level(p, seat)
        me: Frame = {"hand": _groups(shengji_chat.group_hand(hand, trump, level)), "hand_size": len(hand)}
        if view.get("kitty"):
            me["kitty"] = list(view["kitty"])
        me["actions"] = _shengji_actions(view, p)
        return me


class GuandanPage:
    def public_part(self, m: Match) -> Frame:
        return dict(m.public_view())

    def seat_part(self, m: Match, seat: int, *, hints: bool) -> Frame:
        view: Frame = dict(m.seat_view(seat))
        p = view_public_part(view)  # the seat's view holds the public view: not built again
        hand = parse_hand(view)
        # the engine's display order (jokers, level, A … 2) in runs of one rank, so pairs and bombs show
        runs: list[tuple[str, list[int]]] = []
        for _label, cs in guandan_chat.group_hand(hand, None, None):
            for c in cs:
                if runs and rank_of(runs[-1][1][-1]) == rank_of(c):
                    runs[-1][1].append(c)
                else:
                    runs.append(("", [c]))
        me: Frame = {"hand": _groups(runs), "hand_size": len(hand)}
        tribute = view.get("tribute") or {}
        if tribute.get("my_return"):
            me["my_return"] = dict(tribute["my_return"])
        me["actions"] = _guandan_actions(view, p)
        if hints and me["actions"]["pass"]:
            me["actions"]["beats"] = beating_plays(m, seat)
        return me


PAGES: dict[str, GamePage] = {"shengji": ShengjiPage(), "guandan": GuandanPage()}


def public_part(game: str, m: Match) -> Frame:
    """The public table of a match (the engine's ``public_view``: no hidden card)."""
    return PAGES[game].public_part(m)


def _groups(groups: list[tuple[str, list[int]]]) -> list[Frame]:
    return [{"label": label, "cards": [card_text(c) for c in cs]} for label, cs in groups]


def _shengji_actions(view: Frame, p: Mapping[str, Any]) -> Frame:
    my = list(view.get("my_turns") or [])
    phase = p.get("phase")
    out: Frame = {"turns": my}
    verb = "overturn" if phase == "late" else "bid"
    out["bids"] = [{"verb": verb, "cards": bid} for bid in view.get("legal_bids") or []]
    out["pass_bid"] = "bid" in my and phase in ("window", "blackout")
    out["pass_overturn"] = "overturn" in my
    if "kitty" in my or "rebury" in my:
        out["bury"] = len(view.get("kitty") or []) or 8
    out["play"] = "lead" in my or "follow" in my
    if "choose" in my:
        out["choose"] = list((p.get("pending_choice") or {}).get("options") or [])
    return out


def _guandan_actions(view: Frame, p: Mapping[str, Any]) -> Frame:
    hint = view.get("hint") or {}
    kind = hint.get("kind")
    out: Frame = {"turns": [kind] if kind else []}
    out["play"] = kind in ("lead", "play")
    out["pass"] = bool(out["play"] and hint.get("can_pass"))
    if kind == "tribute":
        out["tribute"] = list(hint.get("choices") or [])
    if kind == "return":
        out["return"] = list(hint.get("choices") or [])
        out["return_to"] = hint.get("to")
    out["ask_counts"] = p.get("phase") == "play" and not p.get("counts")
    return out


def beating_plays(m: Match, seat: int) -> list[list[str]]:
    """Guandan: the plays from ``seat``'s hand that beat the table (the engine's ``legal_plays``: the same
    kind higher, then the bombs that beat it, weakest first), for the page's hint; [] when leading."""
    play = getattr(m, "play", None)
    to_beat = getattr(play, "to_beat", None)
    level = getattr(m, "deal_level", None)
    if to_beat is None or level is None:
        return []
    combos = legal_plays(m.hand(seat), level, to_beat)
    return [[card_text(c) for c in combo.cards] for combo in combos[:MAX_BEATS]]


def seat_part(game: str, m: Match, seat: int, *, hints: bool = False) -> Frame:
    """What only ``seat`` may see: its hand (grouped as the hand message shows it), its kitty, its own
    return, what it may do; ``hints`` (the page's policy): Guandan's plays that beat the table when it
    is the seat's turn to beat one."""
    return PAGES[game].seat_part(m, seat, hints=hints)


def readings(m: Match, seat: int, cards: list[int]) -> list[dict[str, str]]:
    """The readings of a Guandan selection that ``seat`` may play now (several: the player chooses)."""
    if not hasattr(m, "readings_for"):
        return []
    try:
        found = list(m.readings_for(seat, cards))
    except RuleError:
        return []
    level = getattr(m, "deal_level", None)
    return [
        {
            "id": c.reading_id(),
            "kind": c.kind,
            "label": c.label(level) if level is not None else c.reading_id(),
        }
        for c in found
    ]


def combo_label(lang: str, label: str) -> str:
    """A Guandan combination label (the engine's, "炸弹 9×4") in ``lang``: the kind's name translated
    (``page.kind.<kind>``), the rest kept ("Bomb 9×4"); jokers named in ``lang``."""
    name, _, tail = label.partition(" ")
    kind = next((k for k, zh in KIND_NAMES_ZH.items() if zh == name), None)
    if kind is None:
        return cards(lang, label)
    return t(lang, f"page.kind.{kind}") + (" " + cards(lang, tail) if tail else "")


def clock(game: str, p: Frame, options: Frame, computers: list[bool]) -> tuple[int | None, int | None]:
    """(seat, seconds) of the move clock that runs now (a required turn of a person), else (None, None)."""
    for turn in p.get("turns") or []:
        if not turn.get("required", True) or not turn.get("clock") or computers[turn["seat"]]:
            continue
        seconds = turn.get("seconds") or options.get(turn["clock"])
        if seconds:
            return int(turn["seat"]), int(seconds)
        return None, None
    return None, None


def state_frame(
    *,
    game: str,
    match_id: int,
    version: int,
    status: str,
    public: Frame,
    me: Frame | None,
    seat: int | None,
    names: list[str],
    computers: list[bool],
    options: Frame,
    since: datetime | None,
    now: datetime,
    deadlines: dict[str, datetime] | None = None,
) -> Frame:
    """The frame for one viewer: ``public`` (``public_part``) and, for a seat, ``me`` (``seat_part``)
    of the same version.  ``since``: when this version was committed (the move clock started then);
    ``deadlines``: the bidding window's (``window``) and the match clock's (``match``) ends; times
    are epoch milliseconds."""
    clock_seat, seconds = clock(game, public, options, computers)
    deadline = None
    if seconds and since is not None and status == "playing":
        deadline = int(since.timestamp() * 1000) + seconds * 1000
    frame: Frame = {
        "type": "state",
        "match": match_id,
        "version": version,
        "game": game,
        "status": status,
        "seat": seat,
        "names": names,
        "computers": computers,
        "table": public,
        "clock": {"seat": clock_seat, "seconds": seconds, "deadline": deadline} if seconds else None,
        "now": int(now.timestamp() * 1000),
    }
    for name, when in (deadlines or {}).items():
        frame[f"{name}_deadline"] = int(when.timestamp() * 1000)
    if seat is not None and me is not None:
        frame["me"] = me
    return frame


# the requests whose engine action depends on what the seat may do now (``action_text`` reads ``me["actions"]``
# only for these: the others need no seat part built)
OPS_READING_ACTIONS = frozenset({"pass_bid", "tribute"})


def action_text(game: str, seat: int, me: Frame, op: str, cards: list[int], arg: str | None) -> str | None:
    """The engine action for a page's request (None: not a known request).  The engine judges it.  ``me``: the
    seat's part (``seat_part``), read only for ``OPS_READING_ACTIONS``."""
    actions = me.get("actions") or {}
    sel = cards_text(cards)
    if op == "play":
        return f"{seat} play {sel}" + (f" as {arg}" if arg else "")
    if op == "bury":
        return f"{seat} bury {sel}"
    if op in ("bid", "overturn"):
        return f"{seat} {op} {sel}"
    if op == "pass_bid":
        return f"{seat} {'pass_overturn' if actions.get('pass_overturn') else 'pass_bid'}"
    if op == "pass":
        return f"{seat} pass"
    if op == "tribute":
        return f"{seat} {'return' if 'return' in actions else 'tribute'} {sel}"
    if op == "ask_counts":
        return f"{seat} ask_counts"
    if op == "choose" and arg:
        return f"{seat} choose {arg}"
    return None


def parse_request_cards(raw: object) -> list[int]:
    """Card texts from a page (``["♠10", "BJ"]``); RuleError ``bad_card`` for anything else."""
    if not isinstance(raw, list) or len(raw) > 60 or not all(isinstance(x, str) and len(x) <= 8 for x in raw):
        raise RuleError("bad_card", "Not one card: {text}", text=str(raw)[:40])
    out: list[int] = []
    for text in raw:
        try:
            out.append(parse_card(text))
        except RuleError:
            raise RuleError("bad_card", "Not one card: {text}", text=text) from None
    return out
