"""The organiser's table-page settings of a tournament (``page_hints``, ``page_watch``), changed in chat."""

from __future__ import annotations

from engine.tournament.settings import TournamentSettings
from storage.db import Database
from storage.tournaments.common import add_audit, error, require_role, tournament_row

PAGE_KEYS = ("page_hints", "page_watch")


async def set_page_setting(
    db: Database, tid: int, actor: int, key: str, value: bool | str
) -> TournamentSettings:
    """The organiser sets ``key`` to ``value``; checked as the TOML's ``[tournament]`` value would be (an
    ``OptionError`` naming what it allows), audited; returns the tournament's settings after it."""
    if key not in PAGE_KEYS:
        raise error("unknown_option", "Unknown setting {key}", key=key)
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("organiser",))
        data = {**row.settings_json, key: value}
        settings = TournamentSettings.from_mapping(data)
        row.settings_json = data
        add_audit(s, tid, actor, "page_settings", **{key: value})
        await s.commit()
        return settings
