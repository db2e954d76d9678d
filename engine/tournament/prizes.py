"""Prize tables and the final ranking (exportable rows).

Three kinds of prize table (``[tournament] prize_table``):

* ``by_round_eliminated`` (shengji-50min: 第一轮遭淘汰 纪念奖, 第二轮 三等奖, 第三轮 二等奖,
  第四轮 一等奖, 第四轮胜出 优胜奖).  ``round_prizes`` lists the prizes of the losers
  of each round and ``champion_prize`` the final's winner.  With
  ``round_prizes_from = "final"`` (default) the list is aligned to the end of the
  bracket: its last item goes to the final's loser, the one before to the semi-final
  losers, and so on; rounds before the list's first item get the first item.  So the
  notice's 16-pair bracket (4 rounds) reads exactly as written, and a smaller or
  larger field keeps the same prizes for the last rounds.  ``"first"`` aligns item 1
  with round 1 (rounds past the list get its last item).  Rounds are the bracket's
  rounds: an entry with a bye is in round 2 without playing and is eliminated in the
  round of the match it loses (a double forfeit counts as a loss for both).
* ``places_1_2_3`` (shengji-timed-2h: 一等奖1个、二等奖2个、三等奖3个; guandan-team: 一、二、
  三等奖): ``prize_counts`` = [first, second, third]: places 1..c1 first, the next c2
  second, the next c3 third.  Places come from the bracket (final, 3rd-place and
  placement matches) or from the group stage for non-qualifiers.  Entries sharing a
  place at a boundary all get the better prize.
* ``none`` (shengji-17-deals: the winning pair goes on; ``champion_prize`` names it).

``souvenir_for_all`` gives ``souvenir`` (纪念奖) to every entry without another prize.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.tournament.entries import Entry
from engine.tournament.settings import TournamentSettings

PRIZE_LABELS: dict[str, tuple[str, str]] = {
    "champion": ("优胜奖", "Champion"),
    "first": ("一等奖", "First prize"),
    "second": ("二等奖", "Second prize"),
    "third": ("三等奖", "Third prize"),
    "souvenir": ("纪念奖", "Souvenir"),
    "representative": ("代表参加学院比赛", "Goes on to the next level"),
}

PLACE_PRIZES = ("first", "second", "third")


def prize_for_round(
    round_eliminated: int, rounds: int, round_prizes: Sequence[str], anchor: str = "final"
) -> str:
    """The prize of an entry eliminated in ``round_eliminated`` of a ``rounds``-round bracket."""
    if not round_prizes:
        return ""
    if anchor == "first":
        return round_prizes[min(round_eliminated, len(round_prizes)) - 1]
    from_end = rounds - round_eliminated  # 0 = the final
    index = len(round_prizes) - 1 - from_end
    return round_prizes[max(index, 0)]


def prize_for_place(place: int, counts: Sequence[int], names: Sequence[str] = PLACE_PRIZES) -> str:
    """First/second/third by place: places 1..c1 -> first, next c2 -> second, next c3 -> third."""
    total = 0
    for count, name in zip(counts, names, strict=False):
        total += count
        if place <= total:
            return name
    return ""


@dataclass(frozen=True)
class RankingRow:
    """One line of the final ranking (also a CSV / spreadsheet row via :meth:`to_dict`)."""

    place: int | None
    entry_id: str
    name: str
    union_group: str
    players: tuple[str, ...]
    prize: str
    eliminated_round: int | None = None
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "entry_id": self.entry_id,
            "name": self.name,
            "union_group": self.union_group,
            "players": " / ".join(self.players),
            "prize": self.prize,
            "prize_zh": PRIZE_LABELS.get(self.prize, (self.prize, self.prize))[0] if self.prize else "",
            "prize_en": PRIZE_LABELS.get(self.prize, (self.prize, self.prize))[1] if self.prize else "",
            "eliminated_round": self.eliminated_round,
            "note": self.note,
        }


def final_ranking(
    entries: Sequence[Entry],
    settings: TournamentSettings,
    places: Mapping[str, int],
    eliminated: Mapping[str, int] | None = None,
    rounds: int = 0,
    champion: str | None = None,
    notes: Mapping[str, str] | None = None,
) -> list[RankingRow]:
    """The ranking with prizes, best first (entries without a place last, in entry order).

    ``places``: entry -> place (Bracket.places(), or combined with the group stage);
    ``eliminated``: entry -> main-bracket round of elimination (for by_round_eliminated);
    ``rounds``: the bracket's round count; ``champion``: the final's winner.
    """
    eliminated = eliminated or {}
    notes = notes or {}
    rows = []
    for e in entries:
        place = places.get(e.id)
        prize = ""
        if settings.prize_table == "by_round_eliminated":
            if champion is not None and e.id == champion:
                prize = settings.champion_prize or (
                    settings.round_prizes[-1] if settings.round_prizes else ""
                )
            elif e.id in eliminated:
                prize = prize_for_round(
                    eliminated[e.id], rounds, settings.round_prizes, settings.round_prizes_from
                )
        elif settings.prize_table == "places_1_2_3":
            if champion is not None and e.id == champion and settings.champion_prize:
                prize = settings.champion_prize
            elif place is not None:
                prize = prize_for_place(place, settings.prize_counts)
        elif champion is not None and e.id == champion:
            prize = settings.champion_prize
        if not prize and settings.souvenir_for_all:
            prize = "souvenir"
        rows.append(
            RankingRow(
                place,
                e.id,
                e.name,
                e.union_group,
                e.players,
                prize,
                eliminated.get(e.id),
                notes.get(e.id, ""),
            )
        )
    order = {e.id: i for i, e in enumerate(entries)}
    rows.sort(key=lambda r: (r.place is None, r.place or 0, order[r.entry_id]))
    return rows
