"""The public tournament page's switch (``public_page``) and what the page may read."""

from __future__ import annotations

from storage.db import Database
from storage.tournament_models import Tournament, TournamentMatch
from storage.tournaments.common import add_audit, require_role, tournament_row
from storage.tournaments.lookup import matches, table_groups
from storage.tournaments.tx import retrying

SHOWN = ("registration", "closed", "running", "finished")


@retrying
async def set_public_page(db: Database, tid: int, actor: int, on: bool) -> Tournament:
    """The organiser switches the tournament's public page on or off."""
    async with db.session() as s:
        row = await tournament_row(s, tid)
        await require_role(s, tid, actor, ("organiser",))
        row.settings_json = {**row.settings_json, "public_page": on}
        add_audit(s, tid, actor, "public_page", on=on)
        await s.commit()
        return row


async def public_view(
    db: Database, tid: int
) -> tuple[Tournament, list[TournamentMatch], dict[str, str]] | None:
    """The tournament, its match rows and its table groups' names for the public page; None when there is
    no such tournament, it is not under way or over, or its organiser switched the page off."""
    async with db.session() as s:
        row = await s.get(Tournament, tid)
    if row is None or row.status not in SHOWN or not row.settings_json.get("public_page", True):
        return None
    tables = {str(g.chat_id): g.title or str(g.chat_id) for g in await table_groups(db, tid)}
    return row, await matches(db, tid), tables
