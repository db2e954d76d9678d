"""Computer players of every level for both games (docs/engine.md "Computer players").

``engine.ai.levels`` names the levels (``easy``, ``normal``, ``strong``) and picks a seat's action at a
level; ``engine.ai.sampling`` deals the cards a seat cannot see consistently with what it knows (the
determinizations the strong players search).
"""
