"""Named seasons (issue 20): an organiser names the tournaments of a union's season.

* ``Season``: its name, the game its tournaments play (``shengji`` / ``guandan``), who created it (the
  organiser who may change it) and the union's group it was created in (``/season`` there shows it;
  None when it was created in a private chat).
* ``SeasonTournament``: one row per tournament of a season (a tournament may be in several seasons,
  once in each).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from storage.models import Base, IdType, utcnow


class Season(Base):
    __tablename__ = "seasons"
    __table_args__ = (Index("ix_seasons_chat", "chat_id"), Index("ix_seasons_created_by", "created_by"))

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    name: Mapped[str] = mapped_column(String(128))
    game: Mapped[str] = mapped_column(String(16))
    created_by: Mapped[int] = mapped_column(BigInteger)
    chat_id: Mapped[int | None] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class SeasonTournament(Base):
    __tablename__ = "season_tournaments"
    __table_args__ = (UniqueConstraint("season_id", "tournament_id", name="uq_season_tournaments"),)

    id: Mapped[int] = mapped_column(IdType, primary_key=True, autoincrement=True)
    season_id: Mapped[int] = mapped_column(ForeignKey("seasons.id", ondelete="CASCADE"))
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id", ondelete="CASCADE"))
    added_by: Mapped[int] = mapped_column(BigInteger)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
