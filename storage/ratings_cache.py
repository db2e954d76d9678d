"""The last ratings replay of each open database, kept so the next one replays only what is new.

Ratings are a pure function of the rated games in order (engine/tournament/ratings.py ``replay``).  When
the games asked for begin with exactly the games of the last replay (a casual match or a tournament
table has been added at the end: the common case), only the new ones are played onto a copy of the last
ratings; any other change (a correction, a purge, a placeholder after ``/forget``, a game put in
earlier by time) replays from the start.  Either way the answer equals ``replay(games)``.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Sequence
from dataclasses import dataclass

from engine.tournament.ratings import Ratings, TableGame, replay
from storage.db import Database


@dataclass(frozen=True)
class _Last:
    games: tuple[TableGame, ...]
    ratings: Ratings


_LAST: weakref.WeakKeyDictionary[Database, _Last] = weakref.WeakKeyDictionary()


def _extended(last: _Last | None, games: tuple[TableGame, ...]) -> Ratings:
    if last is not None and len(games) >= len(last.games) and games[: len(last.games)] == last.games:
        out = Ratings(dict(last.ratings.table), list(last.ratings.history))
        for g in games[len(last.games) :]:
            out.play(g)
        return out
    return replay(games)


async def replayed(db: Database, games: Sequence[TableGame]) -> Ratings:
    """``replay(games)``, reusing the last replay of ``db`` when ``games`` extends it; off the event loop.
    The answer is a copy: the caller may change it."""
    wanted = tuple(games)
    ratings = await asyncio.to_thread(_extended, _LAST.get(db), wanted)
    _LAST[db] = _Last(wanted, ratings)
    return Ratings(dict(ratings.table), list(ratings.history))
