"""Guandan (掼蛋) engine: combinations, deal flow, tribute, levels, match, views, computer player.

Entry points: ``engine.guandan.game.GuandanMatch(options, seed)`` (engine.game.Match) and ``GuandanOptions``.
"""

from __future__ import annotations

from engine.guandan.options import GuandanOptions

__all__ = ["GuandanOptions"]
