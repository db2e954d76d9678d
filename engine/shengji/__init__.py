"""Shengji (双升) engine: card order, plays, bidding, deal and match flow, scoring, views, computer player.

Entry points: ``engine.shengji.game.ShengjiMatch(options, seed)`` (engine.game.Match) and ``ShengjiOptions``.
"""

from __future__ import annotations

from engine.shengji.options import ShengjiOptions

__all__ = ["ShengjiOptions"]
