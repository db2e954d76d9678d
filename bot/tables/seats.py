"""Who sits where in the live matches: an index in memory, so a typed play or a button press finds
the player's match and seat without scanning every active match.

Seats are fixed once a match starts (``storage.match_repo.start_match``), so the index is filled when
the lobby starts a table, rebuilt from the database at start-up (``load``), and a match leaves it
when it ends or its table is stopped.  One exception: a referee's substitute at a tournament table in
play (``bot.tournaments.substitutes.Substitutes.take_over_seat``) changes a seat's player; that match is
indexed again (``add``) under its lock, in the same step as the stored seat.  A finished match still listed (a table aborted by the
tournament side) is dropped at the next lookup that finds it finished.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from engine.game import Match
from storage import match_repo, table_repo
from storage.action_repo import ApplyResult
from storage.db import Database
from storage.match_cache import MatchRow
from storage.models import GameTable


@dataclass(frozen=True)
class SeatInfo:
    seat: int
    user_id: int | None
    is_computer: bool


@dataclass(frozen=True)
class MatchSeats:
    match_id: int
    table_id: int
    seats: tuple[SeatInfo, ...]

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id:
                return s.seat
        return None

    @property
    def computers(self) -> frozenset[int]:
        return frozenset(s.seat for s in self.seats if s.is_computer)


class SeatRow(Protocol):
    """A stored seat as the index reads it (``storage.models.Seat``)."""

    @property
    def seat(self) -> int: ...

    @property
    def user_id(self) -> int | None: ...

    @property
    def is_computer(self) -> bool: ...


def seats_entry(match_id: int, table_id: int, seats: Sequence[SeatRow]) -> MatchSeats:
    """A match's seats from rows with ``seat``, ``user_id``, ``is_computer``."""
    return MatchSeats(
        match_id,
        table_id,
        tuple(
            SeatInfo(int(s.seat), s.user_id, bool(s.is_computer)) for s in sorted(seats, key=lambda s: s.seat)
        ),
    )


class SeatIndex:
    def __init__(self) -> None:
        self._matches: dict[int, MatchSeats] = {}
        self._by_user: dict[int, dict[int, int]] = {}  # user -> {match id: seat}

    def add(self, match_id: int, table_id: int, seats: Sequence[SeatRow]) -> MatchSeats:
        """Index a match's seats (rows with ``seat``, ``user_id``, ``is_computer``)."""
        self.remove(match_id)
        entry = seats_entry(match_id, table_id, seats)
        self._matches[match_id] = entry
        for s in entry.seats:
            if s.user_id is not None:
                self._by_user.setdefault(s.user_id, {})[match_id] = s.seat
        return entry

    def remove(self, match_id: int) -> None:
        entry = self._matches.pop(match_id, None)
        if entry is None:
            return
        for s in entry.seats:
            if s.user_id is not None:
                mine = self._by_user.get(s.user_id)
                if mine is not None:
                    mine.pop(match_id, None)
                    if not mine:
                        del self._by_user[s.user_id]

    def get(self, match_id: int) -> MatchSeats | None:
        return self._matches.get(match_id)

    def matches_of(self, user_id: int) -> list[tuple[int, int]]:
        """(match id, seat) of the user's indexed matches, the newest first."""
        return sorted((self._by_user.get(user_id) or {}).items(), reverse=True)

    def __len__(self) -> int:
        return len(self._matches)


async def match_seats(
    db: Database, index: SeatIndex, match_id: int, table_id: int | None = None
) -> MatchSeats | None:
    """A match's seats, from the index (the database once, when the index does not have them)."""
    entry = index.get(match_id)
    if entry is None:
        row = await match_repo.match_row(db, match_id)
        if row is None:
            return None
        table_id = row.table_id if table_id is None else table_id
        rows = await table_repo.get_seats(db, table_id)
        if row.status in ("playing", "paused"):
            entry = index.add(match_id, table_id, rows)
        else:  # an ended match is answered but not indexed again (the index holds live matches only)
            entry = seats_entry(match_id, table_id, rows)
    return entry


MatchContext = tuple[MatchRow, Match, GameTable | None, tuple[SeatInfo, ...]]


async def match_context(
    db: Database, index: SeatIndex, match_id: int, applied: ApplyResult | None = None
) -> MatchContext:
    """The match row, its engine state, its table and its seats; ``applied``: the ``ApplyResult`` of the
    action just committed under the match's lock (its state, nothing read again)."""
    table: GameTable | None
    if applied is not None and applied.row is not None and applied.table is not None:
        row, m, table = applied.row, applied.match, applied.table
    else:
        row, m, table = await match_repo.match_context(db, match_id)
    entry = await match_seats(db, index, match_id, row.table_id)
    return row, m, table, entry.seats if entry is not None else ()


async def load_seats(db: Database) -> SeatIndex:
    """The index of every active match (start-up)."""
    index = SeatIndex()
    for row in await match_repo.active_matches(db):
        index.add(row.id, row.table_id, await table_repo.get_seats(db, row.table_id))
    return index
