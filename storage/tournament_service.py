"""The tournament service: what the bot's tournament handlers and deadline handlers call.

Everything here is one transaction per call, takes ``now`` (UTC, from the scheduler's clock) where
time matters, and raises ``RuleError`` with a stable code for every user-caused problem (the bot
translates the code; nothing is changed when it raises).  The pure rules live in engine/tournament:
the engine ``Tournament`` state is kept as JSON on the tournament row (``state_json``) and loaded,
changed and saved back inside one transaction.

Entry ids seen by the engine are ``str(TournamentEntry.id)``; players are ``str(user id)``.
"""

from __future__ import annotations

import dataclasses
import secrets
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.errors import RuleError
from engine.options import load_preset, options_to_dict
from engine.tournament import Entry, MatchResult, TournamentSettings
from engine.tournament import Tournament as Engine
from engine.tournament.conduct import ConductRecord
from engine.tournament.lateness import LatenessDecision, checkin_window, decide
from engine.tournament.lateness import undo as undo_decision
from engine.tournament.results import forfeit_result
from storage.db import Database
from storage.models import User, utcnow
from storage.tournament_models import (
    CheckIn,
    PairInvite,
    TableGroupLink,
    Tournament,
    TournamentAudit,
    TournamentEntry,
    TournamentMatch,
    TournamentRole,
)

ROLES = ("organiser", "referee", "chief_referee", "leader")
DEFAULT_TZ = "Asia/Shanghai"
OPEN_STATUSES = ("registration", "closed")  # entries may still change (before the freeze)


def _err(code: str, english: str, **params: Any) -> RuleError:
    return RuleError(code, english, **params)


# --- set-up ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Built:
    """A validated set-up: the preset id, game rule overrides (as given) and the event settings."""

    preset_id: str
    game: str
    rule_overrides: dict[str, Any]
    settings: TournamentSettings


def build_setup(preset_id: str, rule_overrides: Mapping[str, Any] | None = None,
                settings_overrides: Mapping[str, Any] | None = None) -> Built:
    """Validate a preset and its overrides (RuleError / OptionError naming the bad key)."""
    preset = load_preset(preset_id)
    rules = dict(rule_overrides or {})
    if rules:
        preset = preset.with_overrides(rules)
    merged = {**dict(preset.tournament), **dict(settings_overrides or {})}
    settings = TournamentSettings.from_mapping(merged)
    return Built(preset.id, preset.game, rules, settings)


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise _err("bad_time_zone", "Unknown time zone {zone}", zone=name) from exc


def parse_local_time(text: str, tz: str = DEFAULT_TZ) -> datetime:
    """``2026-12-01 18:00`` (or ``2026-12-01T18:00``, ``12-01 18:00`` this year) in ``tz`` -> UTC."""
    raw = text.strip().replace("T", " ")
    formats = ("%Y-%m-%d %H:%M", "%Y-%m-%d %H:%M:%S", "%Y/%m/%d %H:%M")
    for fmt in formats:
        try:
            naive = datetime.strptime(raw, fmt)
            break
        except ValueError:
            continue
    else:
        raise _err("bad_time", "Not a time: {value} (write 2026-12-01 18:00)", value=text)
    return naive.replace(tzinfo=zone(tz)).astimezone(UTC)


def local_text(when: datetime | None, tz: str = DEFAULT_TZ) -> str:
    """A UTC time as shown on screen: the tournament's time zone, ``2026-12-01 18:00``."""
    if when is None:
        return "-"
    return when.astimezone(zone(tz)).strftime("%Y-%m-%d %H:%M")


def _as_utc(value: Any, tz: str, key: str) -> datetime | None:
    if value is None or value == "":
        return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            return value.replace(tzinfo=zone(tz)).astimezone(UTC)
        return value.astimezone(UTC)
    if isinstance(value, str):
        return parse_local_time(value, tz)
    raise _err("bad_spec_value", "{key} must be a date and time", key=key)


def check_time_order(deadline: datetime | None, draw_at: datetime | None, first: datetime | None) -> None:
    """Registration deadline <= draw time <= first round (RuleError ``times_out_of_order``)."""
    known = [t for t in (deadline, draw_at, first) if t is not None]
    if known != sorted(known):
        raise _err("times_out_of_order", "The registration deadline, the draw and the first round must be in order")


SPEC_KEYS = {"name", "preset", "time_zone", "registration_deadline", "draw_at", "first_round", "round_gap_minutes",
             "invite_hours", "rules", "tournament", "union_groups"}


def spec_from_toml(text: str) -> dict[str, Any]:
    """Parse and validate a tournament file (docs/organiser-guide.md); returns ``create_tournament`` kwargs."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _err("bad_toml", "The file is not valid TOML: {reason}", reason=str(exc)) from exc
    return spec_from_mapping(data)


def spec_from_mapping(data: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(data) - SPEC_KEYS)
    if unknown:
        raise _err("unknown_spec_key", "Unknown key {key}; keys: {allowed}", key=unknown[0],
                   allowed=", ".join(sorted(SPEC_KEYS)))
    for key in ("name", "preset"):
        if not isinstance(data.get(key), str) or not str(data.get(key)).strip():
            raise _err("missing_spec_key", "The file needs {key}", key=key)
    tz = str(data.get("time_zone") or DEFAULT_TZ)
    zone(tz)
    for table in ("rules", "tournament"):
        if not isinstance(data.get(table, {}), Mapping):
            raise _err("bad_spec_value", "{key} must be a table", key=table)
    built = build_setup(str(data["preset"]), dict(data.get("rules", {})), dict(data.get("tournament", {})))
    groups_raw = data.get("union_groups", [])
    groups: list[dict[str, Any]] = []
    if not isinstance(groups_raw, list):
        raise _err("bad_spec_value", "{key} must be a list", key="union_groups")
    for g in groups_raw:
        if isinstance(g, str):
            g = {"name": g}
        if not isinstance(g, Mapping) or not isinstance(g.get("name"), str) or not g["name"].strip():
            raise _err("bad_spec_value", "{key} must be a list", key="union_groups")
        quota = g.get("quota", built.settings.group_quota)
        if isinstance(quota, bool) or not isinstance(quota, int) or quota < 0:
            raise _err("bad_spec_value", "{key} must be a whole number", key="quota")
        groups.append({"name": g["name"].strip(), "quota": quota})
    out: dict[str, Any] = {
        "name": str(data["name"]).strip(), "preset_id": built.preset_id,
        "rule_overrides": built.rule_overrides, "settings_overrides": dict(data.get("tournament", {})),
        "union_groups": groups, "time_zone": tz,
        "registration_deadline": _as_utc(data.get("registration_deadline"), tz, "registration_deadline"),
        "draw_at": _as_utc(data.get("draw_at"), tz, "draw_at"),
        "first_round_at": _as_utc(data.get("first_round"), tz, "first_round"),
    }
    check_time_order(out["registration_deadline"], out["draw_at"], out["first_round_at"])
    for key in ("round_gap_minutes", "invite_hours"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise _err("bad_spec_value", "{key} must be a whole number", key=key)
            out[key] = value
    return out


def spec_to_toml(row: Tournament) -> str:
    """A tournament's set-up as a reusable TOML file (times in its time zone)."""
    def q(s: str) -> str:
        return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'

    def val(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, (int, float)):
            return str(v)
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return q(str(v))

    lines = [f"name = {q(row.name)}", f"preset = {q(row.preset_id)}", f"time_zone = {q(row.time_zone)}"]
    for key, when in (("registration_deadline", row.registration_deadline), ("draw_at", row.draw_at),
                      ("first_round", row.first_round_at)):
        if when is not None:
            lines.append(f"{key} = {q(local_text(when, row.time_zone))}")
    lines.append(f"round_gap_minutes = {row.round_gap_minutes}")
    base = build_setup(row.preset_id).settings.to_dict()
    lines.append("\n[rules]")
    lines += [f"{k} = {val(v)}" for k, v in sorted((row.rule_overrides or {}).items())]
    lines.append("\n[tournament]")
    lines += [f"{k} = {val(v)}" for k, v in sorted(row.settings_json.items()) if base.get(k) != v]
    for g in row.union_groups or []:
        lines += ["\n[[union_groups]]", f"name = {q(str(g['name']))}", f"quota = {int(g.get('quota', 0))}"]
    return "\n".join(lines) + "\n"


async def create_tournament(db: Database, *, name: str, preset_id: str, created_by: int,
                            rule_overrides: Mapping[str, Any] | None = None,
                            settings_overrides: Mapping[str, Any] | None = None,
                            union_groups: Sequence[Mapping[str, Any]] = (),
                            registration_deadline: datetime | None = None, draw_at: datetime | None = None,
                            first_round_at: datetime | None = None, time_zone: str = DEFAULT_TZ,
                            round_gap_minutes: int = 30, invite_hours: int = 48,
                            status: str = "registration", setup_step: str | None = None) -> Tournament:
    """A tournament; its creator is its first organiser (audited)."""
    built = build_setup(preset_id, rule_overrides, settings_overrides)
    zone(time_zone)
    if not name.strip():
        raise _err("missing_spec_key", "The file needs {key}", key="name")
    async with db.session() as s:
        row = Tournament(name=name.strip(), preset_id=built.preset_id, rule_overrides=dict(built.rule_overrides),
                         settings_json=built.settings.to_dict(),
                         union_groups=[{"name": str(g["name"]), "quota": int(g.get("quota", 0))}
                                       for g in union_groups],
                         status=status, setup_step=setup_step, created_by=created_by, time_zone=time_zone,
                         registration_deadline=registration_deadline, draw_at=draw_at,
                         first_round_at=first_round_at, round_gap_minutes=round_gap_minutes,
                         invite_hours=invite_hours, created_at=utcnow())
        s.add(row)
        await s.flush()
        s.add(TournamentRole(tournament_id=row.id, user_id=created_by, role="organiser", union_group="",
                             created_at=utcnow()))
        _audit(s, row.id, created_by, "create", name=row.name, preset=row.preset_id)
        await s.commit()
        return row


async def update_setup(db: Database, tid: int, actor: int | None, **values: Any) -> Tournament:
    """Change set-up fields (the guided set-up); ``rule_overrides`` / ``settings_overrides`` re-validated."""
    async with db.session() as s:
        row = await _get(s, tid)
        rules = values.pop("rule_overrides", None)
        over = values.pop("settings_overrides", None)
        if "preset_id" in values or rules is not None or over is not None:
            preset_id = values.pop("preset_id", row.preset_id)
            base = build_setup(row.preset_id).settings.to_dict()
            current = {k: v for k, v in row.settings_json.items() if base.get(k) != v}
            merged_rules = {**(row.rule_overrides or {}), **(rules or {})}
            if preset_id != row.preset_id:
                current, merged_rules = {}, dict(rules or {})
            built = build_setup(preset_id, merged_rules, {**current, **(over or {})})
            row.preset_id = built.preset_id
            row.rule_overrides = dict(built.rule_overrides)
            row.settings_json = built.settings.to_dict()
        for key, value in values.items():
            if key == "time_zone":
                zone(value)
            setattr(row, key, value)
        if actor is not None:
            _audit(s, tid, actor, "setup", **{k: _plain(v) for k, v in values.items()})
        await s.commit()
        return row


def _plain(v: Any) -> Any:
    if isinstance(v, datetime):
        return v.isoformat()
    return v


async def get_tournament(db: Database, tid: int) -> Tournament:
    async with db.session() as s:
        return await _get(s, tid)


async def _get(s: AsyncSession, tid: int) -> Tournament:
    row = await s.get(Tournament, tid)
    if row is None:
        raise _err("tournament_not_found", "There is no tournament {id}", id=tid)
    return row


async def tournament_of_group(db: Database, chat_id: int) -> Tournament | None:
    """The newest tournament whose tournament group or table group is this chat."""
    async with db.session() as s:
        row = (await s.execute(select(Tournament).where(Tournament.group_chat_id == chat_id)
                               .order_by(Tournament.id.desc()))).scalars().first()
        if row is not None:
            return row
        link = (await s.execute(select(TableGroupLink).where(TableGroupLink.chat_id == chat_id)
                                .order_by(TableGroupLink.id.desc()))).scalars().first()
        return None if link is None else await s.get(Tournament, link.tournament_id)


async def tournaments_of_user(db: Database, user_id: int) -> list[Tournament]:
    """Tournaments where the user has a role or an entry, newest first."""
    async with db.session() as s:
        ids = set((await s.execute(select(TournamentRole.tournament_id)
                                   .where(TournamentRole.user_id == user_id))).scalars().all())
        for e in (await s.execute(select(TournamentEntry))).scalars().all():
            if user_id in [int(p) for p in e.players_json]:
                ids.add(e.tournament_id)
        if not ids:
            return []
        rows = (await s.execute(select(Tournament).where(Tournament.id.in_(ids))
                                .order_by(Tournament.id.desc()))).scalars().all()
        return list(rows)


async def draft_of(db: Database, user_id: int) -> Tournament | None:
    """The tournament ``user_id`` is setting up with the guided set-up (status ``setup``), if any."""
    async with db.session() as s:
        return (await s.execute(select(Tournament).where(Tournament.created_by == user_id,
                                                         Tournament.status == "setup")
                                .order_by(Tournament.id.desc()))).scalars().first()


async def all_tournaments(db: Database) -> list[Tournament]:
    async with db.session() as s:
        return list((await s.execute(select(Tournament).order_by(Tournament.id))).scalars().all())


async def set_status(db: Database, tid: int, status: str, actor: int | None = None) -> None:
    async with db.session() as s:
        row = await _get(s, tid)
        row.status = status
        _audit(s, tid, actor, "status", status=status)
        await s.commit()


async def link_group(db: Database, tid: int, actor: int, chat_id: int) -> Tournament:
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("organiser",))
        row.group_chat_id = chat_id
        _audit(s, tid, actor, "link_group", chat=chat_id)
        await s.commit()
        return row


async def add_table_group(db: Database, tid: int, actor: int, chat_id: int, title: str = "") -> TableGroupLink:
    async with db.session() as s:
        await _get(s, tid)
        await _require(s, tid, actor, ("organiser",))
        old = (await s.execute(select(TableGroupLink).where(TableGroupLink.tournament_id == tid,
                                                            TableGroupLink.chat_id == chat_id))).scalars().first()
        if old is not None:
            return old
        link = TableGroupLink(tournament_id=tid, chat_id=chat_id, title=title, created_at=utcnow())
        s.add(link)
        _audit(s, tid, actor, "table_group", chat=chat_id, title=title)
        await s.commit()
        return link


async def table_groups(db: Database, tid: int) -> list[TableGroupLink]:
    async with db.session() as s:
        return list((await s.execute(select(TableGroupLink).where(TableGroupLink.tournament_id == tid)
                                     .order_by(TableGroupLink.id))).scalars().all())


# --- roles and audit -------------------------------------------------------------------------

def _audit(s: AsyncSession, tid: int, actor: int | None, action: str, **detail: Any) -> None:
    s.add(TournamentAudit(tournament_id=tid, actor_id=actor, action=action, detail_json=detail, created_at=utcnow()))


async def audit(db: Database, tid: int, actor: int | None, action: str, **detail: Any) -> None:
    async with db.session() as s:
        _audit(s, tid, actor, action, **detail)
        await s.commit()


async def audit_log(db: Database, tid: int, limit: int = 50) -> list[TournamentAudit]:
    """The newest ``limit`` audit rows, oldest first."""
    async with db.session() as s:
        rows = (await s.execute(select(TournamentAudit).where(TournamentAudit.tournament_id == tid)
                                .order_by(TournamentAudit.id.desc()).limit(limit))).scalars().all()
        return list(reversed(rows))


async def roles_of(db: Database, tid: int, user_id: int) -> set[str]:
    async with db.session() as s:
        return await _roles(s, tid, user_id)


async def _roles(s: AsyncSession, tid: int, user_id: int) -> set[str]:
    rows = (await s.execute(select(TournamentRole.role).where(TournamentRole.tournament_id == tid,
                                                              TournamentRole.user_id == user_id))).scalars().all()
    return set(rows)


async def _require(s: AsyncSession, tid: int, user_id: int | None, allowed: Sequence[str]) -> None:
    if user_id is None:
        return
    if not (await _roles(s, tid, user_id)) & set(allowed):
        raise _err("not_allowed", "You are not allowed to do this")


async def require(db: Database, tid: int, user_id: int, allowed: Sequence[str]) -> None:
    async with db.session() as s:
        await _require(s, tid, user_id, allowed)


async def role_members(db: Database, tid: int, role: str | None = None) -> list[TournamentRole]:
    async with db.session() as s:
        q = select(TournamentRole).where(TournamentRole.tournament_id == tid)
        if role is not None:
            q = q.where(TournamentRole.role == role)
        return list((await s.execute(q.order_by(TournamentRole.id))).scalars().all())


async def grant(db: Database, tid: int, actor: int, user_id: int, role: str, union_group: str = "") -> None:
    """An organiser gives ``user_id`` a role (leader: of ``union_group``)."""
    if role not in ROLES:
        raise _err("bad_role", "Role {role} does not exist; roles: {allowed}", role=role, allowed=", ".join(ROLES))
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("organiser",))
        if role == "leader":
            _check_group(row, union_group)
        else:
            union_group = ""
        exists = (await s.execute(select(TournamentRole).where(
            TournamentRole.tournament_id == tid, TournamentRole.user_id == user_id, TournamentRole.role == role,
            TournamentRole.union_group == union_group))).scalars().first()
        if exists is None:
            s.add(TournamentRole(tournament_id=tid, user_id=user_id, role=role, union_group=union_group,
                                 created_at=utcnow()))
        _audit(s, tid, actor, "grant", user=user_id, role=role, union_group=union_group)
        await s.commit()


async def revoke(db: Database, tid: int, actor: int, user_id: int, role: str) -> None:
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("organiser",))
        if role == "organiser" and user_id == row.created_by:
            raise _err("cannot_remove_creator", "The creator stays an organiser")
        rows = (await s.execute(select(TournamentRole).where(
            TournamentRole.tournament_id == tid, TournamentRole.user_id == user_id,
            TournamentRole.role == role))).scalars().all()
        for r in rows:
            await s.delete(r)
        _audit(s, tid, actor, "revoke", user=user_id, role=role)
        await s.commit()


# --- registration ------------------------------------------------------------------------------

def _check_group(row: Tournament, union_group: str) -> None:
    names = [g["name"] for g in row.union_groups or []]
    if names and union_group not in names:
        raise _err("unknown_union_group", "There is no union group {group}; groups: {allowed}",
                   group=union_group, allowed=", ".join(names))


def _quota(row: Tournament, union_group: str) -> int:
    for g in row.union_groups or []:
        if g["name"] == union_group:
            return int(g.get("quota", 0))
    return int(row.settings_json.get("group_quota", 0))


def settings_of(row: Tournament) -> TournamentSettings:
    return TournamentSettings.from_mapping(row.settings_json)


async def _active_entries(s: AsyncSession, tid: int) -> list[TournamentEntry]:
    return list((await s.execute(select(TournamentEntry).where(TournamentEntry.tournament_id == tid,
                                                               TournamentEntry.status == "active")
                                 .order_by(TournamentEntry.id))).scalars().all())


def _entry_of_user(entries: Sequence[TournamentEntry], user_id: int, kind: str = "pair") -> TournamentEntry | None:
    for e in entries:
        if e.kind == kind and user_id in [int(p) for p in e.players_json]:
            return e
    return None


def _check_open(row: Tournament, now: datetime | None, organiser: bool = False) -> None:
    if row.announcement_json is not None or row.status not in OPEN_STATUSES:
        raise _err("registration_closed", "Registration is closed")
    if organiser:
        return
    if row.status != "registration" or (now is not None and row.registration_deadline is not None
                                        and now > row.registration_deadline):
        raise _err("deadline_passed", "The registration deadline has passed")


def check_registration_open(row: Tournament, now: datetime | None) -> None:
    """RuleError ``registration_closed`` / ``deadline_passed`` when a player may not register now."""
    _check_open(row, now)


def _check_quota(row: Tournament, entries: Sequence[TournamentEntry], union_group: str, kind: str) -> None:
    quota = _quota(row, union_group)
    if row.settings_json.get("entrant") == "team" and kind == "pair":
        per = int(row.settings_json.get("pairs_per_team", 1))
        quota = quota * per if quota else 0
    if quota and sum(1 for e in entries if e.union_group == union_group and e.kind == kind) >= quota:
        raise _err("quota_full", "Union group {group} may enter {quota} entries", group=union_group, quota=quota)


async def _names(s: AsyncSession, ids: Sequence[int]) -> dict[int, str]:
    rows = (await s.execute(select(User).where(User.id.in_(list(ids))))).scalars().all()
    got = {u.id: (u.first_name or u.username or str(u.id)) for u in rows}
    return {i: got.get(i, str(i)) for i in ids}


async def create_invite(db: Database, tid: int, user_id: int, union_group: str, now: datetime) -> PairInvite:
    """The first player of a pair asks for a one-time partner link (their older open links are cancelled)."""
    async with db.session() as s:
        row = await _get(s, tid)
        _check_open(row, now)
        _check_group(row, union_group)
        entries = await _active_entries(s, tid)
        if _entry_of_user(entries, user_id) is not None:
            raise _err("already_registered", "You are already registered")
        _check_quota(row, entries, union_group, "pair")
        for old in (await s.execute(select(PairInvite).where(PairInvite.tournament_id == tid,
                                                             PairInvite.inviter_id == user_id,
                                                             PairInvite.status == "open"))).scalars().all():
            old.status = "cancelled"
        invite = PairInvite(token=secrets.token_urlsafe(9).replace("-", "x").replace("_", "y"), tournament_id=tid,
                            inviter_id=user_id, union_group=union_group, status="open",
                            expires_at=now + timedelta(hours=row.invite_hours), created_at=utcnow())
        s.add(invite)
        await s.commit()
        return invite


async def get_invite(db: Database, token: str) -> PairInvite:
    async with db.session() as s:
        inv = (await s.execute(select(PairInvite).where(PairInvite.token == token))).scalars().first()
        if inv is None:
            raise _err("invite_unknown", "This invitation link is not valid")
        return inv


async def accept_invite(db: Database, token: str, user_id: int, now: datetime) -> TournamentEntry:
    """The partner accepts: the pair exists now."""
    async with db.session() as s:
        inv = (await s.execute(select(PairInvite).where(PairInvite.token == token))).scalars().first()
        if inv is None:
            raise _err("invite_unknown", "This invitation link is not valid")
        if inv.status == "used":
            raise _err("invite_used", "This invitation has already been used")
        if inv.status != "open" or now > inv.expires_at:
            raise _err("invite_expired", "This invitation has expired")
        if inv.inviter_id == user_id:
            raise _err("partner_is_self", "You cannot be your own partner")
        row = await _get(s, inv.tournament_id)
        _check_open(row, now)
        entries = await _active_entries(s, row.id)
        if _entry_of_user(entries, user_id) is not None:
            raise _err("partner_already_paired", "You are already in a pair in this tournament")
        if _entry_of_user(entries, inv.inviter_id) is not None:
            raise _err("invite_used", "This invitation has already been used")
        _check_quota(row, entries, inv.union_group, "pair")
        names = await _names(s, [inv.inviter_id, user_id])
        entry = TournamentEntry(tournament_id=row.id, kind="pair", name=f"{names[inv.inviter_id]} / {names[user_id]}",
                                union_group=inv.union_group, players_json=[inv.inviter_id, user_id],
                                status="active", created_by=inv.inviter_id, created_at=utcnow())
        s.add(entry)
        await s.flush()
        inv.status = "used"
        inv.entry_id = entry.id
        _audit(s, row.id, user_id, "pair_registered", entry=entry.id, players=[inv.inviter_id, user_id],
               union_group=inv.union_group)
        await s.commit()
        return entry


async def register_pair(db: Database, tid: int, actor: int, players: Sequence[int], union_group: str,
                        now: datetime | None = None, name: str | None = None) -> TournamentEntry:
    """An organiser (any time before the freeze) or the union group's leader (before the deadline) registers
    a pair on the players' behalf; both players must have started the bot."""
    if len(players) != 2:
        raise _err("bad_arguments", "Give two players")
    a, b = int(players[0]), int(players[1])
    if a == b:
        raise _err("partner_is_self", "You cannot be your own partner")
    async with db.session() as s:
        row = await _get(s, tid)
        roles = (await s.execute(select(TournamentRole).where(TournamentRole.tournament_id == tid,
                                                              TournamentRole.user_id == actor))).scalars().all()
        organiser = any(r.role == "organiser" for r in roles)
        leader = any(r.role == "leader" and r.union_group == union_group for r in roles)
        if not organiser and not leader:
            raise _err("not_allowed", "You are not allowed to do this")
        _check_open(row, now, organiser=organiser)
        _check_group(row, union_group)
        for uid in (a, b):
            user = await s.get(User, uid)
            if user is None or not user.started_bot:
                raise _err("partner_not_started", "{name} has not started the bot yet",
                           name=(user.first_name if user else str(uid)))
        entries = await _active_entries(s, tid)
        for uid in (a, b):
            if _entry_of_user(entries, uid) is not None:
                raise _err("partner_already_paired", "You are already in a pair in this tournament")
        _check_quota(row, entries, union_group, "pair")
        names = await _names(s, [a, b])
        entry = TournamentEntry(tournament_id=tid, kind="pair", name=name or f"{names[a]} / {names[b]}",
                                union_group=union_group, players_json=[a, b], status="active", created_by=actor,
                                created_at=utcnow())
        s.add(entry)
        await s.flush()
        _audit(s, tid, actor, "register_on_behalf", entry=entry.id, players=[a, b], union_group=union_group)
        await s.commit()
        return entry


async def form_team(db: Database, tid: int, leader: int, pair_ids: Sequence[int], name: str,
                    now: datetime | None = None) -> TournamentEntry:
    """A union group leader (or an organiser) forms a team from registered pairs of one union group."""
    async with db.session() as s:
        row = await _get(s, tid)
        if row.settings_json.get("entrant") != "team":
            raise _err("not_a_team_event", "This tournament is for pairs")
        roles = (await s.execute(select(TournamentRole).where(TournamentRole.tournament_id == tid,
                                                              TournamentRole.user_id == leader))).scalars().all()
        organiser = any(r.role == "organiser" for r in roles)
        led = {r.union_group for r in roles if r.role == "leader"}
        if not organiser and not led:
            raise _err("not_allowed", "You are not allowed to do this")
        _check_open(row, now, organiser=organiser)
        per = int(row.settings_json.get("pairs_per_team", 1))
        if len(pair_ids) != per or len(set(pair_ids)) != per:
            raise _err("wrong_team_size", "Entry {entry} has {count} players; it needs {size}", entry=name,
                       count=2 * len(set(pair_ids)), size=2 * per)
        entries = await _active_entries(s, tid)
        by_id = {e.id: e for e in entries}
        pairs = []
        for pid in pair_ids:
            e = by_id.get(int(pid))
            if e is None or e.kind != "pair":
                raise _err("unknown_entry", "There is no entry {id}", id=pid)
            if e.team_id is not None:
                raise _err("pair_in_team", "Pair {entry} is already in a team", entry=e.name)
            pairs.append(e)
        groups = {e.union_group for e in pairs}
        if len(groups) != 1:
            raise _err("mixed_union_groups", "A team's pairs come from one union group")
        group = groups.pop()
        if not organiser and group not in led:
            raise _err("not_allowed", "You are not allowed to do this")
        _check_quota(row, entries, group, "team")
        players = [p for e in pairs for p in e.players_json]
        team = TournamentEntry(tournament_id=tid, kind="team", name=name.strip() or group, union_group=group,
                               players_json=players, status="active", created_by=leader, created_at=utcnow())
        s.add(team)
        await s.flush()
        for e in pairs:
            e.team_id = team.id
        _audit(s, tid, leader, "team_formed", entry=team.id, pairs=[e.id for e in pairs], name=team.name)
        await s.commit()
        return team


async def entries(db: Database, tid: int, kind: str | None = None, include_withdrawn: bool = False
                  ) -> list[TournamentEntry]:
    async with db.session() as s:
        q = select(TournamentEntry).where(TournamentEntry.tournament_id == tid)
        if not include_withdrawn:
            q = q.where(TournamentEntry.status == "active")
        if kind is not None:
            q = q.where(TournamentEntry.kind == kind)
        return list((await s.execute(q.order_by(TournamentEntry.id))).scalars().all())


async def entry_of_user(db: Database, tid: int, user_id: int) -> TournamentEntry | None:
    async with db.session() as s:
        return _entry_of_user(await _active_entries(s, tid), user_id)


async def withdraw(db: Database, tid: int, entry_id: int, actor: int, now: datetime | None = None) -> TournamentEntry:
    """Withdraw an entry before the draw: one of its players, or an organiser."""
    async with db.session() as s:
        row = await _get(s, tid)
        entry = await s.get(TournamentEntry, entry_id)
        if entry is None or entry.tournament_id != tid or entry.status != "active":
            raise _err("unknown_entry", "There is no entry {id}", id=entry_id)
        organiser = "organiser" in await _roles(s, tid, actor)
        if not organiser and actor not in [int(p) for p in entry.players_json]:
            raise _err("not_allowed", "You are not allowed to do this")
        _check_open(row, None, organiser=True)
        entry.status = "withdrawn"
        if entry.kind == "team":
            for p in (await s.execute(select(TournamentEntry).where(TournamentEntry.team_id == entry.id)
                                      )).scalars().all():
                p.team_id = None
        if entry.team_id is not None:
            team = await s.get(TournamentEntry, entry.team_id)
            if team is not None and team.status == "active":
                team.status = "withdrawn"
        _audit(s, tid, actor, "withdraw", entry=entry.id, name=entry.name)
        await s.commit()
        return entry


async def replace_player(db: Database, tid: int, entry_id: int, old: int, new: int, actor: int) -> TournamentEntry:
    """Replace a player of an entry before the draw (an organiser, or the entry's other player)."""
    async with db.session() as s:
        row = await _get(s, tid)
        entry = await s.get(TournamentEntry, entry_id)
        if entry is None or entry.tournament_id != tid or entry.status != "active":
            raise _err("unknown_entry", "There is no entry {id}", id=entry_id)
        players = [int(p) for p in entry.players_json]
        organiser = "organiser" in await _roles(s, tid, actor)
        if not organiser and actor not in players:
            raise _err("not_allowed", "You are not allowed to do this")
        _check_open(row, None, organiser=True)
        if old not in players:
            raise _err("not_in_entry", "That player is not in entry {entry}", entry=entry.name)
        user = await s.get(User, new)
        if user is None or not user.started_bot:
            raise _err("partner_not_started", "{name} has not started the bot yet", name=str(new))
        if new == (players[1] if players[0] == old else players[0]) or _entry_of_user(
                await _active_entries(s, tid), new) is not None:
            raise _err("partner_already_paired", "You are already in a pair in this tournament")
        players[players.index(old)] = new
        entry.players_json = players
        names = await _names(s, players)
        entry.name = " / ".join(names[p] for p in players)
        _audit(s, tid, actor, "replace_player", entry=entry.id, old=old, new=new)
        await s.commit()
        return entry


def engine_entry(e: TournamentEntry) -> Entry:
    return Entry(str(e.id), e.name, e.union_group, tuple(str(p) for p in e.players_json), e.seed_no)


async def close_registration(db: Database, tid: int, actor: int | None = None) -> Tournament:
    async with db.session() as s:
        row = await _get(s, tid)
        if row.status == "registration":
            row.status = "closed"
            _audit(s, tid, actor, "registration_closed")
            await s.commit()
        return row


# --- draw ------------------------------------------------------------------------------------

def _kind(row: Tournament) -> str:
    return "team" if row.settings_json.get("entrant") == "team" else "pair"


def _engine_settings(row: Tournament) -> TournamentSettings:
    # quotas are enforced at registration (per union group); the engine check would use one quota for all
    return dataclasses.replace(settings_of(row), group_quota=0)


async def _frozen_engine(s: AsyncSession, row: Tournament) -> Engine:
    entries = [engine_entry(e) for e in await _active_entries(s, row.id) if e.kind == _kind(row)]
    return Engine.create(row.name, _engine_settings(row), entries)


def load_engine(row: Tournament) -> Engine:
    if row.state_json is None:
        raise _err("no_draw_yet", "The draw has not been held")
    return Engine.from_dict(row.state_json)


async def freeze(db: Database, tid: int, secret: bytes, actor: int | None = None) -> dict[str, Any]:
    """Freeze the entry list and commit to ``secret``: returns the announcement (list hash, commitment)."""
    async with db.session() as s:
        row = await _get(s, tid)
        if row.state_json is not None:
            raise _err("draw_already_held", "The draw of {name} has been held", name=row.name)
        if actor is not None:
            await _require(s, tid, actor, ("organiser",))
        if row.announcement_json is not None:
            return dict(row.announcement_json)
        eng = await _frozen_engine(s, row)
        ann = eng.announce(secret)
        row.announcement_json = ann.to_dict()
        row.secret_hex = secret.hex()
        if row.status in OPEN_STATUSES:
            row.status = "closed"
        _audit(s, tid, actor, "freeze", list_hash=ann.list_hash, commitment=ann.commitment,
               entries=len(eng.entries))
        await s.commit()
        return ann.to_dict()


async def hold_draw(db: Database, tid: int, actor: int | None = None) -> tuple[Engine, list[TournamentMatch]]:
    """Run the draw with the committed secret; creates the ready matches' rows (not scheduled yet)."""
    async with db.session() as s:
        row = await _get(s, tid)
        if row.state_json is not None:
            raise _err("draw_already_held", "The draw of {name} has been held", name=row.name)
        if row.announcement_json is None or row.secret_hex is None:
            raise _err("not_frozen", "Freeze the entry list first")
        eng = await _frozen_engine(s, row)
        eng.hold_draw(bytes.fromhex(row.secret_hex))
        assert eng.draw is not None
        row.state_json = eng.to_dict()
        row.status = "running"
        _audit(s, tid, actor, "draw", list_hash=eng.draw.list_hash, secret=row.secret_hex)
        new = await _sync_matches(s, row, eng)
        await s.commit()
        return eng, new


async def _sync_matches(s: AsyncSession, row: Tournament, eng: Engine) -> list[TournamentMatch]:
    """Rows for every ready match (sides known); a row whose sides changed (correction) is updated."""
    existing = {m.match_key: m for m in (await s.execute(select(TournamentMatch).where(
        TournamentMatch.tournament_id == row.id))).scalars().all()}
    new: list[TournamentMatch] = []
    for mid in eng.ready_matches():
        a, b = eng.sides(mid)
        m = existing.get(mid)
        if m is None:
            m = TournamentMatch(tournament_id=row.id, match_key=mid, side_a=a, side_b=b, status="scheduled",
                                table_chats=[], game_tables=[], table_results={}, note="", created_at=utcnow())
            s.add(m)
            new.append(m)
        elif (m.status in ("finished", "void") and m.result_json is None) or (m.side_a, m.side_b) != (a, b):
            m.side_a, m.side_b = a, b
            m.status = "scheduled"
            m.start_at = None
            m.table_chats, m.game_tables, m.table_results = [], [], {}
            m.result_json, m.lateness_json = None, None
            new.append(m)
    await s.flush()
    return new


async def engine_state(db: Database, tid: int) -> Engine:
    return load_engine(await get_tournament(db, tid))


def published_draw(row: Tournament) -> dict[str, Any]:
    eng = load_engine(row)
    assert eng.draw is not None
    return eng.draw.published(reveal=True)


# --- schedule --------------------------------------------------------------------------------

async def matches(db: Database, tid: int) -> list[TournamentMatch]:
    async with db.session() as s:
        return list((await s.execute(select(TournamentMatch).where(TournamentMatch.tournament_id == tid)
                                     .order_by(TournamentMatch.id))).scalars().all())


async def get_match(db: Database, tid: int, key: str) -> TournamentMatch:
    async with db.session() as s:
        return await _match(s, tid, key)


async def get_match_by_id(db: Database, row_id: int) -> TournamentMatch | None:
    async with db.session() as s:
        return await s.get(TournamentMatch, row_id)


async def _match(s: AsyncSession, tid: int, key: str) -> TournamentMatch:
    m = (await s.execute(select(TournamentMatch).where(TournamentMatch.tournament_id == tid,
                                                       TournamentMatch.match_key == key))).scalars().first()
    if m is None:
        raise _err("unknown_match", "There is no match {match}", match=key)
    return m


async def schedule_ready(db: Database, tid: int, now: datetime) -> list[TournamentMatch]:
    """Give every unscheduled match a start time and table groups (greedy: tables free earliest, and an
    entry never plays two matches at once).  Round 1 starts at ``first_round_at``; later matches at
    least ``round_gap_minutes`` from now.  RuleError ``not_enough_tables`` when the pool is too small."""
    async with db.session() as s:
        row = await _get(s, tid)
        settings = settings_of(row)
        pool = [g.chat_id for g in (await s.execute(select(TableGroupLink).where(
            TableGroupLink.tournament_id == tid).order_by(TableGroupLink.id))).scalars().all()]
        per = settings.tables_per_match
        if len(pool) < per:
            raise _err("not_enough_tables", "A match needs {need} tables; the pool has {have}", need=per,
                       have=len(pool))
        rows = list((await s.execute(select(TournamentMatch).where(TournamentMatch.tournament_id == tid)
                                     .order_by(TournamentMatch.id))).scalars().all())
        slot = timedelta(minutes=settings.match_slot_minutes)
        earliest = now + timedelta(minutes=row.round_gap_minutes)
        if row.first_round_at is not None and row.first_round_at > earliest or row.first_round_at is not None and not any(m.start_at for m in rows) and row.first_round_at > now:
            earliest = row.first_round_at
        free = dict.fromkeys(pool, earliest)
        busy_entry: dict[str, datetime] = {}
        for m in rows:
            if m.start_at is not None and m.status in ("scheduled", "open", "playing"):
                for c in m.table_chats:
                    free[int(c)] = max(free.get(int(c), earliest), m.start_at + slot)
                for e in (m.side_a, m.side_b):
                    if e:
                        busy_entry[e] = max(busy_entry.get(e, earliest), m.start_at + slot)
        order = {c: i for i, c in enumerate(pool)}
        todo = [m for m in rows if m.start_at is None and m.status == "scheduled"]
        todo.sort(key=lambda m: _round_key(m.match_key))
        for m in todo:
            chosen = sorted(pool, key=lambda c: (free[c], order[c]))[:per]
            start = max([free[c] for c in chosen] + [busy_entry.get(e, earliest) for e in (m.side_a, m.side_b) if e])
            m.start_at = start
            m.table_chats = sorted(chosen, key=order.__getitem__)
            for c in chosen:
                free[c] = start + slot
            for e in (m.side_a, m.side_b):
                if e:
                    busy_entry[e] = start + slot
        await s.commit()
        return todo


def _round_key(key: str) -> tuple[int, int, str]:
    parts = key.split("-")
    rnd = next((int(p[1:]) for p in parts if p.startswith("R") and p[1:].isdigit()), 99)
    return (rnd, 1 if key.startswith("P") else 0, key)


# --- players of a match --------------------------------------------------------------------------

async def match_players(db: Database, m: TournamentMatch) -> list[tuple[list[int], list[int]]]:
    """Per table (1..N): the players of side a and of side b."""
    async with db.session() as s:
        return await _match_players(s, m)


async def _match_players(s: AsyncSession, m: TournamentMatch) -> list[tuple[list[int], list[int]]]:
    a = await s.get(TournamentEntry, int(m.side_a)) if m.side_a else None
    b = await s.get(TournamentEntry, int(m.side_b)) if m.side_b else None
    pa = [int(p) for p in a.players_json] if a else []
    pb = [int(p) for p in b.players_json] if b else []
    tables = max(len(pa), len(pb)) // 2
    return [(pa[2 * i:2 * i + 2], pb[2 * i:2 * i + 2]) for i in range(tables)]


async def mark_started(db: Database, tid: int, key: str) -> None:
    """The match's tables have begun: a later correction upstream then conflicts with it (bracket rules)."""
    async with db.session() as s:
        row = await _get(s, tid)
        if row.state_json is None:
            return
        eng = load_engine(row)
        try:
            eng.mark_started(key)
        except RuleError:
            return
        row.state_json = eng.to_dict()
        await s.commit()


async def check_in(db: Database, tid: int, key: str, user_id: int, now: datetime) -> TournamentMatch:
    """A player checks in for their match (from ``checkin_opens_minutes`` before the start to the deadline)."""
    async with db.session() as s:
        row = await _get(s, tid)
        m = await _match(s, tid, key)
        players = {p for a, b in await _match_players(s, m) for p in (*a, *b)}
        if user_id not in players:
            raise _err("not_your_match", "You do not play in match {match}", match=key)
        if m.status not in ("scheduled", "open") or m.start_at is None:
            raise _err("checkin_closed", "Check-in for match {match} is closed", match=key)
        st = settings_of(row)
        window = checkin_window(m.start_at, st.late_forfeit_minutes, st.checkin_opens_minutes)
        if now < window.opens:
            raise _err("checkin_not_open", "Check-in opens at {time}", time=local_text(window.opens, row.time_zone))
        if now > window.deadline:
            raise _err("checkin_closed", "Check-in for match {match} is closed", match=key)
        old = (await s.execute(select(CheckIn).where(CheckIn.tournament_id == tid, CheckIn.match_key == key,
                                                     CheckIn.user_id == user_id))).scalars().first()
        if old is None:
            s.add(CheckIn(tournament_id=tid, match_key=key, user_id=user_id, at=now))
        await s.commit()
        return m


async def checkins(db: Database, tid: int, key: str) -> dict[int, datetime]:
    async with db.session() as s:
        rows = (await s.execute(select(CheckIn).where(CheckIn.tournament_id == tid,
                                                      CheckIn.match_key == key))).scalars().all()
        return {r.user_id: r.at for r in rows}


async def set_match_fields(db: Database, row_id: int, **values: Any) -> TournamentMatch:
    async with db.session() as s:
        m = await s.get(TournamentMatch, row_id)
        if m is None:
            raise _err("unknown_match", "There is no match {match}", match=row_id)
        for k, v in values.items():
            setattr(m, k, v)
        await s.commit()
        return m


# --- results ---------------------------------------------------------------------------------

@dataclass
class Recorded:
    """What recording a result did: the match row, the matches that became ready (rows), finished?"""

    match: TournamentMatch
    new_matches: list[TournamentMatch]
    finished: bool
    conflicts: tuple[str, ...] = ()
    applied: bool = True


async def record_result(db: Database, tid: int, key: str, result: MatchResult, actor: int | None,
                        action: str = "result", reason: str = "") -> Recorded:
    """Record a match result (a finished table, a forfeit, a referee decision): the bracket advances."""
    async with db.session() as s:
        row = await _get(s, tid)
        eng = load_engine(row)
        m = await _match(s, tid, key)
        eng.record(key, result)
        row.state_json = eng.to_dict()
        m.result_json = result.to_dict()
        m.status = "finished"
        _audit(s, tid, actor, action, match=key, winner=result.winner, outcome=result.outcome, reason=reason)
        new = await _sync_matches(s, row, eng)
        if eng.finished:
            row.status = "finished"
        await s.commit()
        return Recorded(m, new, eng.finished)


async def correct_result(db: Database, tid: int, key: str, result: MatchResult, actor: int, reason: str,
                         force: bool = False) -> Recorded:
    """A referee corrects a recorded result (with a reason); a change of who advances is refused while a
    later match has begun, unless ``force`` (its result is voided)."""
    if not reason.strip():
        raise _err("reason_required", "Give a reason")
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("referee", "chief_referee", "organiser"))
        eng = load_engine(row)
        m = await _match(s, tid, key)
        corr = eng.correct(key, result, force)
        if not corr.applied:
            return Recorded(m, [], eng.finished, corr.conflicts, False)
        row.state_json = eng.to_dict()
        m.result_json = result.to_dict()
        m.status = "finished"
        m.confirmed_by = None
        for voided in corr.voided:
            vm = (await s.execute(select(TournamentMatch).where(TournamentMatch.tournament_id == tid,
                                                                TournamentMatch.match_key == voided))).scalars().first()
            if vm is not None:
                vm.status = "void"
                vm.result_json = None
        _audit(s, tid, actor, "correct", match=key, winner=result.winner, reason=reason,
               advancers_changed=corr.advancers_changed, voided=list(corr.voided))
        new = await _sync_matches(s, row, eng)
        row.status = "finished" if eng.finished else "running"
        await s.commit()
        return Recorded(m, new, eng.finished)


async def confirm_result(db: Database, tid: int, key: str, actor: int) -> TournamentMatch:
    async with db.session() as s:
        await _get(s, tid)
        await _require(s, tid, actor, ("chief_referee", "organiser"))
        m = await _match(s, tid, key)
        if m.result_json is None:
            raise _err("no_result_to_correct", "Match {match} has no result to correct", match=key)
        m.confirmed_by = actor
        _audit(s, tid, actor, "confirm", match=key)
        await s.commit()
        return m


async def decide_lateness(db: Database, tid: int, key: str) -> tuple[LatenessDecision, Recorded | None]:
    """At the lateness deadline: a side not complete forfeits (both absent: double forfeit)."""
    async with db.session() as s:
        row = await _get(s, tid)
        m = await _match(s, tid, key)
        if m.start_at is None:
            raise _err("match_not_ready", "Match {match} is not ready to start", match=key)
        st = settings_of(row)
        tables = await _match_players(s, m)
        ins = {str(u): at for u, at in (await s.execute(select(CheckIn.user_id, CheckIn.at).where(
            CheckIn.tournament_id == tid, CheckIn.match_key == key))).all()}
        dec = decide(key, m.start_at, st.late_forfeit_minutes,
                     [([str(p) for p in a], [str(p) for p in b]) for a, b in tables], ins)
        m.lateness_json = dec.to_dict()
        _audit(s, tid, None, "lateness", match=key, decision=dec.action)
        await s.commit()
    if dec.forfeits:
        result = dec.result()
        assert result is not None
        rec = await record_result(db, tid, key, result, None, "lateness_forfeit")
        return dec, rec
    if dec.action == "partial":
        async with db.session() as s:
            m = await _match(s, tid, key)
            m.table_results = {**m.table_results, **{str(t.table): t.to_dict() for t in dec.forfeited_tables()}}
            await s.commit()
    return dec, None


async def undo_lateness(db: Database, tid: int, key: str, actor: int, reason: str) -> TournamentMatch:
    """A referee undoes a lateness forfeit: the match is to be played after all (its result is cleared
    while no later match fed by it has begun)."""
    if not reason.strip():
        raise _err("reason_required", "Give a reason")
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("referee", "chief_referee", "organiser"))
        m = await _match(s, tid, key)
        if m.lateness_json is None:
            raise _err("nothing_to_undo", "Match {match} had no lateness forfeit", match=key)
        dec = undo_decision(LatenessDecision.from_dict(m.lateness_json), str(actor), reason)
        eng = load_engine(row)
        if m.result_json is not None and m.result_json.get("outcome") in ("forfeit", "double_forfeit"):
            _clear_result(eng, key)
            row.state_json = eng.to_dict()
            m.result_json = None
        m.lateness_json = dec.to_dict()
        m.table_results = {k: v for k, v in m.table_results.items()
                           if not (k.isdigit() and isinstance(v, dict) and v.get("absent"))}
        m.status = "scheduled"
        _audit(s, tid, actor, "undo_forfeit", match=key, reason=reason)
        await _sync_matches(s, row, eng)
        row.status = "running"
        await s.commit()
        return m


def _clear_result(eng: Engine, key: str) -> None:
    """Remove a recorded result (engine gap: no public call for it yet)."""
    if eng.groups is not None and any(g.id == key for g in eng.groups.matches):
        if eng.bracket is not None:
            raise _err("match_not_ready", "Match {match} cannot take a result now ({state})", match=key,
                       state="knockout begun")
        eng.groups.match(key).result = None
        return
    assert eng.bracket is not None
    fed = [m for m in eng.bracket.matches if any(src.ref == key for src in (m.a, m.b))]
    begun = [m.id for m in fed if m.started or m.result is not None]
    if begun:
        raise _err("correction_conflict", "Later matches have begun: {matches}", matches=", ".join(begun))
    node = eng.bracket.match(key)
    node.result = None
    node.started = False


async def add_conduct(db: Database, tid: int, key: str, side: str, actor: int, kind: str, note: str,
                      player: int | None = None, levels: int = 0) -> tuple[Any, Recorded | None, str]:
    """Record a conduct item against side a/b of a match; a disqualification ends the match in progress."""
    if side not in ("a", "b"):
        raise _err("bad_side", "Side {side} is not allowed; allowed: a | b", side=side)
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("referee", "chief_referee", "organiser"))
        eng = load_engine(row)
        m = await _match(s, tid, key)
        entry_id = m.side_a if side == "a" else m.side_b
        if entry_id is None:
            raise _err("unknown_entry", "There is no entry {id}", id=side)
        rid = f"C{len(eng.conduct.records) + 1}"
        was_ready = key in eng.ready_matches()
        outcome = eng.add_conduct(ConductRecord(rid, kind, entry_id, str(player or ""), key, note, levels))
        row.state_json = eng.to_dict()
        _audit(s, tid, actor, "conduct", record=rid, kind=kind, match=key, entry=entry_id, note=note,
               disqualified=outcome.disqualified)
        rec: Recorded | None = None
        if outcome.newly_disqualified and was_ready and key not in eng.ready_matches():
            node_result = None
            if eng.bracket is not None and any(x.id == key for x in eng.bracket.matches):
                res = eng.bracket.match(key).result
                node_result = None if res is None else res.to_dict()
            m.result_json = node_result
            m.status = "finished"
            new = await _sync_matches(s, row, eng)
            rec = Recorded(m, new, eng.finished)
            if eng.finished:
                row.status = "finished"
        await s.commit()
        return outcome, rec, rid


async def reverse_conduct(db: Database, tid: int, record_id: str, actor: int, reason: str) -> Any:
    if not reason.strip():
        raise _err("reason_required", "Give a reason")
    async with db.session() as s:
        row = await _get(s, tid)
        await _require(s, tid, actor, ("referee", "chief_referee", "organiser"))
        eng = load_engine(row)
        outcome = eng.conduct.reverse(record_id, str(actor), reason)
        row.state_json = eng.to_dict()
        _audit(s, tid, actor, "reverse_conduct", record=record_id, reason=reason, reinstated=outcome.reinstated)
        await s.commit()
        return outcome


def forfeit(absent: str, tables: int, note: str = "") -> MatchResult:
    if absent not in ("a", "b", "both"):
        raise _err("bad_side", "Side {side} is not allowed; allowed: a | b", side=absent)
    return forfeit_result(absent, tables, note)


async def user_names(db: Database, ids: Sequence[int]) -> dict[int, str]:
    async with db.session() as s:
        return await _names(s, ids)


async def find_user(db: Database, text: str) -> User | None:
    """A user by ``@username``, username or numeric id."""
    raw = text.strip().lstrip("@")
    async with db.session() as s:
        if raw.isdigit():
            return await s.get(User, int(raw))
        return (await s.execute(select(User).where(User.username == raw))).scalars().first()


def rule_options(row: Tournament) -> dict[str, Any]:
    """Every game option value of the tournament (preset + overrides), for its tables."""
    preset = load_preset(row.preset_id)
    if row.rule_overrides:
        preset = preset.with_overrides(dict(row.rule_overrides))
    return options_to_dict(preset.rules)
