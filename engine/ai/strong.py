"""The strong players split in two for the bot (``bot.tables.thinking``): a *question* built in the bot's
process — the seat's information set (``engine.*.information``: no other seat's card) and a seed — and its
*answer*, the searched action text, computed in a worker process from the question alone.

The question is None when the strong player does not search the decision (bids, late overturns and a
re-bury in Shengji, Guandan tribute and return: the baseline player's, inline); the Shengji dealer's bury is
searched (``engine.shengji.ai_bury``).  A question's ``effort`` (1: the full search) lets a busy bot ask for a
quicker, smaller search instead of none; both games' details stay here, in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Match
from engine.guandan import ai_strong as guandan_strong
from engine.guandan.game import GuandanMatch
from engine.guandan.information import GuandanInformation
from engine.guandan.information import information as guandan_information
from engine.shengji import ai_strong as shengji_strong
from engine.shengji.ai_bury import BuryInformation, bury_information
from engine.shengji.game import ShengjiMatch
from engine.shengji.information import ShengjiInformation
from engine.shengji.information import information as shengji_information


@dataclass(frozen=True)
class Question:
    """One decision to search: what the seat knows and the search's seed (picklable, no hidden card)."""

    info: ShengjiInformation | BuryInformation | GuandanInformation
    seed: int
    effort: float = 1.0  # below 1: the budget and worlds scaled down (engine.search.choice.scaled_worlds)


def question(m: Match, seat: int, seed: int) -> Question | None:
    """The search ``seat``'s strong player makes now (None: it plays the baseline's move, inline)."""
    if m.finished:
        return None
    if isinstance(m, ShengjiMatch) and m.phase == "bury" and m.dealer == seat and shengji_strong.SEARCH_BURY:
        return Question(bury_information(m, seat), seed)
    if m.phase != "play":
        return None
    if isinstance(m, ShengjiMatch):
        return Question(shengji_information(m, seat), seed) if m.to_play() == seat else None
    if isinstance(m, GuandanMatch):
        play = m.play
        if play is None or play.over or play.turn != seat:
            return None
        return Question(guandan_information(m, seat), seed)
    return None


def answer(q: Question, cpu_limit: bool = True) -> str:
    """The searched action text (in a worker); ``cpu_limit``: the Guandan player's CPU limit per decision
    (``engine.guandan.ai_strong.CPU_LIMIT``), as the players have it."""
    if isinstance(q.info, ShengjiInformation):
        return shengji_strong.choose_play(q.info, q.seed, effort=q.effort).text()
    if isinstance(q.info, BuryInformation):
        return shengji_strong.bury_text(q.info, q.seed, effort=q.effort)
    limit = guandan_strong.CPU_LIMIT if cpu_limit else None
    combo = guandan_strong.choose_play(q.info, q.seed, cpu_limit=limit, effort=q.effort)
    return guandan_strong.action_text(q.info, combo)
