"""End-to-end: the runtime's "a match ended" hook (issue 5 uses it to move the bracket on)."""

from __future__ import annotations

import asyncio

from storage import match_repo
from tests.e2e.test_play import rt


async def test_match_over_hook_runs_after_the_result_is_committed_and_announced(harness):
    h = harness
    seen: list[tuple[int, dict, str | None]] = []
    done = asyncio.Event()

    async def broken(match_id: int, data: dict) -> None:
        raise RuntimeError("a failing hook does not stop the others")

    async def hook(match_id: int, data: dict) -> None:
        row = await match_repo.get_match_row(rt(h).db, match_id)
        seen.append((match_id, data, row.status if row else None))
        done.set()

    rt(h).match_over_hooks.extend([broken, hook])
    h.players[0].say(h.group_id, "/newtable guandan-team deals=1 bots=4")
    await asyncio.wait_for(done.wait(), timeout=120)
    [(match_id, data, status)] = seen
    assert status == "finished" and data.get("winner") in (0, 1)
    row = await match_repo.get_match_row(rt(h).db, match_id)
    assert row.result_json is not None
    await h.sim.wait_for_message(h.group_id, lambda m: "比赛结束" in (m.text or ""), timeout=20)
