"""Shengji (双升) engine: card order, plays, bidding, deal and match flow, scoring, views, computer player.

Entry points: ``ShengjiMatch(options, seed)`` (engine.game.Match) and ``ShengjiOptions``.
"""

from __future__ import annotations

from engine.shengji.options import ShengjiOptions

__all__ = ["ShengjiOptions", "ShengjiMatch"]


def __getattr__(name: str) -> object:
    if name == "ShengjiMatch":
        from engine.shengji.match import ShengjiMatch
        return ShengjiMatch
    raise AttributeError(name)
