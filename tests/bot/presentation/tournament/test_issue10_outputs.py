"""Issue 10 "Outputs fixed": rounds named 决赛/半决赛/三四名决赛, the deciding tie-break on the bracket,
formula-safe CSV/XLSX cells, the table group's name in the exports, translated standings."""

from __future__ import annotations

import csv
import io

from openpyxl import load_workbook

from bot.presentation.tournament.export import export_csv, export_xlsx, formula_safe
from bot.presentation.tournament.labels import decided_note, score_line
from bot.tournaments import views
from engine.tournament.entries import Entry
from engine.tournament.results import PairingResult, TableResult, pair_result, played_table, team_result
from engine.tournament.tournament import Tournament
from tests.bot.presentation.tournament.helpers import (
    SECRET,
    groups_knockout,
    settings,
    single_elim,
    slots_for,
)


def test_rounds_are_named_final_semi_final_and_third_place() -> None:
    t = single_elim(8, play=False, third_place_match=True)
    assert t.bracket is not None
    final, semi = t.bracket.final_id, "R2-M1"
    assert views.match_label("zh", t, final) == f"决赛（{final}）"
    assert views.match_label("en", t, final) == f"Final ({final})"
    assert views.match_label("zh", t, semi) == f"半决赛 第1场（{semi}）"
    assert views.match_label("en", t, semi).startswith("Semi-final")
    assert t.bracket.third_place_id is not None
    assert views.match_label("zh", t, t.bracket.third_place_id).startswith("三四名决赛")
    assert views.match_label("en", t, t.bracket.third_place_id).startswith("3rd place")
    assert "决赛（" in views.bracket_text("zh", t, {e.id: e.name for e in t.entries})


def _level(winner: str, tie: str) -> PairingResult:
    return PairingResult(
        winner, "played", (TableResult(1, winner, 9, 9, None),), "tables", extra={"tie_break": tie}
    )


def test_the_tie_break_that_decided_a_level_match_is_on_the_bracket() -> None:
    res = _level("b", "dealer_side")
    assert decided_note(res, "zh", team=False) == "台上方胜"
    assert score_line(res, "zh", team=False) == "9 : 9 (台上方胜)"
    assert score_line(_level("a", "cut"), "en", team=False).endswith("(decided by a cut)")
    assert decided_note(pair_result("a", 14, 9), "zh", team=False) == ""  # levels differ: nothing to explain
    team = team_result([played_table("a", 14, 4, 1), played_table("b", 8, 10, 2)])
    assert decided_note(team, "zh", team=True) == "级差"


def test_cells_that_would_be_formulas_stay_text() -> None:
    assert formula_safe('=HYPERLINK("http://x","点我")') == '\'=HYPERLINK("http://x","点我")'
    for text in ("+86 123", "-A1", "@SUM(A1)", "\tx"):
        assert formula_safe(text).startswith("'")
    for text in ("-3", "+5", "张三", "", "2:1"):
        assert formula_safe(text) == text
    bad = Entry("p0", "=1+2", "@工会", ("=cmd|' /C calc'!A0", "李四"))
    others = [Entry(f"p{i}", f"队{i}", "机关", (f"甲{i}", f"乙{i}")) for i in range(1, 4)]
    t = Tournament.create("=危险名称", settings("shengji-17-deals"), [bad, *others])
    t.hold_draw(SECRET)
    for f in export_csv(t, "zh"):
        for row in csv.reader(io.StringIO(f.data.decode("utf-8-sig"))):
            assert not any(
                cell[:1] in ("=", "+", "@") or (cell[:1] == "-" and cell[1:2].isalpha()) for cell in row
            ), row
    book = load_workbook(io.BytesIO(export_xlsx(t, "zh").data))
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (ws.title, cell.coordinate, cell.value)
    values = [c.value for ws in book.worksheets for row in ws.iter_rows() for c in row]
    assert "'=1+2" in values and "'@工会" in values


def test_exports_name_the_table_groups() -> None:
    t = single_elim(4, play=False)
    slots = slots_for(t)
    names = {s: f"第{s[-1]}桌群" for slot in slots for s in slot.tables}
    matches = next(f for f in export_csv(t, "zh", slots=slots, table_names=names) if "对阵" in f.filename)
    text = matches.data.decode("utf-8-sig")
    assert "第1桌群" in text


def test_group_standings_are_translated() -> None:
    t = groups_knockout(8, stop_after=6)
    zh = views.standings_text("zh", t, {e.id: e.name for e in t.entries})
    en = views.standings_text("en", t, {e.id: e.name for e in t.entries})
    assert "积分" in zh and "胜桌" in zh and "级差" in zh and "[" not in zh
    assert "pts" in en and "tables" in en and "积分" not in en
