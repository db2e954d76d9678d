"""One load-test run: simulator and people here, the bot in a child process, a bounded measured window."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import create_async_engine

from bot.devtools.loadtest import players
from bot.devtools.loadtest.botprocess import BotProcess, sample
from bot.devtools.loadtest.database import fresh_database
from bot.devtools.loadtest.report import HEADER, Figures, compute, quantile
from bot.devtools.simulator import BotApiSimulator

log = logging.getLogger(__name__)


@dataclass
class Options:
    tables: int = 4
    preset: str = "shengji-17-deals"
    deals: int = 1
    think: float = 1.5
    db: str = "sqlite"
    rtt_ms: float = 80.0
    duration: float = 150.0  # the measured window, seconds
    warmup_limit: float = 240.0  # at most this long from the first Start to the window (every table playing)
    type_share: float = 0.2  # share of moves typed instead of pressed
    seed: int | None = None  # first table's seed (default: from the clock: fresh deals every run)
    setup_concurrency: int = 8  # tables being set up at once
    computers: int = 0  # computer players at each table (the bot fills the seats people leave empty)
    ai: str = "strong"  # their level (the table option ai=)


def _say(text: str) -> None:
    print(text, flush=True)


async def run(options: Options) -> Figures:
    # the people's own choices (which legal move, press or type) follow this seed; the deals follow it only with
    # --seed (fixed deals), otherwise the bot draws them
    seed = options.seed if options.seed is not None else int(time.time()) % 1_000_000
    tables = players.make_tables(options.tables, seed, options.computers)
    with tempfile.TemporaryDirectory(prefix="loadtest-") as tmp:
        folder = Path(tmp)
        async with (
            fresh_database(options.db, folder) as url,
            BotApiSimulator(rtt_ms=options.rtt_ms, rate_scale=1.0) as sim,
        ):
            players.populate(sim, tables)
            observer = players.Observer(sim, tables)
            bot = BotProcess(
                {
                    "TELEGRAM_BOT_TOKEN": sim.token,
                    "TELEGRAM_API_BASE_URL": sim.base_url,
                    "TELEGRAM_API_FILE_URL": sim.base_file_url,
                    "DATABASE_URL": url,
                    "TELEGRAM_RATE_SCALE": 1.0,
                    "BOT_LANGUAGE": "zh-CN",
                    "BOT_ADMIN_IDS": ",".join(str(t.user_ids[0]) for t in tables)
                    if options.seed is not None
                    else "",
                },
                folder / "bot.log",
            )
            db = create_async_engine(url)
            stop = asyncio.Event()
            drivers: list[asyncio.Task[None]] = []
            failed: list[tuple[players.Table, BaseException | None]] = []
            try:
                await bot.start()
                _say(
                    f"bot process {bot.pid}; {options.tables} tables, {options.preset} deals={options.deals}, "
                    f"think {options.think} s, {options.computers} computers ({options.ai}) a table, {options.db}, round trip {options.rtt_ms:g} ms, seeds {seed}…"
                )
                await sim.wait_for(
                    lambda: sim.stats.calls["getUpdates"] > 0 or not bot.running(),
                    timeout=60,
                    message="the bot did not start polling within 60 s",
                )
                if not bot.running():
                    raise RuntimeError(
                        "the bot process exited at start:\n" + "\n".join(bot.errors_logged()[-20:])
                    )
                started = time.monotonic()
                gate = asyncio.Semaphore(options.setup_concurrency)

                async def set_up_and_play(table: players.Table) -> None:
                    async with gate:
                        await players.set_up(
                            sim,
                            db,
                            table,
                            options.preset,
                            options.deals,
                            fixed_seed=options.seed is not None,
                            ai=options.ai if options.computers else None,
                        )
                    await players.play(
                        sim,
                        db,
                        observer,
                        table,
                        think=options.think,
                        type_share=options.type_share,
                        stop=stop,
                    )

                drivers = [asyncio.create_task(set_up_and_play(table)) for table in tables]
                loop = asyncio.get_running_loop()
                deadline = loop.time() + options.warmup_limit
                while loop.time() < deadline and not all(
                    t.first_play or d.done() for t, d in zip(tables, drivers, strict=True)
                ):
                    await asyncio.sleep(0.5)
                failed = [
                    (t, d.exception())
                    for t, d in zip(tables, drivers, strict=True)
                    if d.done() and d.exception() is not None
                ]
                for table, exc in failed:
                    _say(f"table {table.index + 1} failed: {exc!r}")
                if len(failed) == len(tables):
                    raise RuntimeError("no table could play")
                playing = sum(1 for t in tables if t.first_play)
                for t in tables:
                    if not t.first_play:  # where a table that is not playing stands
                        m = t.replica
                        state = (
                            "still setting up"
                            if m is None
                            else (
                                f"match {t.match_id} at action {t.seq}, phase "
                                f"{m.phase}, "
                                f"turns {[(tr.seat, tr.kind, tr.required) for tr in m.turns()]}"
                            )
                        )
                        _say(f"table {t.index + 1} not playing: {state}")
                _say(
                    f"{playing} of {options.tables} tables playing after {time.monotonic() - started:.0f} s; "
                    f"measuring {options.duration:g} s"
                )
                calls0 = Counter(sim.stats.calls_by_chat_kind)
                limited0 = Counter(sim.stats.rate_limited_by_chat_kind)
                cpu0 = sample(bot.pid)
                harness0 = sample(os.getpid())
                answers0 = len(sim.stats.callback_latencies)
                window_start = time.time()
                await asyncio.sleep(options.duration)
                window_end = time.time()
                cpu1 = sample(bot.pid)
                harness1 = sample(os.getpid())
                answers = sim.stats.callback_latencies[answers0:]
                calls = Counter(sim.stats.calls_by_chat_kind)
                calls.subtract(calls0)
                limited = Counter(sim.stats.rate_limited_by_chat_kind)
                limited.subtract(limited0)
                stop.set()
                for driver in drivers:
                    driver.cancel()
                await asyncio.gather(*drivers, return_exceptions=True)
                for table in tables:  # the last commits of the window
                    if table.match_id is not None:
                        with contextlib.suppress(Exception):
                            await players.sync(db, table)
            finally:
                stop.set()
                for driver in drivers:
                    driver.cancel()
                await asyncio.gather(*drivers, return_exceptions=True)
                await db.dispose()
                await bot.stop()
                kept = Path(tempfile.gettempdir()) / f"loadtest-bot-{seed}.log"
                with contextlib.suppress(OSError):
                    shutil.copyfile(folder / "bot.log", kept)
                    _say(f"the bot's log: {kept}")
            figures = compute(
                tables=options.tables,
                plays_by_table={t.index: t.plays for t in tables},
                finished_at={t.index: t.last_play if t.finished else None for t in tables},
                turn_times=observer.turn_times,
                group_versions=observer.group_versions,
                group_of_table={t.index: t.group_id for t in tables},
                start=window_start,
                end=window_end,
                calls_delta={k: v for k, v in calls.items() if v},
                rate_limited={k: v for k, v in limited.items() if v},
                cpu_seconds=cpu1.cpu_seconds - cpu0.cpu_seconds,
                rss_mb=cpu1.rss_mb,
                peak_rss_mb=cpu1.peak_rss_mb,
            )
            figures.values.update(
                {
                    "playing_tables": playing,
                    "failed_tables": len(failed),
                    # a button press delivered to the bot → its answerCallbackQuery (what the finger waits for)
                    "button_answer_p50_s": quantile(answers, 0.5),
                    "button_answer_p99_s": quantile(answers, 0.99),
                    # the simulator and the people: if this nears 100 %, the harness, not the bot, sets the pace
                    "harness_cpu_percent": 100
                    * (harness1.cpu_seconds - harness0.cpu_seconds)
                    / (window_end - window_start),
                    "finished_tables": sum(1 for t in tables if t.finished),
                    "moves_pressed": sum(t.pressed for t in tables),
                    "moves_typed": sum(t.typed for t in tables),
                    "moves_retried": sum(t.retries for t in tables),
                    "resumes_pressed": sum(
                        t.resumes for t in tables
                    ),  # tables paused after deals nobody bid in
                    "bot_errors_logged": sum(" ERROR " in line for line in bot.errors_logged()),
                    # the worker pool's last summary (bot.tables.thinking, every LOG_EVERY strong decisions)
                    "strong_decisions": strong_shares(bot.last_line_with("strong decisions:")),
                    **_start_figures(players.start_times(sim, tables)),
                    "options": options.__dict__ | {"seed": seed},
                    "machine": machine(),
                }
            )
            return figures


def strong_shares(line: str | None) -> dict[str, int] | None:
    """The counts of ``bot.tables.thinking``'s summary line: strong decisions, searched at the full budget, at a
    reduced budget, left to the baseline (None: no line, e.g. no strong computer)."""
    if line is None:
        return None
    numbers = [int(x) for x in re.findall(r"\d+", line.split("strong decisions:", 1)[1])]
    if len(numbers) != 4:
        return None
    return dict(zip(("decisions", "full", "reduced", "baseline"), numbers, strict=True))


def _start_figures(times: dict[str, Any]) -> dict[str, Any]:
    """Start, timed on its own (every table's first press of ▶️ 开始, whenever it was)."""
    out: dict[str, Any] = {
        "start_presses": len(times["start_answer_s"]) + times["start_unanswered"],
        "start_unanswered": times["start_unanswered"],
    }
    for name in ("start_answer_s", "start_in_bot_s", "start_first_hand_s", "start_every_hand_s"):
        values = times.get(name, [])
        out[name[:-2] + "_p50_s"] = quantile(values, 0.5)
        out[name[:-2] + "_p99_s"] = quantile(values, 0.99)
        out[name[:-2] + "_max_s"] = max(values) if values else None
    return out


def machine() -> str:
    model = "unknown CPU"
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    return f"{os.cpu_count()} CPUs (nproc {len(os.sched_getaffinity(0))}), {model}"


def print_figures(figures: Figures) -> None:
    _say("")
    _say(HEADER)
    _say(figures.line())
    v = figures.values

    def f(x: Any) -> str:
        return "–" if x is None else f"{x:.2f}"

    _say(
        f"Start (press → answer) p50 / p99 / max: {f(v.get('start_answer_p50_s'))} / "
        f"{f(v.get('start_answer_p99_s'))} / {f(v.get('start_answer_max_s'))} s (from the update handed to the bot "
        f"{f(v.get('start_in_bot_p50_s'))} / {f(v.get('start_in_bot_p99_s'))} / {f(v.get('start_in_bot_max_s'))} s); "
        f"→ the table's first hand message "
        f"{f(v.get('start_first_hand_p50_s'))} / {f(v.get('start_first_hand_p99_s'))} / "
        f"{f(v.get('start_first_hand_max_s'))} s; → every seat's {f(v.get('start_every_hand_p50_s'))} / "
        f"{f(v.get('start_every_hand_p99_s'))} / {f(v.get('start_every_hand_max_s'))} s "
        f"({v.get('start_presses')} presses, {v.get('start_unanswered')} unanswered)"
    )
    _say("")
    _say(json.dumps(figures.values, ensure_ascii=False, indent=1, default=str))


def main_run(options: Options) -> Any:
    logging.basicConfig(level=logging.WARNING)
    figures = asyncio.run(run(options))
    print_figures(figures)
    return figures
