"""Named seasons: a season (name, game, its creator and the union's group) and its tournaments.

Revision ID: 0012_seasons
Revises: 0011_tournament_day
Create Date: 2026-12-02
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012_seasons"
down_revision: str | None = "0011_tournament_day"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(128), nullable=False),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("created_by", sa.BigInteger(), nullable=False),
        sa.Column("chat_id", sa.BigInteger(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_seasons_chat", "seasons", ["chat_id"])
    op.create_index("ix_seasons_created_by", "seasons", ["created_by"])
    op.create_table(
        "season_tournaments",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("season_id", ID, sa.ForeignKey("seasons.id", ondelete="CASCADE"), nullable=False),
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("added_by", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("season_id", "tournament_id", name="uq_season_tournaments"),
    )


def downgrade() -> None:
    op.drop_table("season_tournaments")
    op.drop_index("ix_seasons_created_by", table_name="seasons")
    op.drop_index("ix_seasons_chat", table_name="seasons")
    op.drop_table("seasons")
