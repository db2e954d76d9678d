"""Matches: start one, read its row and engine state (cached, else replayed from the stored log), pause
it, check a replay, its deals, its action log; the latest match of a user or a chat (deal review).

Engine objects returned here (``load_match``, ``match_state``) are the live cached state: read them
(views, turns, auto_action, ai_action), never call ``apply`` on them."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BindParameter, func, select, update
from sqlalchemy.ext.asyncio import AsyncSession

from engine.errors import RuleError
from engine.events import Event, upgrade_event
from engine.game import RULES_VERSION, RulesVersionError, check_rules_version
from engine.game import Match as EngineMatch
from engine.registry import match_from_stored
from storage.db import Database
from storage.errors import ReplayError, not_found
from storage.match_cache import MatchRow, cache_put, forget_rows, known_state, remember_row, row_of
from storage.models import (
    ActionRecord,
    Deal,
    GameTable,
    MatchRecord,
    TableSeat,
    utcnow,
)
from storage.table_repo import MAX_SEED, SEATS, get_table, mixed_seed_of, open_table_row, seat_rows

log = logging.getLogger(__name__)


def replay_log(
    game: str,
    options_json: Mapping[str, Any],
    seed: int,
    actions: Sequence[str],
    rules_version: int = RULES_VERSION,
) -> EngineMatch:
    """The engine state after ``actions``; ReplayError when the match's rules version is not this
    engine's or an action no longer applies."""
    try:
        check_rules_version(rules_version)
    except RulesVersionError as err:
        raise ReplayError(f"{game} match stored under {err}") from err
    match = match_from_stored(game, options_json, seed)
    for number, action in enumerate(actions, 1):
        try:
            match.apply(action)
        except RuleError as err:
            raise ReplayError(f"{game} action {number} {action!r} no longer applies: {err}") from err
    return match


@dataclass
class MatchState:
    """A started match: its id, its table, the engine state and the version (actions applied)."""

    match_id: int
    table_id: int
    game: str
    version: int
    match: EngineMatch


def events_from_json(raw: Sequence[Any] | None) -> list[Event]:
    """Stored events in the current vocabulary (events stored before rules version 2 are renamed)."""
    return [upgrade_event(str(e.get("kind", "")), e.get("data") or {}) for e in (raw or [])]


async def start_match(
    db: Database, table_id: int, seed: int | None = None, *, fill_computers: bool = False
) -> MatchState:
    """Start the match of an open table whose four seats are filled (players or computers).

    RuleError: ``table_not_found``, ``table_not_open``, ``table_not_full``.  ``seed`` None: the table's
    ``fixed_seed`` (``seed=`` of /newtable), else a random one from the system's secure source.
    ``fill_computers``: the empty seats go to computer players in the same transaction (one statement;
    nothing is written when the start fails, e.g. another press started the table first).
    """
    async with db.session() as s:
        table = await open_table_row(s, table_id)
        if fill_computers:
            await s.execute(
                update(TableSeat)
                .where(
                    TableSeat.table_id == table_id,
                    TableSeat.user_id.is_(None),
                    TableSeat.is_computer.is_(False),
                )
                .values(is_computer=True)
                .execution_options(synchronize_session=False)
            )
        if seed is None and table.fixed_seed is not None:
            seed = table.fixed_seed
        elif seed is None and table.server_seed is not None:
            seed = mixed_seed_of(table, await seat_rows(s, table_id))
        elif seed is None:
            seed = random.SystemRandom().randrange(MAX_SEED)
        seats = await seat_rows(s, table_id)
        empty = [x.seat for x in seats if x.user_id is None and not x.is_computer]
        if empty or len(seats) != SEATS:
            raise RuleError(
                "table_not_full", "Seats {seats} are still empty", seats=", ".join(str(x) for x in empty)
            )
        engine_match = match_from_stored(table.game, table.options_json, seed)
        claimed = await s.execute(
            update(GameTable)
            .where(GameTable.id == table_id, GameTable.status == "open")
            .values(status="playing")
        )
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            await s.rollback()
            raise RuleError("table_not_open", "Table {table} is not taking seats now", table=table_id)
        row = MatchRecord(
            table_id=table_id,
            game=table.game,
            options_json=dict(table.options_json),
            seed=seed,
            version=0,
            rules_version=RULES_VERSION,
            status="playing",
            started_at=utcnow(),
        )
        s.add(row)
        await s.commit()
        cache_put(db, row.id, 0, engine_match)
        remember_row(db, row_of(row))
        return MatchState(row.id, table_id, table.game, 0, engine_match)


async def get_match_row(db: Database, match_id: int) -> MatchRecord | None:
    async with db.session() as s:
        return await s.get(MatchRecord, match_id)


async def current_match(db: Database, table_id: int) -> MatchRecord | None:
    """The table's latest match (any status), or None."""
    async with db.session() as s:
        rows = await s.execute(
            select(MatchRecord)
            .where(MatchRecord.table_id == table_id)
            .order_by(MatchRecord.id.desc())
            .limit(1)
        )
        return rows.scalars().first()


async def active_matches(db: Database) -> list[MatchRecord]:
    """Matches still playing or paused (to resume the live messages and clocks after a restart)."""
    async with db.session() as s:
        rows = await s.execute(
            select(MatchRecord).where(MatchRecord.status.in_(("playing", "paused"))).order_by(MatchRecord.id)
        )
        return list(rows.scalars().all())


async def set_match_paused(db: Database, match_id: int, paused: bool) -> None:
    """Pause (actions refused with ``match_paused``) or resume a playing match and its table."""
    old, new = ("playing", "paused") if paused else ("paused", "playing")
    async with db.session() as s:
        row = await s.get(MatchRecord, match_id)
        if row is None:
            raise not_found("match", match_id)
        await s.execute(
            update(MatchRecord)
            .where(MatchRecord.id == match_id, MatchRecord.status == old)
            .values(status=new)
        )
        await s.execute(
            update(GameTable).where(GameTable.id == row.table_id, GameTable.status == old).values(status=new)
        )
        await s.commit()
    forget_rows(db, match_id=match_id)


async def load_engine(db: Database, s: AsyncSession, row: MatchRecord, *, take: bool) -> EngineMatch:
    """The engine state of ``row`` at ``row.version``: from the cache, else replayed from the log.

    ``take`` removes it from the cache (the caller is about to change it and puts it back on success).
    """
    cached = db.match_cache.pop(row.id, None) if take else db.match_cache.get(row.id)
    if cached is not None and cached[0] == row.version:
        return cached[1]
    actions = (
        (
            await s.execute(
                select(ActionRecord.action)
                .where(ActionRecord.match_id == row.id, ActionRecord.seq <= row.version)
                .order_by(ActionRecord.seq)
            )
        )
        .scalars()
        .all()
    )
    if len(actions) != row.version:
        raise RuntimeError(f"match {row.id}: {len(actions)} actions stored for version {row.version}")
    engine_match = replay_log(row.game, row.options_json, row.seed, actions, row.rules_version)
    if not take:
        cache_put(db, row.id, row.version, engine_match)
    return engine_match


async def load_match_row(db: Database, match_id: int) -> tuple[MatchRecord, EngineMatch]:
    """The match row and its engine state at the row's version, read together (RuleError ``match_not_found``)."""
    async with db.session() as s:
        row = await s.get(MatchRecord, match_id)
        if row is None:
            raise not_found("match", match_id)
        return row, await load_engine(db, s, row, take=False)


async def match_row(db: Database, match_id: int) -> MatchRow | None:
    """The committed match row (from memory when this process is the sole writer), or None."""
    known: MatchRow | None = db.match_rows.get(match_id) if db.sole_writer else None
    if known is not None:
        return known
    epoch = db.row_epoch
    async with db.session() as s:
        row = await s.get(MatchRecord, match_id)
        if row is None:
            return None
        snap = row_of(row)
    remember_row(db, snap, epoch)
    return snap


async def match_state(db: Database, match_id: int) -> tuple[MatchRow, EngineMatch]:
    """``load_match_row`` as a ``MatchRow``; a sole writer answers from memory (the state it committed last)."""
    known = known_state(db, match_id)
    if known is not None:
        return known
    epoch = db.row_epoch
    async with db.session() as s:
        row = await s.get(MatchRecord, match_id)
        if row is None:
            raise not_found("match", match_id)
        snap = row_of(row)
        engine_match = await load_engine(db, s, row, take=False)
    remember_row(db, snap, epoch)
    return snap, engine_match


async def match_context(db: Database, match_id: int) -> tuple[MatchRow, EngineMatch, GameTable | None]:
    """``match_state`` and the match's table (read with the match in one statement unless the match is known)."""
    known = known_state(db, match_id)
    if known is not None:
        return known[0], known[1], await get_table(db, known[0].table_id)
    epoch = db.row_epoch
    async with db.session() as s:
        found = (await s.execute(match_and_table(match_id))).first()
        if found is None:
            raise not_found("match", match_id)
        row, table = found
        snap = row_of(row)
        engine_match = await load_engine(db, s, row, take=False)
    remember_row(db, snap, epoch)
    return snap, engine_match, table


async def load_match(db: Database, match_id: int) -> tuple[EngineMatch, int]:
    """The engine state of a match and its version (RuleError ``match_not_found``)."""
    async with db.session() as s:
        row = await s.get(MatchRecord, match_id)
        if row is None:
            raise not_found("match", match_id)
        return await load_engine(db, s, row, take=False), row.version


async def action_log(db: Database, match_id: int) -> list[ActionRecord]:
    """The stored actions of a match in order."""
    async with db.session() as s:
        rows = await s.execute(
            select(ActionRecord).where(ActionRecord.match_id == match_id).order_by(ActionRecord.seq)
        )
        return list(rows.scalars().all())


def _state_fingerprint(match: EngineMatch) -> Any:
    return {
        "log": list(match.log),
        "public": match.public_view(),
        "seats": [match.seat_view(seat) for seat in range(SEATS)],
        "finished": match.finished,
        "result": match.result(),
    }


async def replay_check(db: Database, match_id: int) -> bool:
    """Rebuild the match from the stored log and compare it with the cached state (views, log, result).
    Under the match lock: an action applied meanwhile would change the cached object between the two reads."""
    async with db.match_lock(match_id), db.session() as s:
        row = await s.get(MatchRecord, match_id)
        if row is None:
            raise not_found("match", match_id)
        live = await load_engine(db, s, row, take=False)
        actions = (
            (
                await s.execute(
                    select(ActionRecord.action)
                    .where(ActionRecord.match_id == match_id)
                    .order_by(ActionRecord.seq)
                )
            )
            .scalars()
            .all()
        )
    rebuilt = replay_log(row.game, row.options_json, row.seed, actions, row.rules_version)
    return bool(_state_fingerprint(live) == _state_fingerprint(rebuilt))


def match_and_table(match_id: int | BindParameter[int], *columns: Any) -> Any:
    """One statement: the match, its table (None if gone) and any further ``columns``; ``match_id`` may be a
    ``bindparam`` (a statement built once, the id given at each execution)."""
    return (
        select(MatchRecord, GameTable, *columns)
        .outerjoin(GameTable, GameTable.id == MatchRecord.table_id)
        .where(MatchRecord.id == match_id)
    )


async def record_deal(
    db: Database,
    match_id: int,
    deal_no: int,
    *,
    finished: bool = False,
    summary: Mapping[str, Any] | None = None,
) -> None:
    """Create or update a deal row by hand (``apply_action`` already keeps them from the engine's
    ``deal_started`` and ``deal_over`` events)."""
    async with db.session() as s:
        deal = (
            (await s.execute(select(Deal).where(Deal.match_id == match_id, Deal.deal_no == deal_no)))
            .scalars()
            .first()
        )
        if deal is None:
            deal = Deal(match_id=match_id, deal_no=deal_no, started_at=utcnow())
            s.add(deal)
        if finished:
            deal.finished_at = utcnow()
        if summary is not None:
            deal.summary_json = json.loads(json.dumps(dict(summary), default=str))
        await s.commit()


async def get_deals(db: Database, match_id: int) -> list[Deal]:
    """The deal rows of a match in order (summary, log range)."""
    async with db.session() as s:
        rows = await s.execute(select(Deal).where(Deal.match_id == match_id).order_by(Deal.deal_no))
        return list(rows.scalars().all())


async def state_after(db: Database, match_id: int, seq: int) -> EngineMatch:
    """The match replayed up to action ``seq`` (e.g. a deal's ``last_seq``: the state at the end of that deal)."""
    async with db.session() as s:
        row = await s.get(MatchRecord, match_id)
        if row is None:
            raise not_found("match", match_id)
        actions = (
            (
                await s.execute(
                    select(ActionRecord.action)
                    .where(ActionRecord.match_id == match_id, ActionRecord.seq <= seq)
                    .order_by(ActionRecord.seq)
                )
            )
            .scalars()
            .all()
        )
    return replay_log(row.game, row.options_json, row.seed, actions, row.rules_version)


async def count_actions(db: Database, match_id: int) -> int:
    async with db.session() as s:
        return int(
            (
                await s.execute(
                    select(func.count()).select_from(ActionRecord).where(ActionRecord.match_id == match_id)
                )
            ).scalar_one()
        )


async def latest_match_of_user(db: Database, user_id: int) -> MatchRecord | None:
    """The newest match (any status) at a table where ``user_id`` holds a seat, or None."""
    async with db.session() as s:
        rows = await s.execute(
            select(MatchRecord)
            .join(TableSeat, TableSeat.table_id == MatchRecord.table_id)
            .where(TableSeat.user_id == user_id)
            .order_by(MatchRecord.id.desc())
            .limit(1)
        )
        return rows.scalars().first()


async def latest_match_in_chat(db: Database, chat_id: int) -> MatchRecord | None:
    """The newest match (any status) of a table in ``chat_id``, or None."""
    async with db.session() as s:
        rows = await s.execute(
            select(MatchRecord)
            .join(GameTable, GameTable.id == MatchRecord.table_id)
            .where(GameTable.chat_id == chat_id)
            .order_by(MatchRecord.id.desc())
            .limit(1)
        )
        return rows.scalars().first()


async def action_applied(db: Database, match_id: int, dedupe_key: str) -> bool:
    """Was an action with this dedupe key applied to the match already (a page resending after a reconnect)?"""
    async with db.session() as s:
        found = (
            await s.execute(
                select(ActionRecord.id)
                .where(ActionRecord.match_id == match_id, ActionRecord.dedupe_key == dedupe_key)
                .limit(1)
            )
        ).first()
    return found is not None


async def action_committed_at(db: Database, match_id: int, seq: int) -> datetime | None:
    """When the match's action ``seq`` (its version ``seq``) was committed, in UTC; None when there is none."""
    async with db.session() as s:
        when: datetime | None = (
            await s.execute(
                select(ActionRecord.created_at).where(
                    ActionRecord.match_id == match_id, ActionRecord.seq == seq
                )
            )
        ).scalar_one_or_none()
    if when is not None and when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when
