"""One uniform list of a tournament's matches (group stage, Swiss rounds, knockout, placement) for the renderers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from bot.presentation.tournament.labels import match_title, placement_title, round_title, tier_of, w
from engine.tournament.bracket import EMPTY, KNOWN, Source
from engine.tournament.results import PairingResult
from engine.tournament.schedule import Slot
from engine.tournament.tournament import Tournament

DEFAULT_TZ = "Asia/Shanghai"


@dataclass(frozen=True)
class MatchView:
    """A match as the outputs show it.  ``a`` / ``b``: entry ids (None: empty or pending);
    ``a_text`` / ``b_text``: what stands in a slot without an entry (待定, 轮空, R1-M1胜者)."""

    id: str
    stage: str  # group | swiss | main | placement
    group: str  # group name for group matches, else ""
    round: int
    title: str
    a: str | None
    b: str | None
    a_text: str
    b_text: str
    status: str  # done | ready | walkover | void | waiting
    result: PairingResult | None
    winner: str | None  # entry id of the winner once decided (walkovers too)
    started: bool = False
    heading: str = ""  # the round's title without the match number (第1轮 / A组 第1轮 / 三四名决赛)


def _slot_text(t: Tournament, state: str, source: Source, lang: str) -> str:
    if state == EMPTY:
        return w(lang, "bye") if source.kind == "bye" else w(lang, "nobody")
    if source.kind in ("winner", "loser") and source.ref:
        title = match_title(t, source.ref, lang)
        if lang == "zh":
            title = title.replace(" ", "")
        return w(lang, "winner_of" if source.kind == "winner" else "loser_of", m=title)
    return w(lang, "tbd")


def match_views(t: Tournament, lang: str = "zh") -> list[MatchView]:
    """Every match, in playing order: group or Swiss rounds (a Swiss bye as a walkover), then knockout rounds
    (main before placement)."""
    out: list[MatchView] = []
    if t.groups is not None:
        for gm in sorted(t.groups.matches, key=lambda m: (m.round, m.group, m.id)):
            res = gm.result
            winner = None if res is None or res.winner is None else (gm.a if res.winner == "a" else gm.b)
            out.append(
                MatchView(
                    gm.id,
                    "group",
                    gm.group,
                    gm.round,
                    match_title(t, gm.id, lang),
                    gm.a,
                    gm.b,
                    "",
                    "",
                    "done" if res is not None else "ready",
                    res,
                    winner,
                    res is not None,
                    match_title(t, gm.id, lang),
                )
            )
    if t.swiss is not None:
        for sm in t.swiss.matches:
            res = sm.result
            winner = (
                sm.a
                if sm.b is None
                else (None if res is None or res.winner is None else (sm.a if res.winner == "a" else sm.b))
            )
            title = match_title(t, sm.id, lang)
            out.append(
                MatchView(
                    sm.id,
                    "swiss",
                    "",
                    sm.round,
                    title,
                    sm.a,
                    sm.b,
                    "",
                    w(lang, "bye") if sm.b is None else "",
                    "walkover" if sm.b is None else ("done" if res is not None else "ready"),
                    res,
                    winner,
                    res is not None,
                    w(lang, "swiss_round", n=sm.round),
                )
            )
    br = t.bracket
    if br is not None:
        order = {m.id: i for i, m in enumerate(br.matches)}
        for node in sorted(br.matches, key=lambda m: (m.round, m.stage != "main", order[m.id])):
            (sa, a), (sb, b) = br.slots(node.id)
            outcome = br.outcome(node)
            out.append(
                MatchView(
                    node.id,
                    node.stage,
                    "",
                    node.round,
                    match_title(t, node.id, lang),
                    a,
                    b,
                    "" if sa == KNOWN else _slot_text(t, sa, node.a, lang),
                    "" if sb == KNOWN else _slot_text(t, sb, node.b, lang),
                    br.status(node.id),
                    node.result,
                    None if outcome is None else outcome[0],
                    node.started,
                    round_title(node.round, br.rounds, lang)
                    if node.stage == "main"
                    else placement_title(*(tier_of(node.id) or node.loser_places), lang),
                )
            )
    return out


def slots_by_match(slots: Sequence[Slot] | Mapping[str, Slot] | None) -> dict[str, Slot]:
    if slots is None:
        return {}
    if isinstance(slots, Mapping):
        return dict(slots)
    return {s.match_id: s for s in slots}


def local_time(when: datetime, tz: str = DEFAULT_TZ) -> datetime:
    """An aware datetime in the tournament's zone (naive times are taken as UTC)."""
    from datetime import UTC

    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(ZoneInfo(tz or DEFAULT_TZ))


def tables_text(slot: Slot | None, table_names: Mapping[str, str] | None = None) -> str:
    if slot is None:
        return ""
    names = table_names or {}
    return ", ".join(names.get(tb, tb) for tb in slot.tables)
