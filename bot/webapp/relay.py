"""Live updates across processes: "match N has version V" over Redis pub/sub.

Each process's hub publishes the versions committed in that process and pushes the versions other
processes announce to its own pages (``Hub.notify``); the frames themselves are always read from the
database, so a lost or repeated message costs a push, never a wrong frame.  ``WEBAPP_RELAY_URL``
(``redis://127.0.0.1:6379/0``) turns it on; the ``redis`` package (redis-py, the Redis project's own
client, with asyncio support) is imported only then.  The channel is the deployment's, named by its bot
(``webapp:<bot id>:versions``, ``channel_for``): other bots' deployments on the same Redis, whichever db
number their URL names, are not heard.

Redis going away (a 200-table tournament publishes many versions a second): one warning when the first
publish or read fails (``relay: Redis unreachable ...``), nothing for each failure after it (counted), and one
line when Redis answers again, with how many publishes failed meanwhile (the pages of other processes caught
up at their next version).  The operator's alert is ``bot.boot.alerts``' (``redis``: Redis does not answer
its ``PING``), not one per failure here.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
from typing import TYPE_CHECKING

from bot.webapp.hub import Hub

if TYPE_CHECKING:  # the redis package is imported only when the relay starts
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

log = logging.getLogger(__name__)


def channel_for(token: str) -> str:
    """The relay's channel for the bot of ``token``: ``webapp:<bot id>:versions`` (the id is the token's part
    before the colon, as the other Redis keys of a deployment: bot/delivery/shared_limits.py,
    message_claims.py).  Redis's pub/sub channels are one namespace for the whole server, whatever the db
    number of the URL: without the bot's id two deployments on one Redis would push each other's "match 1
    has version V" to their pages (a fresh database numbers its matches from 1 again)."""
    return f"webapp:{token.split(':', 1)[0] or 'bot'}:versions"


class RedisRelay:
    def __init__(self, hub: Hub, url: str, *, token: str) -> None:
        self.hub = hub
        self.url = url
        self.channel = channel_for(token)  # the processes of one deployment (one bot token) only
        self.origin = f"{os.getpid()}-{secrets.token_hex(4)}"  # this process: its own messages are skipped
        self.redis: Redis | None = None
        self._reader: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[None]] = set()
        self.received = 0
        self.published = 0
        self.failed = 0  # publishes that failed, in all
        self._away: int | None = None  # publishes failed since Redis went away; None while it answers

    async def start(self) -> None:
        import redis.asyncio as aioredis

        self.redis = aioredis.from_url(self.url)
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.channel)
        self._reader = asyncio.get_running_loop().create_task(self._read(pubsub))
        self.hub.on_local_version.append(self.publish)

    async def stop(self) -> None:
        if self.publish in self.hub.on_local_version:
            self.hub.on_local_version.remove(self.publish)
        if self._sends:
            await asyncio.wait(list(self._sends), timeout=2)
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
        if self.redis is not None:
            await self.redis.aclose()

    def publish(self, match_id: int, version: int) -> None:
        message = json.dumps({"o": self.origin, "m": match_id, "v": version})
        task = asyncio.get_running_loop().create_task(self._publish(message))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    async def _publish(self, message: str) -> None:
        try:
            if self.redis is None:
                raise RuntimeError("the relay is not started")
            await self.redis.publish(self.channel, message)
            self.published += 1
        except Exception as exc:  # pages on other processes catch up at their next version
            self.failed += 1
            self._gone(exc, publishes=1)
            return
        self._back()

    def _gone(self, exc: Exception, publishes: int = 0) -> None:
        """Redis did not answer (``publishes``: that many failed publishes to count); said once."""
        if self._away is None:
            self._away = 0
            log.warning(
                "relay: Redis unreachable (%s: %s); live versions not shared with other processes until it "
                "answers (their pages catch up at their next version)",
                type(exc).__name__,
                str(exc).splitlines()[0][:120] if str(exc) else "",
            )
        self._away += publishes

    def _back(self) -> None:
        if self._away is not None:
            log.warning("relay: Redis answers again (%d publishes failed while it was away)", self._away)
            self._away = None

    @property
    def away(self) -> bool:
        """Redis did not answer the relay's last publish or read."""
        return self._away is not None

    async def _read(self, pubsub: PubSub) -> None:
        while True:
            try:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._gone(exc)
                await asyncio.sleep(1.0)
                continue
            self._back()
            if message is None:
                continue
            try:
                data = json.loads(message["data"])
                if data.get("o") == self.origin:
                    continue
                self.received += 1
                self.hub.notify(int(data["m"]), int(data["v"]))
            except (ValueError, KeyError, TypeError):
                log.info("relay: ignored %r", message.get("data"))
