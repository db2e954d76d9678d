"""Applying an action: one action = one transaction (``apply_action``, ``apply_steps``).

Load the match (cached engine state, or a replay of the stored log), check the version, apply with the
engine, append the ``ActionRecord``, bump ``MatchRecord.version`` with a conditional UPDATE, commit.  Only
after it returns may the caller announce.  Two presses of one button, a replayed Telegram update, or two
processes cannot apply one action twice: ``dedupe_key`` catches the replays, the version check catches
everything else.  An engine object that refused an action is dropped from the cache (the next load
replays the log), so a refusal that changed the state by mistake cannot leak into later actions."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from engine.errors import RuleError
from engine.events import DEAL_OVER, DEAL_STARTED, Event
from engine.game import Match as EngineMatch
from storage.db import Database
from storage.errors import StaleVersion, not_found
from storage.match_cache import MatchRow, cache_put, forget_rows, remember_row, row_of
from storage.match_repo import events_from_json, load_engine, match_and_table
from storage.models import (
    ActionRecord,
    Deal,
    GameTable,
    MatchRecord,
    utcnow,
)
from storage.selection_repo import DELETE_SELECTION, selection_written

log = logging.getLogger(__name__)


@dataclass
class ApplyResult:
    """What ``apply_action`` did: the engine state after it, the new version, the events.

    ``duplicate`` is True when the ``dedupe_key`` had been applied before: nothing was applied now,
    ``events`` are the events stored with the earlier application and ``version`` is the current one.
    """

    match_id: int
    match: EngineMatch
    version: int
    events: list[Event]
    duplicate: bool = False
    action: str = ""  # the canonical action text stored
    row: MatchRow | None = None  # the match row as committed (read in the action's transaction)
    table: GameTable | None = None  # its table, read in the same transaction


class _LostRace(Exception):
    pass


def _events_to_json(events: Sequence[Event]) -> list[Any]:
    raw = [{"kind": e.kind, "data": e.data} for e in events]
    return json.loads(json.dumps(raw, default=str, ensure_ascii=False))  # type: ignore[no-any-return]


def _seat_of(action: str) -> int | None:
    head = action.split(maxsplit=1)[0] if action.strip() else ""
    return int(head) if head.isdigit() else None


async def apply_action(
    db: Database,
    match_id: int,
    action: str,
    *,
    expected_version: int | None = None,
    actor_user_id: int | None = None,
    dedupe_key: str | None = None,
    clear_selection: bool = True,
) -> ApplyResult:
    """Apply one action text in one transaction; see the module docstring.

    * ``expected_version``: the version the button was drawn at; another one raises ``StaleVersion``.
      None (typed plays, system steps): apply to the current state (retried if another process wins).
    * ``dedupe_key`` ("cb:<callback_query_id>", "upd:<update_id>", "clock:<deadline id>"): if already
      stored for this match, nothing is applied and ``duplicate=True`` is returned.
    * RuleError (from the engine, or ``match_paused`` / ``match_finished`` / ``match_not_found``):
      nothing is written.
    * ``clear_selection``: the acting seat's tapped-card selection is cleared in the same transaction.
    """
    attempts = 1 if expected_version is not None else 3
    async with db.match_lock(match_id):
        for attempt in range(attempts):
            try:
                return await _apply_once(
                    db, match_id, action, expected_version, actor_user_id, dedupe_key, clear_selection
                )
            except _LostRace as lost:
                if attempt == attempts - 1:
                    current = int(lost.args[0]) if lost.args else -1
                    raise StaleVersion(match_id, expected_version, current) from None
    raise AssertionError("unreachable")


async def apply_steps(
    db: Database, match_id: int, action: str, times: int, *, expected_version: int
) -> ApplyResult:
    """Apply the table's own step ``action`` (``"sys deal"``: one card) up to ``times`` times in one transaction,
    while it stays the match's next step: one action record per step, one version bump, one commit (dealing a
    batch of cards cost a transaction per card).  The result is the last step's (state, version, events), as
    if each had been applied by ``apply_action``; ``StaleVersion`` when the match is no longer at
    ``expected_version``; RuleError as ``apply_action``, nothing written."""
    async with db.match_lock(match_id), db.session() as s:
        found = (await s.execute(match_and_table(match_id))).first()
        if found is None:
            raise not_found("match", match_id)
        row, table = found[0], found[1]
        version = row.version
        _check_playable(row, expected_version)
        engine_match = await load_engine(db, s, row, take=True)
        now = utcnow()
        steps: list[tuple[str, list[Event]]] = []  # (stored action, events) of each step
        while len(steps) < max(1, times) and (not steps or engine_match.system_step() == action):
            log_before = len(engine_match.log)
            step_events = list(engine_match.apply(action))
            steps.append((_stored_action(engine_match, log_before, action), step_events))
            if engine_match.finished:
                break
        new_version = version + len(steps)
        finished = bool(engine_match.finished)
        if not await _bump_version(s, match_id, version, new_version, engine_match, now):
            await s.rollback()
            return await _after_lost_race(db, s, match_id, None, expected_version)
        s.add_all(
            [
                ActionRecord(
                    match_id=match_id,
                    seq=version + i,
                    action=stored,
                    actor_user_id=None,
                    events_json=_events_to_json(step_events),
                    created_at=now,
                )
                for i, (stored, step_events) in enumerate(steps, start=1)
            ]
        )
        if finished:
            await _finish_table(s, row, table)
        for i, (_stored, step_events) in enumerate(steps, start=1):
            await _track_deals(s, match_id, version + i, step_events, now)
        try:
            await s.commit()
        except IntegrityError:
            await s.rollback()
            return await _after_lost_race(db, s, match_id, None, expected_version)
        committed = _committed(db, row, engine_match, new_version)
        stored_action, events = steps[-1]
        return ApplyResult(
            match_id, engine_match, new_version, events, False, stored_action, committed, table
        )


def _check_playable(row: MatchRecord, expected_version: int | None) -> None:
    """Raise unless ``row`` is playing at ``expected_version`` (None: any version)."""
    if expected_version is not None and expected_version != row.version:
        raise StaleVersion(row.id, expected_version, row.version)
    if row.status == "paused":
        raise RuleError("match_paused", "The match is paused")
    if row.status != "playing":
        raise RuleError("match_finished", "The match is over")


async def _finish_table(s: AsyncSession, row: MatchRecord, table: GameTable | None) -> None:
    """Mark the finished match's table finished, in the action's transaction."""
    if table is not None:
        table.status = "finished"  # flushed with the commit
    else:
        await s.execute(update(GameTable).where(GameTable.id == row.table_id).values(status="finished"))


def _stored_action(engine_match: EngineMatch, log_before: int, action: str) -> str:
    """The action as the engine logged it (its canonical text), else as given."""
    return engine_match.log[-1] if len(engine_match.log) == log_before + 1 else action.strip()


async def _bump_version(
    s: AsyncSession, match_id: int, old: int, new: int, engine_match: EngineMatch, now: Any
) -> bool:
    """Move the match from version ``old`` to ``new`` (finished: with its status and result), in the action's
    transaction; False when another transaction moved it first."""
    if engine_match.finished:
        bumped = await s.execute(
            update(MatchRecord)
            .where(MatchRecord.id == match_id, MatchRecord.version == old)
            .values(
                version=new,
                status="finished",
                finished_at=now,
                result_json=json.loads(json.dumps(engine_match.result(), default=str)),
            )
            .execution_options(synchronize_session=False)
        )
    else:
        bumped = await s.execute(_BUMP, {"mid": match_id, "old": old, "new": new})
    return bool(bumped.rowcount == 1)  # type: ignore[attr-defined]


def _committed(db: Database, row: MatchRecord, engine_match: EngineMatch, version: int) -> MatchRow:
    """After an action's commit: the match row as committed, and what this process keeps of it."""
    committed = row_of(row, version=version, status="finished" if engine_match.finished else row.status)
    cache_put(db, row.id, version, engine_match)
    remember_row(db, committed)
    _version_committed(db, row.id, version)
    return committed


async def _find_duplicate(
    db: Database, s: AsyncSession, row: MatchRecord, dedupe_key: str, record_id: int | None = None
) -> ApplyResult | None:
    if record_id is not None:
        record = await s.get(ActionRecord, record_id)
    else:
        record = (
            (
                await s.execute(
                    select(ActionRecord).where(
                        ActionRecord.match_id == row.id, ActionRecord.dedupe_key == dedupe_key
                    )
                )
            )
            .scalars()
            .first()
        )
    if record is None:
        return None
    engine_match = await load_engine(db, s, row, take=False)
    return ApplyResult(
        row.id,
        engine_match,
        row.version,
        events_from_json(record.events_json),
        True,
        record.action,
        row_of(row),
    )


async def _apply_once(
    db: Database,
    match_id: int,
    action: str,
    expected_version: int | None,
    actor_user_id: int | None,
    dedupe_key: str | None,
    clear_selection: bool,
) -> ApplyResult:
    async with db.session() as s:
        # the match, its table and the action stored under ``dedupe_key`` (if any): one statement, built once
        if dedupe_key is not None:
            found = (await s.execute(_MATCH_TABLE_APPLIED, {"mid": match_id, "key": dedupe_key})).first()
        else:
            found = (await s.execute(_MATCH_TABLE, {"mid": match_id})).first()
        if found is None:
            raise not_found("match", match_id)
        row, table = found[0], found[1]
        if dedupe_key is not None and found[2] is not None:
            duplicate = await _find_duplicate(db, s, row, dedupe_key, int(found[2]))
            if duplicate is not None:
                return duplicate
        version = row.version
        _check_playable(row, expected_version)

        engine_match = await load_engine(db, s, row, take=True)
        log_before = len(engine_match.log)
        try:
            events = engine_match.apply(action)
        except RuleError:
            # Not put back: a refusal should change nothing, but the cache never relies on it.  The next
            # load replays the stored log (about 25 ms for half a 17-deal Shengji match).
            raise
        stored_action = _stored_action(engine_match, log_before, action)
        finished = bool(engine_match.finished)
        now = utcnow()
        if not await _bump_version(s, match_id, version, version + 1, engine_match, now):
            await s.rollback()
            return await _after_lost_race(db, s, match_id, dedupe_key, expected_version)
        try:
            await s.execute(
                _INSERT_ACTION,
                {
                    "match_id": match_id,
                    "seq": version + 1,
                    "action": stored_action,
                    "actor_user_id": actor_user_id,
                    "events_json": _events_to_json(events),
                    "created_at": now,
                    "dedupe_key": dedupe_key,
                },
            )
        except IntegrityError:
            await s.rollback()
            return await _after_lost_race(db, s, match_id, dedupe_key, expected_version)
        if finished:
            await _finish_table(s, row, table)
        await _track_deals(s, match_id, version + 1, events, now)
        seat = _seat_of(stored_action)
        # a sole writer knows when the seat has nothing selected (no statement then)
        cleared = (
            clear_selection
            and seat is not None
            and not (
                db.sole_writer
                and (match_id, seat) in db.selections
                and db.selections[(match_id, seat)] is None
            )
        )
        if cleared:
            await s.execute(DELETE_SELECTION, {"mid": match_id, "seat": seat})
        try:
            await s.commit()
        except IntegrityError:
            await s.rollback()
            return await _after_lost_race(db, s, match_id, dedupe_key, expected_version)
        if cleared and seat is not None:
            selection_written(db, (match_id, seat), None)
        committed = _committed(db, row, engine_match, version + 1)
        return ApplyResult(
            match_id, engine_match, version + 1, list(events), False, stored_action, committed, table
        )


# the statements of every move, built once (Core: no ORM bookkeeping for rows nobody reads back)
_MATCHES: Table = MatchRecord.__table__  # type: ignore[assignment]
_BUMP = (
    update(_MATCHES)
    .where(_MATCHES.c.id == bindparam("mid"), _MATCHES.c.version == bindparam("old"))
    .values(version=bindparam("new"))
)
_INSERT_ACTION = insert(ActionRecord.__table__)  # type: ignore[arg-type]
# the match, its table and the id of the action stored under a dedupe key (None: not applied yet); built once,
# its values bound at each move (building the select and its subquery cost more CPU than running it)
_MATCH_TABLE = match_and_table(bindparam("mid"))
_MATCH_TABLE_APPLIED = match_and_table(
    bindparam("mid"),
    select(ActionRecord.id)
    .where(ActionRecord.match_id == bindparam("mid"), ActionRecord.dedupe_key == bindparam("key"))
    .limit(1)
    .scalar_subquery(),
)


def _version_committed(db: Database, match_id: int, version: int) -> None:
    for listener in list(db.version_listeners):
        try:
            listener(match_id, version)
        except Exception:  # a listener's failure never undoes or hides a committed action
            log.exception("version listener failed for match %s", match_id)


async def _after_lost_race(
    db: Database, s: AsyncSession, match_id: int, dedupe_key: str | None, expected_version: int | None
) -> ApplyResult:
    """Another transaction applied first: a duplicate if it carried our dedupe key, else stale."""
    forget_rows(db, match_id=match_id)
    row = await s.get(MatchRecord, match_id, populate_existing=True)
    assert row is not None
    if dedupe_key is not None:
        duplicate = await _find_duplicate(db, s, row, dedupe_key)
        if duplicate is not None:
            return duplicate
    if expected_version is not None:
        raise StaleVersion(match_id, expected_version, row.version)
    raise _LostRace(row.version)


def _deal_number(data: Mapping[str, Any]) -> int | None:
    value = data.get("deal_no")
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


async def _track_deals(s: AsyncSession, match_id: int, seq: int, events: Sequence[Event], now: Any) -> None:
    """Keep the Deal rows from the engine's events, in the action's transaction."""
    for event in events:
        starting, ending = event.kind == DEAL_STARTED, event.kind == DEAL_OVER
        if not (starting or ending):
            continue
        deal_no = _deal_number(event.data)
        if deal_no is None:
            continue
        deal = (
            (await s.execute(select(Deal).where(Deal.match_id == match_id, Deal.deal_no == deal_no)))
            .scalars()
            .first()
        )
        if deal is None:
            first = seq
            if ending:  # the first deal starts with the match, without an event: it begins after the last one
                last_before = (
                    await s.execute(
                        select(func.max(Deal.last_seq)).where(
                            Deal.match_id == match_id, Deal.deal_no < deal_no
                        )
                    )
                ).scalar_one_or_none()
                first = (last_before or 0) + 1
            deal = Deal(match_id=match_id, deal_no=deal_no, started_at=now, first_seq=first)
            s.add(deal)
        if ending:
            deal.last_seq = seq
            deal.finished_at = now
            deal.summary_json = json.loads(json.dumps(dict(event.data), default=str, ensure_ascii=False))
        await s.flush()
