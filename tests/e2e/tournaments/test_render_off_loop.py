"""Issue 12 abuse limits: the bracket image is drawn off the event loop (a worker thread), so a slow
drawing does not hold other people's commands."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path

import pytest

from bot.edge.tournament import outputs as th
from tests.e2e.harness import GROUP_ID
from tests.e2e.tournaments import support as S
from tests.e2e.tournaments.test_e2e_locked_tables import drawn_pairs


async def test_bracket_image_is_drawn_in_a_worker_thread_while_others_are_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[bool] = []
    done = threading.Event()
    real = th._bracket_png

    def slow_png(eng, lang):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread() is threading.main_thread())
        time.sleep(3)  # a big bracket on a slow machine
        done.set()
        return real(eng, lang)

    monkeypatch.setattr(th, "_bracket_png", slow_png)
    async with S.tournament_harness(tmp_path, extra_players=12) as h:
        await drawn_pairs(h)
        player = S.EXTRA_BASE + 5
        h.sim.user_sends_text(S.EXTRA_BASE, GROUP_ID, "/bracket")
        await h.sim.wait_for(lambda: bool(threads), timeout=20)  # the drawing has begun
        before = h.sim.last_bot_message(player)
        h.sim.user_sends_text(player, player, "/help")
        await h.sim.wait_for_message(player, after=before, timeout=20)
        assert threads == [False]  # not on the event loop's thread
        assert not done.is_set()  # another user was answered while the image was still being drawn
        await h.sim.wait_for(
            lambda: any(m.photo is not None for m in h.sim.bot_messages(GROUP_ID)), timeout=30
        )
        await asyncio.sleep(0)
