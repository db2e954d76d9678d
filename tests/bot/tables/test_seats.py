"""The index of who sits where: a typed play or a press finds the player's match without a scan."""

from __future__ import annotations

from types import SimpleNamespace

from bot.tables.seats import SeatIndex


def seats(*users: int | None, computers: tuple[int, ...] = ()) -> list[SimpleNamespace]:
    return [SimpleNamespace(seat=i, user_id=u, is_computer=i in computers) for i, u in enumerate(users)]


def test_a_player_is_found_in_their_newest_match_and_forgotten_when_it_ends() -> None:
    index = SeatIndex()
    index.add(5, 1, seats(11, 12, 13, 14))
    index.add(9, 2, seats(21, 11, None, None, computers=(2, 3)))
    assert index.matches_of(11) == [(9, 1), (5, 0)]
    assert index.get(9).seat_of(21) == 0 and index.get(9).seat_of(99) is None
    assert index.get(9).computers == frozenset({2, 3})
    index.remove(9)
    assert index.matches_of(11) == [(5, 0)] and index.matches_of(21) == []
    assert index.get(9) is None and len(index) == 1


def test_indexing_a_match_again_replaces_its_seats() -> None:
    index = SeatIndex()
    index.add(5, 1, seats(11, 12, 13, 14))
    index.add(5, 1, seats(31, 12, 13, 14))
    assert index.matches_of(11) == [] and index.matches_of(31) == [(5, 0)]
