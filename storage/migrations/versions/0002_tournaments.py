"""Tournaments: set-up, roles, audit log, entries, partner invites, table group pool, matches, check-ins.

Revision ID: 0002_tournaments
Revises: 0001_initial
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_tournaments"
down_revision: str | None = "0001_initial"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def _tid() -> sa.Column:  # type: ignore[type-arg]
    return sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(256), nullable=False),
        sa.Column("preset_id", sa.String(64), nullable=False),
        sa.Column("rule_overrides", sa.JSON(), nullable=False),
        sa.Column("settings_json", sa.JSON(), nullable=False),
        sa.Column("union_groups", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("setup_step", sa.String(32), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("group_chat_id", sa.BigInteger(), nullable=True),
        sa.Column("time_zone", sa.String(64), nullable=False),
        sa.Column("registration_deadline", _ts(), nullable=True),
        sa.Column("draw_at", _ts(), nullable=True),
        sa.Column("first_round_at", _ts(), nullable=True),
        sa.Column("round_gap_minutes", sa.Integer(), nullable=False),
        sa.Column("invite_hours", sa.Integer(), nullable=False),
        sa.Column("announcement_json", sa.JSON(), nullable=True),
        sa.Column("secret_hex", sa.String(64), nullable=True),
        sa.Column("state_json", sa.JSON(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
    )
    op.create_table(
        "tournament_roles",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        _tid(),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("union_group", sa.String(128), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", "role", "union_group", name="uq_tournament_roles"),
    )
    op.create_table(
        "tournament_audit",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        _tid(),
        sa.Column("actor_id", sa.BigInteger(), nullable=True),
        sa.Column("action", sa.String(48), nullable=False),
        sa.Column("detail_json", sa.JSON(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
    )
    op.create_index("ix_tournament_audit_t", "tournament_audit", ["tournament_id", "id"])
    op.create_table(
        "tournament_entries",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        _tid(),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(256), nullable=False),
        sa.Column("union_group", sa.String(128), nullable=False),
        sa.Column("players_json", sa.JSON(), nullable=False),
        sa.Column("team_id", sa.BigInteger(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed_no", sa.Integer(), nullable=True),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
    )
    op.create_index("ix_tournament_entries_t", "tournament_entries", ["tournament_id", "status"])
    op.create_table(
        "tournament_invites",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("token", sa.String(32), nullable=False, unique=True),
        _tid(),
        sa.Column("inviter_id", sa.BigInteger(), nullable=False),
        sa.Column("union_group", sa.String(128), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("expires_at", _ts(), nullable=False),
        sa.Column("entry_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
    )
    op.create_table(
        "tournament_table_groups",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        _tid(),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.String(256), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.UniqueConstraint("tournament_id", "chat_id", name="uq_tournament_table_groups"),
    )
    op.create_table(
        "tournament_matches",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        _tid(),
        sa.Column("match_key", sa.String(32), nullable=False),
        sa.Column("side_a", sa.String(32), nullable=True),
        sa.Column("side_b", sa.String(32), nullable=True),
        sa.Column("start_at", _ts(), nullable=True),
        sa.Column("table_chats", sa.JSON(), nullable=False),
        sa.Column("game_tables", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("table_results", sa.JSON(), nullable=False),
        sa.Column("result_json", sa.JSON(), nullable=True),
        sa.Column("lateness_json", sa.JSON(), nullable=True),
        sa.Column("confirmed_by", sa.BigInteger(), nullable=True),
        sa.Column("note", sa.Text(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.UniqueConstraint("tournament_id", "match_key", name="uq_tournament_matches_key"),
    )
    op.create_table(
        "tournament_checkins",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        _tid(),
        sa.Column("match_key", sa.String(32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("at", _ts(), nullable=False),
        sa.UniqueConstraint("tournament_id", "match_key", "user_id", name="uq_tournament_checkins"),
    )


def downgrade() -> None:
    for name in (
        "tournament_checkins",
        "tournament_matches",
        "tournament_table_groups",
        "tournament_invites",
    ):
        op.drop_table(name)
    op.drop_index("ix_tournament_entries_t", table_name="tournament_entries")
    op.drop_table("tournament_entries")
    op.drop_index("ix_tournament_audit_t", table_name="tournament_audit")
    op.drop_table("tournament_audit")
    op.drop_table("tournament_roles")
    op.drop_table("tournaments")
