"""The in-memory state a process keeps of its matches: engine states by version and, for a sole writer
of the database, the committed match rows (``Database.match_cache`` / ``match_rows``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.game import Match as EngineMatch
from storage.db import Database
from storage.models import (
    MatchRecord,
)


@dataclass(frozen=True)
class MatchRow:
    """A match row as committed (what the bot reads of it on every move), kept in memory by a sole writer."""

    id: int
    table_id: int
    game: str
    options_json: dict[str, Any]
    seed: int
    version: int
    rules_version: int
    status: str


def row_of(row: MatchRecord, **changes: Any) -> MatchRow:
    values: dict[str, Any] = dict(
        id=row.id,
        table_id=row.table_id,
        game=row.game,
        options_json=row.options_json,
        seed=row.seed,
        version=row.version,
        rules_version=row.rules_version,
        status=row.status,
    )
    values.update(changes)
    return MatchRow(**values)


def remember_row(db: Database, row: MatchRow, epoch: int | None = None) -> None:
    """Keep a committed match row (only when this process is the database's sole writer); ``epoch``: the
    ``db.row_epoch`` when the row was read (not kept if rows were forgotten since, or a newer version is known)."""
    if epoch is not None:
        known = db.match_rows.get(row.id)
        if epoch != db.row_epoch or (known is not None and known.version > row.version):
            return
    if db.sole_writer:
        rows = db.match_rows
        rows.pop(row.id, None)
        rows[row.id] = row
        while len(rows) > MATCH_CACHE_SIZE:
            rows.pop(next(iter(rows)))


def forget_rows(db: Database, *, match_id: int | None = None, table_id: int | None = None) -> None:
    db.row_epoch += 1
    if match_id is not None:
        db.match_rows.pop(match_id, None)
    if table_id is not None:
        for key in [k for k, r in db.match_rows.items() if r.table_id == table_id]:
            db.match_rows.pop(key, None)


MATCH_CACHE_SIZE = 500  # engine states kept in memory per process (least recently stored dropped first)


def cache_put(db: Database, match_id: int, version: int, match: EngineMatch) -> None:
    cache = db.match_cache
    cache.pop(match_id, None)
    cache[match_id] = (version, match)
    while len(cache) > MATCH_CACHE_SIZE:
        cache.pop(next(iter(cache)))


def known_state(db: Database, match_id: int) -> tuple[MatchRow, EngineMatch] | None:
    """A sole writer's committed row and engine state of the match, when it has both at one version."""
    known = db.match_rows.get(match_id) if db.sole_writer else None
    if known is None:
        return None
    cached = db.match_cache.get(match_id)
    return (known, cached[1]) if cached is not None and cached[0] == known.version else None


def bound_cache(cache: dict[Any, Any], size: int = 4 * MATCH_CACHE_SIZE) -> None:
    if len(cache) >= size:  # bounded: forgetting only costs a read
        cache.clear()
