"""Matches record the rules version that produced them (engine.game.RULES_VERSION).

Matches stored before this revision were played under rules version 1.

Revision ID: 0003_rules_version
Revises: 0002_tournaments
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_rules_version"
down_revision: str | None = "0002_tournaments"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("rules_version", sa.Integer(), nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("rules_version")
