"""Registration: partner invitations, pairs, teams, quotas, withdrawals and replacements."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession

from storage.db import Database
from storage.models import User, utcnow
from storage.tournament_models import (
    PairInvite,
    Tournament,
    TournamentEntry,
    TournamentPlayer,
    TournamentRole,
)
from storage.tournaments.common import add_audit, check_union_group, error, roles_in, tournament_row
from storage.tournaments.lookup import OPEN_STATUSES, active_entry_rows, entry_among, user_display_names
from storage.tournaments.tx import retrying, touch


def _quota(row: Tournament, union_group: str) -> int:
    for g in row.union_groups or []:
        if g["name"] == union_group:
            return int(g.get("quota", 0))
    return int(row.settings_json.get("group_quota", 0))


def _check_open(row: Tournament, now: datetime | None, organiser: bool = False) -> None:
    if row.announcement_json is not None or row.status not in OPEN_STATUSES:
        raise error("registration_closed", "Registration is closed")
    if organiser:
        return
    if row.status != "registration" or (
        now is not None and row.registration_deadline is not None and now > row.registration_deadline
    ):
        raise error("deadline_passed", "The registration deadline has passed")


def check_registration_open(row: Tournament, now: datetime | None) -> None:
    """RuleError ``registration_closed`` / ``deadline_passed`` when a player may not register now."""
    _check_open(row, now)


def check_quota(row: Tournament, entries: Sequence[TournamentEntry], union_group: str, kind: str) -> None:
    quota = _quota(row, union_group)
    if row.settings_json.get("entrant") == "team" and kind == "pair":
        per = int(row.settings_json.get("pairs_per_team", 1))
        quota = quota * per if quota else 0
    if quota and sum(1 for e in entries if e.union_group == union_group and e.kind == kind) >= quota:
        raise error(
            "quota_full", "Union group {group} may enter {quota} entries", group=union_group, quota=quota
        )


async def claim_players(s: AsyncSession, tid: int, entry_id: int, players: Sequence[int]) -> None:
    """A player is in one active pair of a tournament: the unique row refuses a second (a race included)."""
    for uid in players:
        s.add(TournamentPlayer(tournament_id=tid, user_id=int(uid), entry_id=entry_id))
    try:
        await s.flush()
    except IntegrityError as exc:
        raise error("partner_already_paired", "You are already in a pair in this tournament") from exc


async def _release_players(s: AsyncSession, entry_id: int) -> None:
    await s.execute(delete(TournamentPlayer).where(TournamentPlayer.entry_id == entry_id))


@retrying
async def create_invite(db: Database, tid: int, user_id: int, union_group: str, now: datetime) -> PairInvite:
    """The first player of a pair asks for a one-time partner link (their older open links are cancelled)."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        _check_open(row, now)
        check_union_group(row, union_group)
        entries = await active_entry_rows(s, tid)
        if entry_among(entries, user_id) is not None:
            raise error("already_registered", "You are already registered")
        check_quota(row, entries, union_group, "pair")
        for old in (
            (
                await s.execute(
                    select(PairInvite).where(
                        PairInvite.tournament_id == tid,
                        PairInvite.inviter_id == user_id,
                        PairInvite.status == "open",
                    )
                )
            )
            .scalars()
            .all()
        ):
            old.status = "cancelled"
        invite = PairInvite(
            token=secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"),
            tournament_id=tid,
            inviter_id=user_id,
            union_group=union_group,
            status="open",
            expires_at=now + timedelta(hours=row.invite_hours),
            created_at=utcnow(),
        )
        s.add(invite)
        await s.commit()
        return invite


async def get_invite(db: Database, token: str) -> PairInvite:
    async with db.session() as s:
        inv = (await s.execute(select(PairInvite).where(PairInvite.token == token))).scalars().first()
        if inv is None:
            raise error("invite_unknown", "This invitation link is not valid")
        return inv


async def _used(s: AsyncSession, inv: PairInvite, user_id: int) -> None:
    """An invitation already used: by this very player (a second press), or by someone else."""
    mine = None if inv.entry_id is None else await s.get(TournamentEntry, inv.entry_id)
    if mine is not None and user_id in [int(p) for p in mine.players_json]:
        raise error(
            "invite_accepted_already", "You have already accepted this invitation: {pair}", pair=mine.name
        )
    raise error("invite_used", "This invitation has already been used")


@retrying
async def accept_invite(db: Database, token: str, user_id: int, now: datetime) -> TournamentEntry:
    """The partner accepts: the pair exists now.  A second press (a double tap, or a second person with
    the same link) finds the invitation used: the invitation is taken by a conditional update, the
    players by unique rows, the quota under the tournament's version."""
    async with db.session() as s:
        inv = (await s.execute(select(PairInvite).where(PairInvite.token == token))).scalars().first()
        if inv is None:
            raise error("invite_unknown", "This invitation link is not valid")
        if inv.status == "used":
            await _used(s, inv, user_id)
        if inv.status != "open" or now > inv.expires_at:
            raise error("invite_expired", "This invitation has expired")
        if inv.inviter_id == user_id:
            raise error("partner_is_self", "You cannot be your own partner")
        row = await tournament_row(s, inv.tournament_id)
        _check_open(row, now)
        entries = await active_entry_rows(s, row.id)
        if entry_among(entries, user_id) is not None:
            raise error("partner_already_paired", "You are already in a pair in this tournament")
        if entry_among(entries, inv.inviter_id) is not None:
            raise error("invite_used", "This invitation has already been used")
        check_quota(row, entries, inv.union_group, "pair")
        names = await user_display_names(s, [inv.inviter_id, user_id])
        entry = TournamentEntry(
            tournament_id=row.id,
            kind="pair",
            name=f"{names[inv.inviter_id]} / {names[user_id]}",
            union_group=inv.union_group,
            players_json=[inv.inviter_id, user_id],
            status="active",
            created_by=inv.inviter_id,
            created_at=utcnow(),
        )
        taken = await s.execute(
            update(PairInvite)
            .where(PairInvite.id == inv.id, PairInvite.status == "open")
            .values(status="used")
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]  # another press took it first
            await s.refresh(inv)
            await _used(s, inv, user_id)
        s.add(entry)
        await s.flush()
        await claim_players(s, row.id, entry.id, [inv.inviter_id, user_id])
        await s.execute(update(PairInvite).where(PairInvite.id == inv.id).values(entry_id=entry.id))
        touch(row)
        add_audit(
            s,
            row.id,
            user_id,
            "pair_registered",
            entry=entry.id,
            players=[inv.inviter_id, user_id],
            union_group=inv.union_group,
        )
        await s.commit()
        return entry


@retrying
async def register_pair(
    db: Database,
    tid: int,
    actor: int,
    players: Sequence[int],
    union_group: str,
    now: datetime | None = None,
    name: str | None = None,
) -> TournamentEntry:
    """An organiser (any time before the freeze) or the union group's leader (before the deadline) registers
    a pair on the players' behalf; both players must have started the bot."""
    if len(players) != 2:
        raise error("bad_arguments", "Give two players")
    a, b = int(players[0]), int(players[1])
    if a == b:
        raise error("partner_is_self", "You cannot be your own partner")
    async with db.session() as s:
        row = await tournament_row(s, tid)
        roles = (
            (
                await s.execute(
                    select(TournamentRole).where(
                        TournamentRole.tournament_id == tid, TournamentRole.user_id == actor
                    )
                )
            )
            .scalars()
            .all()
        )
        organiser = any(r.role == "organiser" for r in roles)
        leader = any(r.role == "leader" and r.union_group == union_group for r in roles)
        if not organiser and not leader:
            raise error("not_allowed", "You are not allowed to do this")
        _check_open(row, now, organiser=organiser)
        entry = await add_pair_entry(s, row, tid, a, b, union_group, actor, name=name)
        touch(row)
        add_audit(
            s, tid, actor, "register_on_behalf", entry=entry.id, players=[a, b], union_group=union_group
        )
        await s.commit()
        return entry


@retrying
async def form_team(
    db: Database, tid: int, leader: int, pair_ids: Sequence[int], name: str, now: datetime | None = None
) -> TournamentEntry:
    """A union group leader (or an organiser) forms a team from registered pairs of one union group."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        if row.settings_json.get("entrant") != "team":
            raise error("not_a_team_event", "This tournament is for pairs")
        roles = (
            (
                await s.execute(
                    select(TournamentRole).where(
                        TournamentRole.tournament_id == tid, TournamentRole.user_id == leader
                    )
                )
            )
            .scalars()
            .all()
        )
        organiser = any(r.role == "organiser" for r in roles)
        led = {r.union_group for r in roles if r.role == "leader"}
        if not organiser and not led:
            raise error("not_allowed", "You are not allowed to do this")
        _check_open(row, now, organiser=organiser)
        per = int(row.settings_json.get("pairs_per_team", 1))
        entries = await active_entry_rows(s, tid)
        short = next(
            (
                e
                for e in entries
                if e.kind == "team" and e.name == name.strip() and len(e.players_json) // 2 < per
            ),
            None,
        )  # a team a pair has left: completed here
        need = per - len(short.players_json) // 2 if short is not None else per
        if len(pair_ids) != need or len(set(pair_ids)) != need:
            raise error(
                "wrong_team_size",
                "Entry {entry} has {count} players; it needs {size}",
                entry=name,
                count=2 * (per - need + len(set(pair_ids))),
                size=2 * per,
            )
        by_id = {e.id: e for e in entries}
        pairs = []
        for pid in pair_ids:
            e = by_id.get(int(pid))
            if e is None or e.kind != "pair":
                raise error("unknown_entry", "There is no entry {id}", id=pid)
            if e.team_id is not None:
                raise error("pair_in_team", "Pair {entry} is already in a team", entry=e.name)
            pairs.append(e)
        groups = {e.union_group for e in pairs} | ({short.union_group} if short is not None else set())
        if len(groups) != 1:
            raise error("mixed_union_groups", "A team's pairs come from one union group")
        group = groups.pop()
        if not organiser and group not in led:
            raise error("not_allowed", "You are not allowed to do this")
        players = [p for e in pairs for p in e.players_json]
        if short is not None:
            team = short
            team.players_json = [*team.players_json, *players]
        else:
            check_quota(row, entries, group, "team")
            team = TournamentEntry(
                tournament_id=tid,
                kind="team",
                name=name.strip() or group,
                union_group=group,
                players_json=players,
                status="active",
                created_by=leader,
                created_at=utcnow(),
            )
            s.add(team)
            await s.flush()
        for e in pairs:
            e.team_id = team.id
        touch(row)
        add_audit(s, tid, leader, "team_formed", entry=team.id, pairs=[e.id for e in pairs], name=team.name)
        await s.commit()
        return team


@dataclass
class Withdrawn:
    """A withdrawal: the entry, the team a pair left (still in, one pair short), who to tell."""

    entry: TournamentEntry
    team: TournamentEntry | None
    leaders: list[int]


@retrying
async def withdraw(
    db: Database, tid: int, entry_id: int, actor: int, now: datetime | None = None
) -> Withdrawn:
    """Withdraw an entry before the draw: one of its players, or an organiser.  A pair of a team withdraws
    alone: the team stays, one pair short (its leader is told, and completes it with ``/team``);
    a team withdrawn frees its pairs."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        entry = await s.get(TournamentEntry, entry_id)
        if entry is None or entry.tournament_id != tid or entry.status != "active":
            raise error("unknown_entry", "There is no entry {id}", id=entry_id)
        organiser = "organiser" in await roles_in(s, tid, actor)
        if not organiser and actor not in [int(p) for p in entry.players_json]:
            raise error("not_allowed", "You are not allowed to do this")
        _check_open(row, None, organiser=True)
        entry.status = "withdrawn"
        await _release_players(s, entry.id)
        touch(row)
        team: TournamentEntry | None = None
        if entry.kind == "team":
            for p in (
                (await s.execute(select(TournamentEntry).where(TournamentEntry.team_id == entry.id)))
                .scalars()
                .all()
            ):
                p.team_id = None
        if entry.team_id is not None:
            team = await s.get(TournamentEntry, entry.team_id)
            if team is not None and team.status == "active":
                gone = {int(p) for p in entry.players_json}
                team.players_json = [p for p in team.players_json if int(p) not in gone]
            entry.team_id = None
        leaders = await _leaders(s, tid, team) if team is not None else []
        add_audit(s, tid, actor, "withdraw", entry=entry.id, name=entry.name, team=team.id if team else None)
        await s.commit()
        return Withdrawn(entry, team, leaders)


async def _leaders(s: AsyncSession, tid: int, team: TournamentEntry) -> list[int]:
    """Who leads a team: its union group's leaders, else whoever formed it."""
    rows = (
        (
            await s.execute(
                select(TournamentRole.user_id).where(
                    TournamentRole.tournament_id == tid,
                    TournamentRole.role == "leader",
                    TournamentRole.union_group == team.union_group,
                )
            )
        )
        .scalars()
        .all()
    )
    out = list(dict.fromkeys(int(u) for u in rows))
    if not out and team.created_by is not None:
        out = [int(team.created_by)]
    return out


async def _check_replacement(
    s: AsyncSession, row: Tournament, entry_id: int, old: int, new: int, actor: int
) -> TournamentEntry:
    entry = await s.get(TournamentEntry, entry_id)
    if entry is None or entry.tournament_id != row.id or entry.status != "active" or entry.kind != "pair":
        raise error("unknown_entry", "There is no entry {id}", id=entry_id)
    players = [int(p) for p in entry.players_json]
    organiser = "organiser" in await roles_in(s, row.id, actor)
    if not organiser and actor not in players:
        raise error("not_allowed", "You are not allowed to do this")
    _check_open(row, None, organiser=True)
    if old not in players:
        raise error("not_in_entry", "That player is not in entry {entry}", entry=entry.name)
    user = await s.get(User, new)
    if user is None or not user.started_bot:
        raise error("partner_not_started", "{name} has not started the bot yet", name=str(new))
    if new in players or entry_among(await active_entry_rows(s, row.id), new) is not None:
        raise error("partner_already_paired", "You are already in a pair in this tournament")
    return entry


@retrying
async def offer_replacement(
    db: Database, tid: int, entry_id: int, old: int, new: int, actor: int, now: datetime
) -> PairInvite:
    """A player of a pair (or an organiser) asks ``new`` to take ``old``'s place: nothing changes until
    ``new`` accepts (:func:`accept_replacement`); an older open offer for the same place is cancelled."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await _check_replacement(s, row, entry_id, old, new, actor)
        for prior in (
            (
                await s.execute(
                    select(PairInvite).where(
                        PairInvite.tournament_id == tid,
                        PairInvite.entry_id == entry_id,
                        PairInvite.replaces == old,
                        PairInvite.status == "open",
                    )
                )
            )
            .scalars()
            .all()
        ):
            prior.status = "cancelled"
        offer = PairInvite(
            token=secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"),
            tournament_id=tid,
            inviter_id=actor,
            union_group="",
            status="open",
            entry_id=entry_id,
            invitee_id=new,
            replaces=old,
            expires_at=now + timedelta(hours=row.invite_hours),
            created_at=utcnow(),
        )
        s.add(offer)
        add_audit(s, tid, actor, "replacement_offered", entry=entry_id, old=old, new=new)
        await s.commit()
        return offer


@retrying
async def accept_replacement(
    db: Database, token: str, user_id: int, now: datetime
) -> tuple[TournamentEntry, int]:
    """The player asked accepts: they take the place in the pair (and in its team's roster); returns the
    entry and the player replaced."""
    async with db.session() as s:
        offer = (await s.execute(select(PairInvite).where(PairInvite.token == token))).scalars().first()
        if offer is None or offer.replaces is None or offer.entry_id is None:
            raise error("invite_unknown", "This invitation link is not valid")
        if offer.invitee_id != user_id:
            raise error("not_your_invite", "This invitation is for someone else")
        if offer.status == "used":
            raise error("invite_used", "This invitation has already been used")
        if offer.status != "open" or now > offer.expires_at:
            raise error("invite_expired", "This invitation has expired")
        row = await tournament_row(s, offer.tournament_id)
        old = int(offer.replaces)
        entry = await _check_replacement(s, row, offer.entry_id, old, user_id, offer.inviter_id)
        taken = await s.execute(
            update(PairInvite)
            .where(PairInvite.id == offer.id, PairInvite.status == "open")
            .values(status="used")
        )
        if taken.rowcount != 1:  # type: ignore[attr-defined]
            raise error("invite_used", "This invitation has already been used")
        players = [user_id if int(p) == old else int(p) for p in entry.players_json]
        entry.players_json = players
        await s.execute(
            delete(TournamentPlayer).where(
                TournamentPlayer.entry_id == entry.id, TournamentPlayer.user_id == old
            )
        )
        await claim_players(s, row.id, entry.id, [user_id])
        names = await user_display_names(s, players)
        entry.name = " / ".join(names[p] for p in players)
        if entry.team_id is not None:  # the team's roster follows
            team = await s.get(TournamentEntry, entry.team_id)
            if team is not None:
                team.players_json = [user_id if int(p) == old else int(p) for p in team.players_json]
        touch(row)
        add_audit(
            s, row.id, user_id, "replace_player", entry=entry.id, old=old, new=user_id, by=offer.inviter_id
        )
        await s.commit()
        return entry, old


@retrying
async def close_registration(db: Database, tid: int, actor: int | None = None) -> Tournament:
    async with db.session() as s:
        row = await tournament_row(s, tid)
        if row.status == "registration":
            row.status = "closed"
            add_audit(s, tid, actor, "registration_closed")
            await s.commit()
        return row


async def add_pair_entry(
    s: AsyncSession,
    row: Tournament,
    tid: int,
    a: int,
    b: int,
    union_group: str,
    actor: int,
    *,
    name: str | None = None,
    now: datetime | None = None,
) -> TournamentEntry:
    """A new pair entry of ``a`` and ``b`` (both started the bot, neither in a pair yet, the union
    group's quota not full), its players claimed; the caller audits and commits.  The organiser's
    registration on behalf of a pair and a Swiss late entry share it."""
    check_union_group(row, union_group)
    for uid in (a, b):
        user = await s.get(User, uid)
        if user is None or not user.started_bot:
            raise error(
                "partner_not_started",
                "{name} has not started the bot yet",
                name=(user.first_name if user else str(uid)),
            )
    entries = await active_entry_rows(s, tid)
    for uid in (a, b):
        if entry_among(entries, uid) is not None:
            raise error("partner_already_paired", "You are already in a pair in this tournament")
    check_quota(row, entries, union_group, "pair")
    names = await user_display_names(s, [a, b])
    entry = TournamentEntry(
        tournament_id=tid,
        kind="pair",
        name=name or f"{names[a]} / {names[b]}",
        union_group=union_group,
        players_json=[a, b],
        status="active",
        created_by=actor,
        created_at=now or utcnow(),
    )
    s.add(entry)
    await s.flush()
    await claim_players(s, tid, entry.id, [a, b])
    return entry
