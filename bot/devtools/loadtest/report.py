"""The figures of a load-test run, from what the harness recorded, and the table it prints.

* cards: plays (one turn's cards: a single card, a pair, a throw ...) committed in the measured window;
* cards/min per table: those plays over the time each table was playing within the window (from its first
  play, until its deal ended or the window closed);
* turn latency: play committed (its row's ``created_at``) → the next player's private chat shows a hand
  message version saying "👉 轮到你" (the simulator stamps each version when Telegram would have it);
* group lag: a trick-ending play committed → the group's table message shows that trick, or a later state;
* message calls: sends, edits, deletes (the calls Telegram's rate limits count), from the simulator's counters;
* bot CPU: user + system time of the bot's process (/proc) over the window, per card.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.devtools.loadtest.players import PlayRecord

SEND_METHODS = ("sendMessage", "sendDocument", "sendMediaGroup", "copyMessage", "forwardMessage")
EDIT_METHODS = ("editMessageText", "editMessageReplyMarkup", "editMessageCaption", "editMessageMedia")


def quantile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank quantile (q=0.5 median, 0.99) of ``values``; None when empty."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def turn_latencies(
    plays: Iterable[PlayRecord], turn_times: Mapping[int, Sequence[float]], start: float, end: float
) -> tuple[list[float], int]:
    """Seconds from each play committed in [start, end) to the next player's "your turn", and how many plays
    were never followed by one (before the run ended)."""
    latencies: list[float] = []
    missing = 0
    for play in plays:
        if play.next_user is None or not start <= play.committed < end:
            continue
        times = turn_times.get(play.next_user, [])
        i = bisect.bisect_left(times, play.committed)
        if i < len(times):
            latencies.append(times[i] - play.committed)
        else:
            missing += 1
    return latencies, missing


def group_lags(
    plays: Sequence[PlayRecord], versions: Sequence[tuple[float, str]], start: float, end: float
) -> tuple[list[float], int]:
    """Seconds from each trick-ending play of one table committed in [start, end) until a version of the group's
    messages shows that trick or a later state (the trick line of that play or of any later play), and how many
    were never shown."""
    lags: list[float] = []
    missing = 0
    markers = [(i, p.marker) for i, p in enumerate(plays) if p.marker]
    shown: list[tuple[float, int]] = []  # (time, index of the latest play the version shows)
    for at, text in versions:
        latest = -1
        for i, marker in markers:
            if i > latest and marker in text:
                latest = i
        shown.append((at, latest))
    for index, play in enumerate(plays):
        if not play.completes_trick or not play.marker or not start <= play.committed < end:
            continue
        found = next(
            (at - play.committed for at, latest in shown if at >= play.committed and latest >= index), None
        )
        if found is None:
            missing += 1
        else:
            lags.append(found)
    return lags, missing


@dataclass
class Figures:
    values: dict[str, Any]

    def line(self) -> str:
        v = self.values

        def f(x: Any, fmt: str = "{:.1f}") -> str:
            return "–" if x is None else fmt.format(x)

        per = v["calls_per_card"]
        return (
            f"| {v['tables']} | {f(v['cards_per_min_per_table'])} | {v['cards']} | "
            f"{f(per['total'], '{:.2f}')} ({f(per['edit'], '{:.2f}')} edit, {f(per['send'], '{:.2f}')} send, "
            f"{f(per['delete'], '{:.2f}')} delete, {f(per['photo'], '{:.2f}')} photo; "
            f"{f(per['private'], '{:.2f}')} private / {f(per['group'], '{:.2f}')} group) | "
            f"{f(v['message_calls_per_s'])} | {f(v['turn_p50_s'], '{:.2f}')} / {f(v['turn_p99_s'], '{:.2f}')} s | "
            f"{f(v['group_lag_p99_s'])} s | {v['rate_limited']} | {f(v['bot_cpu_ms_per_card'], '{:.0f}')} ms "
            f"({f(v['bot_cpu_percent'], '{:.0f}')} %) | {f(v['rss_mb'], '{:.0f}')} MB |"
        )


HEADER = (
    "| tables | cards/min per table | cards | message calls per card | message calls/s | "
    "turn latency p50 / p99 | group lag p99 | 429s | bot CPU per card (of one core) | bot RSS |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def compute(
    *,
    tables: int,
    plays_by_table: Mapping[int, Sequence[PlayRecord]],
    finished_at: Mapping[int, float | None],
    turn_times: Mapping[int, Sequence[float]],
    group_versions: Mapping[int, Sequence[tuple[float, str]]],
    group_of_table: Mapping[int, int],
    start: float,
    end: float,
    calls_delta: Mapping[tuple[str, str], int],
    rate_limited: Mapping[str, int],
    cpu_seconds: float,
    rss_mb: float,
    peak_rss_mb: float,
) -> Figures:
    """All figures of one run, from the records of the measured window [start, end)."""
    all_plays = [p for plays in plays_by_table.values() for p in plays]
    cards = sum(1 for p in all_plays if start <= p.committed < end)
    playing_minutes = 0.0
    for index, plays in plays_by_table.items():
        inside = [p.committed for p in plays if start <= p.committed < end]
        if not inside:
            continue
        first = max(start, min(p.committed for p in plays))
        last = finished_at.get(index) or end
        playing_minutes += (min(end, last) - first) / 60
    latencies, turn_missing = turn_latencies(all_plays, turn_times, start, end)
    lags: list[float] = []
    lag_missing = 0
    for index, plays in plays_by_table.items():
        found, missing = group_lags(plays, group_versions.get(group_of_table[index], []), start, end)
        lags.extend(found)
        lag_missing += missing

    def calls(methods: Iterable[str] | None = None, kind: str | None = None) -> int:
        wanted = None if methods is None else set(methods)
        return sum(
            n
            for (method, k), n in calls_delta.items()
            if (wanted is None or method in wanted) and (kind is None or k == kind)
        )

    from bot.devtools.simulator.limits import RATE_LIMITED_METHODS

    message_total = calls(RATE_LIMITED_METHODS)
    seconds = end - start

    def per_card(n: int) -> float | None:
        return n / cards if cards else None

    return Figures(
        {
            "tables": tables,
            "window_s": round(seconds, 1),
            "cards": cards,
            "cards_per_min_per_table": cards / playing_minutes if playing_minutes else None,
            "calls_per_card": {
                "total": per_card(message_total),
                "edit": per_card(calls(EDIT_METHODS)),
                "send": per_card(calls(SEND_METHODS)),
                "delete": per_card(calls(("deleteMessage",))),
                "photo": per_card(calls(("sendPhoto",))),
                "private": per_card(calls(RATE_LIMITED_METHODS, "private")),
                "group": per_card(calls(RATE_LIMITED_METHODS, "group")),
            },
            "message_calls": message_total,
            "message_calls_per_s": message_total / seconds if seconds > 0 else None,
            "answer_callback_calls": calls(("answerCallbackQuery",)),
            "turn_p50_s": quantile(latencies, 0.5),
            "turn_p99_s": quantile(latencies, 0.99),
            "turns_measured": len(latencies),
            "turns_never_shown": turn_missing,
            "group_lag_p50_s": quantile(lags, 0.5),
            "group_lag_p99_s": quantile(lags, 0.99),
            "tricks_measured": len(lags),
            "tricks_never_shown": lag_missing,
            "rate_limited": sum(rate_limited.values()),
            "rate_limited_by_chat_kind": dict(rate_limited),
            "bot_cpu_s": round(cpu_seconds, 2),
            "bot_cpu_ms_per_card": cpu_seconds * 1000 / cards if cards else None,
            "bot_cpu_percent": 100 * cpu_seconds / seconds if seconds > 0 else None,
            "rss_mb": rss_mb,
            "peak_rss_mb": peak_rss_mb,
        }
    )
