"""Tournament outputs as translated text: set-up summary, results, bracket, standings, schedule, audit, the
CSV export, ``/me`` and ``/season``.  Every function takes typed data (the facts below, engine objects,
names); the application layer (bot/tournaments/views.py) builds the facts from its storage rows."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from bot.presentation.tournament import text as render_text
from bot.presentation.tournament.export import formula_safe
from bot.presentation.tournament.labels import match_title
from bot.presentation.tournament.model import match_views
from bot.presentation.tournament.texts import prize_label, tt
from engine.tournament import PairingResult
from engine.tournament import Tournament as Engine
from engine.tournament.ratings import PROVISIONAL_GAMES, Rating
from engine.tournament.season import SeasonRow

ResultData = PairingResult | Mapping[str, object]


@dataclass(frozen=True)
class SetupFacts:
    """What the set-up summary shows of a tournament (times already in its zone)."""

    name: str
    preset_zh: str
    preset_en: str
    entrant: str  # pair | team
    pairs_per_team: int
    duplicate: bool
    format: str
    late_forfeit_minutes: int | None
    union_groups: tuple[tuple[str, int], ...]  # (name, quota; 0 = open)
    deadline: str
    draw: str
    first: str
    time_zone: str
    deals: int  # 0: not by deals
    minutes: int  # 0: not timed
    prize_table: str
    round_prizes: tuple[str, ...] = ()
    champion_prize: str = ""
    prize_counts: tuple[int, ...] = ()
    souvenir_for_all: bool = False


@dataclass(frozen=True)
class MatchFacts:
    """One match row as the outputs show it."""

    key: str
    side_a: str | None
    side_b: str | None
    status: str
    start: str | None  # local time text; None: not scheduled
    tables: tuple[str, ...] = ()  # table group titles
    result: Mapping[str, object] | None = None
    confirmed: bool = False


@dataclass(frozen=True)
class AuditFacts:
    when: str  # local time text
    actor_id: int | None
    action: str
    detail: Mapping[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class EntryFacts:
    id: int
    name: str
    union_group: str
    players: tuple[str, ...]  # display names
    status: str


def entrant_text(lang: str, f: SetupFacts) -> str:
    if f.entrant == "team":
        kind = "entrant.team_duplicate" if f.duplicate else "entrant.team"
        return tt(lang, kind, n=f.pairs_per_team)
    return tt(lang, "entrant.pair")


def length_text(lang: str, deals: int, minutes: int) -> str:
    parts = []
    if deals:
        parts.append(tt(lang, "setup.deals", n=deals))
    if minutes:
        parts.append(tt(lang, "setup.minutes", n=minutes))
    return " / ".join(parts) or "-"


def prizes_text(lang: str, f: SetupFacts) -> str:
    if f.prize_table == "by_round_eliminated":
        rounds = "、".join(prize_label(lang, p) for p in f.round_prizes)
        return tt(lang, "prizes.by_round", rounds=rounds, champion=prize_label(lang, f.champion_prize))
    if f.prize_table == "places_1_2_3":
        a, b, c = (list(f.prize_counts) + [0, 0, 0])[:3]
        text = tt(lang, "prizes.places", a=a, b=b, c=c)
        if f.souvenir_for_all:
            text += " + " + prize_label(lang, "souvenir")
        return text
    return prize_label(lang, f.champion_prize) if f.champion_prize else tt(lang, "prize.none")


def groups_text(f: SetupFacts) -> str:
    return "，".join(f"{name} {quota or '-'}" for name, quota in f.union_groups) or "-"


def summary(lang: str, f: SetupFacts) -> str:
    return tt(
        lang,
        "setup.summary",
        name=f.name,
        preset=f.preset_en if lang == "en" else f.preset_zh,
        entrant=entrant_text(lang, f),
        groups=groups_text(f),
        deadline=f.deadline,
        draw=f.draw,
        first=f.first,
        format=tt(lang, "format." + f.format),
        length=length_text(lang, f.deals, f.minutes),
        late=f.late_forfeit_minutes,
        tz=f.time_zone,
    )


def _score(lang: str, la: object, lb: object, how: object) -> str:
    """``（2:2）``, or with an equal score how the winner was decided: ``（2:2，台上方胜）``."""
    if how in ("dealer_side", "cut", "last_upstream", "level_difference", "table_1"):
        return tt(lang, "result.levels_how", la=la, lb=lb, how=tt(lang, f"result.how.{how}"))
    return tt(lang, "result.levels", la=la, lb=lb)


def match_label(lang: str, eng: Engine | None, key: str) -> str:
    """A match as people call it, with the key the commands use: ``决赛（R3-M1）`` / ``Final (R3-M1)``,
    ``半决赛 第1场（R2-M1）``, ``三四名决赛（P3-4-M1）``, ``A组 第1轮（A-R1-M1）``."""
    if eng is None:
        return key
    title = match_title(eng, key, lang)
    if title == key:
        return key
    return f"{title}（{key}）" if lang != "en" else f"{title} ({key})"


def result_line(lang: str, key: str, result: ResultData, a: str, b: str, eng: Engine | None = None) -> str:
    """Winner first, with the winner's score first: ``决赛（R3-M1）：医学院队 胜 机关队（2:0）``."""
    res = result if isinstance(result, PairingResult) else PairingResult.from_dict(result)
    label = match_label(lang, eng, key)
    if res.winner is None:
        return tt(lang, "result.double", key=label, a=a, b=b)
    winner, loser = (a, b) if res.winner == "a" else (b, a)

    def ordered(sa: object, sb: object) -> tuple[object, object]:
        return (sa, sb) if res.winner == "a" else (sb, sa)

    detail = ""
    if res.outcome in ("forfeit", "disqualified"):
        detail = tt(lang, "result.forfeit")
    elif len(res.tables) == 1 and res.tables[0].level_a is not None:
        t = res.tables[0]
        detail = _score(
            lang,
            *ordered(t.level_a, t.level_b),
            res.extra.get("tie_break") if t.level_a == t.level_b else None,
        )
    elif res.decided_by == "duplicate" and isinstance(res.extra.get("duplicate"), Mapping):
        dup = res.extra["duplicate"]
        detail = tt(lang, "result.duplicate", boards=len(dup.get("boards", ())), total=abs(int(dup["total"])))
    elif len(res.tables) > 1:
        la, lb = res.tables_won("a"), res.tables_won("b")
        detail = _score(lang, *ordered(la, lb), res.decided_by if la == lb else None)
    return tt(lang, "result.line", key=label, winner=winner, loser=loser, detail=detail)


def bracket_text(lang: str, eng: Engine, names: Mapping[str, str]) -> str:
    lines: list[str] = []
    if eng.swiss is not None:
        for sm in eng.swiss.matches:
            name_a = names.get(sm.a, sm.a)
            if sm.b is None:
                lines.append(f"{match_label(lang, eng, sm.id)}: {name_a} — {tt(lang, 'out.bye')}")
                continue
            name_b = names.get(sm.b, sm.b)
            if sm.result is not None:
                lines.append(result_line(lang, sm.id, sm.result, name_a, name_b, eng))
            else:
                lines.append(f"{match_label(lang, eng, sm.id)}: {name_a} vs {name_b}")
    if eng.groups is not None:
        for g, members in eng.groups.groups.items():
            lines.append(tt(lang, "out.group", group=g) + " " + "、".join(names.get(e, e) for e in members))
    if eng.bracket is not None:
        br = eng.bracket
        for m in sorted(br.matches, key=lambda m: (m.round, m.stage != "main", br.matches.index(m))):
            (sa, a), (sb, b) = br.slots(m.id)

            def side(state: str, entry: str | None, rnd: int = m.round) -> str:
                if entry is not None:
                    return names.get(entry, entry)
                return tt(lang, "out.bye") if state == "empty" and rnd == 1 else tt(lang, "out.tbd")

            line = f"{match_label(lang, eng, m.id)}: {side(sa, a)} vs {side(sb, b)}"
            out = br.outcome(m)
            if m.result is not None and a is not None and b is not None:
                line = result_line(lang, m.id, m.result, names.get(a, a), names.get(b, b), eng)
            elif out is not None and out[0] is not None and br.status(m.id) == "walkover":
                line += f" → {names.get(out[0], out[0])}"
            lines.append(line)
    return tt(lang, "out.bracket", lines="\n".join(lines)) if lines else tt(lang, "out.no_draw")


def ranking_text(lang: str, eng: Engine, ratings: Mapping[str, str] | None = None) -> str:
    """The final ranking with the prizes (partial while the tournament runs); ``ratings``: entry id -> its
    rating as shown (``1562`` or ``1500?``), added to each line, then what the ratings mean."""
    lines = []
    for r in eng.ranking():
        if r.place is None and (not r.prize or not eng.finished):  # still playing: no place, no prize yet
            continue
        prize = f" — {prize_label(lang, r.prize)}" if r.prize else ""
        note = f"（{r.note}）" if r.note and lang == "zh" else (f" ({r.note})" if r.note else "")
        lines.append(
            tt(
                lang,
                "out.ranking_line",
                place=r.place if r.place is not None else "-",
                name=r.name,
                prize=prize,
            )
            + note
            + render_text.rating_suffix(lang, ratings, r.entry_id)
        )
    if lines and ratings and any(r.entry_id in ratings for r in eng.ranking()):
        lines.append(render_text.rating_note(lang))
    return "\n".join(lines)


def standings_text(
    lang: str, eng: Engine, names: Mapping[str, str], ratings: Mapping[str, str] | None = None
) -> str:
    """Group tables with translated columns and tiebreaks (bot/presentation/tournament/text.py), then the
    ranking once the knockout has one; ``ratings`` (entry id -> rating as shown) on every line of both."""
    parts = (
        [render_text.standings_text(eng, lang, ratings=ratings)]
        if eng.groups is not None or eng.swiss is not None
        else []
    )
    if eng.bracket is not None:
        ranking = ranking_text(lang, eng, ratings)
        if ranking:
            parts.append(tt(lang, "out.standings", lines=ranking))
        elif not parts:
            parts.append(render_text.standings_text(eng, lang))
    return "\n\n".join(parts) or tt(lang, "out.no_draw")


def schedule_lines(lang: str, matches: Sequence[MatchFacts], names: Mapping[str, str]) -> list[str]:
    return [
        tt(
            lang,
            "sched.line",
            key=m.key,
            a=names.get(m.side_a or "", "?"),
            b=names.get(m.side_b or "", "?"),
            time=m.start,
            tables="、".join(m.tables),
        )
        for m in matches
        if m.start is not None
    ]


def results_text(
    lang: str, eng: Engine | None, matches: Sequence[MatchFacts], names: Mapping[str, str]
) -> str:
    """Decided matches, in the order played, each winner first with its title (决赛, 半决赛 ...)."""
    lines = [
        result_line(
            lang, m.key, m.result, names.get(m.side_a or "", "?"), names.get(m.side_b or "", "?"), eng
        )
        + (" ✔" if m.confirmed else "")
        for m in matches
        if m.result is not None
    ]
    return tt(lang, "out.results", lines="\n".join(lines)) if lines else tt(lang, "out.no_results")


def audit_text(lang: str, rows: Sequence[AuditFacts], users: Mapping[int, str]) -> str:
    lines = []
    for a in rows:
        who = users.get(a.actor_id, str(a.actor_id)) if a.actor_id is not None else tt(lang, "audit.bot")
        detail = " ".join(f"{k}={v}" for k, v in a.detail.items())
        lines.append(f"{a.when} {who} {a.action} {detail}".strip())
    return tt(lang, "audit.title", n=len(rows), lines="\n".join(lines))


class _SafeWriter:
    """A csv writer whose text cells cannot become spreadsheet formulas (bot/presentation/tournament/export.py)."""

    def __init__(self, buf: io.StringIO) -> None:
        self.writer = csv.writer(buf)

    def writerow(self, row: Sequence[object]) -> None:
        self.writer.writerow([formula_safe(v) if isinstance(v, str) else v for v in row])


def export_csv(entries: Sequence[EntryFacts], matches: Sequence[MatchFacts], eng: Engine | None) -> bytes:
    """One CSV with three sections: entries, matches, final ranking with prizes (UTF-8 with BOM for Excel)."""
    buf = io.StringIO()
    w = _SafeWriter(buf)
    w.writerow(["entries"])
    w.writerow(["id", "name", "union_group", "players", "status"])
    for e in entries:
        w.writerow([e.id, e.name, e.union_group, " / ".join(e.players), e.status])
    names = {str(e.id): e.name for e in entries}
    w.writerow([])
    w.writerow(["matches"])
    w.writerow(["match", "start", "a", "b", "winner", "outcome", "tables", "confirmed"])
    for m in matches:
        res = PairingResult.from_dict(m.result) if m.result is not None else None
        winner = res.winner if res is not None else None
        w.writerow(
            [
                m.key,
                m.start or "-",
                names.get(m.side_a or "", ""),
                names.get(m.side_b or "", ""),
                names.get((m.side_a if winner == "a" else m.side_b) or "", "") if winner else "",
                res.outcome if res is not None else m.status,
                " ".join(f"{t.table}:{t.winner}:{t.level_a}-{t.level_b}" for t in res.tables) if res else "",
                "yes" if m.confirmed else "",
            ]
        )
    if eng is not None and eng.draw is not None:
        w.writerow([])
        w.writerow(["ranking"])
        w.writerow(["place", "name", "union_group", "prize", "prize_zh", "eliminated_round", "note"])
        for r in eng.ranking():
            d = r.to_dict()
            w.writerow(
                [
                    d["place"],
                    d["name"],
                    d["union_group"],
                    d["prize"],
                    d["prize_zh"],
                    d["eliminated_round"],
                    d["note"],
                ]
            )
    return ("\ufeff" + buf.getvalue()).encode("utf-8")


def entry_record(eng: Engine, entry_id: str) -> tuple[int, int]:
    """(won, lost) of an entry's played matches (Swiss rounds, groups and knockout; byes not counted)."""
    won = lost = 0
    for mv in match_views(eng):
        if mv.result is None or entry_id not in (mv.a, mv.b) or mv.a is None or mv.b is None:
            continue
        if mv.winner == entry_id:
            won += 1
        elif mv.winner is not None or mv.result.double_forfeit:
            lost += 1
    return won, lost


def me_text(lang: str, name: str, ratings: Mapping[str, Rating], lines: Sequence[str]) -> str:
    """``/me``: the player's ratings per game, then one line per tournament (newest first)."""
    rated = [
        tt(lang, "me.rating", game=tt(lang, f"game.{g}"), rating=r.text(), games=r.games)
        for g, r in sorted(ratings.items())
        if r.games
    ]
    out = [
        tt(lang, "me.title", name=name),
        tt(
            lang,
            "me.ratings",
            n=PROVISIONAL_GAMES,
            ratings="；".join(rated)
            if lang != "en" and rated
            else "; ".join(rated) or tt(lang, "me.no_rating"),
        ),
        "",
    ]
    out += [tt(lang, "me.tournaments"), *lines] if lines else [tt(lang, "me.none")]
    return "\n".join(out)


def me_line(lang: str, tid: int, name: str, eng: Engine | None, entry_id: str, entry_name: str) -> str:
    won, lost = entry_record(eng, entry_id) if eng is not None else (0, 0)
    extra = ""
    if eng is not None and eng.finished:
        place = next((r.place for r in eng.ranking() if r.entry_id == entry_id), None)
        prize = next((r.prize for r in eng.ranking() if r.entry_id == entry_id), "")
        if place is not None:
            extra = tt(lang, "me.place", place=place) + (f" · {prize_label(lang, prize)}" if prize else "")
    elif eng is not None:
        extra = tt(lang, "me.running")
    return tt(lang, "me.line", id=tid, name=name, entry=entry_name, won=won, lost=lost, extra=extra)


SEASON_SHOWN = 30


def season_text(
    lang: str,
    titles: Sequence[str],
    players: Sequence[SeasonRow],
    groups: Sequence[SeasonRow],
    names: Mapping[int, str],
) -> str:
    """``/season``: the players' table (the first 30) and the union groups' table."""

    def best(r: SeasonRow) -> str:
        return tt(lang, "season.best", place=r.best_place) if r.best_place else ""

    sep = "、" if lang != "en" else ", "
    lines = [tt(lang, "season.title", names=sep.join(titles)), "", tt(lang, "season.players")]
    for i, r in enumerate(players[:SEASON_SHOWN], start=1):
        lines.append(
            tt(
                lang,
                "season.row",
                rank=i,
                name=names.get(int(r.key), r.key) if r.key.isdigit() else r.key,
                group=r.union_group or "-",
                points=r.points,
                won=r.won,
                drawn=r.drawn,
                lost=r.lost,
                t=r.tournaments,
                best=best(r),
            )
        )
    if len(players) > SEASON_SHOWN:
        lines.append(tt(lang, "season.more", n=len(players) - SEASON_SHOWN))
    if any(g.key for g in groups):
        lines += ["", tt(lang, "season.groups")]
        for i, g in enumerate((g for g in groups if g.key), start=1):
            lines.append(
                tt(
                    lang,
                    "season.group_row",
                    rank=i,
                    name=g.key,
                    points=g.points,
                    won=g.won,
                    drawn=g.drawn,
                    lost=g.lost,
                    best=best(g),
                )
            )
    return "\n".join(lines)
