"""Guandan (掼蛋) engine: combinations, deal flow, tribute, levels, match, views, computer player.

Entry points: ``GuandanMatch(options, seed)`` (engine.game.Match) and ``GuandanOptions``.
"""

from __future__ import annotations

from engine.guandan.options import GuandanOptions

__all__ = ["GuandanOptions", "GuandanMatch"]


def __getattr__(name: str) -> object:
    if name == "GuandanMatch":
        from engine.guandan.match import GuandanMatch
        return GuandanMatch
    raise AttributeError(name)
