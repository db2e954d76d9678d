"""One live table per group: a partial unique index on the chat of open/playing/paused tables;
a table's fixed seed and practice mode kept on its row (``seed=`` of ``/newtable``); for tournament
tables the committed server seed and the players' mix-in words (docs/fairness.md).

Tables opened by ``/newtable`` (``tournament_ref`` NULL) are at most one live per chat; a tournament
may still place several of its tables in one table group (they are opened by the tournament side,
one per match slot).  Before the index is made, older duplicates of a chat (made before this
revision by quick repeated ``/newtable``) are closed as ``aborted``, keeping the newest.

Revision ID: 0005_one_table_per_group
Revises: 0004_tournament_integrity
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_one_table_per_group"
down_revision: str | None = "0004_tournament_integrity"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEX = "uq_game_tables_one_live_per_chat"
LIVE = "status IN ('open', 'playing', 'paused') AND tournament_ref IS NULL"


def upgrade() -> None:
    op.execute(
        sa.text(
            "UPDATE game_tables SET status = 'aborted' WHERE " + LIVE + " AND id < "
            "(SELECT MAX(g2.id) FROM game_tables g2 WHERE g2.chat_id = game_tables.chat_id AND "
            "g2.status IN ('open', 'playing', 'paused') AND g2.tournament_ref IS NULL)"
        )
    )
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("fixed_seed", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("practice", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("server_seed", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("mix_words", sa.JSON(), nullable=True))
    op.create_index(
        INDEX,
        "game_tables",
        ["chat_id"],
        unique=True,
        sqlite_where=sa.text(LIVE),
        postgresql_where=sa.text(LIVE),
    )


def downgrade() -> None:
    op.drop_index(INDEX, table_name="game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("mix_words")
        batch.drop_column("server_seed")
        batch.drop_column("practice")
        batch.drop_column("fixed_seed")
