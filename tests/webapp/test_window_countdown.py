"""The bidding window's countdown is on the page from the first frame of the open window: the version
whose last dealt card opens the window reaches the seat's page with the window's end in it (it once came
only with the window's next version, so a window nobody bid in showed no countdown at all)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import select

from storage.models import Deadline
from tests.webapp.helpers import PageClient, local_table

SHENGJI = "/newtable shengji-17-deals deals=1 bid_window_seconds=30 seed=3 bots=3"
# dealt in four batches half a second apart, the computers' bids two seconds after a version: the page is
# connected while the cards are dealt and receives the version that opens the window before the next one
PACE = {"DEMO_PACE": 1.0, "DEAL_BATCH_DELAY": 0.5, "AI_DELAY": 2.0}


def aware(t: datetime) -> datetime:
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


async def window_row(table) -> Deadline:
    """The window's stored end (whatever its status by now: a loaded machine may read it after it closed)."""
    async with table.rt.db.session() as s:
        rows = (
            (
                await s.execute(
                    select(Deadline).where(Deadline.kind == "bid_window", Deadline.ref.like("match:%:window"))
                )
            )
            .scalars()
            .all()
        )
    assert len(rows) == 1, rows
    return rows[0]


def phase(frame: dict) -> str | None:
    return frame.get("table", {}).get("phase") if frame.get("type") == "state" else None


async def test_the_first_frame_of_the_open_window_carries_its_countdown(tmp_path):
    async with local_table(tmp_path, SHENGJI, **PACE) as table:
        page = await PageClient.open(table)
        try:
            hello = await page.hello(table.init_data(), table.match_id, inline=True)
            assert hello["seat"] == 0 and phase(hello["state"]) == "dealing", phase(hello["state"])
            first = await page.until(lambda f: phase(f) == "window", timeout=60)
            opened = [
                r for r in await table.actions() if any(e["kind"] == "bid_window" for e in r.events_json)
            ]
            assert opened and first["version"] == opened[0].seq  # the very version that opened the window
            assert "window_deadline" in first, sorted(first)
            # the countdown ends when the window really closes: the stored end, armed when the window opened
            # (30 s after it; the timer's clock is read a moment before the action row's, hence 29); how much
            # of it is left when the frame is built depends on the machine (a loaded one built it 10 s late),
            # so that is only bounded by the window's length
            row = await window_row(table)
            assert first["window_deadline"] == int(aware(row.due_at).timestamp() * 1000)
            assert (aware(row.due_at) - aware(opened[0].created_at)).total_seconds() >= 29
            left = (first["window_deadline"] - first["now"]) / 1000
            assert 0 < left <= 30, left
        finally:
            await page.close()
