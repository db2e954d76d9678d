"""Pacing against Telegram's limits (shared by sends and edits): about 1 message a second per chat; a group's
20 a minute spent evenly (one call every 3 s, so a group never shows a burst and then nothing); 30 a second
for the token, spread evenly too.  Every window is divided by ``rate_scale`` (an accelerated simulator runs
with e.g. 20).  After a start-up every chat counts as used at that moment, so a restarted bot does not burst
into chats the previous process was filling.  A ``RetryAfter`` blocks its chat only."""

from __future__ import annotations

from collections import deque
from collections.abc import Collection

from bot.delivery.calls import Call

GLOBAL_MARGIN = 1.1
PRIORITY_AGE = 1.0  # Telegram seconds: a call waiting that long goes before newer ones, urgent or not


class Window:
    """At most ``limit`` events in any ``seconds`` window."""

    def __init__(self, limit: int, seconds: float) -> None:
        self.limit = limit
        self.seconds = seconds
        self.times: deque[float] = deque()

    def ready_at(self, now: float) -> float:
        while self.times and self.times[0] <= now - self.seconds:
            self.times.popleft()
        if len(self.times) < self.limit:
            return now
        return self.times[0] + self.seconds

    def add(self, now: float) -> None:
        self.times.append(now)


class Pacing:
    """When the next call to a chat, and the token's next call, may go."""

    def __init__(
        self,
        *,
        rate_scale: float,
        per_chat_interval: float,
        group_limit: int,
        group_window: float,
        global_limit: int,
        global_window: float,
    ) -> None:
        scale = max(rate_scale, 1e-6) / 1.05  # keep a 5% margin under Telegram's limits
        self.rate_scale = scale
        self.per_chat_interval = per_chat_interval / scale
        self.group_limit = group_limit
        self.group_window = group_window / scale
        self.group_interval = self.group_window / group_limit  # a group's budget spent evenly
        # the token's 30 a second: another 10 % of margin, as calls leave a loaded event loop with some jitter
        # and Telegram counts them when they arrive (a window of 30 spaced by exactly 1/30 s would see 429s)
        self.global_window = Window(global_limit, global_window / scale * GLOBAL_MARGIN)
        self.global_gap = (
            self.global_window.seconds / global_limit
        )  # and spread evenly: no burst of 30 at once
        self.global_next = 0.0
        self.priority_age = PRIORITY_AGE / scale
        self.started_at = -1e18
        self.chat_last: dict[int, float] = {}
        self.group_windows: dict[int, Window] = {}
        self.chat_blocked: dict[int, float] = {}  # RetryAfter of one chat: nothing to it until then

    def started(self, now: float) -> None:
        self.started_at = now

    def token_ready_at(self, now: float) -> float:
        """When the token's next call may go."""
        return max(self.global_window.ready_at(now), self.global_next)

    def chat_ready_at(self, chat_id: int, now: float) -> float:
        # a chat not used since start-up counts as used at start-up: a restarted bot does not burst
        interval = self.group_interval if chat_id < 0 else self.per_chat_interval
        at = self.chat_last.get(chat_id, self.started_at) + interval
        if chat_id < 0:
            win = self.group_windows.get(chat_id)
            if win is not None:
                at = max(at, win.ready_at(now))
        blocked = self.chat_blocked.get(chat_id)
        if blocked is not None:
            if blocked <= now:
                del self.chat_blocked[chat_id]
            else:
                at = max(at, blocked)
        return max(at, now)

    def launched(self, now: float) -> None:
        """A call leaves now: the token's next one waits its gap."""
        self.global_next = now + self.global_gap

    def count(self, chat_id: int, now: float) -> None:
        """A call to ``chat_id`` is made now."""
        self.chat_last[chat_id] = now
        self.global_window.add(now)
        if chat_id < 0:
            self.group_windows.setdefault(chat_id, Window(self.group_limit, self.group_window)).add(now)

    def block(self, chat_id: int, until: float) -> None:
        """Telegram said RetryAfter: nothing to that chat until then (clock time)."""
        self.chat_blocked[chat_id] = until

    def priority(self, call: Call, now: float) -> tuple[int, float]:
        """Who goes first when the token's pacing is the limit: a call that has waited ``PRIORITY_AGE``
        (so nothing starves), then an urgent edit (it tells its reader to act), then the others; each
        group oldest first."""
        rank = 0 if now - call.queued_at >= self.priority_age else 1 if call.urgent else 2
        return (rank, call.queued_at)

    def prune(self, now: float, active: Collection[int]) -> None:
        """Forget entries that no longer delay anything (a chat idle for longer than its interval and not in
        ``active``, a group window with no call in it, a RetryAfter block that has passed)."""
        for chat_id in [
            c
            for c, last in self.chat_last.items()
            if c not in active and last + (self.group_interval if c < 0 else self.per_chat_interval) <= now
        ]:
            del self.chat_last[chat_id]
        for chat_id in [c for c, w in self.group_windows.items() if w.ready_at(now) <= now and not w.times]:
            del self.group_windows[chat_id]
        for chat_id in [c for c, until in self.chat_blocked.items() if until <= now]:
            del self.chat_blocked[chat_id]
