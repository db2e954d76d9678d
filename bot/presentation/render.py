"""Game-specific rendering: the live table message, the private hand message, announcements.

Built only from the engine's views (``public_view`` for the group, ``seat_view`` for a seat),
plus ``readings_for`` / the view's legal options for the buttons.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.edge.callbacks import HandOp
from bot.edge.callbacks import hand as hbtn
from bot.presentation.i18n import t
from bot.presentation.keyboards import (
    ctext,
    hand_keyboard,
    hand_lines,
    lobby,
    open_chat_button,
    parse_hand,
    rank_text,
    seat_name,
    side_name,
    suit_text,
)
from engine.cards import parse_cards
from engine.errors import RuleError

__all__ = [
    "lobby",
    "open_chat_button",
    "seat_name",
    "table_message",
    "hand_message",
    "announcement",
    "ANNOUNCED",
]

SCREEN_TZ = ZoneInfo("Asia/Shanghai")  # time is UTC inside, China time on screen

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


def _finishes_deal(options: dict[str, Any] | None) -> bool:
    """D2: the option ``time_up_finishes_deal`` (default True): is the deal in progress played out at time-up?"""
    return bool((options or {}).get("time_up_finishes_deal", True))


def _pub(view: Mapping[str, Any]) -> dict[str, Any]:
    table = view.get("table")
    if isinstance(table, dict) and "phase" in table:
        return table
    return dict(view) if not isinstance(view, dict) else view


def public_part(view: Mapping[str, Any]) -> dict[str, Any]:
    """The public part of a view (``public_view``, or the table inside a Shengji ``seat_view``)."""
    return _pub(view)


def deal_marker(game: str, view: Mapping[str, Any]) -> int:
    """Which deal (and Shengji redeal) a view shows; 0 while nothing is dealt yet (no hand message then)."""
    p = _pub(view)
    if game == "shengji":
        return int(p.get("deal") or 0) * 100 + int(p.get("redeal") or 0)
    return int(p.get("deal_no") or 0)


def _level(game: str, lv: Any) -> str:
    return rank_text(lv) if isinstance(lv, int) else str(lv)


def _turn_line(lang: str, game: str, p: dict[str, Any], names: list[str]) -> str:
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


def _trick_line(
    lang: str, entries: list[dict[str, Any]], names: list[str], game: str, next_seat: int | None
) -> str:
    parts = []
    for e in entries:
        if isinstance(e, (list, tuple)):
            e = {"seat": e[0], "cards": e[1]}
        seat = e["seat"]
        if game == "guandan":
            if e.get("action") == "pass":
                txt = t(lang, "gd.pass")
            else:
                play = e.get("play") or {}
                txt = ctext(lang, play.get("cards", ""))
        else:
            txt = ctext(lang, e.get("cards", ""))
        parts.append(f"{names[seat]} {txt}")
    if next_seat is not None:
        parts.append(f"{names[next_seat]} …")
    return " │ ".join(parts)


def table_message(
    lang: str,
    game: str,
    view: Mapping[str, Any],
    names: list[str],
    deadline: datetime | None,
    bot_username: str | None,
    title: str,
    clocks: dict[str, int] | None = None,
    computers: frozenset[int] = frozenset(),
) -> tuple[str, InlineKeyboardMarkup | None]:
    """The group's table message; ``computers``: seats of computer players (no move clock is shown for them)."""
    p = dict(_pub(view))
    p["_clocks"] = clocks or {}
    p["_computers"] = computers
    p["_deadline"] = deadline
    lines = (
        shengji_table(lang, p, names, title) if game == "shengji" else guandan_table(lang, p, names, title)
    )
    markup = None
    if bot_username:
        markup = InlineKeyboardMarkup(
            [[InlineKeyboardButton(t(lang, "btn.my_hand"), url=f"https://t.me/{bot_username}")]]
        )
    return "\n".join(x for x in lines if x), markup


def _names_line(lang: str, names: list[str], dealer: int | None, marks: dict[int, str] | None = None) -> str:
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


def shengji_table(lang: str, p: dict[str, Any], names: list[str], title: str) -> list[str]:
    phase = p.get("phase")
    levels = p.get("levels") or [2, 2]
    dealer = p.get("dealer")
    head = f"🃏 {title} · " + t(lang, "table.deal_no", n=p.get("deal"))
    if p.get("level"):
        head += " · " + t(lang, "table.playing_level", level=rank_text(p["level"]))
    if p.get("trump") is not None or phase in ("play", "choose", "late", "bury", "rebury"):
        head += " · " + t(
            lang,
            "table.trump",
            trump=suit_text(p.get("trump")) if p.get("trump") is not None else t(lang, "table.no_trump"),
        )
    lines = [head, _names_line(lang, names, dealer)]
    lines.append(
        t(
            lang,
            "table.levels",
            a=side_name(lang, 0),
            la=rank_text(levels[0]),
            b=side_name(lang, 1),
            lb=rank_text(levels[1]),
        )
        + ("   " + t(lang, "table.points", n=p.get("points", 0)) if phase in ("play", "choose") else "")
    )
    decl = p.get("declaration")
    if phase in ("dealing", "window", "blackout"):
        # one state for the group until the trump is settled (bot.tables.live.group_deal_stage): no card count,
        # no "no declaration yet" that a declaration would make wrong before the next edit
        lines.append(t(lang, "table.declaring"))
        if decl:
            lines.append(
                t(lang, "table.declared", who=f"{names[decl['seat']]}", cards=ctext(lang, decl["cards"]))
            )
    elif phase in ("bury", "rebury"):
        if decl:
            lines.append(
                t(lang, "table.declared", who=f"{names[decl['seat']]}", cards=ctext(lang, decl["cards"]))
            )
        lines.append(t(lang, "table.burying"))
    elif phase in ("play", "choose", "late"):
        turns = p.get("turns") or []
        nxt = turns[0]["seat"] if turns and phase == "play" else None
        trick = p.get("trick") or []
        if trick:
            lines.append(t(lang, "table.trick") + "  " + _trick_line(lang, trick, names, "shengji", nxt))
        elif p.get("last_trick"):
            lt = p["last_trick"]
            if isinstance(lt, dict) and lt.get("plays"):
                lines.append(
                    t(lang, "table.last_trick")
                    + "  "
                    + _trick_line(lang, lt["plays"], names, "shengji", None)
                )
    elif phase == "paused":
        lines.append(t(lang, "table.paused"))
    elif phase in ("deal_over", "match_over"):
        # the deal's last two tricks: the one before the last may not have had an edit of its own (the bot
        # plays a last trick that leaves no choice at once: bot.tables.live.render_match)
        pt = p.get("prev_trick")
        if isinstance(pt, dict) and pt.get("plays"):
            lines.append(
                t(lang, "table.prev_trick") + "  " + _trick_line(lang, pt["plays"], names, "shengji", None)
            )
        lt = p.get("last_trick")
        if isinstance(lt, dict) and lt.get("plays"):
            lines.append(
                t(lang, "table.last_trick") + "  " + _trick_line(lang, lt["plays"], names, "shengji", None)
            )
        lines.append(t(lang, "table.deal_over"))
    if p.get("time_up"):
        lines.append(t(lang, "table.time_up" if _finishes_deal(p.get("_clocks")) else "table.time_up_stop"))
    lines.append(_turn_line(lang, "shengji", p, names))
    return lines


def guandan_table(lang: str, p: dict[str, Any], names: list[str], title: str) -> list[str]:
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
    lines = [head, _names_line(lang, names, None, marks)]
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
            lines.append(t(lang, "table.trick") + "  " + _trick_line(lang, trick[-4:], names, "guandan", nxt))
        elif p.get("last_trick"):  # a trick just completed: the group sees how it ended
            lines.append(
                t(lang, "table.last_trick")
                + "  "
                + _trick_line(lang, p["last_trick"][-4:], names, "guandan", None)
            )
    elif phase in ("deal_over", "over"):
        lines.append(t(lang, "table.deal_over"))
    ca = p.get("counts_asked")
    if ca and phase == "play":
        ans = ca.get("answer") or {}
        lines.append(
            t(
                lang,
                "gd.counts",
                list=" · ".join(
                    f"{seat_name(lang, int(s))} {_count_text(lang, v)}" for s, v in sorted(ans.items())
                ),
            )
        )
    if p.get("time_up"):
        lines.append(t(lang, "table.time_up" if _finishes_deal(p.get("_clocks")) else "table.time_up_stop"))
    lines.append(_turn_line(lang, "guandan", p, names))
    return lines


def _until(lang: str, deadline: datetime | None) -> str:
    if deadline is None:
        return ""
    return " ⏱ " + t(lang, "table.until", time=deadline.astimezone(SCREEN_TZ).strftime("%H:%M:%S"))


def _count_text(lang: str, v: Any) -> str:
    return t(lang, "gd.more_than_10") if v == "more_than_10" else str(v)


# --- the hand message ---------------------------------------------------------------------------


def shengji_trump_level(p: Mapping[str, Any], seat: int) -> tuple[int | None, int]:
    """The trump suit and level a Shengji hand is grouped and headed by (before the trump is settled: the
    declaration's, else the level of the dealer's side, else of the seat's side)."""
    decl = p.get("declaration") or {}
    level = p.get("level") or decl.get("level")
    if level is None:
        side = seat % 2 if p.get("dealer") is None else p["dealer"] % 2
        level = (p.get("levels") or [2, 2])[side]
    trump = p.get("trump") if p.get("trump") is not None else decl.get("trump")
    return trump, int(level)


def hand_message(
    lang: str,
    game: str,
    match_id: int,
    m: Any,
    seat: int,
    view: Mapping[str, Any],
    selection: list[int],
    names: list[str],
    deadline: datetime | None,
) -> tuple[str, InlineKeyboardMarkup]:
    p = _pub(view)
    deal = deal_marker(game, view)
    hand = parse_hand(view)
    actions: list[list[tuple[str, str]]] = []
    n = len(selection)
    lines: list[str] = []
    if game == "shengji":
        phase = p.get("phase")
        decl = p.get("declaration") or {}
        trump, level = shengji_trump_level(p, seat)
        head = (
            t(lang, "table.deal_no", n=p.get("deal"))
            + " · "
            + t(lang, "table.playing_level", level=rank_text(level))
        )
        if trump is not None:
            head += " · " + t(lang, "table.trump", trump=suit_text(trump))
        role = seat_name(lang, seat)
        if p.get("dealer") == seat:
            role += t(lang, "hand.dealer_mark")
        head += " · " + t(lang, "hand.you_are", seat=role)
        lines.append(head)
        if decl and phase in ("dealing", "window", "blackout", "bury"):
            lines.append(t(lang, "table.declared", who=names[decl["seat"]], cards=ctext(lang, decl["cards"])))
        if phase == "dealing":
            lines.append(t(lang, "table.dealing", n=p.get("cards_dealt", 0), total=100))
        my = view.get("my_turns") or []
        trick = p.get("trick") or []
        turns = [tr for tr in (p.get("turns") or []) if tr.get("required", True)]
        if trick or (turns and phase in ("play", "choose")):
            nxt = turns[0]["seat"] if turns and phase == "play" else None
            lines.append(t(lang, "table.trick") + "  " + _trick_line(lang, trick, names, "shengji", nxt))
        if (
            my
            and any(k in ("lead", "follow", "kitty", "rebury", "choose", "overturn") for k in my)
            or ("bid" in my and phase in ("window", "blackout"))
        ):
            lines.append("👉 " + t(lang, "hand.your_turn") + _until(lang, deadline))
        elif turns:
            tr = turns[0]
            lines.append(
                t(
                    lang,
                    "table.turn",
                    who=f"{seat_name(lang, tr['seat'])} {names[tr['seat']]}",
                    what=t(lang, f"turn.{tr.get('kind')}"),
                )
            )
        if view.get("kitty"):
            lines.append(t(lang, "hand.kitty", cards=ctext(lang, " ".join(view["kitty"]))))
        groups_trump = trump
        lines += hand_lines(lang, game, hand, groups_trump, level)
        # buttons
        for bid in view.get("legal_bids") or []:
            verb = "o" if phase == "late" else "b"
            code = tuple(parse_cards(bid))
            actions.append(
                [
                    (
                        t(lang, "btn.overturn" if verb == "o" else "btn.bid", cards=ctext(lang, bid)),
                        hbtn(HandOp.OVERTURN if verb == "o" else HandOp.BID, match_id, deal, cards=code),
                    )
                ]
            )
        if "bid" in my and phase in ("window", "blackout"):
            actions.append([(t(lang, "btn.pass_bid"), hbtn(HandOp.PASS_BID, match_id, deal))])
        if "overturn" in my:
            actions.append([(t(lang, "btn.pass_overturn"), hbtn(HandOp.PASS_BID, match_id, deal))])
        last: list[tuple[str, str]] = []
        if "kitty" in my or "rebury" in my:
            last.append((t(lang, "btn.bury", n=n), hbtn(HandOp.BURY, match_id, deal)))
        if "lead" in my or "follow" in my:
            last.append((t(lang, "btn.play", n=n), hbtn(HandOp.PLAY, match_id, deal)))
        if "choose" in my:
            pc = p.get("pending_choice") or {}
            for opt in pc.get("options") or []:
                actions.append(
                    [(t(lang, f"btn.choose_{opt}"), hbtn(HandOp.CHOOSE, match_id, deal, word=opt))]
                )
        if n:
            last.append((t(lang, "btn.clear"), hbtn(HandOp.CLEAR, match_id, deal)))
        if last:
            actions.append(last)
        return "\n".join(lines), hand_keyboard(
            lang, game, match_id, deal, hand, selection, groups_trump, level, actions
        )
    # Guandan
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
        lines.append("👉 " + t(lang, f"gd.hint_{hint['kind']}") + _until(lang, deadline))
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
        ans = ca.get("answer") or {}
        lines.append(
            t(
                lang,
                "gd.counts",
                list=" · ".join(
                    f"{seat_name(lang, int(s))} {_count_text(lang, v)}" for s, v in sorted(ans.items())
                ),
            )
        )
    lines += hand_lines(lang, game, hand, None, None)
    last = []
    if hint and hint["kind"] in ("lead", "play"):
        readings: list[Any] = []
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
    return "\n".join(lines), hand_keyboard(lang, game, match_id, deal, hand, selection, None, None, actions)


# --- announcements -------------------------------------------------------------------------------


def announcement(
    lang: str, game: str, ev: Any, names: list[str], options: dict[str, Any] | None = None
) -> str | None:
    """The group announcement of an engine event (None: not announced); ``options`` are the match's rules."""
    d = ev.data
    k = ev.kind
    if k == "deal_over":
        return shengji_summary(lang, d, names) if game == "shengji" else guandan_summary(lang, d, names)
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
        return t(lang, "ann.time_up" if _finishes_deal(options) else "ann.time_up_stop")
    if k == "deal_abandoned":
        return t(lang, "ann.deal_abandoned", deal=d.get("deal_no", ""))
    if k == "counts":
        ans = d.get("answer") or {}
        return t(
            lang,
            "ann.counts",
            who=names[int(d["by"])],
            list=" · ".join(
                f"{seat_name(lang, int(s))} {_count_text(lang, v)}" for s, v in sorted(ans.items())
            ),
        )
    if k == "blackout":
        return t(lang, "ann.blackout", side=side_name(lang, int(d.get("side", 0))))
    if k == "kitty_turned":
        return t(lang, "ann.kitty_turned", cards=ctext(lang, d.get("cards", "")))
    return None


def shengji_summary(lang: str, d: dict[str, Any], names: list[str]) -> str:
    before = d.get("levels_before") or [2, 2]
    after = d.get("levels_after") or before
    dealer = d.get("dealer")
    nd = d.get("next_dealer")
    lines = [t(lang, "sum.sj_head", deal=d.get("deal_no"), points=d.get("points", 0))]
    if d.get("capture"):
        lines[0] += t(lang, "sum.sj_capture", capture=d.get("capture"), mult=d.get("capture_multiplier"))
    winner = d.get("winner")
    # the engine gives ``winner`` as a side (int) and ``winner_role`` ("dealer" / "defenders")
    role_text = d.get("winner_role")
    if not isinstance(role_text, str):
        role_text = winner if isinstance(winner, str) else None
    role = None
    if role_text is not None:
        role = "dealers" if role_text.startswith("dealer") else "defenders"
    if isinstance(winner, str) and dealer is not None:
        winner = dealer % 2 if role == "dealers" else (dealer + 1) % 2
    if isinstance(winner, int):
        if d.get("steps"):
            key = "sum.sj_winner"
        else:
            key = "sum.sj_takeover" if role == "defenders" else "sum.sj_hold"
        lines[0] += " → " + t(lang, key, side=side_name(lang, int(winner)), steps=d.get("steps", 0))
    lines.append(t(lang, "sum.kitty", cards=ctext(lang, d.get("kitty", ""))))
    next_part = ""
    if nd is not None:
        next_part = " → " + t(
            lang, "sum.next_dealer", who=f"{seat_name(lang, nd)} {names[nd]}", level=rank_text(after[nd % 2])
        )
    lines.append(
        t(
            lang,
            "sum.levels",
            a=side_name(lang, 0),
            la=rank_text(after[0]),
            b=side_name(lang, 1),
            lb=rank_text(after[1]),
        )
        + next_part
    )
    return "\n".join(lines)


def guandan_summary(lang: str, d: dict[str, Any], names: list[str]) -> str:
    order = d.get("order") or []
    places = " · ".join(
        f"{t(lang, f'gd.place{i}')} {seat_name(lang, s)} {names[s]}" for i, s in enumerate(order, start=1)
    )
    levels = d.get("levels") or []
    from engine.guandan.levels import level_text

    lv = [level_text(x) if isinstance(x, int) else str(x) for x in levels] or ["?", "?"]
    lines = [t(lang, "sum.gd_head", deal=d.get("deal_no")), places]
    ws = d.get("winner_side")
    if ws is not None:
        lines.append(t(lang, "sum.gd_gain", side=side_name(lang, int(ws)), gain=d.get("gain", 0)))
    lines.append(t(lang, "sum.levels", a=side_name(lang, 0), la=lv[0], b=side_name(lang, 1), lb=lv[1]))
    return "\n".join(lines)
