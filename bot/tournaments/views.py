"""The tournament outputs from storage rows: each call turns its rows into the typed facts of
bot/presentation/tournament/outputs_text.py, where every translated text is made (no text here)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.presentation.tournament import outputs_text as out
from bot.presentation.tournament.outputs_text import (
    bracket_text,
    match_label,
    me_text,
    ranking_text,
    result_line,
    season_text,
    standings_text,
)
from bot.presentation.tournament.text import rating_texts
from engine.registry import load_preset
from engine.tournament import Tournament as Engine
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentAudit, TournamentEntry, TournamentMatch

__all__ = [
    "audit_text",
    "bracket_text",
    "entrant_text",
    "export_csv",
    "length_text",
    "match_label",
    "me_line",
    "me_text",
    "names_of",
    "prizes_text",
    "ranking_text",
    "rating_texts",
    "result_line",
    "results_text",
    "schedule_lines",
    "season_text",
    "setup_facts",
    "standings_text",
    "summary",
]


def names_of(entries: Sequence[TournamentEntry]) -> dict[str, str]:
    return {str(e.id): e.name for e in entries}


def setup_facts(row: Tournament) -> out.SetupFacts:
    s = row.settings_json or {}
    preset = load_preset(row.preset_id)
    options = ts.rule_options(row)
    late = s.get("late_forfeit_minutes")
    return out.SetupFacts(
        name=row.name,
        preset_zh=preset.title_zh,
        preset_en=preset.title_en,
        entrant=str(s.get("entrant") or "pair"),
        pairs_per_team=int(s.get("pairs_per_team", 1)),
        duplicate=bool(s.get("duplicate")),
        format=str(s.get("format")),
        late_forfeit_minutes=None if late is None else int(late),
        union_groups=tuple((str(g["name"]), int(g.get("quota") or 0)) for g in row.union_groups or []),
        deadline=ts.local_text(row.registration_deadline, row.time_zone),
        draw=ts.local_text(row.draw_at, row.time_zone),
        first=ts.local_text(row.first_round_at, row.time_zone),
        time_zone=row.time_zone,
        deals=int(options.get("deals") or 0),
        minutes=int(options.get("time_limit_minutes") or 0),
        prize_table=str(s.get("prize_table") or ""),
        round_prizes=tuple(str(p) for p in s.get("round_prizes", [])),
        champion_prize=str(s.get("champion_prize") or ""),
        prize_counts=tuple(int(n) for n in s.get("prize_counts", [])),
        souvenir_for_all=bool(s.get("souvenir_for_all")),
    )


def entrant_text(lang: str, row: Tournament) -> str:
    return out.entrant_text(lang, setup_facts(row))


def length_text(lang: str, options: Mapping[str, object]) -> str:
    deals, minutes = options.get("deals") or 0, options.get("time_limit_minutes") or 0
    return out.length_text(lang, int(str(deals)), int(str(minutes)))


def prizes_text(lang: str, row: Tournament) -> str:
    return out.prizes_text(lang, setup_facts(row))


def summary(lang: str, row: Tournament) -> str:
    return out.summary(lang, setup_facts(row))


def match_facts(
    row: Tournament, m: TournamentMatch, tables: Mapping[int, str] | None = None
) -> out.MatchFacts:
    return out.MatchFacts(
        key=m.match_key,
        side_a=m.side_a,
        side_b=m.side_b,
        status=m.status,
        start=None if m.start_at is None else ts.local_text(m.start_at, row.time_zone),
        tables=tuple((tables or {}).get(int(c), str(c)) for c in m.table_chats),
        result=m.result_json,
        confirmed=bool(m.confirmed_by),
    )


def schedule_lines(
    lang: str,
    row: Tournament,
    rows: Sequence[TournamentMatch],
    names: Mapping[str, str],
    tables: Mapping[int, str],
) -> list[str]:
    return out.schedule_lines(lang, [match_facts(row, m, tables) for m in rows], names)


def results_text(
    lang: str, eng: Engine | None, rows: Sequence[TournamentMatch], names: Mapping[str, str]
) -> str:
    """Decided matches, in the order played, each winner first with its title (决赛, 半决赛 ...)."""
    facts = [
        out.MatchFacts(
            m.match_key, m.side_a, m.side_b, m.status, None, (), m.result_json, bool(m.confirmed_by)
        )
        for m in rows
    ]
    return out.results_text(lang, eng, facts, names)


def audit_text(lang: str, rows: Sequence[TournamentAudit], tz: str, users: Mapping[int, str]) -> str:
    facts = [
        out.AuditFacts(ts.local_text(a.created_at, tz), a.actor_id, a.action, a.detail_json) for a in rows
    ]
    return out.audit_text(lang, facts, users)


def export_csv(
    row: Tournament,
    entries: Sequence[TournamentEntry],
    rows: Sequence[TournamentMatch],
    eng: Engine | None,
    users: Mapping[int, str],
) -> bytes:
    """One CSV with three sections: entries, matches, final ranking with prizes (UTF-8 with BOM for Excel)."""
    facts = [
        out.EntryFacts(
            e.id, e.name, e.union_group, tuple(users.get(int(p), str(p)) for p in e.players_json), e.status
        )
        for e in entries
    ]
    return out.export_csv(facts, [match_facts(row, m) for m in rows], eng)


def me_line(lang: str, row: Tournament, eng: Engine | None, entry_id: str, entry_name: str) -> str:
    return out.me_line(lang, row.id, row.name, eng, entry_id, entry_name)
