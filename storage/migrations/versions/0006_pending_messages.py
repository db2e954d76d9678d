"""Sends of record that a clean stop could not deliver (the outbox's queue at ``stop()``): kept here
and queued again at the next start-up (docs/bot.md, "Inside", the outbox).

Revision ID: 0006_pending_messages
Revises: 0005_one_table_per_group
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_pending_messages"
down_revision: str | None = "0005_one_table_per_group"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "pending_messages",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("markup_json", sa.JSON(), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=True),
        sa.Column("filename", sa.String(255), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pending_messages")
