"""Duplicate deals (engine/tournament/duplicate.py): what the tables of one comparison share in storage.

* The even table of a comparison gets the odd table's **server seed** when it is opened, so both lobbies
  show the same ``match_commitment`` and both final summaries reveal the same server seed.
* The **comparison seed**, fixed when the two tables start (together), mixes that server seed with the
  public values of *both* tables (``table_repo.mix_values``: table ids, seatings and every /mix word):
  ``mixed_match_seed(server_seed, contributions_mix(values of table 1 + values of table 2))``.  Both
  matches are played with it, so both tables deal the same deal seeds; the per-table ``board_turn``
  turns the hands and salts each table's commitments (bot/tables/deal_proof.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import update

from engine.fairness import contributions_mix, mixed_match_seed
from storage import match_repo, table_repo
from storage.db import Database
from storage.models import GameTable


async def share_server_seed(db: Database, table_id: int, from_table_id: int) -> None:
    """``table_id`` commits to the same server seed as ``from_table_id`` (its comparison's odd table)."""
    source = await table_repo.get_table(db, from_table_id)
    if source is None or source.server_seed is None:
        return
    async with db.session() as s:
        await s.execute(
            update(GameTable).where(GameTable.id == table_id).values(server_seed=source.server_seed)
        )
        await s.commit()


async def comparison_seed(db: Database, table_ids: Sequence[int]) -> int | None:
    """The match seed both tables of a comparison play with (the module docstring); None without a server
    seed (a table not made by a tournament)."""
    values: list[str] = []
    server_seed: int | None = None
    for table_id in table_ids:
        table = await table_repo.get_table(db, table_id)
        if table is None or table.server_seed is None:
            return None
        server_seed = table.server_seed if server_seed is None else server_seed
        values += table_repo.mix_values(table, await table_repo.get_seats(db, table_id))
    assert server_seed is not None
    return mixed_match_seed(server_seed, contributions_mix(values))


async def started_seed(db: Database, table_id: int) -> int | None:
    """The match seed of the table's match once it has started (None: not started)."""
    row = await match_repo.current_match(db, table_id)
    return None if row is None else int(row.seed)


async def deals_done(db: Database, table_id: int) -> tuple[str, int] | None:
    """(table status, finished deals of its current match); None: no such table."""
    table = await table_repo.get_table(db, table_id)
    if table is None:
        return None
    row = await match_repo.current_match(db, table_id)
    if row is None:
        return table.status, 0
    if row.status == "finished":
        return "finished", 0
    _, m = await match_repo.match_state(db, row.id)
    return table.status, len(m.history)


async def history(db: Database, table_id: int) -> list[dict[str, Any]] | None:
    """The finished deals' summaries of the table's match (None: never played)."""
    row = await match_repo.current_match(db, table_id)
    if row is None:
        return None
    _, m = await match_repo.match_state(db, row.id)
    return [dict(h) for h in m.history]
