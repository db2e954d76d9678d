"""The organiser's dashboard as text: the latest registrations, entries by union group and quota, who
has not checked in, the tables running (levels, time left), disputes waiting for a referee."""

from __future__ import annotations

from collections.abc import Mapping

from bot.presentation.tournament.texts import tt
from bot.tournaments import views
from bot.tournaments.context import TournamentContext
from storage import match_repo
from storage import tournaments as ts
from storage.tournament_models import Tournament

REGISTRATIONS = ("pair_registered", "register_on_behalf", "team_formed", "withdraw", "replace_player")


def _levels(view: object) -> list[int] | None:
    """Both sides' levels from a public view (Shengji keeps them under ``table``)."""
    if not isinstance(view, Mapping):
        return None
    levels = view.get("levels")
    if levels is None and isinstance(view.get("table"), Mapping):
        levels = view["table"].get("levels")
    return list(levels) if levels else None


ENDED = ("finished", "cancelled", "deleted")


async def dashboard_text(
    ctx: TournamentContext, row: Tournament, lang: str, live: bool, seconds: float
) -> str:
    """The dashboard text of ``row`` in ``lang`` (``live``: the message follows changes, edited at most once
    per ``seconds``)."""
    db = ctx.db
    lines = [tt(lang, "dash.title", name=row.name, id=row.id, status=tt(lang, "dash.status." + row.status))]
    # registrations as they come in
    audit = [a for a in await ts.audit_log(db, row.id, 200) if a.action in REGISTRATIONS][-5:]
    entries = await ts.entries(db, row.id)
    names = views.names_of(await ts.entries(db, row.id, include_withdrawn=True))
    lines.append(tt(lang, "dash.latest"))
    for a in reversed(audit):
        what = names.get(str(a.detail_json.get("entry")), a.detail_json.get("name", "?"))
        lines.append(
            f"  {ts.local_text(a.created_at, row.time_zone)[5:]} {tt(lang, 'dash.act.' + a.action)} {what}"
        )
    if not audit:
        lines.append("  -")
    # entries by union group and quota
    kind = "team" if row.settings_json.get("entrant") == "team" else "pair"
    groups = [g["name"] for g in row.union_groups or []] or sorted({e.union_group for e in entries})
    lines.append(tt(lang, "dash.groups"))
    for g in groups:
        quota = next((int(x.get("quota", 0)) for x in row.union_groups or [] if x["name"] == g), 0)
        have = sum(1 for e in entries if e.union_group == g and e.kind == kind)
        pairs = sum(1 for e in entries if e.union_group == g and e.kind == "pair")
        extra = tt(lang, "dash.pairs", n=pairs) if kind == "team" else ""
        lines.append(f"  {g or '-'}：{have}/{quota or '∞'} {tt(lang, 'unit.' + kind)}{extra}")
    matches = await ts.matches(db, row.id)
    # who has not checked in for the matches to come
    coming = [m for m in matches if m.status in ("scheduled", "open", "playing") and m.start_at is not None]
    lines.append(tt(lang, "dash.checkin"))
    shown = False
    for m in sorted(coming, key=lambda x: (x.start_at, x.match_key)):
        present = await ts.checkins(db, row.id, m.match_key)
        missing = []
        for k, (pa, pb) in enumerate(await ts.match_players(db, m), start=1):
            if str(k) in m.table_results:
                continue
            gone = [u for u in (*pa, *pb) if u not in present]
            if gone:
                people = await ts.user_names(db, gone)
                missing.append(tt(lang, "dash.table", k=k) + "、".join(people[u] for u in gone))
        if missing:
            shown = True
            lines.append(
                f"  {m.match_key} {ts.local_text(m.start_at, row.time_zone)[5:]}：" + "；".join(missing)
            )
    if not shown:
        lines.append("  -")
    # tables running: levels and time left
    lines.append(tt(lang, "dash.running"))
    running = False
    for m in matches:
        if m.status not in ("open", "playing"):
            continue
        for k, table_id in enumerate(m.game_tables, start=1):
            if table_id is None:
                continue
            match_row = await match_repo.current_match(db, int(table_id))
            if match_row is None or match_row.status not in ("playing", "paused"):
                continue
            running = True
            engine_match, _ = await match_repo.load_match(db, match_row.id)
            levels = _levels(engine_match.public_view())
            score = f"{levels[0]}:{levels[1]}" if levels else "-"
            pending = await ctx.deadlines.pending(db, "match_time", f"match:{match_row.id}:time")
            left = (
                f"{max(0, int((pending[0].due_at - ctx.now()).total_seconds() // 60))}′" if pending else "-"
            )
            state = tt(lang, "dash.paused") if match_row.status == "paused" else ""
            lines.append(
                "  "
                + tt(
                    lang,
                    "dash.table_line",
                    key=m.match_key,
                    k=k,
                    deal=engine_match.deal_no,
                    score=score,
                    left=left,
                )
                + state
            )
    if not running:
        lines.append("  -")
    # disputes waiting for a referee: a match whose tables are all in without a result (level in a knockout)
    lines.append(tt(lang, "dash.disputes"))
    waiting = []
    for m in matches:
        if m.result_json is not None or m.status in ("finished", "void"):
            continue
        count = len(await ts.match_players(db, m))
        done = [k for k in m.table_results if k.isdigit()]
        if count and len(done) >= count:
            waiting.append(f"  {m.match_key}：" + tt(lang, "dash.referee_needed", key=m.match_key))
    lines += waiting or ["  -"]
    lines.append(tt(lang, "dash.live", seconds=int(seconds)) if live else tt(lang, "dash.not_live"))
    return "\n".join(lines)
