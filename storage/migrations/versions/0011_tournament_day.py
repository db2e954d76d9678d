"""Tournament day: the organiser dashboards kept live (the message each organiser follows), and the
confirmations of cancelling or deleting a tournament (a row with an expiry, so a restart keeps them).

Revision ID: 0011_tournament_day
Revises: 0006_pending_messages
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011_tournament_day"
down_revision: str | None = "0006_pending_messages"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "tournament_dashboards",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=False),
        sa.Column("message_id", sa.BigInteger(), nullable=False),
        sa.Column("lang", sa.String(8), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_tournament_dashboards"),
    )
    op.create_table(
        "tournament_confirmations",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("token", sa.String(32), nullable=False, unique=True),
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("op", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("tournament_confirmations")
    op.drop_table("tournament_dashboards")
