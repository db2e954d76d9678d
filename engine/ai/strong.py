"""The strong players split in two for the bot (``bot.tables.thinking``): a *question* built in the bot's
process — the seat's information set (``engine.*.information``: no other seat's card) and a seed — and its
*answer*, the searched action text, computed in a worker process from the question alone.

The question is None when the strong player does not search the decision (a re-bury in Shengji, Guandan
tribute and return: the baseline player's, inline); the Shengji dealer's bury (``engine.shengji.ai_bury``)
and its declarations, overturns and late overturns (``engine.shengji.ai_declare``; during the dealing only
when something changed for the seat, else it waits, inline) are searched.  A question's ``effort`` (1: the full search) lets a busy bot ask for a
quicker, smaller search instead of none; both games' details stay here, in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game import Match
from engine.guandan import ai_strong as guandan_strong
from engine.guandan.game import GuandanMatch
from engine.guandan.information import GuandanInformation
from engine.guandan.information import information as guandan_information
from engine.shengji import ai_declare
from engine.shengji import ai_strong as shengji_strong
from engine.shengji.ai_bury import BuryInformation, bury_information
from engine.shengji.ai_declare import DeclareInformation
from engine.shengji.game import ShengjiMatch
from engine.shengji.information import ShengjiInformation
from engine.shengji.information import information as shengji_information


@dataclass(frozen=True)
class Question:
    """One decision to search: what the seat knows and the search's seed (picklable, no hidden card)."""

    info: ShengjiInformation | BuryInformation | DeclareInformation | GuandanInformation
    seed: int
    effort: float = 1.0  # below 1: the budget and worlds scaled down (engine.search.choice.scaled_worlds)


def question(m: Match, seat: int, seed: int) -> Question | None:
    """The search ``seat``'s strong player makes now (None: it plays the baseline's move, inline)."""
    if m.finished:
        return None
    if isinstance(m, ShengjiMatch) and m.phase == "bury" and m.dealer == seat and shengji_strong.SEARCH_BURY:
        return Question(bury_information(m, seat), seed)
    if (
        isinstance(m, ShengjiMatch)
        and shengji_strong.SEARCH_DECLARE
        and m.phase in ai_declare.PHASES
        and ai_declare.is_decision(m, seat)
    ):
        info = ai_declare.declare_information(m, seat)
        return Question(info, seed) if ai_declare.searched_now(info) else None
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
    if isinstance(q.info, DeclareInformation):
        # "": it waits (a declaration during the dealing is optional)
        limit = ai_declare.CPU_LIMIT if cpu_limit else None
        return ai_declare.choose_declare(q.info, q.seed, cpu_limit=limit, effort=q.effort) or ""
    limit = guandan_strong.CPU_LIMIT if cpu_limit else None
    combo = guandan_strong.choose_play(q.info, q.seed, cpu_limit=limit, effort=q.effort)
    return guandan_strong.action_text(q.info, combo)
