"""Telegram's per-token rate limits shared by every process of one bot, through Redis.

Telegram counts a bot's messages per token, whichever process sends them: about 30 a second overall, 20 a
minute in a group, about 1 a second in a private chat (edits and deletions count like sends).  The outbox paces
its own calls (bot/delivery/outbox.py); with two processes each would spend the whole budget.  With
``TELEGRAM_LIMITS_URL`` (``redis://host:6379/0``) the outbox asks this module for a send slot before each call:

* ``wait_turn(chat_id)`` reserves, in one Lua script (atomic in Redis, so two processes never get the same
  slot), the chat's next slot (one call per 3 s in a group, per 1 s in a private chat: the budget spread
  evenly, as the outbox does) and the token's next free slot at or after it (one call per 1/30 s), then
  sleeps until then.  The time is Redis's (``TIME``), so processes on several machines agree.
* Every interval is divided by ``rate_scale`` (``TELEGRAM_RATE_SCALE``, an accelerated simulator) and kept
  5 % (the token's 10 %) under Telegram's figures, as the outbox's own pacing is.
* Keys: ``tg-limits:{<bot id>}:chat:<chat id>`` (the chat's next free time, ms) and
  ``tg-limits:{<bot id>}:slot:<n>`` (the token's slot n is taken); all expire by themselves.
* An edit that shows a match at some version is not sent when another process already showed a newer version
  in that message (``tg-limits:{<bot id>}:shown:<chat>:<message>``): two processes queue and pace their calls
  apart, and an older state (a card tap's delayed edit, say) must not land after a newer one.
* Redis unreachable: a warning (at most one a minute) and the call goes at once; the outbox's in-process
  pacing still holds for that process.  Redis answering again: one line says so (and how many calls went
  paced alone); the slots are reserved there again (an empty Redis starts every budget afresh).

The ``redis`` package (redis-py, with asyncio support) is imported only when the setting is on.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # redis is imported when the limits start (a bot without Redis never loads it)
    from redis.asyncio import Redis
    from redis.commands.core import AsyncScript

log = logging.getLogger(__name__)

GROUP_INTERVAL = 60.0 / 20  # a group's 20 a minute, spread evenly
PRIVATE_INTERVAL = 1.0  # about 1 a second in a private chat
TOKEN_INTERVAL = 1.0 / 30  # 30 a second for the token
MARGIN = 1.05
TOKEN_MARGIN = 1.1
MAX_SLOT_SEARCH = 20_000  # token slots looked at per reservation (20000 / 30 per s: about 11 minutes ahead)

# KEYS[1]: the chat's next free time (ms); KEYS[2]: the prefix of the token's slot keys.
# ARGV[1]: the chat's interval (ms); ARGV[2]: the token's interval (ms); ARGV[3]: slots to look at.
# Returns "<milliseconds to wait> <the slot's time, ms of Redis's clock>".
RESERVE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local chat_gap = tonumber(ARGV[1])
local gap = tonumber(ARGV[2])
local at = now
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0')
if nxt > at then at = nxt end
local slot = math.ceil(at / gap)
local limit = slot + tonumber(ARGV[3])
while slot < limit do
  local ttl = math.ceil(slot * gap - now + 2 * gap + 1000)
  if redis.call('SET', KEYS[2] .. slot, '1', 'NX', 'PX', ttl) then break end
  slot = slot + 1
end
if slot * gap > at then at = slot * gap end
redis.call('SET', KEYS[1], tostring(at + chat_gap), 'PX', math.ceil(at - now + chat_gap + 1000))
return tostring(at - now) .. ' ' .. tostring(at)
"""


# KEYS[1]: the match version a message shows; ARGV[1]: the version of the edit about to be sent.
# Returns 1 (send it: the key now holds that version) or 0 (another process showed a newer one already).
NEWEST = """
local shown = tonumber(redis.call('GET', KEYS[1]) or '-1')
if shown > tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'EX', 86400)
return 1
"""


class SharedLimits:
    """Send slots for one bot token, shared through Redis by every process that uses the same ``url``."""

    def __init__(self, url: str, token: str, *, rate_scale: float = 1.0) -> None:
        scale = max(rate_scale, 1e-6)
        self.url = url
        bot_id = token.split(":", 1)[0] or "bot"
        self.prefix = f"tg-limits:{{{bot_id}}}:"  # one hash tag: every key of the token in one cluster slot
        self.group_ms = GROUP_INTERVAL * MARGIN / scale * 1000
        self.private_ms = PRIVATE_INTERVAL * MARGIN / scale * 1000
        self.token_ms = TOKEN_INTERVAL * TOKEN_MARGIN / scale * 1000
        self.redis: Redis | None = None
        self._script: AsyncScript | None = None
        self._newest: AsyncScript | None = None
        self.stale = 0  # edits not sent: another process had shown a newer state in that message
        self._warned_at = -1e18
        self.waits = 0  # calls that waited for a slot
        self.waited = 0.0  # seconds waited in all
        self.failures = 0  # reservations that failed (Redis unreachable): the call went at once
        self._alone = 0  # calls paced by this process alone since Redis stopped answering (0: it answers)

    async def start(self) -> None:
        import redis.asyncio as aioredis  # lazy: a bot without Redis never loads it

        self.redis = aioredis.from_url(self.url)
        self._script = self.redis.register_script(RESERVE)
        self._newest = self.redis.register_script(NEWEST)

    async def stop(self) -> None:
        if self.redis is not None:
            await self.redis.aclose()
            self.redis = None

    async def reserve(self, chat_id: int) -> float:
        """Reserve the next slot for a call to ``chat_id``: the seconds to wait before making it."""
        return (await self.reserve_at(chat_id))[0]

    async def reserve_at(self, chat_id: int) -> tuple[float, float]:
        """Reserve the next slot for a call to ``chat_id``: (seconds to wait, the slot's time in seconds of
        Redis's clock)."""
        gap = self.group_ms if chat_id < 0 else self.private_ms
        keys = [f"{self.prefix}chat:{chat_id}", f"{self.prefix}slot:"]
        assert self._script is not None, "SharedLimits.start() first"
        result = await self._script(keys=keys, args=[f"{gap:.3f}", f"{self.token_ms:.4f}", MAX_SLOT_SEARCH])
        wait, at = (float(x) for x in (result.decode() if isinstance(result, bytes) else str(result)).split())
        return max(0.0, wait / 1000), at / 1000

    async def wait_turn(
        self, chat_id: int, message_id: int | None = None, version: int | None = None
    ) -> bool:
        """Wait for this process's slot to call Telegram about ``chat_id``.  An edit of ``message_id`` showing the
        match at ``version``: False (do not send it) when another process already showed a newer version there,
        else that version is recorded as shown."""
        if self._script is None:
            return True
        try:
            wait = await self.reserve(chat_id)
        except Exception as exc:  # Redis down: in-process pacing only, until it is back
            self._failed(exc)
            return True
        if self._alone:
            log.warning(
                "shared limits: %s answers again; slots shared again (%d calls paced by this process alone)",
                self.url,
                self._alone,
            )
            self._alone = 0
            self._warned_at = -1e18
        if wait > 0:
            self.waits += 1
            self.waited += wait
            await asyncio.sleep(wait)
        if message_id is None or version is None:
            return True
        assert self._newest is not None
        try:
            fresh = bool(
                await self._newest(keys=[f"{self.prefix}shown:{chat_id}:{message_id}"], args=[version])
            )
        except Exception as exc:
            self._failed(exc)
            return True
        if not fresh:
            self.stale += 1
        return fresh

    def _failed(self, exc: Exception) -> None:
        self.failures += 1
        self._alone += 1
        now = time.monotonic()
        if now - self._warned_at > 60:
            self._warned_at = now
            log.warning("shared limits: %s unreachable (%s); pacing this process alone", self.url, exc)
