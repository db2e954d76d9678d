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

from sqlalchemy import select, update

from engine.fairness import contributions_mix, mixed_match_seed
from engine.registry import match_from_stored
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


async def played_deals(db: Database, table_id: int) -> list[tuple[int, int]]:
    """(deal, redeal) of every deal the table's match finished, as its summaries revealed them (the redeal
    count at the end of the deal: the deal seed actually dealt)."""
    row = await match_repo.current_match(db, table_id)
    if row is None:
        return []
    m = match_from_stored(row.game, row.options_json, row.seed)
    out: list[tuple[int, int]] = []
    for action in [a.action for a in await match_repo.action_log(db, row.id)]:
        for ev in m.apply(action):
            if ev.kind == "deal_over":
                redeal = m.redeal_no  # the Match protocol: Guandan never deals again (0)
                out.append((int(ev.data.get("deal_no", 0)), redeal))
    return out


def _partner_ref(table: GameTable) -> str | None:
    """The ``tournament_ref`` of the other table of ``table``'s duplicate comparison (None: not duplicate)."""
    turn = (table.options_json or {}).get("board_turn")
    if turn is None or int(turn) < 0 or not table.tournament_ref:
        return None
    head, _, k = table.tournament_ref.rpartition(":")
    if not k.isdigit():
        return None
    return f"{head}:{int(k) + 1 if int(k) % 2 else int(k) - 1}"


async def comparison_over(db: Database, table_id: int) -> bool:
    """Has every table of ``table_id``'s duplicate comparison stopped playing?  Until then no seed of the
    table may be shown (the partner table may still be playing the same deal).  True for a table that is
    not of a duplicate comparison."""
    table = await table_repo.get_table(db, table_id)
    partner = None if table is None else _partner_ref(table)
    if partner is None:
        return True
    async with db.session() as s:
        rows = await s.execute(select(GameTable.id).where(GameTable.tournament_ref == partner))
        ids = list(rows.scalars().all())
    for other in ids:
        done = await deals_done(db, other)
        if done is not None and done[0] in ("open", "playing", "paused"):
            return False
    return True


async def plays_partner_table(db: Database, table_id: int, user_id: int) -> bool:
    """Is ``user_id`` seated at the other table of ``table_id``'s duplicate comparison while that table is
    open or in play?  (Such a player may not watch this table: it plays the same deals.)"""
    table = await table_repo.get_table(db, table_id)
    partner = None if table is None else _partner_ref(table)
    if partner is None:
        return False
    async with db.session() as s:
        rows = await s.execute(
            select(GameTable.id).where(
                GameTable.tournament_ref == partner, GameTable.status.in_(("open", "playing", "paused"))
            )
        )
        ids = list(rows.scalars().all())
    for other in ids:
        if any(seat.user_id == user_id for seat in await table_repo.get_seats(db, other)):
            return True
    return False
