"""End-to-end (issue 19): the bot restarts while a strong computer is thinking; the new process takes the
computer's turn again, and the turn is taken exactly once."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bot.tables import thinking
from bot.tables.thinking import THINKER
from engine.registry import match_from_stored
from storage import match_repo, table_repo
from tests.e2e.test_play import rt


async def test_a_restart_mid_thought_takes_the_computers_turn_again_once(
    harness: Any, monkeypatch: Any
) -> None:
    h = harness
    thinking_at: list[tuple[int, int]] = []  # (actions in the log, seat) of each searched decision begun
    mid_thought = asyncio.Event()
    original = THINKER.action

    async def watched(m: Any, seat: int, rng: random.Random, level: str | None = None) -> str | None:
        # the restart is made during a searched bury or card play (declarations are searched too since
        # engine.shengji.ai_declare, but an optional declaration may be answered by waiting: no turn to take)
        if thinking.searched(m, seat) and m.phase in ("bury", "play"):
            thinking_at.append((len(m.log), seat))
            mid_thought.set()
        return await original(m, seat, rng, level)

    monkeypatch.setattr(THINKER, "action", watched)
    h.players[0].say(h.group_id, "/newtable shengji-17-deals bid_window_seconds=0 bots=4 seed=11 ai=strong")
    # wait for the first searched decision itself: a "dealing" state of the table message may never be
    # shown (edits are coalesced, latest state wins, and four computers with no bid window move on at once)
    await asyncio.wait_for(mid_thought.wait(), 180)
    position, seat = thinking_at[-1]
    await h.restart()  # the search of `seat` at `position` was under way
    table = await table_repo.open_table_in_chat(rt(h).db, h.group_id)
    row = await match_repo.current_match(rt(h).db, table.id)
    for _ in range(1200):
        _, m, _ = await match_repo.match_context(rt(h).db, row.id)
        if len(m.log) > position + 1:
            break
        await asyncio.sleep(0.1)
    assert len(m.log) > position + 1, "the computer's turn was not taken after the restart"
    # exactly once: the stored log replays, and the action at that position is the one play of that seat
    stored = await match_repo.current_match(rt(h).db, table.id)
    replay = match_from_stored("shengji", stored.options_json, int(stored.seed))
    for action in m.log[:position]:
        replay.apply(action)
    taken = m.log[position]
    if replay.phase == "bury":  # the first searched decision is the dealer's bury (engine.shengji.ai_bury)
        assert replay.dealer == seat
        assert taken.startswith(f"{seat} bury ")
    else:
        assert replay.to_play() == seat
        assert taken.startswith(f"{seat} play ")
    # asked once more by the new process, unless the old one committed its answer before it stopped
    assert thinking_at.count((position, seat)) in (1, 2)
    assert h.starts == 2
    h.assert_no_errors()
