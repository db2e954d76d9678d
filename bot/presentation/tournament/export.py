"""``/export``: entries, matches and the final ranking with prizes, as CSV files and one .xlsx workbook.

Three tables (headers in the chosen language):

* entries (参赛名单 / Entries): id, name, union group, players, seed, draw position, group, status;
* matches (对阵 / Matches): id, stage, round, start (the tournament's time zone), tables, sides,
  score, winner, outcome, how it was decided, per-table detail, note;
* ranking (名次与奖项 / Ranking & prizes): place, entry, union group, players, prize,
  round eliminated, note — from ``Tournament.ranking()`` (engine/tournament/prizes.py).

CSV files are UTF-8 with a byte-order mark and CRLF line ends, so Excel opens Chinese
correctly; the workbook has one sheet per table, bold frozen header, real date-times.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter

from bot.presentation.tournament.labels import (
    DECIDED_BY,
    OUTCOMES,
    check_lang,
    entry_names,
    players_text,
    prize_name,
    round_title,
    score_line,
    table_details,
    w,
)
from bot.presentation.tournament.model import DEFAULT_TZ, local_time, match_views, slots_by_match, tables_text
from engine.tournament.schedule import Slot
from engine.tournament.season import SeasonRow
from engine.tournament.tournament import Tournament

CSV_MIME = "text/csv"
XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

SHEETS = {
    "entries": ("参赛名单", "Entries"),
    "matches": ("对阵", "Matches"),
    "ranking": ("名次与奖项", "Ranking & prizes"),
}
HEADERS: dict[str, tuple[tuple[str, str], ...]] = {
    "entries": (
        ("编号", "ID"),
        ("队名", "Entry"),
        ("工会小组", "Union group"),
        ("队员", "Players"),
        ("种子", "Seed"),
        ("签位", "Draw position"),
        ("小组", "Group"),
        ("状态", "Status"),
    ),
    "matches": (
        ("场次", "Match"),
        ("阶段", "Stage"),
        ("轮次", "Round"),
        ("开始时间", "Start"),
        ("牌桌", "Tables"),
        ("甲方", "Side A"),
        ("乙方", "Side B"),
        ("比分", "Score"),
        ("胜者", "Winner"),
        ("结果", "Outcome"),
        ("决定方式", "Decided by"),
        ("各桌", "Table detail"),
        ("备注", "Note"),
    ),
    "ranking": (
        ("名次", "Place"),
        ("队名", "Entry"),
        ("工会小组", "Union group"),
        ("队员", "Players"),
        ("奖项", "Prize"),
        ("淘汰轮次", "Eliminated in"),
        ("备注", "Note"),
    ),
}
STATUS_WORDS = {
    "waiting": ("待定", "waiting"),
    "ready": ("未赛", "not played"),
    "walkover": ("轮空晋级", "walkover"),
    "void": ("无比赛", "void"),
}
NOTE_WORDS = {"disqualified": ("取消资格", "disqualified")}
TIME_FORMAT = "%Y-%m-%d %H:%M"

Cell = str | int | datetime | None


@dataclass(frozen=True)
class ExportFile:
    """One file to send: ``filename``, its bytes and MIME type."""

    filename: str
    data: bytes
    mime: str

    def as_bytesio(self) -> io.BytesIO:
        buf = io.BytesIO(self.data)
        buf.name = self.filename
        return buf


@dataclass(frozen=True)
class Table:
    key: str
    title: str
    header: list[str]
    rows: list[list[Cell]]


def _i(lang: str) -> int:
    return 0 if check_lang(lang) == "zh" else 1


def _header(key: str, lang: str) -> list[str]:
    return [pair[_i(lang)] for pair in HEADERS[key]]


def entries_table(t: Tournament, lang: str = "zh", player_names: Mapping[str, str] | None = None) -> Table:
    """参赛名单: every entry in registration order."""
    position: dict[str, int] = {}
    if t.draw is not None:
        position = {e: i + 1 for i, e in enumerate(t.draw.bracket) if e is not None}
    group_of: dict[str, str] = {}
    if t.groups is not None:
        group_of = {e: g for g, members in t.groups.groups.items() for e in members}
    rows: list[list[Cell]] = []
    for e in t.entries:
        status = NOTE_WORDS["disqualified"][_i(lang)] if t.conduct.disqualified(e.id) else ""
        rows.append(
            [
                e.id,
                e.name,
                e.union_group,
                players_text(e, player_names),
                e.seed_no,
                position.get(e.id),
                w(lang, "group", g=group_of[e.id]) if e.id in group_of else "",
                status,
            ]
        )
    return Table("entries", SHEETS["entries"][_i(lang)], _header("entries", lang), rows)


def matches_table(
    t: Tournament,
    lang: str = "zh",
    slots: Sequence[Slot] | Mapping[str, Slot] | None = None,
    tz: str = DEFAULT_TZ,
    table_names: Mapping[str, str] | None = None,
) -> Table:
    """对阵: every match that has or will have entries (void byes left out), in playing order.
    Start times are naive date-times in ``tz`` (the tournament's zone)."""
    by_slot = slots_by_match(slots)
    team = t.settings.entrant == "team"
    names = entry_names(t)
    li = _i(lang)
    rows: list[list[Cell]] = []
    for mv in match_views(t, lang):
        if mv.status == "void":
            continue
        stage = (
            w(lang, "group_stage")
            if mv.stage == "group"
            else w(lang, "knockout")
            if mv.stage == "main"
            else w(lang, "placement")
        )
        slot = by_slot.get(mv.id)
        start = local_time(slot.start, tz).replace(tzinfo=None) if slot is not None else None
        res = mv.result
        if res is not None:
            outcome = OUTCOMES.get(res.outcome, (res.outcome, res.outcome))[li]
            decided = DECIDED_BY.get(res.decided_by, (res.decided_by, res.decided_by))[li]
            if decided == outcome or (not team and res.decided_by == "tables"):
                decided = ""  # says nothing new (a pair match is one table)
        else:
            outcome = STATUS_WORDS.get(mv.status, (mv.status, mv.status))[li]
            decided = ""
        side_a = names[mv.a].name if mv.a in names else mv.a_text
        side_b = names[mv.b].name if mv.b in names else mv.b_text
        winner = names[mv.winner].name if mv.winner in names else ""
        rows.append(
            [
                mv.id,
                stage,
                mv.title,
                start,
                tables_text(slot, table_names),
                side_a,
                side_b,
                score_line(res, lang, team),
                winner,
                outcome,
                decided,
                table_details(res, lang) if team else "",
                res.note if res is not None else "",
            ]
        )
    return Table("matches", SHEETS["matches"][li], _header("matches", lang), rows)


def ranking_table(t: Tournament, lang: str = "zh", player_names: Mapping[str, str] | None = None) -> Table:
    """名次与奖项: ``Tournament.ranking()`` (best first; entries without a place yet last)."""
    li = _i(lang)
    rounds = t.bracket.rounds if t.bracket is not None else 0
    by_id = entry_names(t)
    rows: list[list[Cell]] = []
    for r in t.ranking():
        entry = by_id.get(r.entry_id)
        players = players_text(entry, player_names) if entry is not None else " / ".join(r.players)
        eliminated = round_title(r.eliminated_round, rounds, lang) if r.eliminated_round and rounds else ""
        note = NOTE_WORDS.get(r.note, (r.note, r.note))[li] if r.note else ""
        rows.append([r.place, r.name, r.union_group, players, prize_name(r.prize, lang), eliminated, note])
    return Table("ranking", SHEETS["ranking"][li], _header("ranking", lang), rows)


def tables(
    t: Tournament,
    lang: str = "zh",
    slots: Sequence[Slot] | Mapping[str, Slot] | None = None,
    tz: str = DEFAULT_TZ,
    player_names: Mapping[str, str] | None = None,
    table_names: Mapping[str, str] | None = None,
) -> list[Table]:
    return [
        entries_table(t, lang, player_names),
        matches_table(t, lang, slots, tz, table_names),
        ranking_table(t, lang, player_names),
    ]


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def formula_safe(text: str) -> str:
    """A text a spreadsheet would take for a formula (it starts with = + - @, a tab or a return: a
    player named ``=HYPERLINK(...)``) gets a leading apostrophe, so it stays text; numbers stay."""
    if text and text.startswith(FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def _cell_text(value: Cell) -> str:
    if value is None:
        return ""
    if isinstance(value, datetime):
        return value.strftime(TIME_FORMAT)
    return formula_safe(str(value))


def _cell_value(value: Cell) -> Cell:
    return formula_safe(value) if isinstance(value, str) else value


def csv_bytes(table: Table) -> bytes:
    """UTF-8 with BOM, CRLF: what Excel opens with Chinese intact."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(table.header)
    for row in table.rows:
        writer.writerow([_cell_text(v) for v in row])
    return out.getvalue().encode("utf-8-sig")


def file_stem(t: Tournament) -> str:
    """The tournament's name made safe for a file name (Chinese kept)."""
    stem = re.sub(r'[\\/:*?"<>|\s]+', "_", t.name).strip("._")
    return stem[:60] or "tournament"


def export_csv(
    t: Tournament,
    lang: str = "zh",
    *,
    slots: Sequence[Slot] | Mapping[str, Slot] | None = None,
    tz: str = DEFAULT_TZ,
    player_names: Mapping[str, str] | None = None,
    table_names: Mapping[str, str] | None = None,
) -> list[ExportFile]:
    """Three CSV files: ``<name>_参赛名单.csv``, ``<name>_对阵.csv``, ``<name>_名次与奖项.csv`` (en: entries ...)."""
    stem = file_stem(t)
    out = []
    for table in tables(t, lang, slots, tz, player_names, table_names):
        suffix = table.title if check_lang(lang) == "zh" else table.key
        out.append(ExportFile(f"{stem}_{suffix}.csv", csv_bytes(table), CSV_MIME))
    return out


def _display_width(text: str) -> int:
    return sum(2 if ord(ch) > 0x2E80 else 1 for ch in text)


def xlsx_bytes(tables_: Sequence[Table], title: str = "") -> bytes:
    wb = Workbook()
    wb.remove(wb.active)
    if title:
        wb.properties.title = title
    head_font = Font(bold=True)
    head_fill = PatternFill("solid", fgColor="E9EEF4")
    for table in tables_:
        ws = wb.create_sheet(table.title[:31])
        ws.append(table.header)
        for cell in ws[1]:
            cell.font = head_font
            cell.fill = head_fill
            cell.alignment = Alignment(vertical="center")
        widths = [_display_width(h) for h in table.header]
        for row in table.rows:
            ws.append([_cell_value(v) for v in row])
            for i, value in enumerate(row):
                widths[i] = max(widths[i], _display_width(_cell_text(value)))
        for i, width in enumerate(widths, start=1):
            ws.column_dimensions[get_column_letter(i)].width = min(max(width + 2, 6), 60)
            if any(isinstance(r[i - 1], datetime) for r in table.rows):
                for (cell,) in ws.iter_rows(min_row=2, min_col=i, max_col=i):
                    cell.number_format = "yyyy-mm-dd hh:mm"
        ws.freeze_panes = "A2"
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def export_xlsx(
    t: Tournament,
    lang: str = "zh",
    *,
    slots: Sequence[Slot] | Mapping[str, Slot] | None = None,
    tz: str = DEFAULT_TZ,
    player_names: Mapping[str, str] | None = None,
    table_names: Mapping[str, str] | None = None,
) -> ExportFile:
    """One workbook ``<name>.xlsx`` with the sheets 参赛名单, 对阵, 名次与奖项 (en: Entries, Matches, Ranking & prizes)."""
    data = xlsx_bytes(tables(t, lang, slots, tz, player_names, table_names), t.name)
    return ExportFile(f"{file_stem(t)}.xlsx", data, XLSX_MIME)


def export_all(
    t: Tournament,
    lang: str = "zh",
    *,
    slots: Sequence[Slot] | Mapping[str, Slot] | None = None,
    tz: str = DEFAULT_TZ,
    player_names: Mapping[str, str] | None = None,
    table_names: Mapping[str, str] | None = None,
) -> list[ExportFile]:
    """What ``/export`` sends: the three CSV files, then the workbook (same keyword arguments)."""
    return [
        *export_csv(t, lang, slots=slots, tz=tz, player_names=player_names, table_names=table_names),
        export_xlsx(t, lang, slots=slots, tz=tz, player_names=player_names, table_names=table_names),
    ]


SEASON_HEADERS = {
    "season_players": (
        ("名次", "Rank"),
        ("选手", "Player"),
        ("单位", "Union group"),
        ("比赛数", "Tournaments"),
        ("胜", "Won"),
        ("平", "Drawn"),
        ("负", "Lost"),
        ("积分", "Points"),
        ("最好名次", "Best place"),
    ),
    "season_groups": (
        ("名次", "Rank"),
        ("单位", "Union group"),
        ("比赛数", "Tournaments"),
        ("胜", "Won"),
        ("平", "Drawn"),
        ("负", "Lost"),
        ("积分", "Points"),
        ("最好名次", "Best place"),
    ),
}
SEASON_SHEETS = {
    "season_players": ("赛季选手", "Season players"),
    "season_groups": ("赛季单位", "Season groups"),
}


def season_files(
    players: Sequence[SeasonRow],
    groups: Sequence[SeasonRow],
    lang: str = "zh",
    player_names: Mapping[str, str] | None = None,
    stem: str = "season",
) -> list[ExportFile]:
    """The season table (engine/tournament/season.py rows) as two CSV files and one .xlsx."""
    i = _i(lang)
    names = player_names or {}
    tables_ = [
        Table(
            "season_players",
            SEASON_SHEETS["season_players"][i],
            [h[i] for h in SEASON_HEADERS["season_players"]],
            [
                [
                    n,
                    names.get(r.key, r.key),
                    r.union_group,
                    r.tournaments,
                    r.won,
                    r.drawn,
                    r.lost,
                    r.points,
                    r.best_place,
                ]
                for n, r in enumerate(players, start=1)
            ],
        ),
        Table(
            "season_groups",
            SEASON_SHEETS["season_groups"][i],
            [h[i] for h in SEASON_HEADERS["season_groups"]],
            [
                [n, r.key, r.tournaments, r.won, r.drawn, r.lost, r.points, r.best_place]
                for n, r in enumerate(groups, start=1)
            ],
        ),
    ]
    files = [ExportFile(f"{stem}-{t.key.split('_')[1]}.csv", csv_bytes(t), "text/csv") for t in tables_]
    files.append(
        ExportFile(
            f"{stem}.xlsx",
            xlsx_bytes(tables_, stem),
            "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    )
    return files
