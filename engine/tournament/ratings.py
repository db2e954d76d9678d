"""Player ratings per game (Shengji, Guandan) from tournament tables, and seeding by rating.

The model is openskill's Plackett-Luce (Weng & Lin 2011, "A Bayesian approximation method for online
ranking"), a Bayesian rating for team games: each player has a skill estimate ``mu`` and an
uncertainty ``sigma`` (new player: 25 and 25/3).  A partnership is rated through its players: every
table of a match is one game of the two players of side a against the two of side b, the table's
winner ranked first, and each of the four players' estimates moves.  A team match of N pairs is N
such games (pair k against pair k at table k).  A table not played (a forfeit, a double forfeit or a
disqualification) says nothing about how the cards were played and is not rated.

What people see is the **rating** ``round(1500 + 60 * (mu - 3 * sigma))``: the conservative estimate
(openskill's ordinal) on a familiar scale; a new player shows 1500 and rises as games confirm them.
A player with fewer than ``PROVISIONAL_GAMES`` rated games is **provisional** (shown with a "?").

Ratings are a pure function of the games in order (:func:`replay`), so a referee's correction is
taken into account by replaying the stored results; nothing is kept that could drift from them.

A computer player (casual matches, when they are rated: storage/ratings_casual.py) sits in a game as the
key ``ai:<level>#<seat>``: it enters with a fixed rating of its level (``COMPUTER_MU``, sigma
``COMPUTER_SIGMA``: a level plays the same way every game), its partner's and opponents' estimates move,
its own never does and it has no rating of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from openskill.models import PlackettLuce

from engine.tournament.entries import Entry
from engine.tournament.results import PairingResult

PROVISIONAL_GAMES = 10
BASE, SCALE = 1500, 60

_MODEL = PlackettLuce()

COMPUTER = "ai:"  # a computer player's key prefix: ``ai:<level>#<seat>``
COMPUTER_MU = {"easy": 22.0, "normal": 25.0, "strong": 28.0}  # normal: a new player's mean
COMPUTER_SIGMA = 2.0


def computer_key(level: str, seat: int) -> str:
    return f"{COMPUTER}{level}#{seat}"


def is_computer(player: str) -> bool:
    return player.startswith(COMPUTER)


@dataclass(frozen=True)
class Rating:
    mu: float = _MODEL.mu
    sigma: float = _MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def shown(self) -> int:
        """The number people see (1500 for a new player)."""
        return round(BASE + SCALE * self.ordinal)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def text(self) -> str:
        """``1632`` or ``1540?`` (provisional)."""
        return f"{self.shown}{'?' if self.provisional else ''}"


@dataclass(frozen=True)
class EntryRating:
    """A pair's or a team's rating as the standings show it: the mean of its players' shown ratings,
    provisional while any of them is."""

    shown: int
    provisional: bool

    def text(self) -> str:
        """``1632`` or ``1540?`` (provisional), as :meth:`Rating.text`."""
        return f"{self.shown}{'?' if self.provisional else ''}"


@dataclass(frozen=True)
class TableGame:
    """One rated table: the two players of the winning side and the two of the losing side."""

    game: str
    winners: tuple[str, str]
    losers: tuple[str, str]
    ref: str = ""  # where it was played (tournament and match), for the history


@dataclass(frozen=True)
class HistoryPoint:
    player: str
    game: str
    ref: str
    rating: Rating


@dataclass
class Ratings:
    """Every player's rating per game, and each player's history (one point per rated table)."""

    table: dict[tuple[str, str], Rating] = field(default_factory=dict)
    history: list[HistoryPoint] = field(default_factory=list)

    def of(self, player: str, game: str) -> Rating:
        if is_computer(player):  # a fixed rating of its level, never kept
            level = player[len(COMPUTER) :].split("#")[0]
            return Rating(COMPUTER_MU.get(level, COMPUTER_MU["normal"]), COMPUTER_SIGMA, PROVISIONAL_GAMES)
        return self.table.get((player, game), Rating())

    def play(self, g: TableGame) -> None:
        players = (*g.winners, *g.losers)
        if len(set(players)) != 4:
            return  # a player on both sides (data error) is not rated
        before = [self.of(p, g.game) for p in players]
        teams = [
            [_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in before[:2]],
            [_MODEL.rating(mu=r.mu, sigma=r.sigma) for r in before[2:]],
        ]
        after = _MODEL.rate(teams, ranks=[1, 2])
        for p, old, new in zip(players, before, [x for team in after for x in team], strict=True):
            if is_computer(p):
                continue
            rating = Rating(float(new.mu), float(new.sigma), old.games + 1)
            self.table[(p, g.game)] = rating
            self.history.append(HistoryPoint(p, g.game, g.ref, rating))

    def of_player(self, player: str) -> dict[str, Rating]:
        return {game: r for (p, game), r in self.table.items() if p == player}

    def history_of(self, player: str, game: str) -> list[HistoryPoint]:
        return [h for h in self.history if h.player == player and h.game == game]


def entry_rating(ratings: Ratings, game: str, players: Sequence[str]) -> EntryRating | None:
    """The rating of an entry of ``players`` (their rating keys); None for an entry without players."""
    rs = [ratings.of(p, game) for p in players]
    if not rs:
        return None
    return EntryRating(round(sum(r.shown for r in rs) / len(rs)), any(r.provisional for r in rs))


def replay(games: Iterable[TableGame]) -> Ratings:
    """The ratings after ``games`` in the order given (the order they were played)."""
    out = Ratings()
    for g in games:
        out.play(g)
    return out


def match_games(
    game: str, side_a: Sequence[str], side_b: Sequence[str], result: PairingResult, ref: str = ""
) -> list[TableGame]:
    """The rated tables of a match: side a's and side b's players in table order (2 per table)."""
    out = []
    for t in result.tables:
        if t.absent is not None or t.winner not in ("a", "b"):
            continue
        k = t.table - 1
        pa, pb = tuple(side_a[2 * k : 2 * k + 2]), tuple(side_b[2 * k : 2 * k + 2])
        if len(pa) != 2 or len(pb) != 2:
            continue
        win, lose = (pa, pb) if t.winner == "a" else (pb, pa)
        out.append(TableGame(game, (win[0], win[1]), (lose[0], lose[1]), f"{ref}#T{t.table}" if ref else ""))
    return out


def seed_by_rating(
    entries: Sequence[Entry],
    ratings: Ratings,
    game: str,
    players_of: Mapping[str, Sequence[str]] | None = None,
) -> list[Entry]:
    """The entries with seed numbers by strength (1 = strongest).  Entries none of whose players has a
    rated game stay unseeded (the draw places them at random after the seeds).  ``players_of`` maps
    an entry id to the rating keys of its players when they differ from ``entry.players``."""

    def rated(e: Entry) -> bool:
        keys = players_of.get(e.id, e.players) if players_of else e.players
        return any(ratings.of(p, game).games for p in keys)

    def strength(e: Entry) -> float:
        keys = list(players_of.get(e.id, e.players) if players_of else e.players)
        return sum(ratings.of(p, game).ordinal for p in keys) / max(1, len(keys))

    order = {e.id: i for i, e in enumerate(entries)}
    ranked = sorted((e for e in entries if rated(e)), key=lambda e: (-strength(e), order[e.id]))
    seeds = {e.id: i for i, e in enumerate(ranked, start=1)}
    return [replace(e, seed_no=seeds.get(e.id)) for e in entries]
