"""The simulator's Bot API methods of the bot itself and its updates: getMe, logOut, close and the long poll
``getUpdates`` (its offset, allowed updates, 409 when a webhook is set or another poll starts).
setWebhook, deleteWebhook, getWebhookInfo: ``webhook`` (delivery by POST)."""

from __future__ import annotations

import asyncio
import copy
import time

from bot.devtools.simulator.api_checks import ApiChecks
from bot.devtools.simulator.errors import ApiError
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.state import JSON


class UpdateMethods(ApiChecks):
    """getMe, logOut, close, getUpdates."""

    def api_getMe(self, p: Params) -> JSON:
        return {
            **self.bot_user,
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def api_logOut(self, p: Params) -> bool:
        return True

    def api_close(self, p: Params) -> bool:
        return True

    def _mark_delivered(self, updates: list[JSON]) -> None:
        now = time.monotonic()
        for update in updates:
            query = update.get("callback_query")
            if query is not None:
                record = self.callback_queries.get(query["id"])
                if record is not None and record.delivered_at is None:
                    record.delivered_at = now

    def _available_updates(self, limit: int) -> list[JSON]:
        return self._updates[:limit]

    async def api_getUpdates(self, p: Params) -> list[JSON]:
        if self.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook to delete the webhook first",
            )
        offset = p.integer("offset", 0) or 0
        limit = max(1, min(100, p.integer("limit", 100) or 100))
        timeout = max(0.0, p.number("timeout", 0.0))
        allowed = p.obj("allowed_updates")
        if isinstance(allowed, list):
            self._allowed_updates = [str(a) for a in allowed] or None
            if self._allowed_updates:
                kept = [u for u in self._updates if _update_kind(u) in self._allowed_updates]
                if len(kept) != len(self._updates):
                    self._updates = kept
                    self._bump()
        # Confirm: every update with an id below offset is forgotten; a negative offset keeps the last -offset.
        if offset > 0:
            before = len(self._updates)
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
            if len(self._updates) != before:
                self._bump()
        elif offset < 0:
            self._updates = self._updates[offset:]
            self._bump()
        self._poll_generation += 1
        generation = self._poll_generation
        self._bump()  # wakes an older long poll, which answers 409
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            updates = self._available_updates(limit)
            if updates:
                self._mark_delivered(updates)
                return copy.deepcopy(updates)
            remaining = deadline - loop.time()
            if remaining <= 0:
                return []
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), remaining)
            except TimeoutError:
                return []
            if generation != self._poll_generation:
                raise ApiError(
                    409,
                    "Conflict: terminated by other getUpdates request; make sure that only one bot instance is running",
                )


def _update_kind(update: JSON) -> str:
    return next(k for k in update if k != "update_id")
