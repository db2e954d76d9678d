"""The game service: what bot handlers and scheduler callbacks call to read and change the game.

One action = one transaction (``apply_action``): load the match (cached engine state, or a replay
of the stored log), check the version, apply with the engine, append the ``ActionRecord``, bump
``Match.version`` with a conditional UPDATE, commit.  Only after it returns may the caller announce.
Two presses of one button, a replayed Telegram update, or two processes cannot apply one action twice:
``dedupe_key`` catches the replays, the version check catches everything else.

Engine objects returned here (``ApplyResult.match``, ``load_match``) are the live cached state:
read them (views, turns, auto_action, ai_action), never call ``apply`` on them.  An engine object that
refused an action is dropped from the cache (the next load replays the log), so a refusal that changed
the state by mistake cannot leak into later actions.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from engine.errors import RuleError
from engine.events import DEAL_OVER, DEAL_STARTED, Event, upgrade_event
from engine.game import RULES_VERSION, RulesVersionError, check_rules_version
from engine.game import Match as EngineMatch
from storage.db import Database
from storage.models import (
    ActionRecord,
    Chat,
    Deal,
    GameTable,
    Match,
    MessageRef,
    PendingMessage,
    Selection,
    TableSeat,
    User,
    utcnow,
)

log = logging.getLogger(__name__)

SEATS = 4
ACTIVE_TABLE_STATUSES = ("open", "playing", "paused")
MAX_SEED = 2**62


# --- errors --------------------------------------------------------------------------------

class StaleVersion(RuleError):
    """The match moved on since the button was drawn (or another process applied first)."""

    def __init__(self, match_id: int, expected: int | None, current: int) -> None:
        super().__init__("stale_version", "This button is out of date (match {match_id} is at move {current})",
                         match_id=match_id, current=current)
        self.match_id = match_id
        self.expected = expected
        self.current = current


def _not_found(what: str, ident: object) -> RuleError:
    return RuleError(f"{what}_not_found", "No such " + what.replace("_", " ") + " ({id})", id=ident)


# --- engine construction (a registry so tests and future games can plug in) -------------------

def _real_engine(game: str) -> Callable[[Mapping[str, Any], int], EngineMatch]:
    def build(options_json: Mapping[str, Any], seed: int) -> EngineMatch:
        from engine.game import new_match
        from engine.options import build_options, options_class

        return new_match(game, build_options(options_class(game), dict(options_json)), seed)
    return build


ENGINE_FACTORIES: dict[str, Callable[[Mapping[str, Any], int], EngineMatch]] = {
    "shengji": _real_engine("shengji"),
    "guandan": _real_engine("guandan"),
}


def new_engine_match(game: str, options_json: Mapping[str, Any], seed: int) -> EngineMatch:
    factory = ENGINE_FACTORIES.get(game)
    if factory is None:
        raise RuleError("unknown_game", "Unknown game {game}; games: {allowed}", game=game,
                        allowed=", ".join(ENGINE_FACTORIES))
    return factory(options_json, seed)


class ReplayError(RuntimeError):
    """A stored log no longer replays (the engine changed under it): a bug, not a user error."""


def replay_log(game: str, options_json: Mapping[str, Any], seed: int, actions: Sequence[str],
               rules_version: int = RULES_VERSION) -> EngineMatch:
    """The engine state after ``actions``; ReplayError when the match's rules version is not this
    engine's or an action no longer applies."""
    try:
        check_rules_version(rules_version)
    except RulesVersionError as err:
        raise ReplayError(f"{game} match stored under {err}") from err
    match = new_engine_match(game, options_json, seed)
    for number, action in enumerate(actions, 1):
        try:
            match.apply(action)
        except RuleError as err:
            raise ReplayError(f"{game} action {number} {action!r} no longer applies: {err}") from err
    return match


# --- result types ---------------------------------------------------------------------------

@dataclass
class MatchState:
    """A started match: its id, its table, the engine state and the version (actions applied)."""

    match_id: int
    table_id: int
    game: str
    version: int
    match: EngineMatch


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


def _row_of(row: Match, **changes: Any) -> MatchRow:
    values: dict[str, Any] = dict(id=row.id, table_id=row.table_id, game=row.game, options_json=row.options_json,
                                  seed=row.seed, version=row.version, rules_version=row.rules_version,
                                  status=row.status)
    values.update(changes)
    return MatchRow(**values)


def _remember_row(db: Database, row: MatchRow, epoch: int | None = None) -> None:
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


def _forget_rows(db: Database, *, match_id: int | None = None, table_id: int | None = None) -> None:
    db.row_epoch += 1
    if match_id is not None:
        db.match_rows.pop(match_id, None)
    if table_id is not None:
        for key in [k for k, r in db.match_rows.items() if r.table_id == table_id]:
            db.match_rows.pop(key, None)


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


MATCH_CACHE_SIZE = 500  # engine states kept in memory per process (least recently stored dropped first)


def _cache_put(db: Database, match_id: int, version: int, match: EngineMatch) -> None:
    cache = db.match_cache
    cache.pop(match_id, None)
    cache[match_id] = (version, match)
    while len(cache) > MATCH_CACHE_SIZE:
        cache.pop(next(iter(cache)))


def _events_to_json(events: Sequence[Event]) -> list[Any]:
    raw = [{"kind": e.kind, "data": e.data} for e in events]
    return json.loads(json.dumps(raw, default=str, ensure_ascii=False))  # type: ignore[no-any-return]


def _events_from_json(raw: Sequence[Any] | None) -> list[Event]:
    """Stored events in the current vocabulary (events stored before rules version 2 are renamed)."""
    return [upgrade_event(str(e.get("kind", "")), e.get("data") or {}) for e in (raw or [])]


def _seat_of(action: str) -> int | None:
    head = action.split(maxsplit=1)[0] if action.strip() else ""
    return int(head) if head.isdigit() else None


# --- users and chats ---------------------------------------------------------------------------

async def upsert_user(db: Database, user_id: int, first_name: str = "", username: str | None = None,
                      language_code: str | None = None, *, started_bot: bool | None = None) -> User:
    """Create or refresh a user from a Telegram update (``started_bot=True`` on /start in private)."""
    for _ in range(2):
        async with db.session() as s:
            user = await s.get(User, user_id)
            if user is None:
                user = User(id=user_id, first_name=first_name or "", username=username,
                            language_code=language_code, started_bot=bool(started_bot), blocked_bot=False,
                            created_at=utcnow())
                s.add(user)
            else:
                user.first_name = first_name or user.first_name
                user.username = username
                if language_code:
                    user.language_code = language_code
                if started_bot is not None:
                    user.started_bot = started_bot
                    if started_bot:
                        user.blocked_bot = False
            try:
                await s.commit()
            except IntegrityError:  # inserted concurrently: update it instead
                await s.rollback()
                continue
            finally:
                _forget_user(db, user_id)
            return user
    raise RuntimeError("upsert_user failed twice")


async def get_user(db: Database, user_id: int) -> User | None:
    async with db.session() as s:
        return await s.get(User, user_id)


async def get_users(db: Database, user_ids: Sequence[int]) -> dict[int, User]:
    """The stored users among ``user_ids`` (a sole writer keeps them in memory: every change goes through here)."""
    if not user_ids:
        return {}
    known = db.user_rows
    if db.sole_writer and all(uid in known for uid in user_ids):
        return {uid: known[uid] for uid in user_ids if known[uid] is not None}
    epoch = db.row_epoch
    async with db.session() as s:
        rows = (await s.execute(select(User).where(User.id.in_(list(user_ids))))).scalars().all()
    found = {u.id: u for u in rows}
    if db.sole_writer and epoch == db.row_epoch:  # no user written meanwhile
        _bound(known, 10_000)
        for uid in user_ids:
            known[uid] = found.get(uid)
    return found


def _forget_user(db: Database, user_id: int) -> None:
    db.row_epoch += 1  # a read begun before this write is not kept
    db.user_rows.pop(user_id, None)


async def _update_user(db: Database, user_id: int, **values: Any) -> None:
    _forget_user(db, user_id)
    async with db.session() as s:
        result = await s.execute(update(User).where(User.id == user_id).values(**values))
        if result.rowcount == 0:  # type: ignore[attr-defined]
            s.add(User(id=user_id, first_name="", started_bot=False, blocked_bot=False, created_at=utcnow()))
            await s.flush()
            await s.execute(update(User).where(User.id == user_id).values(**values))
        await s.commit()
    _forget_user(db, user_id)


async def set_started(db: Database, user_id: int, started: bool = True) -> None:
    """The user started (or stopped) the bot in a private chat; starting clears ``blocked_bot``."""
    values: dict[str, Any] = {"started_bot": started}
    if started:
        values["blocked_bot"] = False
    await _update_user(db, user_id, **values)


async def set_blocked(db: Database, user_id: int, blocked: bool = True) -> None:
    """Telegram said 403 (the user blocked the bot) or the user came back."""
    await _update_user(db, user_id, blocked_bot=blocked)


async def set_lang_override(db: Database, user_id: int, lang: str | None) -> None:
    """/lang: ``lang`` ("zh-CN", "en") or None to follow the Telegram language again."""
    await _update_user(db, user_id, lang_override=lang)


async def user_language(db: Database, user_id: int) -> str | None:
    """The /lang override, else the Telegram language code, else None (the bot maps it to a catalogue)."""
    user = await get_user(db, user_id)
    if user is None:
        return None
    return user.lang_override or user.language_code


async def upsert_chat(db: Database, chat_id: int, kind: str, title: str | None = None) -> Chat:
    for _ in range(2):
        async with db.session() as s:
            chat = await s.get(Chat, chat_id)
            if chat is None:
                chat = Chat(id=chat_id, kind=kind, title=title, created_at=utcnow())
                s.add(chat)
            else:
                chat.kind = kind
                if title is not None:
                    chat.title = title
            try:
                await s.commit()
            except IntegrityError:
                await s.rollback()
                continue
            return chat
    raise RuntimeError("upsert_chat failed twice")


async def get_chat(db: Database, chat_id: int) -> Chat | None:
    async with db.session() as s:
        return await s.get(Chat, chat_id)


async def set_chat_language(db: Database, chat_id: int, language: str | None) -> None:
    """A group's language (``/lang`` by one of its admins); a chat not stored yet is stored as a group."""
    async with db.session() as s:
        result = await s.execute(update(Chat).where(Chat.id == chat_id).values(language=language))
        if result.rowcount == 0:  # type: ignore[attr-defined]
            s.add(Chat(id=chat_id, kind="group", title=None, language=language, created_at=utcnow()))
        try:
            await s.commit()
        except IntegrityError:  # stored concurrently: set it on that row
            await s.rollback()
            await s.execute(update(Chat).where(Chat.id == chat_id).values(language=language))
            await s.commit()


# --- tables and seats ----------------------------------------------------------------------------

async def create_table(db: Database, chat_id: int, preset_id: str, options: Mapping[str, object] | None = None,
                       created_by: int | None = None, *, tournament_ref: str | None = None) -> GameTable:
    """A new open table with four empty seats; options validated (RuleError / OptionError when bad)."""
    from engine.options import load_preset, options_to_dict

    preset = load_preset(preset_id)
    if options:
        preset = preset.with_overrides(dict(options))
    options_json = json.loads(json.dumps(options_to_dict(preset.rules)))
    return await insert_table(db, chat_id, preset_id, preset.game, options_json, created_by,
                              tournament_ref=tournament_ref)


async def insert_table(db: Database, chat_id: int, preset_id: str, game: str, options_json: Mapping[str, Any],
                       created_by: int | None = None, *, tournament_ref: str | None = None,
                       computer_seats: Sequence[int] = (), fixed_seed: int | None = None,
                       practice: bool = False) -> GameTable:
    """A table from already validated option values (``create_table`` validates; the tournament code may
    build its own); ``computer_seats`` are given to computer players from the start.

    A chat has at most one live table outside tournaments (a partial unique index, migration 0005):
    RuleError ``table_exists`` names the live one, also when several requests race."""
    async with db.session() as s:
        table = GameTable(chat_id=chat_id, preset_id=preset_id, game=game, options_json=dict(options_json),
                          status="open", created_by=created_by, tournament_ref=tournament_ref,
                          created_at=utcnow(), fixed_seed=fixed_seed, practice=practice,
                          server_seed=(random.SystemRandom().randrange(MAX_SEED)
                                       if tournament_ref is not None and fixed_seed is None else None))
        s.add(table)
        try:
            await s.flush()
        except IntegrityError:
            await s.rollback()
            live = await open_table_in_chat(db, chat_id)
            raise RuleError("table_exists", "This group already has a table (table {table}); /stop ends it",
                            table=live.id if live is not None else "?") from None
        for seat in range(SEATS):
            s.add(TableSeat(table_id=table.id, seat=seat, user_id=None, is_computer=seat in computer_seats))
        await s.commit()
        return table


async def get_table(db: Database, table_id: int) -> GameTable | None:
    async with db.session() as s:
        return await s.get(GameTable, table_id)


async def open_table_in_chat(db: Database, chat_id: int) -> GameTable | None:
    """The chat's newest table that is open, playing or paused (the one its commands act on), or None."""
    async with db.session() as s:
        rows = await s.execute(select(GameTable).where(GameTable.chat_id == chat_id,
                                                       GameTable.status.in_(ACTIVE_TABLE_STATUSES))
                               .order_by(GameTable.id.desc()).limit(1))
        return rows.scalars().first()


async def active_tables(db: Database) -> list[GameTable]:
    """Every table that is open, playing or paused, oldest first."""
    async with db.session() as s:
        rows = await s.execute(select(GameTable).where(GameTable.status.in_(ACTIVE_TABLE_STATUSES))
                               .order_by(GameTable.id))
        return list(rows.scalars().all())


async def active_tables_in_chat(db: Database, chat_id: int) -> list[GameTable]:
    """Tables of a chat that are open, playing or paused, oldest first."""
    async with db.session() as s:
        rows = await s.execute(select(GameTable).where(GameTable.chat_id == chat_id,
                                                       GameTable.status.in_(ACTIVE_TABLE_STATUSES))
                               .order_by(GameTable.id))
        return list(rows.scalars().all())


async def get_seats(db: Database, table_id: int) -> list[TableSeat]:
    """The four seats of a table, by seat number."""
    async with db.session() as s:
        return await _seats(s, table_id)


async def _seats(s: AsyncSession, table_id: int) -> list[TableSeat]:
    rows = await s.execute(select(TableSeat).where(TableSeat.table_id == table_id).order_by(TableSeat.seat))
    return list(rows.scalars().all())


async def seat_of_user(db: Database, table_id: int, user_id: int) -> int | None:
    for seat in await get_seats(db, table_id):
        if seat.user_id == user_id:
            return seat.seat
    return None


async def _open_table(s: AsyncSession, table_id: int) -> GameTable:
    table = await s.get(GameTable, table_id)
    if table is None:
        raise _not_found("table", table_id)
    if table.status != "open":
        raise RuleError("table_not_open", "Table {table} is not taking seats now", table=table_id)
    return table


async def seat_user(db: Database, table_id: int, seat: int, user_id: int) -> list[TableSeat]:
    """Put ``user_id`` on ``seat`` (moving them if they sit elsewhere at this table).

    RuleError: ``table_not_found``, ``table_not_open``, ``bad_seat``, ``seat_taken``.
    """
    if not 0 <= seat < SEATS:
        raise RuleError("bad_seat", "Seat {seat} does not exist (0-3)", seat=seat)
    async with db.session() as s:
        await _open_table(s, table_id)
        current = next((x for x in await _seats(s, table_id) if x.user_id == user_id), None)
        if current is not None and current.seat == seat:
            return await _seats(s, table_id)
        taken = await s.execute(
            update(TableSeat)
            .where(TableSeat.table_id == table_id, TableSeat.seat == seat, TableSeat.user_id.is_(None),
                   TableSeat.is_computer.is_(False))
            .values(user_id=user_id))
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            await s.rollback()
            raise RuleError("seat_taken", "Seat {seat} is taken", seat=seat)
        if current is not None:
            await s.execute(update(TableSeat).where(TableSeat.id == current.id).values(user_id=None))
        await s.commit()
        return await _seats(s, table_id)


async def unseat(db: Database, table_id: int, *, seat: int | None = None, user_id: int | None = None) -> list[TableSeat]:
    """Free a seat (by number, or the seat of ``user_id``); a computer seat becomes empty too."""
    async with db.session() as s:
        await _open_table(s, table_id)
        query = update(TableSeat).where(TableSeat.table_id == table_id)
        if seat is not None:
            query = query.where(TableSeat.seat == seat)
        if user_id is not None:
            query = query.where(TableSeat.user_id == user_id)
        await s.execute(query.values(user_id=None, is_computer=False))
        await s.commit()
        return await _seats(s, table_id)


async def fill_computer_seats(db: Database, table_id: int, count: int | None = None) -> list[TableSeat]:
    """Give up to ``count`` empty seats (None: all of them), lowest first, to computer players."""
    async with db.session() as s:
        await _open_table(s, table_id)
        empty = [x.seat for x in await _seats(s, table_id) if x.user_id is None and not x.is_computer]
        for seat in empty[: len(empty) if count is None else max(0, count)]:
            await s.execute(update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.seat == seat,
                                                    TableSeat.user_id.is_(None)).values(is_computer=True))
        await s.commit()
        return await _seats(s, table_id)


async def set_table_status(db: Database, table_id: int, status: str) -> None:
    async with db.session() as s:
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(status=status))
        await s.commit()


async def set_table_message_id(db: Database, table_id: int, message_id: int | None) -> None:
    """Remember the table (lobby) message id on the table row (see also ``set_live_message``)."""
    async with db.session() as s:
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(table_message_id=message_id))
        await s.commit()


async def abort_table(db: Database, table_id: int) -> None:
    """Close a table: status ``aborted``; its unfinished match (if any) is marked finished without result."""
    async with db.session() as s:
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(status="aborted"))
        await s.execute(update(Match).where(Match.table_id == table_id, Match.status != "finished")
                        .values(status="finished", finished_at=utcnow()))
        await s.commit()
    _forget_rows(db, table_id=table_id)


# --- matches ---------------------------------------------------------------------------------------

async def start_match(db: Database, table_id: int, seed: int | None = None, *,
                      fill_computers: bool = False) -> MatchState:
    """Start the match of an open table whose four seats are filled (players or computers).

    RuleError: ``table_not_found``, ``table_not_open``, ``table_not_full``.  ``seed`` None: the table's
    ``fixed_seed`` (``seed=`` of /newtable), else a random one from the system's secure source.
    ``fill_computers``: the empty seats go to computer players in the same transaction (one statement;
    nothing is written when the start fails, e.g. another press started the table first).
    """
    async with db.session() as s:
        table = await _open_table(s, table_id)
        if fill_computers:
            await s.execute(update(TableSeat).where(TableSeat.table_id == table_id, TableSeat.user_id.is_(None),
                                                    TableSeat.is_computer.is_(False)).values(is_computer=True)
                            .execution_options(synchronize_session=False))
        if seed is None and table.fixed_seed is not None:
            seed = table.fixed_seed
        elif seed is None and table.server_seed is not None:
            seed = mixed_seed_of(table, await _seats(s, table_id))
        elif seed is None:
            seed = random.SystemRandom().randrange(MAX_SEED)
        seats = await _seats(s, table_id)
        empty = [x.seat for x in seats if x.user_id is None and not x.is_computer]
        if empty or len(seats) != SEATS:
            raise RuleError("table_not_full", "Seats {seats} are still empty",
                            seats=", ".join(str(x) for x in empty))
        engine_match = new_engine_match(table.game, table.options_json, seed)
        claimed = await s.execute(update(GameTable).where(GameTable.id == table_id, GameTable.status == "open")
                                  .values(status="playing"))
        if claimed.rowcount != 1:  # type: ignore[attr-defined]
            await s.rollback()
            raise RuleError("table_not_open", "Table {table} is not taking seats now", table=table_id)
        row = Match(table_id=table_id, game=table.game, options_json=dict(table.options_json), seed=seed,
                    version=0, rules_version=RULES_VERSION, status="playing", started_at=utcnow())
        s.add(row)
        await s.commit()
        _cache_put(db, row.id, 0, engine_match)
        _remember_row(db, _row_of(row))
        return MatchState(row.id, table_id, table.game, 0, engine_match)


async def get_match_row(db: Database, match_id: int) -> Match | None:
    async with db.session() as s:
        return await s.get(Match, match_id)


async def current_match(db: Database, table_id: int) -> Match | None:
    """The table's latest match (any status), or None."""
    async with db.session() as s:
        rows = await s.execute(select(Match).where(Match.table_id == table_id).order_by(Match.id.desc()).limit(1))
        return rows.scalars().first()


async def active_matches(db: Database) -> list[Match]:
    """Matches still playing or paused (to resume the live messages and clocks after a restart)."""
    async with db.session() as s:
        rows = await s.execute(select(Match).where(Match.status.in_(("playing", "paused"))).order_by(Match.id))
        return list(rows.scalars().all())


async def set_match_paused(db: Database, match_id: int, paused: bool) -> None:
    """Pause (actions refused with ``match_paused``) or resume a playing match and its table."""
    old, new = ("playing", "paused") if paused else ("paused", "playing")
    async with db.session() as s:
        row = await s.get(Match, match_id)
        if row is None:
            raise _not_found("match", match_id)
        await s.execute(update(Match).where(Match.id == match_id, Match.status == old).values(status=new))
        await s.execute(update(GameTable).where(GameTable.id == row.table_id, GameTable.status == old)
                        .values(status=new))
        await s.commit()
    _forget_rows(db, match_id=match_id)


async def _load_engine(db: Database, s: AsyncSession, row: Match, *, take: bool) -> EngineMatch:
    """The engine state of ``row`` at ``row.version``: from the cache, else replayed from the log.

    ``take`` removes it from the cache (the caller is about to change it and puts it back on success).
    """
    cached = db.match_cache.pop(row.id, None) if take else db.match_cache.get(row.id)
    if cached is not None and cached[0] == row.version:
        return cached[1]
    actions = (await s.execute(select(ActionRecord.action)
                               .where(ActionRecord.match_id == row.id, ActionRecord.seq <= row.version)
                               .order_by(ActionRecord.seq))).scalars().all()
    if len(actions) != row.version:
        raise RuntimeError(f"match {row.id}: {len(actions)} actions stored for version {row.version}")
    engine_match = replay_log(row.game, row.options_json, row.seed, actions, row.rules_version)
    if not take:
        _cache_put(db, row.id, row.version, engine_match)
    return engine_match


async def load_match_row(db: Database, match_id: int) -> tuple[Match, EngineMatch]:
    """The match row and its engine state at the row's version, read together (RuleError ``match_not_found``)."""
    async with db.session() as s:
        row = await s.get(Match, match_id)
        if row is None:
            raise _not_found("match", match_id)
        return row, await _load_engine(db, s, row, take=False)


async def match_row(db: Database, match_id: int) -> MatchRow | None:
    """The committed match row (from memory when this process is the sole writer), or None."""
    known: MatchRow | None = db.match_rows.get(match_id) if db.sole_writer else None
    if known is not None:
        return known
    epoch = db.row_epoch
    async with db.session() as s:
        row = await s.get(Match, match_id)
        if row is None:
            return None
        snap = _row_of(row)
    _remember_row(db, snap, epoch)
    return snap


def _known_state(db: Database, match_id: int) -> tuple[MatchRow, EngineMatch] | None:
    """A sole writer's committed row and engine state of the match, when it has both at one version."""
    known = db.match_rows.get(match_id) if db.sole_writer else None
    if known is None:
        return None
    cached = db.match_cache.get(match_id)
    return (known, cached[1]) if cached is not None and cached[0] == known.version else None


async def match_state(db: Database, match_id: int) -> tuple[MatchRow, EngineMatch]:
    """``load_match_row`` as a ``MatchRow``; a sole writer answers from memory (the state it committed last)."""
    known = _known_state(db, match_id)
    if known is not None:
        return known
    epoch = db.row_epoch
    async with db.session() as s:
        row = await s.get(Match, match_id)
        if row is None:
            raise _not_found("match", match_id)
        snap = _row_of(row)
        engine_match = await _load_engine(db, s, row, take=False)
    _remember_row(db, snap, epoch)
    return snap, engine_match


async def match_context(db: Database, match_id: int) -> tuple[MatchRow, EngineMatch, GameTable | None]:
    """``match_state`` and the match's table (read with the match in one statement unless the match is known)."""
    known = _known_state(db, match_id)
    if known is not None:
        return known[0], known[1], await get_table(db, known[0].table_id)
    epoch = db.row_epoch
    async with db.session() as s:
        found = (await s.execute(_match_and_table(match_id))).first()
        if found is None:
            raise _not_found("match", match_id)
        row, table = found
        snap = _row_of(row)
        engine_match = await _load_engine(db, s, row, take=False)
    _remember_row(db, snap, epoch)
    return snap, engine_match, table


async def load_match(db: Database, match_id: int) -> tuple[EngineMatch, int]:
    """The engine state of a match and its version (RuleError ``match_not_found``)."""
    async with db.session() as s:
        row = await s.get(Match, match_id)
        if row is None:
            raise _not_found("match", match_id)
        return await _load_engine(db, s, row, take=False), row.version


async def action_log(db: Database, match_id: int) -> list[ActionRecord]:
    """The stored actions of a match in order."""
    async with db.session() as s:
        rows = await s.execute(select(ActionRecord).where(ActionRecord.match_id == match_id)
                               .order_by(ActionRecord.seq))
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
        row = await s.get(Match, match_id)
        if row is None:
            raise _not_found("match", match_id)
        live = await _load_engine(db, s, row, take=False)
        actions = (await s.execute(select(ActionRecord.action).where(ActionRecord.match_id == match_id)
                                   .order_by(ActionRecord.seq))).scalars().all()
    rebuilt = replay_log(row.game, row.options_json, row.seed, actions, row.rules_version)
    return bool(_state_fingerprint(live) == _state_fingerprint(rebuilt))


async def apply_action(db: Database, match_id: int, action: str, *, expected_version: int | None = None,
                       actor_user_id: int | None = None, dedupe_key: str | None = None,
                       clear_selection: bool = True) -> ApplyResult:
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
                return await _apply_once(db, match_id, action, expected_version, actor_user_id, dedupe_key,
                                         clear_selection)
            except _LostRace as lost:
                if attempt == attempts - 1:
                    current = int(lost.args[0]) if lost.args else -1
                    raise StaleVersion(match_id, expected_version, current) from None
    raise AssertionError("unreachable")


async def apply_steps(db: Database, match_id: int, action: str, times: int, *, expected_version: int) -> ApplyResult:
    """Apply the table's own step ``action`` (``"sys deal"``: one card) up to ``times`` times in one transaction,
    while it stays the match's next step: one action record per step, one version bump, one commit (dealing a
    batch of cards cost a transaction per card).  The result is the last step's (state, version, events), as
    if each had been applied by ``apply_action``; ``StaleVersion`` when the match is no longer at
    ``expected_version``; RuleError as ``apply_action``, nothing written."""
    async with db.match_lock(match_id), db.session() as s:
        found = (await s.execute(_match_and_table(match_id))).first()
        if found is None:
            raise _not_found("match", match_id)
        row, table = found[0], found[1]
        version = row.version
        _check_playable(row, expected_version)
        engine_match = await _load_engine(db, s, row, take=True)
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
        s.add_all([ActionRecord(match_id=match_id, seq=version + i, action=stored, actor_user_id=None,
                                events_json=_events_to_json(step_events), created_at=now)
                   for i, (stored, step_events) in enumerate(steps, start=1)])
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
        return ApplyResult(match_id, engine_match, new_version, events, False, stored_action, committed, table)


def _check_playable(row: Match, expected_version: int | None) -> None:
    """Raise unless ``row`` is playing at ``expected_version`` (None: any version)."""
    if expected_version is not None and expected_version != row.version:
        raise StaleVersion(row.id, expected_version, row.version)
    if row.status == "paused":
        raise RuleError("match_paused", "The match is paused")
    if row.status != "playing":
        raise RuleError("match_finished", "The match is over")


async def _finish_table(s: AsyncSession, row: Match, table: GameTable | None) -> None:
    """Mark the finished match's table finished, in the action's transaction."""
    if table is not None:
        table.status = "finished"  # flushed with the commit
    else:
        await s.execute(update(GameTable).where(GameTable.id == row.table_id).values(status="finished"))


def _match_and_table(match_id: int, *columns: Any) -> Any:
    """One statement: the match, its table (None if gone) and any further ``columns``."""
    return (select(Match, GameTable, *columns).outerjoin(GameTable, GameTable.id == Match.table_id)
            .where(Match.id == match_id))


def _stored_action(engine_match: EngineMatch, log_before: int, action: str) -> str:
    """The action as the engine logged it (its canonical text), else as given."""
    return engine_match.log[-1] if len(engine_match.log) == log_before + 1 else action.strip()


async def _bump_version(s: AsyncSession, match_id: int, old: int, new: int, engine_match: EngineMatch,
                        now: Any) -> bool:
    """Move the match from version ``old`` to ``new`` (finished: with its status and result), in the action's
    transaction; False when another transaction moved it first."""
    if engine_match.finished:
        bumped = await s.execute(
            update(Match).where(Match.id == match_id, Match.version == old)
            .values(version=new, status="finished", finished_at=now,
                    result_json=json.loads(json.dumps(engine_match.result(), default=str)))
            .execution_options(synchronize_session=False))
    else:
        bumped = await s.execute(_BUMP, {"mid": match_id, "old": old, "new": new})
    return bool(bumped.rowcount == 1)  # type: ignore[attr-defined]


def _committed(db: Database, row: Match, engine_match: EngineMatch, version: int) -> MatchRow:
    """After an action's commit: the match row as committed, and what this process keeps of it."""
    committed = _row_of(row, version=version, status="finished" if engine_match.finished else row.status)
    _cache_put(db, row.id, version, engine_match)
    _remember_row(db, committed)
    _version_committed(db, row.id, version)
    return committed


async def _find_duplicate(db: Database, s: AsyncSession, row: Match, dedupe_key: str,
                          record_id: int | None = None) -> ApplyResult | None:
    if record_id is not None:
        record = await s.get(ActionRecord, record_id)
    else:
        record = (await s.execute(select(ActionRecord).where(ActionRecord.match_id == row.id,
                                                             ActionRecord.dedupe_key == dedupe_key))).scalars().first()
    if record is None:
        return None
    engine_match = await _load_engine(db, s, row, take=False)
    return ApplyResult(row.id, engine_match, row.version, _events_from_json(record.events_json), True,
                       record.action, _row_of(row))


async def _apply_once(db: Database, match_id: int, action: str, expected_version: int | None,
                      actor_user_id: int | None, dedupe_key: str | None, clear_selection: bool) -> ApplyResult:
    async with db.session() as s:
        # the match, its table and the action stored under ``dedupe_key`` (if any): one statement
        columns: list[Any] = []
        if dedupe_key is not None:
            columns.append(select(ActionRecord.id).where(ActionRecord.match_id == match_id,
                                                         ActionRecord.dedupe_key == dedupe_key)
                           .limit(1).scalar_subquery())
        found = (await s.execute(_match_and_table(match_id, *columns))).first()
        if found is None:
            raise _not_found("match", match_id)
        row, table = found[0], found[1]
        if dedupe_key is not None and found[2] is not None:
            duplicate = await _find_duplicate(db, s, row, dedupe_key, int(found[2]))
            if duplicate is not None:
                return duplicate
        version = row.version
        _check_playable(row, expected_version)

        engine_match = await _load_engine(db, s, row, take=True)
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
            await s.execute(_INSERT_ACTION, {
                "match_id": match_id, "seq": version + 1, "action": stored_action, "actor_user_id": actor_user_id,
                "events_json": _events_to_json(events), "created_at": now, "dedupe_key": dedupe_key})
        except IntegrityError:
            await s.rollback()
            return await _after_lost_race(db, s, match_id, dedupe_key, expected_version)
        if finished:
            await _finish_table(s, row, table)
        await _track_deals(s, match_id, version + 1, events, now)
        seat = _seat_of(stored_action)
        # a sole writer knows when the seat has nothing selected (no statement then)
        cleared = clear_selection and seat is not None and not (
            db.sole_writer and (match_id, seat) in db.selections and db.selections[(match_id, seat)] is None)
        if cleared:
            await s.execute(_DELETE_SELECTION, {"mid": match_id, "seat": seat})
        try:
            await s.commit()
        except IntegrityError:
            await s.rollback()
            return await _after_lost_race(db, s, match_id, dedupe_key, expected_version)
        if cleared and seat is not None:
            _selection_written(db, (match_id, seat), None)
        committed = _committed(db, row, engine_match, version + 1)
        return ApplyResult(match_id, engine_match, version + 1, list(events), False, stored_action, committed, table)


# the statements of every move, built once (Core: no ORM bookkeeping for rows nobody reads back)
_MATCHES: Table = Match.__table__  # type: ignore[assignment]
_SELECTIONS: Table = Selection.__table__  # type: ignore[assignment]
_MESSAGE_REFS: Table = MessageRef.__table__  # type: ignore[assignment]
_BUMP = (update(_MATCHES).where(_MATCHES.c.id == bindparam("mid"), _MATCHES.c.version == bindparam("old"))
         .values(version=bindparam("new")))
_INSERT_ACTION = insert(ActionRecord.__table__)  # type: ignore[arg-type]
_DELETE_SELECTION = delete(_SELECTIONS).where(_SELECTIONS.c.match_id == bindparam("mid"),
                                              _SELECTIONS.c.seat == bindparam("seat"))
_SET_HASH = (update(_MESSAGE_REFS).where(_MESSAGE_REFS.c.chat_id == bindparam("chat"),
                                         _MESSAGE_REFS.c.message_id == bindparam("msg"))
             .values(last_text_hash=bindparam("hash"), updated_at=bindparam("at")))


def _version_committed(db: Database, match_id: int, version: int) -> None:
    for listener in list(db.version_listeners):
        try:
            listener(match_id, version)
        except Exception:  # a listener's failure never undoes or hides a committed action
            log.exception("version listener failed for match %s", match_id)


async def _after_lost_race(db: Database, s: AsyncSession, match_id: int, dedupe_key: str | None,
                           expected_version: int | None) -> ApplyResult:
    """Another transaction applied first: a duplicate if it carried our dedupe key, else stale."""
    _forget_rows(db, match_id=match_id)
    row = await s.get(Match, match_id, populate_existing=True)
    assert row is not None
    if dedupe_key is not None:
        duplicate = await _find_duplicate(db, s, row, dedupe_key)
        if duplicate is not None:
            return duplicate
    if expected_version is not None:
        raise StaleVersion(match_id, expected_version, row.version)
    raise _LostRace(row.version)


# --- deals ---------------------------------------------------------------------------------------

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
        deal = (await s.execute(select(Deal).where(Deal.match_id == match_id, Deal.deal_no == deal_no))
                ).scalars().first()
        if deal is None:
            first = seq
            if ending:  # the first deal starts with the match, without an event: it begins after the last one
                last_before = (await s.execute(select(func.max(Deal.last_seq)).where(
                    Deal.match_id == match_id, Deal.deal_no < deal_no))).scalar_one_or_none()
                first = (last_before or 0) + 1
            deal = Deal(match_id=match_id, deal_no=deal_no, started_at=now, first_seq=first)
            s.add(deal)
        if ending:
            deal.last_seq = seq
            deal.finished_at = now
            deal.summary_json = json.loads(json.dumps(dict(event.data), default=str, ensure_ascii=False))
        await s.flush()


async def record_deal(db: Database, match_id: int, deal_no: int, *, finished: bool = False,
                      summary: Mapping[str, Any] | None = None) -> None:
    """Create or update a deal row by hand (``apply_action`` already keeps them from the engine's
    ``deal_started`` and ``deal_over`` events)."""
    async with db.session() as s:
        deal = (await s.execute(select(Deal).where(Deal.match_id == match_id, Deal.deal_no == deal_no))
                ).scalars().first()
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
        row = await s.get(Match, match_id)
        if row is None:
            raise _not_found("match", match_id)
        actions = (await s.execute(select(ActionRecord.action)
                                   .where(ActionRecord.match_id == match_id, ActionRecord.seq <= seq)
                                   .order_by(ActionRecord.seq))).scalars().all()
    return replay_log(row.game, row.options_json, row.seed, actions, row.rules_version)


# --- live messages ------------------------------------------------------------------------------

def _ref_filter(purpose: str, table_id: int | None, match_id: int | None, seat: int | None) -> list[Any]:
    def eq(column: Any, value: Any) -> Any:
        return column.is_(None) if value is None else column == value
    return [MessageRef.purpose == purpose, eq(MessageRef.table_id, table_id), eq(MessageRef.match_id, match_id),
            eq(MessageRef.seat, seat)]


async def set_live_message(db: Database, purpose: str, chat_id: int, message_id: int, *,
                           table_id: int | None = None, match_id: int | None = None, seat: int | None = None,
                           deal_no: int | None = None, text_hash: str | None = None) -> MessageRef:
    """Remember the one live message for (purpose, table_id, match_id, seat), replacing an older one."""
    async with db.session() as s:
        await s.execute(delete(MessageRef).where(*_ref_filter(purpose, table_id, match_id, seat)))
        ref = MessageRef(chat_id=chat_id, message_id=message_id, purpose=purpose, table_id=table_id,
                         match_id=match_id, seat=seat, deal_no=deal_no, last_text_hash=text_hash,
                         created_at=utcnow(), updated_at=utcnow())
        s.add(ref)
        await s.commit()
        return ref


async def get_live_message(db: Database, purpose: str, *, table_id: int | None = None,
                           match_id: int | None = None, seat: int | None = None) -> MessageRef | None:
    async with db.session() as s:
        rows = await s.execute(select(MessageRef).where(*_ref_filter(purpose, table_id, match_id, seat))
                               .order_by(MessageRef.id.desc()).limit(1))
        return rows.scalars().first()


async def add_message_ref(db: Database, purpose: str, chat_id: int, message_id: int, *,
                          table_id: int | None = None, match_id: int | None = None, seat: int | None = None,
                          deal_no: int | None = None, text_hash: str | None = None) -> MessageRef:
    """Record a message that is not unique per purpose (deal summaries, results)."""
    async with db.session() as s:
        ref = MessageRef(chat_id=chat_id, message_id=message_id, purpose=purpose, table_id=table_id,
                         match_id=match_id, seat=seat, deal_no=deal_no, last_text_hash=text_hash,
                         created_at=utcnow(), updated_at=utcnow())
        s.add(ref)
        await s.commit()
        return ref


async def list_message_refs(db: Database, *, purpose: str | None = None, table_id: int | None = None,
                            match_id: int | None = None) -> list[MessageRef]:
    async with db.session() as s:
        query = select(MessageRef)
        if purpose is not None:
            query = query.where(MessageRef.purpose == purpose)
        if table_id is not None:
            query = query.where(MessageRef.table_id == table_id)
        if match_id is not None:
            query = query.where(MessageRef.match_id == match_id)
        return list((await s.execute(query.order_by(MessageRef.id))).scalars().all())


async def find_message_ref(db: Database, chat_id: int, message_id: int) -> MessageRef | None:
    """Which live message a callback came from."""
    async with db.session() as s:
        rows = await s.execute(select(MessageRef).where(MessageRef.chat_id == chat_id,
                                                        MessageRef.message_id == message_id)
                               .order_by(MessageRef.id.desc()).limit(1))
        return rows.scalars().first()


async def set_message_hash_of(db: Database, chat_id: int, message_id: int, text_hash: str | None) -> None:
    """``set_message_hash`` by the Telegram message (the outbox knows the chat and message, not the row)."""
    async with db.session() as s:
        await s.execute(update(MessageRef).where(MessageRef.chat_id == chat_id, MessageRef.message_id == message_id)
                        .values(last_text_hash=text_hash, updated_at=utcnow()))
        await s.commit()


async def set_message_hashes(db: Database, hashes: dict[tuple[int, int], str]) -> None:
    """``set_message_hash_of`` for many messages in one transaction (the outbox's changes, now and then)."""
    if not hashes:
        return
    now = utcnow()
    async with db.session() as s:  # one statement run for every message (executemany)
        await s.execute(_SET_HASH, [{"chat": chat_id, "msg": message_id, "hash": text_hash, "at": now}
                                    for (chat_id, message_id), text_hash in hashes.items()])
        await s.commit()


async def delete_message_ref(db: Database, ref_id: int) -> None:
    """Forget one message row (the message was deleted in Telegram)."""
    async with db.session() as s:
        await s.execute(delete(MessageRef).where(MessageRef.id == ref_id))
        await s.commit()


async def set_message_hash(db: Database, ref_id: int, text_hash: str | None) -> None:
    """Remember the hash of the text last sent to that message (so an unchanged edit is skipped)."""
    async with db.session() as s:
        await s.execute(update(MessageRef).where(MessageRef.id == ref_id)
                        .values(last_text_hash=text_hash, updated_at=utcnow()))
        await s.commit()


async def delete_message_refs(db: Database, *, table_id: int | None = None, match_id: int | None = None,
                              purpose: str | None = None) -> int:
    if table_id is None and match_id is None and purpose is None:
        raise ValueError("delete_message_refs needs a filter")
    async with db.session() as s:
        query = delete(MessageRef)
        if purpose is not None:
            query = query.where(MessageRef.purpose == purpose)
        if table_id is not None:
            query = query.where(MessageRef.table_id == table_id)
        if match_id is not None:
            query = query.where(MessageRef.match_id == match_id)
        result = await s.execute(query)
        await s.commit()
        return int(result.rowcount)  # type: ignore[attr-defined]


async def get_table_message(db: Database, table_id: int) -> MessageRef | None:
    """The live table message in the group."""
    return await get_live_message(db, "table", table_id=table_id)


async def set_table_message(db: Database, table_id: int, chat_id: int, message_id: int, *,
                            text_hash: str | None = None) -> MessageRef:
    """Remember the live table message (also stored as ``GameTable.table_message_id``)."""
    await set_table_message_id(db, table_id, message_id)
    return await set_live_message(db, "table", chat_id, message_id, table_id=table_id, text_hash=text_hash)


async def get_hand_message(db: Database, match_id: int, seat: int) -> MessageRef | None:
    """The seat's hand message in its private chat."""
    return await get_live_message(db, "hand", match_id=match_id, seat=seat)


async def set_hand_message(db: Database, match_id: int, seat: int, chat_id: int, message_id: int, *,
                           deal_no: int | None = None, text_hash: str | None = None) -> MessageRef:
    return await set_live_message(db, "hand", chat_id, message_id, match_id=match_id, seat=seat,
                                  deal_no=deal_no, text_hash=text_hash)


# --- tap-to-select state ------------------------------------------------------------------------

async def get_selection(db: Database, match_id: int, seat: int) -> Selection | None:
    async with db.session() as s:
        rows = await s.execute(select(Selection).where(Selection.match_id == match_id, Selection.seat == seat))
        return rows.scalars().first()


async def selected(db: Database, match_id: int, seat: int) -> tuple[str, int | None]:
    """The seat's selection as (card text, deal number), ("", None) if none; a sole writer keeps it in memory."""
    key = (match_id, seat)
    if db.sole_writer and key in db.selections:
        known = db.selections[key]
    else:
        epoch = db.row_epoch
        sel = await get_selection(db, match_id, seat)
        known = (sel.cards_text, sel.deal_no) if sel is not None else None
        if db.sole_writer and epoch == db.row_epoch:  # no selection written meanwhile
            _bound(db.selections)
            db.selections[key] = known
    return known if known is not None else ("", None)


def _selection_written(db: Database, key: tuple[int, int], value: tuple[str, int | None] | None) -> None:
    """A seat's selection was written (None: cleared): a read begun before is not kept, a sole writer knows it."""
    db.row_epoch += 1
    db.selections.pop(key, None)
    if db.sole_writer:
        _bound(db.selections)
        db.selections[key] = value


def _bound(cache: dict[Any, Any], size: int = 4 * MATCH_CACHE_SIZE) -> None:
    if len(cache) >= size:  # bounded: forgetting only costs a read
        cache.clear()


async def set_selection(db: Database, match_id: int, seat: int, cards_text: str,
                        deal_no: int | None = None) -> Selection:
    """Store the selected cards (canonical card text) of a seat's hand keyboard: one statement (an insert
    that updates the seat's row if it has one, SQLite and PostgreSQL alike)."""
    key = (match_id, seat)
    now = utcnow()
    db.selections.pop(key, None)
    async with db.session() as s:
        await s.execute(_upsert_selection(db.dialect), {"match_id": match_id, "seat": seat, "cards_text": cards_text,
                                                        "deal_no": deal_no, "updated_at": now})
        await s.commit()
    _selection_written(db, key, (cards_text, deal_no))
    return Selection(match_id=match_id, seat=seat, cards_text=cards_text, deal_no=deal_no, updated_at=now)


_UPSERTS: dict[str, Any] = {}


def _upsert_selection(dialect: str) -> Any:
    statement = _UPSERTS.get(dialect)
    if statement is None:
        from sqlalchemy.dialects import postgresql, sqlite

        values: Any = (postgresql.insert if dialect == "postgresql" else sqlite.insert)(_SELECTIONS)
        statement = _UPSERTS[dialect] = values.on_conflict_do_update(
            index_elements=[_SELECTIONS.c.match_id, _SELECTIONS.c.seat],
            set_={"cards_text": values.excluded.cards_text, "deal_no": values.excluded.deal_no,
                  "updated_at": values.excluded.updated_at})
    return statement


async def clear_selection(db: Database, match_id: int, seat: int | None = None) -> None:
    """Forget the selection of a seat (None: of every seat, e.g. at a new deal)."""
    async with db.session() as s:
        query = delete(Selection).where(Selection.match_id == match_id)
        if seat is not None:
            query = query.where(Selection.seat == seat)
        await s.execute(query)
        await s.commit()
    for one in range(SEATS) if seat is None else (seat,):
        _selection_written(db, (match_id, one), None)


async def count_actions(db: Database, match_id: int) -> int:
    async with db.session() as s:
        return int((await s.execute(select(func.count()).select_from(ActionRecord)
                                    .where(ActionRecord.match_id == match_id))).scalar_one())


# --- deal review (bot/tables/review_requests.py) ----------------------------------------------

async def latest_match_of_user(db: Database, user_id: int) -> Match | None:
    """The newest match (any status) at a table where ``user_id`` holds a seat, or None."""
    async with db.session() as s:
        rows = await s.execute(select(Match).join(TableSeat, TableSeat.table_id == Match.table_id)
                               .where(TableSeat.user_id == user_id).order_by(Match.id.desc()).limit(1))
        return rows.scalars().first()


async def latest_match_in_chat(db: Database, chat_id: int) -> Match | None:
    """The newest match (any status) of a table in ``chat_id``, or None."""
    async with db.session() as s:
        rows = await s.execute(select(Match).join(GameTable, GameTable.id == Match.table_id)
                               .where(GameTable.chat_id == chat_id).order_by(Match.id.desc()).limit(1))
        return rows.scalars().first()


# --- tournament tables: the committed server seed and the mix (docs/fairness.md) ----------------------

MAX_MIX_WORDS = 8


def mix_values(table: GameTable, seats: Sequence[TableSeat]) -> list[str]:
    """The public values mixed into a tournament table's match seed: table id, seating, players' /mix words."""
    seating = ",".join(str(x.user_id if x.user_id is not None else "-") for x in sorted(seats, key=lambda x: x.seat))
    return [f"table:{table.id}", f"seats:{seating}", *(str(w) for w in (table.mix_words or []))]


def mixed_seed_of(table: GameTable, seats: Sequence[TableSeat]) -> int:
    from engine.fairness import contributions_mix, mixed_match_seed

    assert table.server_seed is not None
    return mixed_match_seed(table.server_seed, contributions_mix(mix_values(table, seats)))


async def add_mix_words(db: Database, table_id: int, user_id: int, words: str) -> list[str]:
    """A seated player's /mix words on an open tournament table; returns every word so far.

    RuleError: ``table_not_open``, ``not_seated``, ``no_mix`` (not a tournament table), ``mix_full``."""
    async with db.session() as s:
        table = await _open_table(s, table_id)
        if table.server_seed is None:
            raise RuleError("no_mix", "This table has no mixed-in seed")
        if not any(x.user_id == user_id for x in await _seats(s, table_id)):
            raise RuleError("not_seated", "You are not seated at this table")
        current = list(table.mix_words or [])
        if len(current) >= MAX_MIX_WORDS:
            raise RuleError("mix_full", "Enough words were mixed in ({n})", n=MAX_MIX_WORDS)
        current.append(f"{user_id}:{words}")
        await s.execute(update(GameTable).where(GameTable.id == table_id).values(mix_words=current))
        await s.commit()
        return current


# --- the outbox's sends of record across a restart ------------------------------------------------

@dataclass(frozen=True)
class StoredSend:
    """A send of record kept across a restart (the outbox's ``PendingSend`` fields)."""

    kind: str
    chat_id: int
    text: str
    markup: Any | None
    data: bytes | None = None
    filename: str | None = None


async def save_pending_messages(db: Database, items: Sequence[Any]) -> int:
    """Store the sends of record an outbox could not deliver before its stop (objects with the fields
    of ``StoredSend``), in their order."""
    if not items:
        return 0
    async with db.session() as s:
        for it in items:
            s.add(PendingMessage(chat_id=it.chat_id, kind=it.kind, text=it.text, markup_json=it.markup,
                                 data=it.data, filename=it.filename, created_at=utcnow()))
        await s.commit()
    return len(items)


async def take_pending_messages(db: Database) -> list[StoredSend]:
    """The stored sends of record, oldest first; removed from the table in the same transaction."""
    async with db.session() as s:
        rows = (await s.execute(select(PendingMessage).order_by(PendingMessage.id))).scalars().all()
        out = [StoredSend(r.kind, r.chat_id, r.text, r.markup_json, r.data, r.filename) for r in rows]
        if rows:
            await s.execute(delete(PendingMessage).where(PendingMessage.id.in_([r.id for r in rows])))
            await s.commit()
        return out
