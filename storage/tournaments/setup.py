"""Creating and changing a tournament's set-up: the preset, overrides, the TOML file, groups."""

from __future__ import annotations

import secrets
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select

from engine.registry import load_preset
from engine.tournament import TournamentSettings
from engine.tournament.draw import commitment
from storage.db import Database
from storage.models import utcnow
from storage.tournament_models import (
    TableGroupLink,
    Tournament,
    TournamentRole,
)
from storage.tournaments.common import add_audit, error, require_role, tournament_row
from storage.tournaments.times import DEFAULT_TZ, as_utc, check_time_order, local_text, zone
from storage.tournaments.tx import retrying


@dataclass(frozen=True)
class Built:
    """A validated set-up: the preset id, game rule overrides (as given) and the event settings."""

    preset_id: str
    game: str
    rule_overrides: dict[str, Any]
    settings: TournamentSettings


def build_setup(
    preset_id: str,
    rule_overrides: Mapping[str, Any] | None = None,
    settings_overrides: Mapping[str, Any] | None = None,
) -> Built:
    """Validate a preset and its overrides (RuleError / OptionError naming the bad key)."""
    preset = load_preset(preset_id)
    rules = dict(rule_overrides or {})
    if rules:
        preset = preset.with_overrides(rules)
    merged = {**dict(preset.tournament), **dict(settings_overrides or {})}
    settings = TournamentSettings.from_mapping(merged)
    return Built(preset.id, preset.game, rules, settings)


SPEC_KEYS = {
    "id",
    "name",
    "preset",
    "time_zone",
    "registration_deadline",
    "draw_at",
    "first_round",
    "round_gap_minutes",
    "invite_hours",
    "rules",
    "tournament",
    "union_groups",
}


def spec_from_toml(text: str) -> dict[str, Any]:
    """Parse and validate a tournament file (docs/organiser-guide.md); returns ``create_tournament`` kwargs."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error("bad_toml", "The file is not valid TOML: {reason}", reason=str(exc)) from exc
    return spec_from_mapping(data)


def spec_from_mapping(data: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(data) - SPEC_KEYS)
    if unknown:
        raise error(
            "unknown_spec_key",
            "Unknown key {key}; keys: {allowed}",
            key=unknown[0],
            allowed=", ".join(sorted(SPEC_KEYS)),
        )
    for key in ("name", "preset"):
        if not isinstance(data.get(key), str) or not str(data.get(key)).strip():
            raise error("missing_spec_key", "The file needs {key}", key=key)
    tz = str(data.get("time_zone") or DEFAULT_TZ)
    zone(tz)
    for table in ("rules", "tournament"):
        if not isinstance(data.get(table, {}), Mapping):
            raise error("bad_spec_value", "{key} must be a table", key=table)
    built = build_setup(str(data["preset"]), dict(data.get("rules", {})), dict(data.get("tournament", {})))
    groups_raw = data.get("union_groups", [])
    groups: list[dict[str, Any]] = []
    if not isinstance(groups_raw, list):
        raise error("bad_spec_value", "{key} must be a list", key="union_groups")
    for g in groups_raw:
        if isinstance(g, str):
            g = {"name": g}
        if not isinstance(g, Mapping) or not isinstance(g.get("name"), str) or not g["name"].strip():
            raise error("bad_spec_value", "{key} must be a list", key="union_groups")
        quota = g.get("quota", built.settings.group_quota)
        if isinstance(quota, bool) or not isinstance(quota, int) or quota < 0:
            raise error("bad_spec_value", "{key} must be a whole number", key="quota")
        groups.append({"name": g["name"].strip(), "quota": quota})
    out: dict[str, Any] = {
        "name": str(data["name"]).strip(),
        "preset_id": built.preset_id,
        "rule_overrides": built.rule_overrides,
        "settings_overrides": dict(data.get("tournament", {})),
        "union_groups": groups,
        "time_zone": tz,
        "registration_deadline": as_utc(data.get("registration_deadline"), tz, "registration_deadline"),
        "draw_at": as_utc(data.get("draw_at"), tz, "draw_at"),
        "first_round_at": as_utc(data.get("first_round"), tz, "first_round"),
    }
    check_time_order(out["registration_deadline"], out["draw_at"], out["first_round_at"])
    if "id" in data:  # the file of an existing tournament: sending it again updates that tournament
        if isinstance(data["id"], bool) or not isinstance(data["id"], int) or data["id"] < 1:
            raise error("bad_spec_value", "{key} must be a whole number", key="id")
        out["id"] = data["id"]
    for key in ("round_gap_minutes", "invite_hours"):
        if key in data:
            value = data[key]
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise error("bad_spec_value", "{key} must be a whole number", key=key)
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

    lines = [
        f"# id: sending this file again updates tournament #{row.id} (before its draw); delete the line for a new one",
        f"id = {row.id}",
        f"name = {q(row.name)}",
        f"preset = {q(row.preset_id)}",
        f"time_zone = {q(row.time_zone)}",
    ]
    for key, when in (
        ("registration_deadline", row.registration_deadline),
        ("draw_at", row.draw_at),
        ("first_round", row.first_round_at),
    ):
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


async def create_tournament(
    db: Database,
    *,
    name: str,
    preset_id: str,
    created_by: int,
    rule_overrides: Mapping[str, Any] | None = None,
    settings_overrides: Mapping[str, Any] | None = None,
    union_groups: Sequence[Mapping[str, Any]] = (),
    registration_deadline: datetime | None = None,
    draw_at: datetime | None = None,
    first_round_at: datetime | None = None,
    time_zone: str = DEFAULT_TZ,
    round_gap_minutes: int = 30,
    invite_hours: int = 48,
    status: str = "registration",
    setup_step: str | None = None,
) -> Tournament:
    """A tournament; its creator is its first organiser (audited)."""
    built = build_setup(preset_id, rule_overrides, settings_overrides)
    zone(time_zone)
    if not name.strip():
        raise error("missing_spec_key", "The file needs {key}", key="name")
    async with db.session() as s:
        row = Tournament(
            name=name.strip(),
            preset_id=built.preset_id,
            rule_overrides=dict(built.rule_overrides),
            settings_json=built.settings.to_dict(),
            union_groups=[{"name": str(g["name"]), "quota": int(g.get("quota", 0))} for g in union_groups],
            status=status,
            setup_step=setup_step,
            created_by=created_by,
            time_zone=time_zone,
            registration_deadline=registration_deadline,
            draw_at=draw_at,
            first_round_at=first_round_at,
            round_gap_minutes=round_gap_minutes,
            invite_hours=invite_hours,
            created_at=utcnow(),
        )
        if status == "registration":
            seal(row)
        s.add(row)
        await s.flush()
        s.add(
            TournamentRole(
                tournament_id=row.id,
                user_id=created_by,
                role="organiser",
                union_group="",
                created_at=utcnow(),
            )
        )
        add_audit(s, row.id, created_by, "create", name=row.name, preset=row.preset_id)
        await s.commit()
        return row


@retrying
async def update_setup(db: Database, tid: int, actor: int | None, **values: Any) -> Tournament:
    """Change set-up fields (the guided set-up); ``rule_overrides`` / ``settings_overrides`` re-validated."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
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
        if values.get("status") == "registration":
            seal(row)
        if actor is not None:
            add_audit(s, tid, actor, "setup", **{k: _plain(v) for k, v in values.items()})
        await s.commit()
        return row


def seal(row: Tournament) -> None:
    """Choose the draw's secret now, as registration opens, and keep its commitment (SHA-256) to publish
    with the registration announcement: the secret is fixed before anyone knows the entry list."""
    if row.secret_hex is None:
        secret = secrets.token_bytes(32)
        row.secret_hex = secret.hex()
        row.commitment = commitment(secret)


def _plain(v: Any) -> Any:
    if isinstance(v, datetime):
        return v.isoformat()
    return v


@retrying
async def set_status(db: Database, tid: int, status: str, actor: int | None = None) -> None:
    async with db.session() as s:
        row = await tournament_row(s, tid)
        row.status = status
        add_audit(s, tid, actor, "status", status=status)
        await s.commit()


@retrying
async def link_group(db: Database, tid: int, actor: int, chat_id: int) -> Tournament:
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("organiser",))
        row.group_chat_id = chat_id
        add_audit(s, tid, actor, "link_group", chat=chat_id)
        await s.commit()
        return row


async def add_table_group(
    db: Database, tid: int, actor: int, chat_id: int, title: str = ""
) -> TableGroupLink:
    async with db.session() as s:
        await tournament_row(s, tid)
        await require_role(s, tid, actor, ("organiser",))
        old = (
            (
                await s.execute(
                    select(TableGroupLink).where(
                        TableGroupLink.tournament_id == tid, TableGroupLink.chat_id == chat_id
                    )
                )
            )
            .scalars()
            .first()
        )
        if old is not None:
            return old
        link = TableGroupLink(tournament_id=tid, chat_id=chat_id, title=title, created_at=utcnow())
        s.add(link)
        add_audit(s, tid, actor, "table_group", chat=chat_id, title=title)
        await s.commit()
        return link
