"""/export: CSV (UTF-8 with BOM for Excel) and .xlsx, read back and checked against the tournament."""

from __future__ import annotations

import csv
import io
from datetime import datetime

import pytest
from openpyxl import load_workbook

from bot.presentation.tournament.export import export_all, export_csv, export_xlsx
from engine.tournament.conduct import ConductRecord
from engine.tournament.results import forfeit_result
from tests.bot.presentation.tournament.helpers import groups_knockout, pair_win, single_elim, slots_for


def _rows(data: bytes) -> list[list[str]]:
    assert data.startswith(b"\xef\xbb\xbf")  # the BOM that makes Excel read UTF-8
    return list(csv.reader(io.StringIO(data.decode("utf-8-sig"))))


def _files(t, lang="zh", **kw):  # type: ignore[no-untyped-def]
    return {f.filename.rsplit("_", 1)[1]: f for f in export_csv(t, lang, **kw)}


def test_csv_files_have_chinese_headers_names_and_every_entry() -> None:
    t = single_elim(6)
    files = _files(t)
    assert set(files) == {"参赛名单.csv", "对阵.csv", "名次与奖项.csv"}
    assert all(f.mime == "text/csv" for f in files.values())
    entries = _rows(files["参赛名单.csv"].data)
    assert entries[0][:4] == ["编号", "队名", "工会小组", "队员"]
    assert [r[1] for r in entries[1:]] == [e.name for e in t.entries]
    assert {r[2] for r in entries[1:]} == {"机关工会", "教育学院", "理学院"}
    positions = sorted(int(r[5]) for r in entries[1:])
    assert len(positions) == 6 and positions[-1] <= 8  # bracket of 8: two byes


def test_ranking_csv_gives_the_notice_prizes_shengji_timed_2h() -> None:
    """shengji-timed-2h: 一等奖1个、二等奖2个、三等奖3个, decided by the final, 3rd-place and placement matches."""
    t = single_elim(6)
    ranking = _rows(_files(t)["名次与奖项.csv"].data)
    assert ranking[0] == ["名次", "队名", "工会小组", "队员", "奖项", "淘汰轮次", "备注"]
    body = ranking[1:]
    assert body[0][0] == "1" and body[0][4] == "一等奖"
    champion = t.bracket.champion() if t.bracket else None
    assert body[0][1] == next(e.name for e in t.entries if e.id == champion)
    prizes = [r[4] for r in body]
    assert prizes.count("一等奖") == 1 and prizes.count("二等奖") == 2 and prizes.count("三等奖") == 3
    assert body[1][5] == "决赛"  # the runner-up went out in the final


def test_matches_csv_shows_scores_forfeits_byes_and_local_start_times() -> None:
    t = single_elim(6, play=False)
    slots = slots_for(t)  # 06:00 UTC = 14:00 Beijing time
    first = t.ready_matches()[0]
    t.record(first, forfeit_result("b"))
    second = t.ready_matches()[0]
    t.record(second, pair_win(t, second))
    rows = _rows(_files(t, slots=slots)["对阵.csv"].data)
    head, body = rows[0], rows[1:]
    col = {name: i for i, name in enumerate(head)}
    by_id = {r[col["场次"]]: r for r in body}
    assert by_id[first][col["开始时间"]] == "2026-04-16 14:00"
    assert by_id[first][col["比分"]] == "弃权" and by_id[first][col["结果"]] == "弃权"
    assert by_id[second][col["比分"]] in ("A : 9", "9 : K")
    byes = [r for r in body if "轮空" in (r[col["甲方"]], r[col["乙方"]])]
    assert len(byes) == 2 and all(r[col["结果"]] == "轮空晋级" for r in byes)
    assert by_id["R3-M1"][col["轮次"]] == "决赛" and by_id["P3-4-M1"][col["轮次"]] == "三四名决赛"
    en = _rows(_files(t, "en", slots=slots, tz="Europe/London")["matches.csv"].data)
    assert en[0][3] == "Start" and any(r[3] == "2026-04-16 07:00" for r in en[1:])


def test_xlsx_has_one_sheet_per_table_with_the_same_contents_as_the_csv() -> None:
    t = single_elim(6, play=False)
    slots = slots_for(t)
    t2 = single_elim(6)
    for lang, names in (
        ("zh", ["参赛名单", "对阵", "名次与奖项"]),
        ("en", ["Entries", "Matches", "Ranking & prizes"]),
    ):
        x = export_xlsx(t2, lang, slots=slots)
        assert x.filename.endswith(".xlsx") and x.data[:2] == b"PK"
        wb = load_workbook(io.BytesIO(x.data))
        assert wb.sheetnames == names
        for sheet, f in zip(wb.sheetnames, export_csv(t2, lang, slots=slots), strict=True):
            csv_rows = _rows(f.data)
            xl_rows = [
                [
                    "" if v is None else (v.strftime("%Y-%m-%d %H:%M") if isinstance(v, datetime) else str(v))
                    for v in row
                ]
                for row in wb[sheet].iter_rows(values_only=True)
            ]
            assert xl_rows == csv_rows, sheet
    wb = load_workbook(io.BytesIO(export_xlsx(t, "zh", slots=slots).data))
    starts = [c.value for c in wb["对阵"]["D"][1:] if c.value is not None]
    assert starts and all(s == datetime(2026, 4, 16, 14, 0) for s in starts)  # real date-times, local zone


def test_team_export_lists_tables_and_team_players_in_pair_order() -> None:
    """guandan-team: pair k plays table k; the per-table detail shows the three tables."""
    t = groups_knockout(10)
    rows = _rows(_files(t)["对阵.csv"].data)
    col = {name: i for i, name in enumerate(rows[0])}
    played = [r for r in rows[1:] if r[col["结果"]] == "完赛"]
    assert played and all(r[col["各桌"]].count("桌") == 3 for r in played)
    assert all(r[col["比分"]] in ("2 : 1", "1 : 2") for r in played)
    entries = _rows(_files(t)["参赛名单.csv"].data)
    assert all(r[3].count("、") == 2 and r[3].count("/") == 3 for r in entries[1:])
    assert {r[6] for r in entries[1:]} == {"A组", "B组"}
    ranking = _rows(_files(t)["名次与奖项.csv"].data)[1:]
    assert [r[4] for r in ranking[:3]] == ["一等奖", "二等奖", "三等奖"]
    assert all(r[4] == "纪念奖" for r in ranking[3:])  # souvenir for everybody else


def test_disqualified_entry_is_marked_in_entries_and_ranking() -> None:
    """shengji-17-deals: the second violation disqualifies the pair (违例两次取消比赛资格)."""
    t = single_elim(4, "shengji-17-deals", play=False)
    mid = t.ready_matches()[0]
    a, _ = t.sides(mid)
    assert a is not None
    for n in (1, 2):
        t.add_conduct(ConductRecord(f"c{n}", "violation", a, "someone", mid))
    entries = _rows(_files(t)["参赛名单.csv"].data)
    assert [r[7] for r in entries[1:] if r[0] == a] == ["取消资格"]
    ranking = _rows(_files(t)["名次与奖项.csv"].data)
    assert [r[6] for r in ranking[1:] if r[1] == next(e.name for e in t.entries if e.id == a)] == ["取消资格"]


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_export_all_sends_three_csv_and_one_workbook(lang: str) -> None:
    files = export_all(single_elim(6), lang)
    assert [f.filename.rsplit(".", 1)[1] for f in files] == ["csv", "csv", "csv", "xlsx"]
    assert all(f.filename.startswith("教工双升比赛_2026") for f in files)
    buf = files[0].as_bytesio()
    assert buf.name == files[0].filename and buf.read() == files[0].data
