"""Per-user rate limit on commands, typed plays and button presses (abuse limit, issue 12).

A token bucket per user: ``burst`` actions at once, then ``rate`` per second.  A user over the
limit gets one translated "slow down" answer (``err.slow_down``) for a whole burst of refused
updates, not one per update, and the refused updates reach no handler (a ``TypeHandler`` in
handler group ``GUARD_GROUP``, before the tournament side's group -1, raises
``ApplicationHandlerStop``).  Expensive commands (images and files: ``/bracket``, ``/export``,
``/review``, ``/replay``, ...) take from a second, slower bucket as well.

Memory is bounded: at most ``max_users`` buckets are kept (least recently used dropped first; a
dropped bucket is a full one, so forgetting a user only ever lets them act, never blocks them).
Decisions are taken without awaiting anything, so the 16 updates PTB runs at once cannot race.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from telegram import Update
from telegram.ext import ApplicationHandlerStop, TypeHandler

from bot.edge.ptb_types import App, Ctx
from bot.presentation.i18n import normalize, t

log = logging.getLogger(__name__)

GUARD_GROUP = -10
HEAVY_COMMANDS = frozenset(
    {"bracket", "export", "standings", "schedule", "results", "review", "replay", "audit", "entries"}
)


@dataclass
class _Bucket:
    tokens: float
    stamp: float
    warned: bool = False


class RateLimiter:
    """Token buckets keyed by user id, bounded to ``max_users`` entries."""

    def __init__(
        self, rate: float, burst: int, *, max_users: int = 5000, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1 or max_users < 1:
            raise ValueError("rate > 0, burst >= 1, max_users >= 1")
        self.rate = rate
        self.burst = burst
        self.max_users = max_users
        self.clock = clock
        self._buckets: OrderedDict[int, _Bucket] = OrderedDict()

    def __len__(self) -> int:
        return len(self._buckets)

    def check(self, user_id: int, cost: float = 1.0) -> str:
        """``"ok"`` (allowed, a token taken), ``"warn"`` (refused: answer once) or ``"drop"`` (refused, quietly)."""
        now = self.clock()
        b = self._buckets.get(user_id)
        if b is None:
            b = _Bucket(tokens=float(self.burst), stamp=now)
            self._buckets[user_id] = b
            while len(self._buckets) > self.max_users:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(user_id)
            b.tokens = min(float(self.burst), b.tokens + (now - b.stamp) * self.rate)
            b.stamp = now
        if b.tokens >= cost:
            b.tokens -= cost
            b.warned = False
            return "ok"
        if b.warned:
            return "drop"
        b.warned = True
        return "warn"


def command_of(update: object) -> str | None:
    """The command name of a message (``/bracket@bot x`` → ``bracket``), else None."""
    msg = getattr(update, "effective_message", None)
    text = getattr(msg, "text", None) if msg is not None else None
    if not text or not text.startswith("/"):
        return None
    word = text[1:].split(maxsplit=1)[0] if len(text) > 1 else ""
    return word.split("@", 1)[0].lower() or None


def counted(update: object) -> bool:
    """Whether an update is limited: a button press, a command, or text/a file in a private chat."""
    if getattr(update, "callback_query", None) is not None:
        return True
    msg = getattr(update, "effective_message", None)
    if msg is None:
        return False
    if command_of(update) is not None:
        return True
    chat = getattr(msg, "chat", None)
    return getattr(chat, "type", None) == "private"


class UpdateGuard:
    """The two buckets and the answer; ``install`` registers it on an Application."""

    def __init__(
        self,
        *,
        rate: float = 2.0,
        burst: int = 12,
        heavy_rate: float = 0.2,
        heavy_burst: int = 3,
        max_users: int = 5000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.general = RateLimiter(rate, burst, max_users=max_users, clock=clock)
        self.heavy = RateLimiter(heavy_rate, heavy_burst, max_users=max_users, clock=clock)
        self.refused = 0

    def decide(self, update: object) -> str:
        user = getattr(update, "effective_user", None)
        if user is None or not counted(update):
            return "ok"
        verdict = self.general.check(user.id)
        if verdict == "ok" and command_of(update) in HEAVY_COMMANDS:
            verdict = self.heavy.check(user.id)
        if verdict != "ok":
            self.refused += 1
        return verdict

    async def __call__(self, update: Update, context: Ctx) -> None:
        verdict = self.decide(update)
        if verdict == "ok":
            return
        if verdict == "warn":
            await _slow_down(update, context)
        raise ApplicationHandlerStop


async def _slow_down(update: Update, context: Ctx) -> None:
    """The one "slow down" answer, in the user's language (a press: a toast; a message: a reply)."""
    user = update.effective_user
    lang = normalize(getattr(user, "language_code", None))
    rt = context.application.bot_data.get("runtime")
    try:
        if rt is not None and getattr(rt, "db", None) is not None and user is not None:
            lang = await rt.user_lang(user.id, getattr(user, "language_code", None))
    except Exception:  # the answer must go out even when the database is busy
        pass
    text = t(lang, "err.slow_down")
    try:
        if update.callback_query is not None:
            await update.callback_query.answer(text=text, show_alert=False)
        elif update.effective_chat is not None and rt is not None:
            rt.messages.send(update.effective_chat.id, text, record=False)  # a flood's answer: droppable
    except Exception as exc:
        log.info("slow-down answer failed: %s", exc)


def guard_from_settings(settings: object) -> UpdateGuard | None:
    """The guard for ``RATE_LIMIT_PER_SECOND`` / ``RATE_LIMIT_BURST`` (None when the rate is 0: no limit).

    Rates are multiplied by ``TELEGRAM_RATE_SCALE`` (the simulator's accelerated clock)."""
    rate = float(getattr(settings, "RATE_LIMIT_PER_SECOND", 2.0) or 0.0)
    if rate <= 0:
        return None
    scale = max(1e-6, float(getattr(settings, "TELEGRAM_RATE_SCALE", 1.0) or 1.0))
    return UpdateGuard(
        rate=rate * scale,
        burst=max(1, int(getattr(settings, "RATE_LIMIT_BURST", 12))),
        heavy_rate=0.2 * scale,
    )


def install(app: App, guard: UpdateGuard | None = None) -> UpdateGuard | None:
    """Register the guard before every other handler group; returns it (kept in ``bot_data["rate_guard"]``).

    Without ``guard`` it is built from ``bot_data["settings"]`` (none when the limit is turned off)."""
    if guard is None:
        guard = guard_from_settings(app.bot_data.get("settings"))
        if guard is None:
            return None
    app.bot_data["rate_guard"] = guard
    app.add_handler(TypeHandler(Update, guard), group=GUARD_GROUP)
    return guard
