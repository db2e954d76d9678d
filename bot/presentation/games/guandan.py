"""Guandan's presenter: the group's table message, the hand message and its buttons, a deal's summary."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.presentation.callbacks import HandOp
from bot.presentation.callbacks import hand as hbtn
from bot.presentation.common import (
    EventData,
    counts_list,
    ctext,
    finishes_deal,
    names_line,
    public_part,
    seat_name,
    side_name,
    trick_line,
    turn_line,
    until,
)
from bot.presentation.games.base import stage_key
from bot.presentation.hand import ActionRows, HandGroups, hand_keyboard, hand_lines
from bot.presentation.i18n import t
from bot.presentation.markup import Keyboard
from engine.errors import RuleError
from engine.game import Match, Reading
from engine.guandan.levels import level_text
from engine.views import PublicView, SeatView


def deal_marker(view: PublicView) -> int:
    """The deal a view shows (0 while nothing is dealt yet)."""
    return int(public_part(view).get("deal_no") or 0)


def entry_text(lang: str, entry: PublicView) -> str:
    """One play (or pass) of a trick."""
    if entry.get("action") == "pass":
        return t(lang, "gd.pass")
    play = entry.get("play") or {}
    return ctext(lang, play.get("cards", ""))


def _trick(lang: str, entries: Sequence[PublicView], names: Sequence[str], next_seat: int | None) -> str:
    return trick_line(lang, entries, names, entry_text, next_seat)


def group_hand(hand: Sequence[int], trump_suit: int | None, level: int | None) -> HandGroups:
    """The hand is display-sorted by the engine (jokers, level, A..2): one group, rows of up to 8."""
    return [("", list(hand))]


def table_lines(lang: str, p: PublicView, names: Sequence[str], title: str) -> list[str]:
    phase = p.get("phase")
    level_texts = p.get("level_texts") or [str(x) for x in p.get("levels", [])]
    head = f"🃏 {title} · " + t(lang, "table.deal_no", n=p.get("deal_no") or 0)
    if p.get("level_text"):
        head += " · " + t(lang, "table.playing_level", level=p["level_text"])
    marks = {}
    for place, seat in enumerate(p.get("finish_order") or [], start=1):
        marks[seat] = t(lang, f"gd.place{min(place, 4)}")
    counts = p.get("counts")
    if counts:
        for seat in range(4):
            marks[seat] = (marks.get(seat, "") + f" ({counts[seat]})").strip()
    lines = [head, names_line(lang, names, None, marks)]
    if level_texts:
        lines.append(
            t(
                lang,
                "table.levels",
                a=side_name(lang, 0),
                la=level_texts[0],
                b=side_name(lang, 1),
                lb=level_texts[1],
            )
        )
    if phase == "tribute" or phase == "return":
        trib = p.get("tribute") or {}
        paid = trib.get("paid") or {}
        if paid:
            lines.append(
                t(
                    lang,
                    "gd.tribute_paid",
                    list=", ".join(f"{names[int(s)]} {ctext(lang, c)}" for s, c in paid.items()),
                )
            )
        lines.append(t(lang, f"gd.phase_{phase}"))
    elif phase == "play":
        turns = p.get("turns") or []
        nxt = turns[0]["seat"] if turns else None
        trick = p.get("trick") or []
        if p.get("table"):
            tb = p["table"]
            seat = p.get("table_seat")
            who_ = names[seat] if isinstance(seat, int) else ""
            lines.append(
                t(
                    lang,
                    "gd.on_table",
                    who=who_,
                    label=ctext(lang, tb.get("label", "")),
                    cards=ctext(lang, tb.get("cards", "")),
                )
            )
        if trick:
            lines.append(t(lang, "table.trick") + "  " + _trick(lang, trick[-4:], names, nxt))
        elif p.get("last_trick"):  # a trick just completed: the group sees how it ended
            lines.append(t(lang, "table.last_trick") + "  " + _trick(lang, p["last_trick"][-4:], names, None))
    elif phase in ("deal_over", "over"):
        lines.append(t(lang, "table.deal_over"))
    ca = p.get("counts_asked")
    if ca and phase == "play":
        lines.append(t(lang, "gd.counts", list=counts_list(lang, ca.get("answer") or {})))
    if p.get("time_up"):
        lines.append(t(lang, "table.time_up" if finishes_deal(p.get("_clocks")) else "table.time_up_stop"))
    lines.append(turn_line(lang, p, names))
    return lines


def hand_message(
    lang: str,
    match_id: int,
    m: Match,
    seat: int,
    view: SeatView,
    hand: list[int],
    selection: Sequence[int],
    names: Sequence[str],
    deadline: datetime | None,
) -> tuple[str, Keyboard]:
    p = public_part(view)
    deal = deal_marker(view)
    actions: ActionRows = []
    n = len(selection)
    lines: list[str] = []
    phase = p.get("phase")
    head = t(lang, "table.deal_no", n=p.get("deal_no") or 0)
    if p.get("level_text"):
        head += " · " + t(lang, "table.playing_level", level=p["level_text"])
    head += " · " + t(lang, "hand.you_are", seat=seat_name(lang, seat))
    lines.append(head)
    if phase == "play" and p.get("table"):
        tb = p["table"]
        ts = p.get("table_seat")
        lines.append(
            t(
                lang,
                "gd.on_table",
                who=names[ts] if isinstance(ts, int) else "",
                label=ctext(lang, tb.get("label", "")),
                cards=ctext(lang, tb.get("cards", "")),
            )
        )
    hint = view.get("hint")
    trib = p.get("tribute") or {}
    if trib.get("my_return"):
        mr = trib["my_return"]
        lines.append(
            t(lang, "gd.my_return", frm=names[mr["from"]], to=names[mr["to"]], card=ctext(lang, mr["card"]))
        )
    if hint:
        lines.append("👉 " + t(lang, f"gd.hint_{hint['kind']}") + until(lang, deadline))
    else:
        turns = p.get("turns") or []
        if turns:
            tr = turns[0]
            lines.append(
                t(
                    lang,
                    "table.turn",
                    who=f"{seat_name(lang, tr['seat'])} {names[tr['seat']]}",
                    what=t(lang, f"turn.{tr.get('kind')}"),
                )
            )
    ca = p.get("counts_asked")
    if ca and phase == "play":
        lines.append(t(lang, "gd.counts", list=counts_list(lang, ca.get("answer") or {})))
    groups = group_hand(hand, None, None)
    lines += hand_lines(lang, hand, groups)
    last: list[tuple[str, str]] = []
    if hint and hint["kind"] in ("lead", "play"):
        readings: list[Reading] = []
        if n:
            try:
                readings = list(m.readings_for(seat, selection))
            except RuleError:
                readings = []
        gd_level = p.get("level")
        if len(readings) > 1:
            for combo in readings[:6]:
                label = combo.label(gd_level) if gd_level is not None else combo.reading_id()
                actions.append(
                    [
                        (
                            t(lang, "btn.play_as", label=ctext(lang, label)),
                            hbtn(HandOp.PLAY_AS, match_id, deal, word=combo.reading_id()),
                        )
                    ]
                )
        else:
            last.append((t(lang, "btn.play", n=n), hbtn(HandOp.PLAY, match_id, deal)))
        if hint.get("can_pass"):
            last.append((t(lang, "btn.pass"), hbtn(HandOp.PASS, match_id, deal)))
    if hint and hint["kind"] == "tribute":
        last.append((t(lang, "btn.tribute", n=n), hbtn(HandOp.TRIBUTE, match_id, deal)))
    if hint and hint["kind"] == "return":
        last.append((t(lang, "btn.return", n=n), hbtn(HandOp.TRIBUTE, match_id, deal)))
    if n:
        last.append((t(lang, "btn.clear"), hbtn(HandOp.CLEAR, match_id, deal)))
    if last:
        actions.append(last)
    if phase == "play" and not p.get("counts"):
        actions.append([(t(lang, "btn.ask_counts"), hbtn(HandOp.ASK_COUNTS, match_id, deal))])
    return "\n".join(lines), hand_keyboard(lang, match_id, deal, groups, selection, actions)


def deal_summary(lang: str, d: EventData, names: Sequence[str]) -> str:
    order = d.get("order") or []
    places = " · ".join(
        f"{t(lang, f'gd.place{i}')} {seat_name(lang, s)} {names[s]}" for i, s in enumerate(order, start=1)
    )
    levels = d.get("levels") or []
    lv = [level_text(x) if isinstance(x, int) else str(x) for x in levels] or ["?", "?"]
    lines = [t(lang, "sum.gd_head", deal=d.get("deal_no")), places]
    ws = d.get("winner_side")
    if ws is not None:
        lines.append(t(lang, "sum.gd_gain", side=side_name(lang, int(ws)), gain=d.get("gain", 0)))
    lines.append(t(lang, "sum.levels", a=side_name(lang, 0), la=lv[0], b=side_name(lang, 1), lb=lv[1]))
    return "\n".join(lines)


# --- what the live messages follow (bot/tables/live.py) -------------------------------------------

PLAY_PHASES = {"play", "choose", "late", "deal_over", "match_over", "paused", "over"}


def group_deal_stage(public: PublicView) -> str:
    p = public_part(public)
    return stage_key(
        p.get("deal_no"),
        p.get("phase"),
        p.get("finish_order"),
        p.get("tribute"),
        p.get("levels"),
        p.get("time_up"),
    )


def group_tricks(public: PublicView) -> tuple[object, ...]:
    return (public_part(public).get("trick_no"),)


def hand_step(view: SeatView) -> str:
    phase = public_part(view).get("phase")
    return "play" if phase in PLAY_PHASES else str(phase)


def hand_stage(view: SeatView) -> str:
    p = public_part(view)
    step = hand_step(view)
    if step == "play":
        return stage_key(p.get("deal_no"), step)
    return stage_key(p.get("deal_no"), step, p.get("tribute"))


def must_act(view: SeatView) -> bool:
    return view.get("hint") is not None


def hand_news_waits(before: str | None, view: SeatView) -> bool:
    return False


def shows_a_hand(view: SeatView) -> bool:
    return True


def with_trick_before_last(m: Match, public: PublicView) -> PublicView:
    return public


# --- the deal review and proof (bot/tables/review.py, deal_proof.py) -------------------------------

BIDS_AND_KITTY = False  # no bids, no kitty: each hand is a quarter of the deck
LAST_PLAYER_WINS_TRICK = True  # the others passed: no ``trick`` event
TRICK_POINTS = False


class GuandanPresenter:
    """Guandan's presenter (``bot.presentation.games.base.GamePresenter``)."""

    game = "guandan"
    deal_marker = staticmethod(deal_marker)
    entry_text = staticmethod(entry_text)
    group_hand = staticmethod(group_hand)
    table_lines = staticmethod(table_lines)
    hand_message = staticmethod(hand_message)
    deal_summary = staticmethod(deal_summary)
    group_deal_stage = staticmethod(group_deal_stage)
    group_tricks = staticmethod(group_tricks)
    hand_step = staticmethod(hand_step)
    hand_stage = staticmethod(hand_stage)
    must_act = staticmethod(must_act)
    hand_news_waits = staticmethod(hand_news_waits)
    shows_a_hand = staticmethod(shows_a_hand)
    with_trick_before_last = staticmethod(with_trick_before_last)
    BIDS_AND_KITTY = BIDS_AND_KITTY
    LAST_PLAYER_WINS_TRICK = LAST_PLAYER_WINS_TRICK
    TRICK_POINTS = TRICK_POINTS
