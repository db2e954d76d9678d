"""The names shown at a table (its players' first names, "Computer n" for an empty computer seat), kept
in memory while the table plays (its seats do not change); and a table's title in a language."""

from __future__ import annotations

from typing import Protocol

from bot.presentation.i18n import t
from engine.errors import RuleError
from engine.registry import load_preset
from storage import table_repo, user_repo
from storage.db import Database


class HasDatabase(Protocol):
    @property
    def db(self) -> Database: ...


def table_title(lang: str, preset_id: str) -> str:
    try:
        preset = load_preset(preset_id)
        return preset.title_zh if lang == "zh" else preset.title_en
    except RuleError:
        return preset_id


class TableNames:
    def __init__(self, store: HasDatabase) -> None:
        self.store = store
        self._names: dict[tuple[int, str], list[str]] = {}  # (table, lang) -> names; seats are fixed in play

    async def table_names(self, table_id: int) -> tuple[list[str | None], list[bool], list[int | None]]:
        db = self.store.db
        seats = await table_repo.get_seats(db, table_id)
        ids = [s.user_id for s in seats]
        users = await user_repo.get_users(db, [i for i in ids if i is not None])
        names: list[str | None] = []
        for s in seats:
            if s.user_id is not None:
                u = users.get(s.user_id)
                names.append((u.first_name if u else None) or str(s.user_id))
            else:
                names.append(None)
        return names, [s.is_computer for s in seats], ids

    async def player_names(self, table_id: int, lang: str) -> list[str]:
        """The four names shown at a table (kept while the table plays: its seats do not change)."""
        cached = self._names.get((table_id, lang))
        if cached is not None:
            return cached
        names, computers, _ = await self.table_names(table_id)
        out = []
        for seat in range(4):
            if computers[seat] and not names[seat]:
                out.append(t(lang, "name.computer_n", n=seat + 1))
            else:
                out.append(names[seat] or "?")
        self._names[(table_id, lang)] = out
        return out

    def forget(self, table_id: int) -> None:
        for key in [k for k in self._names if k[0] == table_id]:
            del self._names[key]
