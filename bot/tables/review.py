"""Deal review: a finished (or, for referees, running) deal as one self-contained HTML file.

Pure functions, no I/O: ``deal_records`` replays a stored match log (game, options, seed, the
ordered action texts) once and cuts it into one ``DealRecord`` per deal — the four starting
hands, the bids, the kitty and what was buried (Shengji), the tribute (Guandan), every trick
with its winner and points, and the deal summary (scoring, level change).  ``review_html``
renders chosen deals as an HTML page with inline CSS and no external asset (no script, no
font, no image), so it opens offline on any phone.

Who may receive which deal is decided by ``may_review`` (tested): a deal's hands go only to a
seated player once that deal is over, to the group once the whole match is over, and to the
tournament's referees at any time.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.presentation import render
from bot.presentation.common import EventData
from bot.presentation.games import presenter
from bot.presentation.i18n import cards as tcards
from bot.presentation.i18n import t
from bot.presentation.keyboards import rank_text, seat_name, side_name, suit_text
from engine.cards import card_text, parse_cards, suit_of
from engine.events import Event
from engine.registry import match_from_stored


@dataclass
class Trick:
    plays: list[tuple[int, str | None]] = field(default_factory=list)  # (seat, cards text); None: a pass
    winner: int | None = None
    points: int | None = None
    note: str = ""  # e.g. a failed throw


@dataclass
class DealRecord:
    """One deal as it happened (from the replayed log)."""

    deal_no: int
    redeals: int = 0
    hands: list[list[int]] | None = None  # the four starting hands as dealt (before kitty / tribute)
    kitty: list[int] | None = None  # Shengji: the 8 kitty cards as dealt
    first_drawer: int | None = None  # Shengji: the seat that drew the first card
    bids: list[tuple[int, str, str]] = field(default_factory=list)  # (seat, kind, cards text)
    trump: EventData | None = None  # Shengji: {"dealer", "level", "trump"}
    buried: list[tuple[int, str]] = field(default_factory=list)  # (seat, cards text)
    tribute: list[str] = field(default_factory=list)  # Guandan tribute lines (already worded)
    tricks: list[Trick] = field(default_factory=list)
    summary: EventData | None = None  # the engine's deal_over data
    finished: bool = False
    first_seq: int = 0  # first action (1-based) of this deal in the match log
    last_seq: int = 0


def deal_records(
    game: str, options_json: Mapping[str, object], seed: int, actions: Sequence[str]
) -> list[DealRecord]:
    """Replay the log once and cut it into deals (the last one may be unfinished)."""
    m = match_from_stored(game, options_json, seed)
    records: list[DealRecord] = []
    current: DealRecord | None = None
    if m.deal_no > 0:  # the first deal begins with the match (Shengji): no deal_started event for it
        current = DealRecord(deal_no=m.deal_no, first_seq=1)
        records.append(current)
    seq = 0
    for action in actions:
        seq += 1
        events = m.apply(action)
        for ev in events:
            kind, d = ev.kind, dict(ev.data)
            if kind == "deal_started":  # one event vocabulary (engine/events.py); replays re-derive events
                no = int(d.get("deal_no") or len(records) + 1)
                if current is not None and current.deal_no == no:
                    continue
                current = DealRecord(deal_no=no, first_seq=seq)
                records.append(current)
                continue
            if current is None:
                continue
            _take_event(game, current, kind, d, action)
        if current is None:
            continue
        current.last_seq = seq
        dealt = m.dealt_cards() if m.deal_no == current.deal_no else None
        if dealt is None:
            continue
        if current.hands is None or current.redeals != m.redeal_no:  # dealt (again: a Shengji redeal)
            current.hands = [list(h) for h in dealt.hands]
            current.kitty = list(dealt.kitty) if dealt.kitty else None
            current.first_drawer = dealt.first_drawer
            current.redeals = m.redeal_no
    return records


def _open_trick(rec: DealRecord) -> Trick:
    if not rec.tricks or rec.tricks[-1].winner is not None:
        rec.tricks.append(Trick())
    return rec.tricks[-1]


def _take_event(game: str, rec: DealRecord, kind: str, d: EventData, action: str) -> None:
    if kind == "redeal":
        rec.hands, rec.kitty, rec.bids, rec.trump, rec.buried, rec.tricks = None, None, [], None, [], []
    elif kind in ("bid", "overturn"):
        rec.bids.append((int(d["seat"]), kind, str(d.get("cards", ""))))
    elif kind == "trump":
        rec.trump = {"dealer": d.get("dealer"), "level": d.get("level"), "trump": d.get("trump")}
    elif kind == "buried":
        _, _, rest = action.partition(" bury ")
        rec.buried.append((int(d["seat"]), rest.strip()))
    elif kind == "play":
        _open_trick(rec).plays.append((int(d["seat"]), str(d.get("cards", ""))))
    elif kind == "pass":  # (Guandan)
        _open_trick(rec).plays.append((int(d["seat"]), None))
    elif kind == "throw_failed":
        _open_trick(rec).note = "throw_failed"
    elif kind == "trick":  # Shengji: the trick is over
        tr = _open_trick(rec)
        tr.winner, tr.points = int(d["winner"]), int(d.get("points") or 0)
    elif kind == "new_lead":  # (Guandan) the others passed: the trick is over
        _close_by_last_play(rec)
    elif kind == "tribute_paid":
        rec.tribute.append(f"pay:{d.get('seat')}:{d.get('card')}")
    elif kind == "tribute_returned":
        _, _, rest = action.partition(" return ")
        rec.tribute.append(f"return:{d.get('seat')}:{d.get('to')}:{rest.strip()}")
    elif kind == "deal_over":
        if presenter(game).LAST_PLAYER_WINS_TRICK:
            _close_by_last_play(rec)
        rec.summary = d
        rec.finished = True


def _close_by_last_play(rec: DealRecord) -> None:
    if not rec.tricks or rec.tricks[-1].winner is not None:
        return
    tr = rec.tricks[-1]
    played = [s for s, c in tr.plays if c is not None]
    tr.winner = played[-1] if played else None


# --- who may see a deal ------------------------------------------------------------------------------


def may_review(
    *, seated: bool, referee: bool, deal_finished: bool, match_finished: bool, in_group: bool = False
) -> bool:
    """Whether a deal's review (with all four hands) may be given.

    * a referee of the tournament: any deal, also one in progress;
    * a player seated at the table: a finished deal, in their private chat;
    * the group (anyone there): only once the whole match is over.
    """
    if referee:
        return True
    if not deal_finished:
        return False
    if in_group:
        return match_finished
    return seated


# --- HTML ------------------------------------------------------------------------------------------

_CSS = """
body{font-family:-apple-system,"PingFang SC","Noto Sans CJK SC","Microsoft YaHei",sans-serif;
margin:1em;color:#222;background:#fafafa;line-height:1.4}
h1{font-size:1.3em}h2{font-size:1.15em;border-bottom:1px solid #ccc;margin-top:1.5em}
table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.25em .5em;
vertical-align:top;text-align:left}th{background:#eee}.r{color:#c00}.k{color:#000}
.w{font-weight:bold;background:#fff6d5}.muted{color:#777}.mono{font-family:monospace;word-break:break-all}
"""


def _cards_html(lang: str, text: str | None) -> str:
    """Card text with red hearts and diamonds (escaped)."""
    if not text:
        return "—"
    out = []
    for tok in tcards(lang, text).split():
        cls = "r" if tok.startswith(("♥", "♦")) or tok == "大王" or tok == "BJ" else "k"
        out.append(f'<span class="{cls}">{html.escape(tok)}</span>')
    return " ".join(out)


def _hand_html(lang: str, hand: Sequence[int]) -> str:
    rows = []
    by_suit: dict[int, list[int]] = {}
    for c in hand:
        by_suit.setdefault(suit_of(c), []).append(c)
    for suit in sorted(by_suit):
        rows.append(_cards_html(lang, " ".join(card_text(c) for c in by_suit[suit])))
    return "<br>".join(rows) or "—"


def _who(lang: str, names: Sequence[str], seat: int) -> str:
    return html.escape(f"{seat_name(lang, seat)} {names[seat]}")


def _deal_section(
    lang: str, game: str, rec: DealRecord, names: Sequence[str], fairness: Mapping[str, object] | None
) -> str:
    e = html.escape
    parts = [f'<h2 id="deal-{rec.deal_no}">{e(t(lang, "review.deal", deal=rec.deal_no))}</h2>']
    if not rec.finished:
        parts.append(f'<p class="muted">{e(t(lang, "review.in_progress"))}</p>')
    if rec.redeals:
        parts.append(f'<p class="muted">{e(t(lang, "review.redeals", n=rec.redeals))}</p>')
    # starting hands
    parts.append(f"<h3>{e(t(lang, 'review.hands'))}</h3><table><tr>")
    parts.append("".join(f"<th>{_who(lang, names, s)}</th>" for s in range(4)) + "</tr><tr>")
    for s in range(4):
        hand = rec.hands[s] if rec.hands else []
        parts.append(f"<td>{_hand_html(lang, hand)}</td>")
    parts.append("</tr></table>")
    shows = presenter(game)
    if shows.BIDS_AND_KITTY:
        parts.append(
            f"<p>{e(t(lang, 'review.kitty'))}: "
            f"{_cards_html(lang, ' '.join(card_text(c) for c in rec.kitty or []))}</p>"
        )
        parts.append(f"<h3>{e(t(lang, 'review.bids'))}</h3>")
        if rec.bids:
            parts.append(
                "<ul>"
                + "".join(
                    f"<li>{_who(lang, names, s)}: {_cards_html(lang, c)}"
                    f"{' (' + e(t(lang, 'review.overturn')) + ')' if k == 'overturn' else ''}</li>"
                    for s, k, c in rec.bids
                )
                + "</ul>"
            )
        else:
            parts.append(f"<p>{e(t(lang, 'review.no_bids'))}</p>")
        if rec.trump:
            dealer = rec.trump.get("dealer")
            parts.append(
                "<p>"
                + e(
                    t(
                        lang,
                        "review.trump",
                        dealer=seat_name(lang, int(dealer)) if dealer is not None else "?",
                        level=rank_text(rec.trump.get("level")),
                        trump=suit_text(rec.trump.get("trump")),
                    )
                )
                + "</p>"
            )
        for s, c in rec.buried:
            parts.append(
                f"<p>{e(t(lang, 'review.buried', who=seat_name(lang, s)))}: {_cards_html(lang, c)}</p>"
            )
    elif rec.tribute:
        parts.append(f"<h3>{e(t(lang, 'review.tribute'))}</h3><ul>")
        for line in rec.tribute:
            bits = line.split(":", 3)
            if bits[0] == "pay":
                parts.append(
                    f"<li>{e(t(lang, 'review.tribute_paid', who=seat_name(lang, int(bits[1]))))} "
                    f"{_cards_html(lang, bits[2])}</li>"
                )
            else:
                label = t(
                    lang,
                    "review.tribute_returned",
                    who=seat_name(lang, int(bits[1])),
                    to=seat_name(lang, int(bits[2])),
                )
                parts.append(f"<li>{e(label)} {_cards_html(lang, bits[3])}</li>")
        parts.append("</ul>")
    # tricks
    parts.append(f"<h3>{e(t(lang, 'review.tricks'))}</h3>")
    if rec.tricks:
        head = (
            [t(lang, "review.trick_no")]
            + [f"{seat_name(lang, s)} {names[s]}" for s in range(4)]
            + [t(lang, "review.winner")]
            + ([t(lang, "review.points")] if shows.TRICK_POINTS else [])
        )
        parts.append("<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>")
        for i, tr in enumerate(rec.tricks, start=1):
            cells: list[list[str]] = [[] for _ in range(4)]
            for k, (s, played) in enumerate(tr.plays):
                lead = "▶ " if k == 0 else ""
                cells[s].append(
                    lead + (_cards_html(lang, played) if played is not None else e(t(lang, "gd.pass")))
                )
            row = [f"<td>{i}</td>"]
            for s in range(4):
                cls = ' class="w"' if tr.winner == s else ""
                row.append(f"<td{cls}>{'<br>'.join(cells[s]) or ''}</td>")
            row.append(f"<td>{e(seat_name(lang, tr.winner)) if tr.winner is not None else '…'}</td>")
            if shows.TRICK_POINTS:
                note = f" ({e(t(lang, 'review.throw_failed'))})" if tr.note else ""
                row.append(f"<td>{tr.points if tr.points is not None else ''}{note}</td>")
            parts.append("<tr>" + "".join(row) + "</tr>")
        parts.append("</table>")
    else:
        parts.append("<p>—</p>")
    # scoring
    if rec.summary is not None:
        parts.append(f"<h3>{e(t(lang, 'review.result'))}</h3>")
        text = render.announcement(lang, game, Event("deal_over", dict(rec.summary)), list(names)) or ""
        parts.append("<p>" + "<br>".join(e(x) for x in text.split("\n")) + "</p>")
    if fairness:
        parts.append(f"<h3>{e(t(lang, 'review.fairness'))}</h3><table>")
        for key in ("commitment", "deal_seed", "salt", "mix", "verify"):
            if fairness.get(key):
                parts.append(
                    f"<tr><th>{e(t(lang, 'review.f_' + key))}</th>"
                    f'<td class="mono">{e(str(fairness[key]))}</td></tr>'
                )
        parts.append("</table>")
    return "\n".join(parts)


def review_html(
    lang: str,
    *,
    game: str,
    title: str,
    names: Sequence[str],
    records: Sequence[DealRecord],
    deal_nos: Sequence[int] | None = None,
    result_line: str | None = None,
    fairness: Mapping[int, Mapping[str, object]] | None = None,
) -> str:
    """The review page of ``deal_nos`` (None: every deal of ``records``), self-contained HTML."""
    chosen = [r for r in records if deal_nos is None or r.deal_no in deal_nos]
    e = html.escape
    heading = t(lang, "review.heading", title=title)
    body = [
        f"<h1>{e(heading)}</h1>",
        "<p>" + " · ".join(_who(lang, names, s) for s in range(4)) + "</p>",
        f'<p class="muted">{e(side_name(lang, 0))}: {_who(lang, names, 0)}, {_who(lang, names, 2)} · '
        f"{e(side_name(lang, 1))}: {_who(lang, names, 1)}, {_who(lang, names, 3)}</p>",
    ]
    if result_line:
        body.append(f"<p><b>{e(result_line)}</b></p>")
    for rec in chosen:
        body.append(_deal_section(lang, game, rec, names, (fairness or {}).get(rec.deal_no)))
    html_lang = "zh-CN" if lang == "zh" else "en"
    return (
        f'<!DOCTYPE html>\n<html lang="{html_lang}"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{e(heading)}</title><style>{_CSS}</style></head><body>\n"
        + "\n".join(body)
        + "\n</body></html>\n"
    )


def parse_deal_arg(text: str | None) -> int | None:
    """``/review 3`` → 3; no number → None (the last finished deal); anything else → ValueError."""
    if text is None or not text.strip():
        return None
    value = text.strip()
    if not value.isdigit() or len(value) > 4 or int(value) < 1:
        raise ValueError(value)
    return int(value)


def cards_of(text: str) -> list[int]:
    return parse_cards(text) if text else []
