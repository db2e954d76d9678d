"""Duplicate deals (engine/tournament/duplicate.py): what the tables of one comparison share in storage.

* The **partner table** of a duplicate table (``partner_ref``): in a team match table k's neighbour
  (1 <-> 2, 3 <-> 4) of the same match; in a Swiss of pairs the table of the comparison's other match
  (``S<r>-M1`` <-> ``S<r>-M2``, ...; ``swiss_partner_match``).

* The table opened second gets the other table's **server seed** when it is opened, so both lobbies
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
from engine.tournament.duplicate import swiss_other, swiss_partner
from engine.tournament.results import PairingResult
from storage import match_repo, table_repo
from storage.db import Database
from storage.models import GameTable
from storage.tournament_models import Tournament, TournamentMatch
from storage.tournaments.common import match_row, tournament_row
from storage.tournaments.results import Recorded, record_in
from storage.tournaments.tx import retrying


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


def partner_ref_of(ref: str | None, turn: object, pairs: bool = False) -> str | None:
    """The ``tournament_ref`` of the other table of a duplicate comparison (None: not duplicate).

    A team match ``t<id>:<match>:<k>``: table k's partner is table k + 1 (odd k) or k - 1 of the same match.
    A Swiss of pairs (``pairs``) ``t<id>:S<r>-M<i>:1``: the other match of the comparison, M<i+1> for the
    table of M<i> (odd i, turn 0), M<i-1> for M<i> (even i, turn 1): ``swiss_other``; only matches with a
    partner get a turn."""
    if turn is None or not isinstance(turn, int) or turn < 0 or not ref:
        return None
    head, _, k = ref.rpartition(":")
    if not k.isdigit():
        return None
    if not pairs:
        return f"{head}:{int(k) + 1 if int(k) % 2 else int(k) - 1}"
    tid, _, key = head.partition(":")
    other = swiss_other(key)
    return None if other is None else f"{tid}:{other}:{k}"


def _partner_ref(table: GameTable, pairs: bool = False) -> str | None:
    """The ``tournament_ref`` of the other table of ``table``'s duplicate comparison (None: not duplicate)."""
    turn = (table.options_json or {}).get("board_turn")
    return partner_ref_of(table.tournament_ref, None if turn is None else int(turn), pairs)


async def pairs_tournament(db: Database, ref: str | None) -> bool:
    """Is the tournament of table ref ``t<id>:...`` a tournament of pairs (its comparisons are two matches)?"""
    head = (ref or "").split(":", 1)[0]
    if not head.startswith("t") or not head[1:].isdigit():
        return False
    async with db.session() as s:
        settings = (
            await s.execute(select(Tournament.settings_json).where(Tournament.id == int(head[1:])))
        ).scalar_one_or_none()
    return bool(settings) and (settings or {}).get("entrant", "pair") == "pair"


async def partner_ref(db: Database, table: GameTable) -> str | None:
    """``_partner_ref`` of a stored table, knowing whether its tournament is of pairs or teams."""
    if (table.options_json or {}).get("board_turn") is None:
        return None
    return _partner_ref(table, await pairs_tournament(db, table.tournament_ref))


async def swiss_partner_match(db: Database, tid: int, key: str) -> TournamentMatch | None:
    """The other match of ``key``'s comparison in a Swiss of pairs with duplicate deals (rows of the round's
    matches with two sides; ``engine.tournament.duplicate.swiss_partner``); None: it plays ordinary deals."""
    other = swiss_other(key)
    if other is None:
        return None
    keys = {key, other}
    async with db.session() as s:
        rows = (
            (
                await s.execute(
                    select(TournamentMatch).where(
                        TournamentMatch.tournament_id == tid, TournamentMatch.match_key.in_(keys)
                    )
                )
            )
            .scalars()
            .all()
        )
    paired = {m.match_key: m for m in rows if m.side_a and m.side_b}
    other = swiss_partner(key, paired)
    return None if other is None else paired[other]


async def comparison_over(db: Database, table_id: int) -> bool:
    """Has every table of ``table_id``'s duplicate comparison stopped playing?  Until then no seed of the
    table may be shown (the partner table may still be playing the same deal).  True for a table that is
    not of a duplicate comparison."""
    table = await table_repo.get_table(db, table_id)
    partner = None if table is None else await partner_ref(db, table)
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
    partner = None if table is None else await partner_ref(db, table)
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


@retrying
async def record_comparison(
    db: Database, tid: int, results: Sequence[tuple[str, PairingResult]]
) -> list[Recorded]:
    """Record the results of both matches of a Swiss pairs comparison in one transaction (neither is
    announced, nor the next round paired, without the other)."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        out = []
        for key, result in results:
            m = await match_row(s, tid, key)
            out.append(await record_in(s, row, m, result, None, "result"))
        await s.commit()
        return out
