"""Telegram's documented limits and the simulator's rate limiter.

Rate limits (Telegram's Bot FAQ, "My bot is hitting limits"): about 1 message per second per
chat (a small burst is tolerated), 20 messages per minute per group, 30 messages per second
overall for one token. Every call that sends, edits or deletes a message counts against all three
(sends, photos, documents, ``editMessageText``/``ReplyMarkup``/``Caption``/``Media``,
``deleteMessage``); ``answerCallbackQuery``, ``getUpdates`` and the other methods do not. Every time window is divided by ``rate_scale`` (and shortened by ``RateLimits.tolerance``, 5 %) so accelerated tests and the demo
run fast; ``retry_after`` is reported in *Telegram seconds* (unscaled, an integer >= 1, as the
real API does): a client waits ``retry_after / rate_scale`` real seconds.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

MAX_TEXT_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_CALLBACK_DATA_BYTES = 64
MAX_BUTTONS = 100
MAX_BUTTONS_PER_ROW = 8
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_COMMANDS = 100
CALLBACK_QUERY_TIMEOUT = 15.0  # seconds (real time, not scaled) before a query is "too old"

# Methods that send, edit or delete a message: the ones the rate limits apply to ("message calls").
RATE_LIMITED_METHODS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendMediaGroup",
        "copyMessage",
        "forwardMessage",
        "editMessageText",
        "editMessageReplyMarkup",
        "editMessageCaption",
        "editMessageMedia",
        "deleteMessage",
    }
)


@dataclass
class RateLimits:
    """Telegram's limits, in Telegram seconds (before scaling)."""

    per_chat_interval: float = 1.0  # one message per second in any chat ...
    per_chat_burst: int = 3  # ... with a small burst tolerated
    per_group_window: float = 60.0
    per_group_max: int = 20
    global_window: float = 1.0
    global_max: int = 30
    # Windows are shortened by this fraction, so a client that paces itself exactly at the limits is
    # never refused because of network jitter (Telegram's limits are approximate too).
    tolerance: float = 0.05


@dataclass
class _Bucket:
    tokens: float
    stamp: float


@dataclass
class RateLimiter:
    """Token bucket per chat, sliding windows per group and overall.

    ``check(chat_id, is_group)`` either records the message and returns ``None``, or returns the
    ``retry_after`` (Telegram seconds, int >= 1) without recording anything.
    """

    rate_scale: float = 1.0
    limits: RateLimits = field(default_factory=RateLimits)
    clock: Callable[[], float] = field(default=lambda: 0.0)
    enabled: bool = True
    _buckets: dict[int, _Bucket] = field(default_factory=dict)
    _group_windows: dict[int, deque[float]] = field(default_factory=dict)
    _global_window: deque[float] = field(default_factory=deque)

    def _scaled(self, seconds: float) -> float:
        return seconds * (1.0 - self.limits.tolerance) / self.rate_scale

    def check(self, chat_id: int, is_group: bool) -> int | None:
        if not self.enabled:
            return None
        now = self.clock()
        waits: list[float] = []

        # Per chat: token bucket, capacity = burst, one token per interval.
        interval = self._scaled(self.limits.per_chat_interval)
        bucket = self._buckets.get(chat_id)
        if bucket is None:
            bucket = _Bucket(tokens=float(self.limits.per_chat_burst), stamp=now)
        else:
            refill = (now - bucket.stamp) / interval if interval > 0 else math.inf
            bucket = _Bucket(tokens=min(float(self.limits.per_chat_burst), bucket.tokens + refill), stamp=now)
        if bucket.tokens < 1.0:
            waits.append((1.0 - bucket.tokens) * interval)

        # Per group: sliding window.
        group_window = None
        if is_group:
            group_window = self._group_windows.setdefault(chat_id, deque())
            span = self._scaled(self.limits.per_group_window)
            while group_window and group_window[0] <= now - span:
                group_window.popleft()
            if len(group_window) >= self.limits.per_group_max:
                waits.append(group_window[0] + span - now)

        # Overall: sliding window.
        span = self._scaled(self.limits.global_window)
        while self._global_window and self._global_window[0] <= now - span:
            self._global_window.popleft()
        if len(self._global_window) >= self.limits.global_max:
            waits.append(self._global_window[0] + span - now)

        if waits:
            self._buckets[chat_id] = bucket
            real_wait = max(waits)
            return max(1, math.ceil(real_wait * self.rate_scale - 1e-9))

        bucket.tokens -= 1.0
        self._buckets[chat_id] = bucket
        if group_window is not None:
            group_window.append(now)
        self._global_window.append(now)
        return None
