"""storage/ratings_cache.py: the replay kept between calls gives exactly ``replay(games)`` whether the games
were extended at the end (only the new ones played), changed earlier (replayed from the start) or the
answer was changed by its caller."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.tournament.ratings import TableGame, replay
from storage.db import Database
from storage.ratings_cache import replayed


def _games(n: int, seed: int) -> list[TableGame]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        a, b, c, d = rng.sample([str(p) for p in range(1001, 1013)], 4)
        out.append(TableGame(rng.choice(["shengji", "guandan"]), (a, b), (c, d), f"casual/{i}"))
    return out


async def test_the_kept_replay_equals_a_full_replay(db: Database) -> None:
    games = _games(120, 5)
    first = await replayed(db, games[:80])
    assert first.table == replay(games[:80]).table
    first.table.clear()  # the caller's copy: the kept replay is not changed by it
    more = await replayed(db, games)  # extends the last one: only the 40 new games are played
    full = replay(games)
    assert more.table == full.table and more.history == full.history
    # an earlier game changed (a correction): a replay from the start, not the kept one extended
    changed = [replace(games[0], winners=games[0].losers, losers=games[0].winners), *games[1:]]
    again = await replayed(db, changed)
    assert again.table == replay(changed).table != full.table
    # fewer games (a purge): the same
    assert (await replayed(db, changed[10:])).table == replay(changed[10:]).table
