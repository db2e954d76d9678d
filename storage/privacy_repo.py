"""Members' data (issue 21): what the bot holds about one member (``export_user``), removing it
(``forget_user``), and the retention purge of finished casual matches (``purge_casual``).

Forgetting a member: their user row is deleted and every record that must stay (tournament entries,
standings, ratings, finished tables' seats and actions, tournament audit, the seasons they created) is moved to a new placeholder
user with a negative id (``-n``, never a Telegram id) named "Deleted player #n"; an entry's name has the
member's first name replaced by that placeholder.  Their private chat's queued messages and message
references go.  A member who writes again afterwards is a new, fresh user (nothing links them to ``-n``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.db import Database
from storage.match_cache import forget_rows
from storage.models import (
    ActionRecord,
    Chat,
    GameTable,
    MatchRecord,
    MessageRef,
    PendingMessage,
    TableSeat,
    User,
    utcnow,
)
from storage.season_models import Season, SeasonTournament
from storage.tournament_models import (
    CheckIn,
    Confirmation,
    DashboardFollow,
    PairInvite,
    Tournament,
    TournamentAudit,
    TournamentEntry,
    TournamentMatch,
    TournamentPlayer,
    TournamentRole,
)
from storage.tournaments.lookup import player_label

LIVE_TABLE = ("open", "playing", "paused")
ENDED_TOURNAMENT = ("finished", "cancelled", "deleted")


@dataclass(frozen=True)
class Refusal:
    """Why a member cannot be forgotten now: ``table`` (seated at a live table) or ``tournament``."""

    reason: str
    ref: str  # the table id, or the tournament's name


def _iso(value: datetime | None) -> str | None:
    return None if value is None else value.isoformat()


def _has(players: Any, user_id: int) -> bool:
    return str(user_id) in {str(p) for p in players or ()}


async def _entries_of(s: AsyncSession, user_id: int) -> list[tuple[TournamentEntry, Tournament]]:
    """The tournament entries ``user_id`` plays in (a JSON list of ids: read in Python, a union's few thousand)."""
    rows = (await s.execute(select(TournamentEntry, Tournament).join(Tournament))).all()
    return [(e, t) for e, t in rows if _has(e.players_json, user_id)]


async def export_user(db: Database, user_id: int, ratings: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Everything stored about ``user_id``, as plain JSON data.  Other people's names and ids are left out;
    a match's result is given once the match is finished (never another seat's cards)."""
    async with db.session() as s:
        user = await s.get(User, user_id)
        seats = (
            await s.execute(
                select(TableSeat, GameTable)
                .join(GameTable)
                .where(TableSeat.user_id == user_id)
                .order_by(GameTable.id)
            )
        ).all()
        table_ids = [t.id for _, t in seats]
        matches = (
            (
                await s.execute(
                    select(MatchRecord).where(MatchRecord.table_id.in_(table_ids)).order_by(MatchRecord.id)
                )
            )
            .scalars()
            .all()
            if table_ids
            else []
        )
        actions = (
            (
                await s.execute(
                    select(ActionRecord)
                    .where(ActionRecord.actor_user_id == user_id)
                    .order_by(ActionRecord.match_id, ActionRecord.seq)
                )
            )
            .scalars()
            .all()
        )
        entries = await _entries_of(s, user_id)
        entry_ids = {str(e.id) for e, _ in entries}
        tmatches = (
            (
                await s.execute(
                    select(TournamentMatch).where(
                        TournamentMatch.tournament_id.in_([t.id for _, t in entries] or [-1])
                    )
                )
            )
            .scalars()
            .all()
        )
        roles = (
            (await s.execute(select(TournamentRole).where(TournamentRole.user_id == user_id))).scalars().all()
        )
    seat_of = {t.id: seat.seat for seat, t in seats}
    return {
        "user": None
        if user is None
        else {
            "telegram_id": user.id,
            "first_name": user.first_name,
            "username": user.username,
            "language_code": user.language_code,
            "language_chosen": user.lang_override,
            "started_bot": user.started_bot,
            "blocked_bot": user.blocked_bot,
            "first_seen": _iso(user.created_at),
        },
        "tables": [
            {
                "table_id": t.id,
                "game": t.game,
                "rules": t.preset_id,
                "status": t.status,
                "seat": seat.seat,
                "created": _iso(t.created_at),
                "tournament": t.tournament_ref,
            }
            for seat, t in seats
        ],
        "matches": [
            {
                "match_id": m.id,
                "table_id": m.table_id,
                "game": m.game,
                "seat": seat_of.get(m.table_id),
                "status": m.status,
                "started": _iso(m.started_at),
                "finished": _iso(m.finished_at),
                "result": m.result_json if m.status == "finished" else None,
            }
            for m in matches
        ],
        "my_actions": [
            {"match_id": a.match_id, "seq": a.seq, "action": a.action, "at": _iso(a.created_at)}
            for a in actions
        ],
        "tournament_entries": [
            {
                "tournament_id": t.id,
                "tournament": t.name,
                "tournament_status": t.status,
                "entry_id": e.id,
                "union_group": e.union_group,
                "entry_status": e.status,
                "matches": [
                    {
                        "match": m.match_key,
                        "status": m.status,
                        "start": _iso(m.start_at),
                        "side": "a" if m.side_a == str(e.id) else "b",
                        "result": m.result_json,
                    }
                    for m in tmatches
                    if m.tournament_id == t.id
                    and str(e.id) in (m.side_a, m.side_b)
                    and str(e.id) in entry_ids
                ],
            }
            for e, t in entries
        ],
        "tournament_roles": [{"tournament_id": r.tournament_id, "role": r.role} for r in roles],
        "ratings": dict(ratings or {}),
    }


async def refusal(s: AsyncSession, user_id: int) -> Refusal | None:
    live = (
        await s.execute(
            select(GameTable.id)
            .join(TableSeat)
            .where(TableSeat.user_id == user_id, GameTable.status.in_(LIVE_TABLE))
            .limit(1)
        )
    ).scalar()
    if live is not None:
        return Refusal("table", str(live))
    for e, t in await _entries_of(s, user_id):
        if e.status != "withdrawn" and t.status not in ENDED_TOURNAMENT:
            return Refusal("tournament", t.name or str(t.id))
    return None


def _swap(players: Any, old: int, new: int) -> list[Any]:
    return [str(new) if str(p) == str(old) else p for p in players or ()]


def _relabel(players: Any, old: int, new: int, shown: str) -> list[Any]:
    """The engine's copy of an entry's players: ``张伟 (1001)`` (storage/tournaments/lookup.player_label)
    or a plain id; the member's one becomes the placeholder's."""
    out = []
    for p in players or ():
        if str(p) == str(old):
            out.append(str(new))
        elif str(p).endswith(f" ({old})"):
            out.append(player_label(shown, new))
        else:
            out.append(p)
    return out


def _relabel_entry(data: Any, entry_id: str, old: int, new: int, old_name: str, shown: str) -> Any:
    """``data`` (a tournament's state) with every copy of entry ``entry_id`` relabelled."""
    if isinstance(data, list):
        return [_relabel_entry(d, entry_id, old, new, old_name, shown) for d in data]
    if not isinstance(data, dict):
        return data
    if {"id", "name", "players"} <= data.keys() and str(data["id"]) == entry_id:
        return {
            **data,
            "players": _relabel(data["players"], old, new, shown),
            "name": _rename(str(data["name"]), old_name, shown),
        }
    return {k: _relabel_entry(v, entry_id, old, new, old_name, shown) for k, v in data.items()}


def _renamed_values(data: Any, old_name: str, shown: str) -> Any:
    if isinstance(data, str):
        return _rename(data, old_name, shown)
    if isinstance(data, list):
        return [_renamed_values(d, old_name, shown) for d in data]
    if isinstance(data, dict):
        return {k: _renamed_values(v, old_name, shown) for k, v in data.items()}
    return data


def _same(value: Any, old: int, new: int) -> Any:
    """``value`` (an id as a number or a string), ``new`` in the same form when it is ``old``."""
    if str(value) != str(old):
        return value
    return new if isinstance(value, int) else str(new)


def _rename(name: str, old_name: str, placeholder: str) -> str:
    if not old_name:
        return name
    parts = [placeholder if p.strip() == old_name else p for p in name.split(" / ")]
    return " / ".join(parts)


async def forget_user(
    db: Database, user_id: int, placeholder: Callable[[int, str | None], str]
) -> Refusal | int:
    """Remove ``user_id``'s personal data (see the module's doc); returns the placeholder's number ``n``,
    or the refusal (nothing changed).  ``placeholder(n, language of a chat or None)`` is its shown name."""
    for attempt in range(3):
        try:
            return await _forget(db, user_id, placeholder)
        except IntegrityError:  # another member forgotten at the same moment took that placeholder id
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


async def _forget(db: Database, user_id: int, placeholder: Callable[[int, str | None], str]) -> Refusal | int:
    async with db.session() as s, s.begin():
        refused = await refusal(s, user_id)
        if refused is not None:
            return refused
        user = await s.get(User, user_id)
        old_name = user.first_name if user is not None else ""
        lowest = (await s.execute(select(func.min(User.id)))).scalar() or 0
        new = min(lowest, 0) - 1
        n = -new
        s.add(
            User(
                id=new,
                first_name=placeholder(n, None),
                username=None,
                language_code=None,
                started_bot=False,
                blocked_bot=True,
                created_at=utcnow(),
            )
        )
        await s.flush()
        await s.execute(update(TableSeat).where(TableSeat.user_id == user_id).values(user_id=new))
        await s.execute(update(GameTable).where(GameTable.created_by == user_id).values(created_by=new))
        await s.execute(
            update(ActionRecord).where(ActionRecord.actor_user_id == user_id).values(actor_user_id=new)
        )
        await s.execute(
            update(TournamentPlayer).where(TournamentPlayer.user_id == user_id).values(user_id=new)
        )
        await s.execute(update(TournamentRole).where(TournamentRole.user_id == user_id).values(user_id=new))
        await s.execute(update(CheckIn).where(CheckIn.user_id == user_id).values(user_id=new))
        await s.execute(
            update(TournamentAudit).where(TournamentAudit.actor_id == user_id).values(actor_id=new)
        )
        await s.execute(update(Tournament).where(Tournament.created_by == user_id).values(created_by=new))
        await s.execute(
            update(TournamentEntry).where(TournamentEntry.created_by == user_id).values(created_by=new)
        )
        await s.execute(
            update(TournamentMatch).where(TournamentMatch.confirmed_by == user_id).values(confirmed_by=new)
        )
        await s.execute(update(PairInvite).where(PairInvite.inviter_id == user_id).values(inviter_id=new))
        await s.execute(update(PairInvite).where(PairInvite.invitee_id == user_id).values(invitee_id=new))
        await s.execute(update(PairInvite).where(PairInvite.replaces == user_id).values(replaces=new))
        await s.execute(update(Season).where(Season.created_by == user_id).values(created_by=new))
        await s.execute(
            update(SeasonTournament).where(SeasonTournament.added_by == user_id).values(added_by=new)
        )
        await s.execute(delete(DashboardFollow).where(DashboardFollow.user_id == user_id))
        await s.execute(delete(Confirmation).where(Confirmation.user_id == user_id))
        for e, t in await _entries_of(s, user_id):
            lang = None
            if t.group_chat_id is not None:
                chat = await s.get(Chat, t.group_chat_id)
                lang = chat.language if chat is not None else None
            shown = placeholder(n, lang)
            e.players_json = _swap(e.players_json, user_id, new)
            e.name = _rename(e.name, old_name, shown)
            if t.state_json is not None:
                # the entry is copied in the state's entries and in its draw (the frozen list)
                t.state_json = _relabel_entry(t.state_json, str(e.id), user_id, new, old_name, shown)
            audits = (
                (await s.execute(select(TournamentAudit).where(TournamentAudit.tournament_id == t.id)))
                .scalars()
                .all()
            )
            for a in audits:  # e.g. "withdraw" and "team_formed" keep the entry's name
                a.detail_json = _renamed_values(a.detail_json, old_name, shown)
        # substitutes: a JSON map (no "=" on a JSON column in PostgreSQL): every match read, a union's few thousand
        for m in (await s.execute(select(TournamentMatch))).scalars().all():
            subs = m.substitutes or {}
            if any(str(k) == str(user_id) or str(v) == str(user_id) for k, v in subs.items()):
                m.substitutes = {_same(k, user_id, new): _same(v, user_id, new) for k, v in subs.items()}
        await s.execute(delete(PendingMessage).where(PendingMessage.chat_id == user_id))
        await s.execute(delete(MessageRef).where(MessageRef.chat_id == user_id))
        await s.execute(delete(Chat).where(Chat.id == user_id))
        await s.execute(delete(User).where(User.id == user_id))
    db.row_epoch += 1  # the users kept in memory (storage/user_repo.get_users) are read again
    db.user_rows.pop(user_id, None)
    db.user_rows.pop(new, None)
    return n


async def purge_casual(db: Database, older_than_days: float, now: datetime | None = None) -> int:
    """Delete finished casual matches (a table with no tournament) finished more than ``older_than_days`` ago,
    with their table when it has no other match left; returns the number of matches deleted."""
    cutoff = (now or utcnow()) - timedelta(days=older_than_days)
    async with db.session() as s, s.begin():
        rows = (
            await s.execute(
                select(MatchRecord.id, MatchRecord.table_id)
                .join(GameTable, GameTable.id == MatchRecord.table_id)
                .where(
                    MatchRecord.status == "finished",
                    MatchRecord.finished_at.is_not(None),
                    MatchRecord.finished_at < cutoff,
                    GameTable.tournament_ref.is_(None),
                    GameTable.status.in_(("finished", "aborted")),
                )
            )
        ).all()
        if not rows:
            return 0
        match_ids = [r[0] for r in rows]
        tables = {r[1] for r in rows}
        await s.execute(delete(ActionRecord).where(ActionRecord.match_id.in_(match_ids)))
        await s.execute(delete(MessageRef).where(MessageRef.match_id.in_(match_ids)))
        await s.execute(delete(MatchRecord).where(MatchRecord.id.in_(match_ids)))
        left = set(
            (await s.execute(select(MatchRecord.table_id).where(MatchRecord.table_id.in_(tables))))
            .scalars()
            .all()
        )
        gone = [t for t in tables if t not in left]
        if gone:
            await s.execute(delete(MessageRef).where(MessageRef.table_id.in_(gone)))
            await s.execute(delete(TableSeat).where(TableSeat.table_id.in_(gone)))
            await s.execute(delete(GameTable).where(GameTable.id.in_(gone)))
    for match_id in match_ids:
        forget_rows(db, match_id=match_id)
    for table_id in tables:
        forget_rows(db, table_id=table_id)
    return len(match_ids)
