"""The test driver (bot/devtools/autodrive.py) reads what is committed, not a write in progress."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from bot.devtools import autodrive
from bot.devtools.autodrive import TableDrivePaused, drive
from engine.registry import load_preset, new_match


def _dealt_shengji_nobody_can_declare():
    """A Shengji match after its last card, at its (zero-second) window, where no seat can declare (seed
    153: no seat holds a joker and a level card together), and one redeal pauses the table."""
    rules = dataclasses.replace(
        load_preset("shengji-17-deals").rules, deals=1, bid_window_seconds=0, max_redeals_before_pause=1
    )
    m = new_match("shengji", rules, 153)
    while m.phase == "dealing":
        m.apply("sys deal")
    assert m.phase == "window" and not any(m.legal_bids(seat) for seat in range(4))
    return m


async def test_drive_reports_a_pause_only_once_it_is_committed(monkeypatch):
    """Storage hands a read the engine object it keeps in memory, and its next write applies the action to
    that same object before the commit. A read during that write gets the row before it and the object
    after it: a pause not stored yet (the table's next read still shows the open window). drive reads
    again until the row has it, then says the table paused."""
    m = _dealt_shengji_nobody_can_declare()
    row = SimpleNamespace(version=len(m.log), status="playing")  # the window, committed
    m.apply("sys close_bidding")  # the write in progress: nobody declared, the deal is redealt, paused
    assert m.phase == "paused"
    reads = []

    async def load_match_row(db, match_id):
        if len(reads) == 2:  # the write commits before the third read
            row.version = len(m.log)
        reads.append(row.version)
        return row, m

    monkeypatch.setattr(autodrive.match_repo, "load_match_row", load_match_row)
    runtime = SimpleNamespace(db=object())
    with pytest.raises(TableDrivePaused, match=r"the table paused \(no_bid_redeals\)") as raised:
        await drive(None, lambda: runtime, 1, {0: 10, 1: 11, 2: 12, 3: 13}, timeout=10)
    assert reads == [100, 100, 101]  # the pause was said once the row had it, not before
    assert "after 101 actions" in str(raised.value)
