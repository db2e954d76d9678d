"""Initial schema: users, chats, tables and seats, matches with their action log, deals,
message refs, hand selections, deadlines.

Revision ID: 0001_initial
Revises:
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_initial"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _ts() -> sa.DateTime:
    return sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("first_name", sa.String(256), nullable=False),
        sa.Column("username", sa.String(64), nullable=True),
        sa.Column("language_code", sa.String(16), nullable=True),
        sa.Column("lang_override", sa.String(16), nullable=True),
        sa.Column("started_bot", sa.Boolean(), nullable=False),
        sa.Column("blocked_bot", sa.Boolean(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
    )
    op.create_table(
        "chats",
        sa.Column("id", sa.BigInteger(), primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("title", sa.String(256), nullable=True),
        sa.Column("language", sa.String(16), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
    )
    op.create_table(
        "game_tables",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("preset_id", sa.String(64), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("options_json", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=True),
        sa.Column("table_message_id", sa.BigInteger(), nullable=True),
        sa.Column("tournament_ref", sa.String(64), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
    )
    op.create_index("ix_game_tables_chat_status", "game_tables", ["chat_id", "status"])
    op.create_table(
        "table_seats",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", ID, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("is_computer", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_table_seats_table_seat"),
    )
    op.create_table(
        "matches",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", ID, sa.ForeignKey("game_tables.id", ondelete="CASCADE"), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("options_json", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("result_json", sa.JSON(), nullable=True),
        sa.Column("started_at", _ts(), nullable=False),
        sa.Column("finished_at", _ts(), nullable=True),
    )
    op.create_index("ix_matches_table", "matches", ["table_id"])
    op.create_index("ix_matches_status", "matches", ["status"])
    op.create_table(
        "deals",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("match_id", ID, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=False),
        sa.Column("started_at", _ts(), nullable=False),
        sa.Column("finished_at", _ts(), nullable=True),
        sa.Column("summary_json", sa.JSON(), nullable=True),
        sa.Column("first_seq", sa.Integer(), nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=True),
        sa.UniqueConstraint("match_id", "deal_no", name="uq_deals_match_deal"),
    )
    op.create_table(
        "action_records",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("match_id", ID, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("actor_user_id", sa.BigInteger(), nullable=True),
        sa.Column("events_json", sa.JSON(), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("dedupe_key", sa.String(128), nullable=True),
        sa.UniqueConstraint("match_id", "seq", name="uq_action_records_match_seq"),
        sa.UniqueConstraint("match_id", "dedupe_key", name="uq_action_records_match_dedupe"),
    )
    op.create_table(
        "message_refs",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("purpose", sa.String(32), nullable=False),
        sa.Column("table_id", sa.BigInteger(), nullable=True),
        sa.Column("match_id", sa.BigInteger(), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("deal_no", sa.Integer(), nullable=True),
        sa.Column("last_text_hash", sa.String(64), nullable=True),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("updated_at", _ts(), nullable=False),
    )
    op.create_index("ix_message_refs_match_purpose", "message_refs", ["match_id", "purpose", "seat"])
    op.create_index("ix_message_refs_table_purpose", "message_refs", ["table_id", "purpose"])
    op.create_index("ix_message_refs_chat_message", "message_refs", ["chat_id", "message_id"])
    op.create_table(
        "selections",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("match_id", ID, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("cards_text", sa.Text(), nullable=False),
        sa.Column("deal_no", sa.Integer(), nullable=True),
        sa.Column("updated_at", _ts(), nullable=False),
        sa.UniqueConstraint("match_id", "seat", name="uq_selections_match_seat"),
    )
    op.create_table(
        "deadlines",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("ref", sa.String(64), nullable=False),
        sa.Column("due_at", _ts(), nullable=False),
        sa.Column("payload_json", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", _ts(), nullable=False),
        sa.Column("fired_at", _ts(), nullable=True),
    )
    op.create_index("ix_deadlines_status_due", "deadlines", ["status", "due_at"])
    op.create_index("ix_deadlines_kind_ref", "deadlines", ["kind", "ref"])


def downgrade() -> None:
    for index, table in [("ix_deadlines_kind_ref", "deadlines"), ("ix_deadlines_status_due", "deadlines")]:
        op.drop_index(index, table_name=table)
    op.drop_table("deadlines")
    op.drop_table("selections")
    for index in (
        "ix_message_refs_chat_message",
        "ix_message_refs_table_purpose",
        "ix_message_refs_match_purpose",
    ):
        op.drop_index(index, table_name="message_refs")
    op.drop_table("message_refs")
    op.drop_table("action_records")
    op.drop_table("deals")
    op.drop_index("ix_matches_status", table_name="matches")
    op.drop_index("ix_matches_table", table_name="matches")
    op.drop_table("matches")
    op.drop_table("table_seats")
    op.drop_index("ix_game_tables_chat_status", table_name="game_tables")
    op.drop_table("game_tables")
    op.drop_table("chats")
    op.drop_table("users")
