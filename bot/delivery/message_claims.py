"""Several bot processes on one database: which process sends a player's new hand message.

A new deal needs a new hand message per seat; every process that renders the match at that moment would send
one (each only knows the messages it sent itself), and the player would get two.  With ``WEBAPP_RELAY_URL``
(the Redis that already carries the live updates between processes) ``bot.tables.live.Live.create`` hands the
creation of hand messages to ``MessageClaims.create_hand``:

* the process that claims ``(match, seat, deal)`` first (Redis ``SET NX``, expiring after ``CLAIM_SECONDS``)
  and finds no such message in the database sends it and records it, as ``Live.create`` does;
* any other process waits until the message is recorded (the database, every ``POLL`` seconds, at most
  ``CLAIM_SECONDS``), then renders the hand again under the match's lock: its newer state becomes an edit of
  that one message.

Also, with several processes a card tap is always edited into the hand message (``forget`` before the edit):
the outbox's memory of what a message shows only knows this process's edits, and a tap answered by another
process may have changed it.  Redis unreachable: the process sends the message itself (a duplicate hand
message is better than none) and says so in the log.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Protocol

from bot.presentation.markup import Keyboard
from engine.game import Match
from storage import match_repo, message_repo
from storage.db import Database
from storage.models import MatchRecord, MessageRef

if TYPE_CHECKING:  # redis is imported when the claims start (a bot without Redis never loads it)
    from redis.asyncio import Redis

log = logging.getLogger(__name__)

CLAIM_SECONDS = 30
POLL = 0.1

HandKey = tuple[str, int, int, int]  # ("hand", match, seat, deal)
Stored = Callable[[int], Awaitable[None]]  # records a new message's id once it is sent


class _Edits(Protocol):
    def edit(self, chat_id: int, message_id: int, text: str, markup: Keyboard | None = None) -> None: ...


class _Sends(Protocol):
    def send(self, chat_id: int, text: str, markup: Keyboard | None = None) -> Awaitable[int | None]: ...


class Running(Protocol):
    """What the claims need of the running bot (``bot.boot.runtime.Runtime``)."""

    @property
    def db(self) -> Database: ...
    @property
    def outbox(self) -> _Edits | None: ...
    @property
    def stopping(self) -> bool: ...
    @property
    def messages(self) -> _Sends: ...
    def lock(self, match_id: int) -> asyncio.Lock: ...


class HandMessages(Protocol):
    """What the claims need of the live messages (``bot.tables.live.Live``)."""

    @property
    def rt(self) -> Running: ...
    @property
    def _creating(self) -> dict[HandKey, tuple[str, Keyboard | None] | None]: ...
    @property
    def _hand_refs(self) -> dict[tuple[int, int], tuple[int, int, int]]: ...
    async def render_hand(self, row: MatchRecord, m: Match, seat: int, chat_id: int) -> None: ...


class RedisClaims:
    """Names claimed in Redis, first process wins (``SET NX`` with an expiry); Redis unreachable: every
    claim is granted (``what`` names the claims in the log).  Also the webhook's "update taken once"."""

    def __init__(self, url: str, token: str, kind: str, what: str) -> None:
        self.url = url
        self.prefix = f"{kind}:{token.split(':', 1)[0] or 'bot'}:"
        self.what = what
        self.redis: Redis | None = None
        self.granted_alone = 0  # claims granted while Redis did not answer (0: it answers)
        self._warned_at = -1e18

    async def start(self) -> None:
        import redis.asyncio as aioredis  # lazy: a bot without Redis never loads it

        self.redis = aioredis.from_url(self.url)

    async def stop(self) -> None:
        if self.redis is not None:
            await self.redis.aclose()
            self.redis = None

    async def claim(self, name: str, seconds: int) -> bool:
        """True for the first process to claim ``name`` within ``seconds``."""
        if self.redis is None:
            return True
        try:
            fresh = bool(await self.redis.set(self.prefix + name, "1", nx=True, ex=seconds))
        except Exception as exc:
            self.granted_alone += 1
            now = time.monotonic()
            if now - self._warned_at > 60:  # at most one line a minute while Redis is away
                self._warned_at = now
                log.warning("%s: %s unreachable (%s): taken here", self.what, self.url, exc)
            return True
        if self.granted_alone:
            log.warning(
                "%s: %s answers again (%d taken here meanwhile)", self.what, self.url, self.granted_alone
            )
            self.granted_alone = 0
            self._warned_at = -1e18
        return fresh

    async def release(self, name: str) -> None:
        if self.redis is not None:
            try:
                await self.redis.delete(self.prefix + name)
            except Exception as exc:  # it expires by itself
                log.info("%s: could not release %s: %s", self.what, name, exc)


class MessageClaims(RedisClaims):
    def __init__(self, url: str, token: str) -> None:
        super().__init__(url, token, "tg-claims", "message claims")
        self.won = 0
        self.lost = 0

    async def create_hand(
        self,
        live: HandMessages,
        key: HandKey,
        chat_id: int,
        text: str,
        markup: Keyboard | None,
        stored: Stored,
    ) -> None:
        """``Live.create`` of a hand message ``key = ("hand", match, seat, deal)``, once for all processes."""
        _, match_id, seat, deal = key
        rt = live.rt
        name = f"hand:{match_id}:{seat}:{deal}"
        try:
            mine = await self.claim(name, CLAIM_SECONDS)
            existing = await _hand_message(rt, match_id, seat, deal)
            if existing is None and mine:
                self.won += 1
                mid = await rt.messages.send(chat_id, text, markup)
                if mid is not None:
                    await stored(mid)  # recorded: a process claiming it later finds it in the database
                await self.release(name)
                newest = live._creating.pop(key, None)
                if mid is not None and newest is not None and rt.outbox is not None:
                    rt.outbox.edit(chat_id, mid, *newest)
                return
            self.lost += 1
            loop = asyncio.get_running_loop()
            deadline = loop.time() + CLAIM_SECONDS
            while existing is None and loop.time() < deadline and not rt.stopping:
                await asyncio.sleep(POLL)
                existing = await _hand_message(rt, match_id, seat, deal)
        except Exception:
            log.exception("could not create the hand message %s", key)
            live._creating.pop(key, None)
            return
        live._creating.pop(key, None)
        if existing is None:
            log.warning("hand message %s: another process claimed it and did not send it", key)
            return
        live._hand_refs[(match_id, seat)] = (existing.chat_id, existing.message_id, deal)
        async with rt.lock(match_id):  # this process's state of the hand, edited into that message
            row, m = await match_repo.load_match_row(rt.db, match_id)
            if row.status in ("playing", "paused"):
                await live.render_hand(row, m, seat, chat_id)


async def _hand_message(rt: Running, match_id: int, seat: int, deal: int) -> MessageRef | None:
    ref = await message_repo.get_hand_message(rt.db, match_id, seat)
    return ref if ref is not None and int(ref.deal_no or 0) == deal else None
