"""docs/rules.md states every option, its default and its value in each preset: those tables match the code.

A reader checks a rule in the rule book; if an option's default or a preset's value changes in the
code and not in the book (or the other way round), these tests fail and name the row.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from engine.guandan.options import GuandanOptions
from engine.options import option_specs
from engine.registry import load_preset
from engine.shengji.options import ShengjiOptions
from engine.tournament.settings import TournamentSettings

BOOK = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
COLUMN_PRESETS = {
    "17": "shengji-17-deals",
    "2h": "shengji-timed-2h",
    "50": "shengji-50min",
    "GD": "guandan-team",
}


def _cell(value: object) -> str:
    """A value as the rule book writes it in a table cell."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_cell(v) for v in value) + "]"
    if isinstance(value, str):
        return f"`{value}`" if value else '`""`'
    return str(value)


def _section(text: str, heading: str) -> str:
    start = text.index(heading)
    following = re.search(r"^#{2,3} ", text[start + len(heading) :], flags=re.MULTILINE)
    return text[start : start + len(heading) + following.start()] if following else text[start:]


def _tables(section: str) -> list[tuple[list[str], dict[str, list[str]]]]:
    """Every table of a section: (header cells, {first-cell name: row cells})."""
    tables: list[tuple[list[str], dict[str, list[str]]]] = []
    header: list[str] | None = None
    for line in section.splitlines():
        if not line.startswith("|"):
            header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if header is None:
            header = cells
            tables.append((header, {}))
        elif set(line) <= set("|-: "):
            continue
        else:
            tables[-1][1][cells[0].strip("`")] = cells
    return tables


@pytest.fixture(scope="module")
def book() -> str:
    return BOOK.read_text(encoding="utf-8")


def test_the_rule_book_keeps_the_section_numbers_the_code_cites(book: str) -> None:
    headings = set(re.findall(r"^#{2,3} (\d(?:\.\d)?)\.? ", book, flags=re.MULTILINE))
    wanted = {"1", "2", "3", "4", "5"} | {f"1.{i}" for i in range(1, 10)} | {f"2.{i}" for i in range(1, 8)}
    assert wanted <= headings, sorted(wanted - headings)
    decisions = set(re.findall(r"^### (D\d+)\. ", book, flags=re.MULTILINE))
    assert {f"D{i}" for i in range(1, 11)} <= decisions


@pytest.mark.parametrize(
    "cls, columns",
    [(ShengjiOptions, ["17", "2h", "50"]), (GuandanOptions, ["GD"])],
    ids=["shengji", "guandan"],
)
def test_every_rule_option_its_default_and_each_preset_value_are_in_the_book(
    book: str, cls: type, columns: list[str]
) -> None:
    tables = [
        t
        for t in _tables(_section(book, "### 4.2"))
        if t[0][0] == "option" and t[0][2 : 2 + len(columns)] == columns
    ]
    assert len(tables) == 1, "one option table per game in section 4.2"
    header, rows = tables[0]
    specs = option_specs(cls)
    assert set(rows) == {s.name for s in specs}, "rows and options differ"
    presets = {c: load_preset(COLUMN_PRESETS[c]).rules for c in columns}
    for spec in specs:
        row = rows[spec.name]
        assert row[1] == _cell(spec.default), f"{spec.name}: default {spec.default!r}, book says {row[1]}"
        for i, column in enumerate(columns, start=2):
            value = getattr(presets[column], spec.name)
            assert row[i] == _cell(value), (
                f"{spec.name} in {COLUMN_PRESETS[column]}: {value!r}, book says {row[i]}"
            )


def test_every_tournament_setting_its_default_and_each_preset_value_are_in_the_book(book: str) -> None:
    ((header, rows),) = _tables(_section(book, "### 4.3"))
    columns = header[2:6]
    assert columns == ["17", "2h", "GD", "50"]
    fields = dataclasses.fields(TournamentSettings)
    assert set(rows) == {f.name for f in fields}
    settings = {
        c: TournamentSettings.from_mapping(load_preset(COLUMN_PRESETS[c]).tournament) for c in columns
    }
    for f in fields:
        row = rows[f.name]
        assert row[1] == _cell(f.default), f"{f.name}: default {f.default!r}, book says {row[1]}"
        for i, column in enumerate(columns, start=2):
            value = getattr(settings[column], f.name)
            assert row[i] == _cell(value), (
                f"{f.name} in {COLUMN_PRESETS[column]}: {value!r}, book says {row[i]}"
            )
