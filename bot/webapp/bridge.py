"""What the table page needs from the running bot, in one place: names, languages, seats, and
applying an action the way a button press does (``storage.action_repo.apply_action`` with the page's
version and a dedupe key, under the runtime's per-match lock; then the runtime's usual after-step:
announcements, the move clock, the chat messages, the computer players' turn)."""

from __future__ import annotations

from typing import Any

from bot.presentation.i18n import normalize, t
from storage import action_repo


class RuntimeBridge:
    """The page's view of ``bot.boot.runtime.Runtime``."""

    def __init__(self, runtime: Any) -> None:
        self.rt = runtime

    @property
    def db(self) -> Any:
        return self.rt.db

    async def user_lang(self, user_id: int, tg_code: str | None) -> str:
        return normalize(await self.rt.user_lang(user_id, tg_code))

    async def names(self, table_id: int, lang: str) -> tuple[list[str], list[bool]]:
        names = await self.rt.names.player_names(table_id, lang)
        _, computers, _ = await self.rt.names.table_names(table_id)
        return list(names), list(computers)

    async def user_match(self, user_id: int) -> int | None:
        found = await self.rt.driver.user_match(user_id)
        return None if found is None else int(found[0])

    async def submit(self, match_id: int, seat: int, action: str, *, expected_version: int, user_id: int,
                     dedupe_key: str, on_committed: Any = None) -> Any:
        """Apply ``action`` for ``seat`` if the match is still at ``expected_version``.

        Returns the ``ApplyResult`` (``duplicate`` when this dedupe key was applied before);
        raises ``RuleError`` (the engine's reason, ``match_finished``...) or ``StaleVersion``.
        ``on_committed(applied)`` runs once the action is committed, before the after-step (the page's
        answer need not wait for the chat messages)."""
        async with self.rt.lock(match_id):  # apply_action refuses a missing or finished match itself
            applied = await action_repo.apply_action(self.db, match_id, action, expected_version=expected_version,
                                               actor_user_id=user_id, dedupe_key=dedupe_key)
            if on_committed is not None:
                await on_committed(applied)
            if not applied.duplicate:
                await self.rt.driver.after(match_id, applied, source="player", seat=seat)
            return applied

    def stale_text(self, lang: str) -> str:
        return t(lang, "web.stale")
