"""Computer players of every level for both games (docs/engine.md "Computer players").

``engine.ai.levels`` names the levels (``easy``, ``normal``, ``strong``) and picks a seat's action at a
level; ``engine.ai.coach`` writes the coach's notes on a finished deal.  What the strong players share
(sampling hidden cards, choosing from play-outs) is in ``engine.search``, which imports no game.
"""
