"""Tournament tables (on the same declarative ``Base`` as storage/models.py); every datetime is UTC.

* ``Tournament``: the set-up (name, preset, rule and event overrides, union groups with quotas,
  deadlines, time zone), its status, the linked tournament group, and the pure engine state
  (``engine.tournament.Tournament.to_dict()``) once the draw is held.
* ``TournamentRole``: organiser (creator included), referee, chief referee, union group leader.
* ``TournamentAudit``: every change by an organiser or referee (``/audit`` reads it back).
* ``TournamentEntry``: a pair (two players) or a team (N pairs of one union group).
* ``PairInvite``: a one-time partner invitation (the pair exists when the partner accepts).
* ``TournamentPlayer``: one row per player of an active pair: a player is in one pair of a tournament
  (a unique constraint, so two registrations racing cannot both succeed).
* ``TableGroupLink``: the pool of table groups where matches are played.
* ``TournamentMatch``: a match of the bracket/groups as scheduled: start time, table groups, status,
  result, lateness decision; ``CheckIn`` rows record who is present.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, IdType, utcnow


class Tournament(Base):
    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(256), default="")
    preset_id: Mapped[str] = mapped_column(String(64), default="")
    rule_overrides: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # game options over the preset
    settings_json: Mapped[dict[str, Any]] = mapped_column(
        JSON, default=dict
    )  # TournamentSettings after overrides
    union_groups: Mapped[list[Any]] = mapped_column(JSON, default=list)  # [{"name": ..., "quota": n}]
    # setup | registration | closed | drawn | running | finished | cancelled
    status: Mapped[str] = mapped_column(String(16), default="setup")
    setup_step: Mapped[str | None] = mapped_column(String(32))
    created_by: Mapped[int] = mapped_column(BigInteger)
    group_chat_id: Mapped[int | None] = mapped_column(BigInteger)
    time_zone: Mapped[str] = mapped_column(String(64), default="Asia/Shanghai")
    registration_deadline: Mapped[datetime | None] = mapped_column()
    draw_at: Mapped[datetime | None] = mapped_column()
    first_round_at: Mapped[datetime | None] = mapped_column()
    round_gap_minutes: Mapped[int] = mapped_column(
        Integer, default=30
    )  # later matches: at least this far ahead
    invite_hours: Mapped[int] = mapped_column(Integer, default=48)
    announcement_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # list hash + commitment
    secret_hex: Mapped[str | None] = mapped_column(String(64))  # kept private until the reveal
    state_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # engine.tournament.Tournament.to_dict()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # every UPDATE of the row is conditional on this version (SQLAlchemy raises StaleDataError when another
    # transaction changed the row first; the service retries on the fresh row): no lost update of state_json
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    updated_at: Mapped[datetime | None] = mapped_column()  # touched to take the version (registrations)
    commitment: Mapped[str | None] = mapped_column(String(64))  # sha256(secret), published at registration

    __mapper_args__ = {"version_id_col": version}


class TournamentRole(Base):
    __tablename__ = "tournament_roles"
    __table_args__ = (
        UniqueConstraint("tournament_id", "user_id", "role", "union_group", name="uq_tournament_roles"),
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    role: Mapped[str] = mapped_column(String(16))  # organiser | referee | chief_referee | leader
    union_group: Mapped[str] = mapped_column(String(128), default="")  # leader: their union group
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentAudit(Base):
    __tablename__ = "tournament_audit"
    __table_args__ = (Index("ix_tournament_audit_t", "tournament_id", "id"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    actor_id: Mapped[int | None] = mapped_column(BigInteger)  # None: the bot itself (a deadline)
    action: Mapped[str] = mapped_column(String(48))
    detail_json: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentEntry(Base):
    __tablename__ = "tournament_entries"
    __table_args__ = (Index("ix_tournament_entries_t", "tournament_id", "status"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    kind: Mapped[str] = mapped_column(String(8), default="pair")  # pair | team
    name: Mapped[str] = mapped_column(String(256), default="")
    union_group: Mapped[str] = mapped_column(String(128), default="")
    players_json: Mapped[list[Any]] = mapped_column(JSON, default=list)  # user ids in table order
    team_id: Mapped[int | None] = mapped_column(BigInteger)  # a pair inside a team: the team entry id
    status: Mapped[str] = mapped_column(String(16), default="active")  # active | withdrawn
    seed_no: Mapped[int | None] = mapped_column(Integer)
    created_by: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class PairInvite(Base):
    __tablename__ = "tournament_invites"

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    inviter_id: Mapped[int] = mapped_column(BigInteger)
    union_group: Mapped[str] = mapped_column(String(128), default="")
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | used | cancelled
    expires_at: Mapped[datetime] = mapped_column()
    entry_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # a replacement offer (``replaces`` set): ``invitee_id`` is asked to take ``replaces``' place in ``entry_id``
    invitee_id: Mapped[int | None] = mapped_column(BigInteger)
    replaces: Mapped[int | None] = mapped_column(BigInteger)


class TournamentPlayer(Base):
    """A player's place in an active pair entry: at most one per tournament (withdrawing frees it)."""

    __tablename__ = "tournament_players"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id", name="uq_tournament_players"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    entry_id: Mapped[int] = mapped_column(ForeignKey("tournament_entries.id", ondelete="CASCADE"))


class TableGroupLink(Base):
    __tablename__ = "tournament_table_groups"
    __table_args__ = (UniqueConstraint("tournament_id", "chat_id", name="uq_tournament_table_groups"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    chat_id: Mapped[int] = mapped_column(BigInteger)
    title: Mapped[str] = mapped_column(String(256), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class TournamentMatch(Base):
    __tablename__ = "tournament_matches"
    __table_args__ = (UniqueConstraint("tournament_id", "match_key", name="uq_tournament_matches_key"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    match_key: Mapped[str] = mapped_column(String(32))  # the engine's match id: R1-M2, A-R1-M1, P3-4-M1
    side_a: Mapped[str | None] = mapped_column(String(32))  # entry ids (engine ids = str(TournamentEntry.id))
    side_b: Mapped[str | None] = mapped_column(String(32))
    start_at: Mapped[datetime | None] = mapped_column()
    table_chats: Mapped[list[Any]] = mapped_column(JSON, default=list)  # table group chat id per table
    game_tables: Mapped[list[Any]] = mapped_column(JSON, default=list)  # storage GameTable id per table
    # scheduled | open (tables opened) | playing | finished | void
    status: Mapped[str] = mapped_column(String(16), default="scheduled")
    table_results: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)  # table no -> TableResult dict
    result_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    lateness_json: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    confirmed_by: Mapped[int | None] = mapped_column(BigInteger)
    note: Mapped[str] = mapped_column(Text, default="")
    # per table ("1", "2", ...): extra lateness minutes a referee granted; substitutes {"old user": new user}
    late_extra: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    substitutes: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class CheckIn(Base):
    __tablename__ = "tournament_checkins"
    __table_args__ = (
        UniqueConstraint("tournament_id", "match_key", "user_id", name="uq_tournament_checkins"),
    )

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    match_key: Mapped[str] = mapped_column(String(32))
    user_id: Mapped[int] = mapped_column(BigInteger)
    at: Mapped[datetime] = mapped_column()


class DashboardFollow(Base):
    """An organiser's dashboard message kept live (edited as the tournament changes) until the tournament
    ends or they press Stop; one per organiser and tournament (a new ``/dashboard`` takes its place)."""

    __tablename__ = "tournament_dashboards"
    __table_args__ = (UniqueConstraint("tournament_id", "user_id", name="uq_tournament_dashboards"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    chat_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)
    lang: Mapped[str] = mapped_column(String(8))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class Confirmation(Base):
    """A cancel/delete waiting for its confirmation button (the button carries ``token``); good until
    ``expires_at``, used once."""

    __tablename__ = "tournament_confirmations"

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    token: Mapped[str] = mapped_column(String(32), unique=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(BigInteger)
    op: Mapped[str] = mapped_column(String(16))  # cancel | delete
    reason: Mapped[str] = mapped_column(Text)
    expires_at: Mapped[datetime] = mapped_column()
    used_at: Mapped[datetime | None] = mapped_column()
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
