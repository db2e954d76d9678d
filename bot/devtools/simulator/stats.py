"""What the bot did to the simulated Bot API: calls by method and chat kind, statuses, errors, latencies."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field

from bot.devtools.simulator.limits import RATE_LIMITED_METHODS
from bot.devtools.simulator.state import JSON


@dataclass
class SimStats:
    """Every Bot API call the bot made, by method, and every error answer."""

    calls: Counter[str] = field(default_factory=Counter)
    statuses: Counter[int] = field(default_factory=Counter)
    errors: list[tuple[str, int, str]] = field(default_factory=list)  # (method, code, description)
    retry_after: list[int] = field(default_factory=list)
    # Calls by (method, chat kind): kind is "private", "group" or "none" (no chat_id, or an unknown chat).
    calls_by_chat_kind: Counter[tuple[str, str]] = field(default_factory=Counter)
    rate_limited_by_chat_kind: Counter[str] = field(default_factory=Counter)  # 429 answers by chat kind
    # Seconds from getUpdates handing a callback query to the bot to the bot's answerCallbackQuery.
    callback_latencies: list[float] = field(default_factory=list)

    def callback_latency(self, quantile: float) -> float | None:
        """A quantile (0.5 = median, 0.99) of the callback answer latencies, in seconds."""
        if not self.callback_latencies:
            return None
        ordered = sorted(self.callback_latencies)
        index = min(len(ordered) - 1, max(0, math.ceil(quantile * len(ordered)) - 1))
        return ordered[index]

    @property
    def rate_limited(self) -> int:
        """Number of 429 answers."""
        return self.statuses[429]

    @property
    def client_errors(self) -> int:
        """Number of 4xx answers (429 included)."""
        return sum(n for code, n in self.statuses.items() if 400 <= code < 500)

    @property
    def message_calls(self) -> int:
        """Calls that send or edit a message (the ones the rate limits count)."""
        return sum(n for method, n in self.calls.items() if method in RATE_LIMITED_METHODS)

    def message_calls_by(self, *, method: str | None = None, chat_kind: str | None = None) -> int:
        """Message calls (sends, edits, deletes) of one method and/or one chat kind."""
        return sum(
            n
            for (m, kind), n in self.calls_by_chat_kind.items()
            if m in RATE_LIMITED_METHODS
            and (method is None or m == method)
            and (chat_kind is None or kind == chat_kind)
        )

    @property
    def total_calls(self) -> int:
        return sum(self.calls.values())

    def calls_excluding_polling(self) -> int:
        return self.total_calls - self.calls["getUpdates"]

    def snapshot(self) -> JSON:
        return {
            "calls": dict(sorted(self.calls.items())),
            "total_calls": self.total_calls,
            "calls_excluding_getUpdates": self.calls_excluding_polling(),
            "message_calls": self.message_calls,
            "statuses": {str(k): v for k, v in sorted(self.statuses.items())},
            "rate_limited": self.rate_limited,
            "client_errors": self.client_errors,
            "errors": [list(e) for e in self.errors[-50:]],
            "calls_by_chat_kind": {
                f"{m}/{kind}": n for (m, kind), n in sorted(self.calls_by_chat_kind.items())
            },
            "rate_limited_by_chat_kind": dict(sorted(self.rate_limited_by_chat_kind.items())),
            "callback_answers": len(self.callback_latencies),
            "callback_latency_p50_s": self.callback_latency(0.5),
            "callback_latency_p99_s": self.callback_latency(0.99),
        }
