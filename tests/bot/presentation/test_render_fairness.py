"""The table message: no move clock while a computer seat is to play; the deal's commitment line."""

from __future__ import annotations

from bot.presentation import render
from bot.tables.deal_proof import proof_for, table_lines
from engine.options import options_to_dict
from engine.registry import load_preset, match_from_stored


def guandan():
    opts = options_to_dict(load_preset("guandan-team").with_overrides({"play_clock": "20"}).rules)
    m = match_from_stored("guandan", opts, 5)
    m.apply("sys next_deal")
    return m, opts


def test_no_clock_is_shown_for_a_computer_seat():
    m, opts = guandan()
    seat = next(tr.seat for tr in m.turns() if tr.required)
    names = ["a", "b", "c", "d"]
    human, _ = render.table_message("zh", "guandan", m.public_view(), names, None, None, "掼蛋", clocks=opts)
    computer, _ = render.table_message(
        "zh", "guandan", m.public_view(), names, None, None, "掼蛋", clocks=opts, computers=frozenset({seat})
    )
    assert "⏱ 20s" in human
    assert "⏱" not in computer


def test_the_table_shows_the_commitment_of_the_deal_in_play():
    m, _ = guandan()
    lines = table_lines("zh", "guandan", 5, m, None)
    assert lines == [f"🔒 本副承诺 {proof_for('guandan', 5, 1).shown}"]
    fresh = match_from_stored("guandan", options_to_dict(load_preset("guandan-team").rules), 5)
    assert table_lines("en", "guandan", 5, fresh, None) == [
        f"🔒 Deal commitment {proof_for('guandan', 5, 1).shown}"
    ]
