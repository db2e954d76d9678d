"""Tournament tables in the casual lobby (bot/tables/lobby.py asks here): their seats are bound to the drawn
entries' players (or a substitute a referee approved), so there is no Join, Leave or Start for anyone;
the tournament side starts a table when its players have checked in, or by the lateness rule, or when a
referee says so (``/start_match``).  A deep link ``/start join_<table>_<seat>`` to one is refused.
"""

from __future__ import annotations

from bot.presentation.tournament.texts import tt


def is_locked(table: object) -> bool:
    """A table made for a tournament match (``GameTable.tournament_ref`` set)."""
    return bool(getattr(table, "tournament_ref", None))


def refusal(lang: str) -> str:
    """The answer to a Join / Leave / Start press or a join link on a tournament table."""
    return tt(lang, "table.locked")


def lobby(lang: str, text: str) -> tuple[str, None]:
    """The lobby message of a tournament table: the seats as drawn, a line saying why, no buttons."""
    return text + "\n" + tt(lang, "table.locked_hint"), None
