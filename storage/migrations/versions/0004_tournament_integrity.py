"""Tournament integrity: a version on the tournament row (conditional updates), one pair per player
(unique), the draw commitment published at registration, per-table lateness extensions and substitutes,
replacement offers (the new partner accepts).

Revision ID: 0004_tournament_integrity
Revises: 0003_rules_version
Create Date: 2026-11-30
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_tournament_integrity"
down_revision: str | None = "0003_rules_version"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("updated_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("commitment", sa.String(64), nullable=True))
    with op.batch_alter_table("tournament_matches") as batch:
        batch.add_column(sa.Column("late_extra", sa.JSON(), nullable=False, server_default="{}"))
        batch.add_column(sa.Column("substitutes", sa.JSON(), nullable=False, server_default="{}"))
    with op.batch_alter_table("tournament_invites") as batch:  # a replacement offer: who is asked, for whom
        batch.add_column(sa.Column("invitee_id", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("replaces", sa.BigInteger(), nullable=True))
    op.create_table(
        "tournament_players",
        sa.Column("id", ID, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", ID, sa.ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("entry_id", ID, sa.ForeignKey("tournament_entries.id", ondelete="CASCADE"), nullable=False),
        sa.UniqueConstraint("tournament_id", "user_id", name="uq_tournament_players"),
    )
    # the players of the active pairs registered before this migration
    conn = op.get_bind()
    rows = conn.execute(
        sa.text(
            "SELECT id, tournament_id, players_json FROM tournament_entries "
            "WHERE kind = 'pair' AND status = 'active' ORDER BY id"
        )
    ).all()
    seen: set[tuple[int, int]] = set()
    players = sa.table(
        "tournament_players", sa.column("tournament_id"), sa.column("user_id"), sa.column("entry_id")
    )
    for entry_id, tid, raw in rows:
        ids = json.loads(raw) if isinstance(raw, str) else list(raw or [])
        for uid in ids:
            if (tid, int(uid)) not in seen:  # an old double registration keeps the first pair
                seen.add((tid, int(uid)))
                conn.execute(players.insert().values(tournament_id=tid, user_id=int(uid), entry_id=entry_id))


def downgrade() -> None:
    op.drop_table("tournament_players")
    with op.batch_alter_table("tournament_invites") as batch:
        batch.drop_column("replaces")
        batch.drop_column("invitee_id")
    with op.batch_alter_table("tournament_matches") as batch:
        batch.drop_column("substitutes")
        batch.drop_column("late_extra")
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("commitment")
        batch.drop_column("updated_at")
        batch.drop_column("version")
