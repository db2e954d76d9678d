"""Webhook delivery: once the bot calls ``setWebhook``, the simulator POSTs each pending update to that URL
as Telegram does, instead of waiting for ``getUpdates``.

* One update per POST, a JSON body, the ``X-Telegram-Bot-Api-Secret-Token`` header when the bot gave a
  ``secret_token``; updates go one at a time, in ``update_id`` order (the next one only after the previous
  one was accepted).
* An answer other than 2xx, a refused connection or no answer within ``webhook_timeout`` seconds: the same
  update is posted again after a pause that doubles from ``webhook_retry_min`` up to ``webhook_retry_max``
  (Telegram also keeps retrying, with growing pauses); ``getWebhookInfo`` then shows ``last_error_date`` and
  ``last_error_message`` as Telegram words them ("Wrong response from the webhook: 502 Bad Gateway",
  "Connection refused").
* ``allowed_updates`` of ``setWebhook`` is honoured as for ``getUpdates`` (other kinds are dropped).
* ``deleteWebhook`` stops the delivery; pending updates stay for ``getUpdates`` (unless
  ``drop_pending_updates``).

Unlike Telegram, plain ``http://`` and any port are accepted (the bot under test listens on 127.0.0.1).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import time
from dataclasses import dataclass, field
from typing import Any

import aiohttp

from bot.devtools.simulator.errors import ApiError
from bot.devtools.simulator.params import Params
from bot.devtools.simulator.state import JSON

log = logging.getLogger(__name__)

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
_SECRET_RE = re.compile(r"^[A-Za-z0-9_-]{1,256}$")


@dataclass
class WebhookStats:
    posts: int = 0  # POSTs made (retries included)
    delivered: int = 0  # updates accepted with a 2xx
    failures: int = 0  # POSTs answered non-2xx, refused or timed out
    statuses: dict[int, int] = field(default_factory=dict)


class WebhookDelivery:
    """Mixed into ``BotApiSimulator``: ``setWebhook`` / ``deleteWebhook`` / ``getWebhookInfo`` and the delivery
    task.  Uses the world's ``_updates``, ``_allowed_updates``, ``_changed`` and ``_mark_delivered``."""

    webhook_timeout: float = 10.0
    webhook_retry_min: float = 0.05
    webhook_retry_max: float = 1.0

    def _webhook_init(self) -> None:
        self.webhook_secret: str | None = None
        self.webhook_max_connections = 40
        self.webhook_last_error: tuple[int, str] | None = None
        self.webhook_stats = WebhookStats()
        self._webhook_task: asyncio.Task[None] | None = None

    # --- the Bot API methods -----------------------------------------------------------------

    def api_setWebhook(self, p: Params) -> bool:
        w: Any = self
        url = p.text("url") or ""
        secret = p.text("secret_token")
        if secret is not None and not _SECRET_RE.match(secret):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        if url and not url.startswith(("http://", "https://")):
            raise ApiError(400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        if p.flag("drop_pending_updates"):
            w._updates.clear()
        allowed = p.obj("allowed_updates")
        if isinstance(allowed, list):
            w._allowed_updates = [str(a) for a in allowed] or None
            if w._allowed_updates:
                w._updates = [u for u in w._updates if _kind(u) in w._allowed_updates]
        w.webhook_url = url
        self.webhook_secret = secret or None
        self.webhook_max_connections = p.integer("max_connections", 40) or 40
        self.webhook_last_error = None
        if url:
            self._start_webhook_delivery()
        w._bump()
        return True

    def api_deleteWebhook(self, p: Params) -> bool:
        w: Any = self
        w.webhook_url = ""
        self.webhook_secret = None
        if p.flag("drop_pending_updates"):
            w._updates.clear()
        w._bump()  # the delivery task sees the URL gone and ends
        return True

    def api_getWebhookInfo(self, p: Params) -> JSON:
        w: Any = self
        info: JSON = {
            "url": w.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(w._updates),
        }
        if w.webhook_url:
            info["max_connections"] = self.webhook_max_connections
            if w._allowed_updates:
                info["allowed_updates"] = list(w._allowed_updates)
        if self.webhook_last_error is not None:
            info["last_error_date"], info["last_error_message"] = self.webhook_last_error
        return info

    # --- delivery ----------------------------------------------------------------------------

    def _start_webhook_delivery(self) -> None:
        if self._webhook_task is None or self._webhook_task.done():
            self._webhook_task = asyncio.get_running_loop().create_task(self._deliver(), name="sim-webhook")

    async def _stop_webhook_delivery(self) -> None:
        task, self._webhook_task = self._webhook_task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(BaseException):
                await task

    async def _deliver(self) -> None:
        w: Any = self
        pause = self.webhook_retry_min
        timeout = aiohttp.ClientTimeout(total=self.webhook_timeout)
        async with aiohttp.ClientSession(timeout=timeout) as session:
            while w.webhook_url:
                if not w._updates:
                    event = w._changed
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), 1.0)
                    continue
                update = w._updates[0]
                try:
                    error = await self._post(session, w.webhook_url, update)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:  # never stop delivering: Telegram keeps trying too
                    log.exception("simulator: posting update %s failed", update.get("update_id"))
                    error = f"Webhook error: {exc!r}"
                if error is None:
                    if w._updates and w._updates[0] is update:
                        w._updates.pop(0)
                    w._mark_delivered([update])
                    self.webhook_stats.delivered += 1
                    pause = self.webhook_retry_min
                    w._bump()
                    continue
                self.webhook_stats.failures += 1
                self.webhook_last_error = (int(time.time()), error)
                await asyncio.sleep(pause)
                pause = min(self.webhook_retry_max, pause * 2)

    async def _post(self, session: aiohttp.ClientSession, url: str, update: JSON) -> str | None:
        """None when the webhook accepted the update, else Telegram's wording of what went wrong."""
        headers = {"Content-Type": "application/json"}
        if self.webhook_secret:
            headers[SECRET_HEADER] = self.webhook_secret
        self.webhook_stats.posts += 1
        try:
            async with session.post(
                url, data=json.dumps(update, ensure_ascii=False).encode(), headers=headers
            ) as response:
                await response.read()
                status = response.status
                self.webhook_stats.statuses[status] = self.webhook_stats.statuses.get(status, 0) + 1
                if 200 <= status < 300:
                    return None
                return f"Wrong response from the webhook: {status} {response.reason or ''}".rstrip()
        except TimeoutError:
            return "Read timeout expired"
        except aiohttp.ClientConnectionError:
            return "Connection refused"
        except aiohttp.ClientError as exc:
            return f"Webhook error: {exc}"


def _kind(update: JSON) -> str:
    return next(k for k in update if k != "update_id")
