"""Shengji's presenter: the group's table message, the hand message and its buttons, a deal's summary."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.presentation.callbacks import HandOp
from bot.presentation.callbacks import hand as hbtn
from bot.presentation.common import (
    EventData,
    ctext,
    finishes_deal,
    names_line,
    public_part,
    rank_text,
    seat_name,
    side_name,
    suit_text,
    trick_line,
    turn_line,
    until,
)
from bot.presentation.games.base import stage_key
from bot.presentation.hand import ActionRows, HandGroups, hand_keyboard, hand_lines
from bot.presentation.i18n import t
from bot.presentation.markup import Keyboard
from engine.cards import JOKER_SUIT, SUIT_SYMBOLS, parse_cards, rank_of, suit_of
from engine.game import Match
from engine.views import PublicView, SeatView


def deal_marker(view: PublicView) -> int:
    """The deal and redeal a view shows (0 while nothing is dealt yet)."""
    p = public_part(view)
    return int(p.get("deal") or 0) * 100 + int(p.get("redeal") or 0)


def entry_text(lang: str, entry: PublicView) -> str:
    """One play of a trick."""
    return ctext(lang, entry.get("cards", ""))


def _trick(lang: str, entries: Sequence[PublicView], names: Sequence[str], next_seat: int | None) -> str:
    return trick_line(lang, entries, names, entry_text, next_seat)


def is_trump(c: int, trump_suit: int | None, level: int | None) -> bool:
    if suit_of(c) == JOKER_SUIT:
        return True
    if level is not None and rank_of(c) == level:
        return True
    return trump_suit is not None and suit_of(c) == trump_suit


def group_hand(hand: Sequence[int], trump_suit: int | None, level: int | None) -> HandGroups:
    """Trumps first, then each suit."""
    groups: HandGroups = []
    trumps = [c for c in hand if is_trump(c, trump_suit, level)]
    if trumps:
        groups.append(("trump", trumps))
    for suit in range(4):
        cs = [c for c in hand if suit_of(c) == suit and not is_trump(c, trump_suit, level)]
        if cs:
            groups.append((SUIT_SYMBOLS[suit], cs))
    return groups


def trump_level(p: PublicView, seat: int) -> tuple[int | None, int]:
    """The trump suit and level a Shengji hand is grouped and headed by (before the trump is settled: the
    declaration's, else the level of the dealer's side, else of the seat's side)."""
    decl = p.get("declaration") or {}
    level = p.get("level") or decl.get("level")
    if level is None:
        side = seat % 2 if p.get("dealer") is None else p["dealer"] % 2
        level = (p.get("levels") or [2, 2])[side]
    trump = p.get("trump") if p.get("trump") is not None else decl.get("trump")
    return trump, int(level)


def table_lines(lang: str, p: PublicView, names: Sequence[str], title: str) -> list[str]:
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
    lines = [head, names_line(lang, names, dealer)]
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
            lines.append(t(lang, "table.trick") + "  " + _trick(lang, trick, names, nxt))
        elif p.get("last_trick"):
            lt = p["last_trick"]
            if isinstance(lt, dict) and lt.get("plays"):
                lines.append(t(lang, "table.last_trick") + "  " + _trick(lang, lt["plays"], names, None))
    elif phase == "paused":
        lines.append(t(lang, "table.paused"))
    elif phase in ("deal_over", "match_over"):
        # the deal's last two tricks: the one before the last may not have had an edit of its own (the bot
        # plays a last trick that leaves no choice at once: bot.tables.live.render_match)
        pt = p.get("prev_trick")
        if isinstance(pt, dict) and pt.get("plays"):
            lines.append(t(lang, "table.prev_trick") + "  " + _trick(lang, pt["plays"], names, None))
        lt = p.get("last_trick")
        if isinstance(lt, dict) and lt.get("plays"):
            lines.append(t(lang, "table.last_trick") + "  " + _trick(lang, lt["plays"], names, None))
        lines.append(t(lang, "table.deal_over"))
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
    decl = p.get("declaration") or {}
    trump, level = trump_level(p, seat)
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
        lines.append(t(lang, "table.trick") + "  " + _trick(lang, trick, names, nxt))
    if (
        my
        and any(k in ("lead", "follow", "kitty", "rebury", "choose", "overturn") for k in my)
        or ("bid" in my and phase in ("window", "blackout"))
    ):
        lines.append("👉 " + t(lang, "hand.your_turn") + until(lang, deadline))
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
    groups = group_hand(hand, trump, level)
    lines += hand_lines(lang, hand, groups)
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
            actions.append([(t(lang, f"btn.choose_{opt}"), hbtn(HandOp.CHOOSE, match_id, deal, word=opt))])
    if n:
        last.append((t(lang, "btn.clear"), hbtn(HandOp.CLEAR, match_id, deal)))
    if last:
        actions.append(last)
    return "\n".join(lines), hand_keyboard(lang, match_id, deal, groups, selection, actions)


def deal_summary(lang: str, d: EventData, names: Sequence[str]) -> str:
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


# --- what the live messages follow (bot/tables/live.py) -------------------------------------------

# Dealing and the bid window are one stage for the group (the declarations are the players' business: their
# hands show each one); the trump settled is the next (burying is the dealer's business, and the dealer
# leads the first trick, so the group's message stays right until that trick completes).
GROUP_STAGES = {
    "bury": "play",
    "rebury": "play",
    "late": "play",
    "choose": "play",
    "dealing": "declaring",
    "window": "declaring",
    "blackout": "declaring",
}
MY_MOVES = ("lead", "follow", "kitty", "rebury", "choose", "overturn")


def group_deal_stage(public: PublicView) -> str:
    p = public_part(public)
    phase = p.get("phase")
    stage = GROUP_STAGES.get(str(phase), phase)
    declaring = stage == "declaring"
    return stage_key(
        p.get("deal"),
        p.get("redeal"),
        stage,
        None if declaring else p.get("declaration"),
        None if declaring else p.get("trump"),
        p.get("level"),
        p.get("dealer"),
        p.get("levels"),
        p.get("paused"),
        p.get("time_up"),
        p.get("turned_kitty"),
        p.get("pending_choice") is not None,
        p.get("finished"),
    )


def group_tricks(public: PublicView) -> tuple[object, ...]:
    p = public_part(public)
    return (p.get("tricks_played"), p.get("points"))


def hand_step(view: SeatView) -> str:
    """ "dealing", "window" (every card dealt: the bid window) or "settled" (the trump settled: burying,
    then play)."""
    phase = public_part(view).get("phase")
    return "dealing" if phase == "dealing" else "window" if phase in ("window", "blackout") else "settled"


def hand_stage(view: SeatView) -> str:
    p = public_part(view)
    step = hand_step(view)
    deal = (p.get("deal"), p.get("redeal"))
    if step == "dealing":  # while cards arrive: when the seat gets its first way to declare (more ways,
        # or a declaration by another seat, show with the last card, a few batches later)
        return stage_key(deal, step, bool(view.get("legal_bids")))
    if step == "window":  # every card is dealt: each declaration
        return stage_key(deal, step, p.get("declaration"))
    # burying, then play: once, when the trump is settled (and again if it is overturned)
    return stage_key(deal, step, p.get("trump"), p.get("declaration"))


def must_act(view: SeatView) -> bool:
    my = view.get("my_turns") or []
    phase = public_part(view).get("phase")
    return any(k in MY_MOVES for k in my) or (
        "bid" in my and phase in ("window", "blackout") and bool(view.get("legal_bids"))
    )


def hand_news_waits(before: str | None, view: SeatView) -> bool:
    """Once the seat has seen its whole hand (``before``: the hand step it was last shown in): a
    declaration the seat cannot overturn, the trump settled for a seat that does not bury."""
    return before in ("window", "settled") and not must_act(view)


def shows_a_hand(view: SeatView) -> bool:
    """Not while the cards are dealt and the seat has no way to declare (the group's message shows the
    dealing)."""
    return public_part(view).get("phase") != "dealing" or bool(view.get("legal_bids"))


def with_trick_before_last(m: Match, public: PublicView) -> PublicView:
    """At the deal's end: the trick before the last (``prev_trick``) beside the last one."""
    tricks = getattr(m, "tricks", None)
    if m.phase not in ("deal_over", "match_over") or not tricks or len(tricks) < 2:
        return public
    if "table" in public:  # a copy: the view may be shared (cached) with other readers
        return {**public, "table": {**public["table"], "prev_trick": tricks[-2]}}
    return {**public, "prev_trick": tricks[-2]}


# --- the deal review and proof (bot/tables/review.py, deal_proof.py) -------------------------------

BIDS_AND_KITTY = True  # bids settle the trump; the kitty is dealt apart (a first drawer deals)
LAST_PLAYER_WINS_TRICK = False  # a ``trick`` event names the winner
TRICK_POINTS = True


class ShengjiPresenter:
    """Shengji's presenter (``bot.presentation.games.base.GamePresenter``)."""

    game = "shengji"
    deal_marker = staticmethod(deal_marker)
    entry_text = staticmethod(entry_text)
    group_hand = staticmethod(group_hand)
    table_lines = staticmethod(table_lines)
    hand_message = staticmethod(hand_message)
    deal_summary = staticmethod(deal_summary)
    trump_level = staticmethod(trump_level)
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
