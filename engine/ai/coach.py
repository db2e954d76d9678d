"""The coach: where the strong player would have played otherwise in a finished deal, and what it cost.

:func:`coach_notes` replays a match's log to a finished deal and, at each play of the asking seat,
runs the strong player's search on that seat's information set *at that moment* (never more: the other
hands stay hidden, as they were), with the move actually played added as a candidate.  A note is
written where the search's choice beats the actual move clearly on the same sampled worlds
(``engine.search.choice.clearly_better``); its ``cost`` is the estimated level steps the actual move gave
away.  A note names only cards of the asking seat's own hand (what it played, what it could have
played).  It refuses a deal that is not finished.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from engine.cards import cards_text, parse_cards
from engine.registry import new_match
from engine.rng import rng_for
from engine.search.choice import clearly_better, ranking


class DealNotFinished(ValueError):
    """The coach reads finished deals only."""


@dataclass(frozen=True)
class CoachNote:
    """One play of ``seat`` the strong player would have made otherwise."""

    deal_no: int
    seat: int
    move_no: int  # the seat's n-th play (or pass) of the deal, 1-based
    played: str  # canonical cards text ("pass": a Guandan pass)
    suggested: str
    cost: float  # estimated level steps the actual move gave away (≥ 0)


def coach_notes(
    game: str, options: Any, seed: int, log: list[str], deal_no: int, seat: int, budget: int | None = None
) -> list[CoachNote]:
    """The coach's notes for ``seat`` in deal ``deal_no`` of the match ``(game, options, seed, log)``."""
    done: Any = new_match(game, options, seed)
    for action in log:
        done.apply(action)
    if all(h["deal_no"] != deal_no for h in done.history):
        raise DealNotFinished(f"deal {deal_no} is not finished")
    m: Any = new_match(game, options, seed)
    notes: list[CoachNote] = []
    move_no = 0
    for action in log:
        if len(m.history) >= deal_no:
            break
        mine = action.startswith(f"{seat} play ") or action == f"{seat} pass"
        if mine and m.deal_no == deal_no and m.phase == "play":
            move_no += 1
            note = _judge(
                game,
                m,
                seat,
                action,
                deal_no,
                move_no,
                budget,
                rng_for(seed, "coach", deal_no, seat, move_no).getrandbits(63),
            )
            if note is not None:
                notes.append(note)
        else:
            m.apply(action)
    return notes


def _judge(
    game: str,
    m: Any,
    seat: int,
    action: str,
    deal_no: int,
    move_no: int,
    budget: int | None,
    search_seed: int,
) -> CoachNote | None:
    """Apply ``action`` to ``m``; the note on it, if the search would have played otherwise."""
    if game == "shengji":
        from engine.shengji import ai_strong
        from engine.shengji.information import information

        info = information(m, seat)
        m.apply(action)
        played_cards = tuple(info.ctx.sort_for_display(parse_cards(action.split(" play ", 1)[1])))
        cands, results = ai_strong.play_outs(info, search_seed, budget, extra=played_cards)
        texts = [cards_text(c) for c in cands]
        played = texts[cands.index(played_cards)]
    else:
        from engine.guandan import ai_strong as gstrong
        from engine.guandan.information import information as ginformation

        ginfo = ginformation(m, seat)
        m.apply(action)
        combo = m.plays[-1][3]
        gcands, results = gstrong.play_outs(ginfo, search_seed, budget, extra=combo)
        texts = ["pass" if c is None else cards_text(c.cards) for c in gcands]
        played = "pass" if combo is None else cards_text(combo.cards)
    if len(results) < 2:
        return None
    played_at = texts.index(played)
    best = ranking(results)[0][0]
    if best == played_at or not clearly_better(results[best], results[played_at]):
        return None
    cost = statistics.fmean(results[best]) - statistics.fmean(results[played_at])
    return CoachNote(deal_no, seat, move_no, played, texts[best], round(cost, 2))
