"""Load benchmark of the table page (docs/performance.md, "Mini App"): N tables, every seat played by a
simulated page client (a WebSocket that thinks, then plays what the move clock would: ``auto_action``),
against the real bot in this process and the Bot API simulator at Telegram's real rates (scale 1).

    python -m bot.devtools.webapp_bench --tables 20 --preset guandan-team --think 1.0

Set-up first (people start the bot, the tables start, every seat's page connects; the first deal's hand
messages, the door to the page, are sent then and reported apart), then a window of ``--duration``
seconds with every seat on the page, in which it counts: cards played and moves made, Telegram message
calls (sends, edits) of the groups and of the private chats, per card and per move, turn latency
(request sent -> acknowledged, and -> the page's next frame) p50/p99, stale refusals, 429 answers,
pushes, CPU seconds of the process and the part of them spent in the clients' own code (frames parsed,
moves chosen). The clients run in the bot's process, so the latency includes their share of the CPU (a
pessimistic figure). ``--profile FILE`` writes cProfile statistics of the window. Not a test: nothing is
asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import faulthandler
import json
import logging
import random
import resource
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC
from typing import Any

import aiohttp

from bot.devtools.gc_timer import GcTimer
from bot.devtools.simulator import BotApiSimulator, SimUserHandle
from bot.devtools.simulator.runner import RealBot
from engine.game import Match
from storage import match_repo, table_repo, user_repo

# what a page client plays, per game: Shengji the computer player's choice (it declares); Guandan the move
# clock's (cheap: the page clients share the bot's CPU, and Guandan's computer player enumerates every combination)
MOVE_OF: dict[str, Callable[[Match, int, random.Random], str | None]] = {
    "shengji": lambda m, seat, rng: m.ai_action(seat, rng),
    "guandan": lambda m, seat, rng: m.auto_action(seat),
}


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class PageBot:
    """One seat's page: hello, then on each frame where it is its turn: think, act."""

    def __init__(
        self,
        server: Any,
        rt: Any,
        match_id: int,
        user_id: int,
        think: float,
        stats: dict[str, Any],
        clock: dict[str, float],
    ) -> None:
        self.server, self.rt, self.match_id, self.user_id = server, rt, match_id, user_id
        self.think, self.stats, self.clock = think, stats, clock
        self.rng = random.Random(user_id)
        self.seat: int | None = None
        self.waiting: dict[str, Any] = {}
        self.requests = 0
        self.ready = asyncio.get_running_loop().create_future()  # the first state frame came

    def request_id(self, version: int) -> str:
        """A new id for each request (one id is one action: the server's dedupe key answers a repeat as done)."""
        self.requests += 1
        return f"b{self.user_id}v{version}n{self.requests}"

    async def run(self, session: aiohttp.ClientSession) -> None:
        init = self.server.dev_init_data(self.user_id, f"u{self.user_id}", "zh-hans")
        ws = await session.ws_connect(f"{self.server.base_url}/ws", max_msg_size=0)
        try:
            await self.play(ws, init)
        finally:
            if not self.ready.done():
                self.ready.set_result(None)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)

    async def play(self, ws: Any, init: str) -> None:  # noqa: C901 (one loop over the frames)
        await ws.send_str(json.dumps({"type": "hello", "init": init, "match": self.match_id}))
        pending: dict[str, Any] = {}
        waiting = self.waiting = {}  # requests whose next frame has not come yet
        acted_at: int | None = None
        last: dict[str, Any] | None = None  # the newest state frame
        think_task: asyncio.Task[None] | None = None
        stats = self.stats
        while time.monotonic() < self.clock["deadline"]:
            try:
                msg = await ws.receive(timeout=max(0.1, min(5.0, self.clock["deadline"] - time.monotonic())))
            except TimeoutError:
                continue
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            now = time.perf_counter()
            frame = json.loads(msg.data)
            stats["frames"] += 1
            if frame["type"] == "hello":
                self.seat = frame["seat"]
                continue
            if frame["type"] == "ack":
                sent = pending.pop(frame["id"], None)
                if sent is not None:
                    stats["ack"].append(now - sent[0])
                    if not frame["ok"]:
                        stats["refused"] += 1
                        acted_at = None
                if pending or last is None:
                    continue
                frame = last  # answered: the newest state decides again
            elif frame["type"] == "state":
                if not self.ready.done():
                    self.ready.set_result(None)
                for rid, (t0, version) in list(waiting.items()):
                    if frame["version"] > version:
                        del waiting[rid]
                        stats["frame"].append(now - t0)
                last = frame
                if frame["status"] != "playing":
                    break
                if pending:  # a page waits for the answer to its request before it sends another
                    stats["client_s"] += time.perf_counter() - now
                    continue
            else:
                continue
            me = frame.get("me") or {}
            bids = (me.get("actions") or {}).get("bids")
            if bids and frame["table"].get("declaration") is None and acted_at != frame["version"]:
                acted_at = frame["version"]  # declare at once: a deal nobody declares is dealt again
                rid = self.request_id(frame["version"])
                pending[rid] = waiting[rid] = (time.perf_counter(), frame["version"])
                stats["client_s"] += time.perf_counter() - now
                await ws.send_str(
                    json.dumps(
                        {
                            "type": "act",
                            "id": rid,
                            "version": frame["version"],
                            "op": bids[0]["verb"],
                            "cards": bids[0]["cards"].split(),
                            "arg": None,
                        }
                    )
                )
                continue
            if (
                (me.get("actions") or {}).get("turns")
                and acted_at != frame["version"]
                and (think_task is None or think_task.done())
            ):
                acted_at = frame["version"]
                think_task = asyncio.create_task(self.act_later(ws, frame["version"], pending))
            stats["client_s"] += time.perf_counter() - now
        if think_task is not None:
            think_task.cancel()

    async def act_later(self, ws: Any, version: int, pending: dict[str, Any]) -> None:
        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        t0 = time.perf_counter()
        cached = self.rt.db.match_cache.get(self.match_id)
        if cached is None or cached[0] != version:
            return
        m = cached[1]
        seat = self.seat
        if seat is None:  # no frame with a seat yet
            return
        try:
            action = MOVE_OF[m.game](m, seat, self.rng)
        except Exception:
            return
        if not action:
            return
        words = action.split()
        verb, rest = words[1], words[2:]
        reading = rest[rest.index("as") + 1] if "as" in rest else None
        cards = rest[: rest.index("as")] if "as" in rest else rest
        op = {
            "bid": "bid",
            "overturn": "overturn",
            "pass_bid": "pass_bid",
            "pass_overturn": "pass_bid",
            "pass": "pass",
            "bury": "bury",
            "play": "play",
            "tribute": "tribute",
            "return": "tribute",
            "ask_counts": "ask_counts",
            "choose": "choose",
        }.get(verb)
        if op is None:
            return
        arg = reading if op == "play" else (cards[0] if op == "choose" else None)
        rid = self.request_id(version)
        pending[rid] = self.waiting[rid] = (time.perf_counter(), version)
        text = json.dumps(
            {
                "type": "act",
                "id": rid,
                "version": version,
                "op": op,
                "cards": [] if op == "choose" else cards,
                "arg": arg,
            }
        )
        self.stats["client_s"] += time.perf_counter() - t0
        with contextlib.suppress(aiohttp.ClientError, ConnectionError):  # the window closed meanwhile
            await ws.send_str(text)


def _epoch(when: Any) -> float:
    return float((when if when.tzinfo is not None else when.replace(tzinfo=UTC)).timestamp())


def message_calls(sim: Any) -> dict[str, int]:
    """The simulator's message calls (sends, edits) so far: all, the groups', private sends and edits."""
    by = sim.stats.message_calls_by
    return {
        "all": sim.stats.message_calls,
        "group": by(chat_kind="supergroup") + by(chat_kind="group"),
        "group_send": by(chat_kind="supergroup", method="sendMessage")
        + by(chat_kind="group", method="sendMessage"),
        "private_send": by(chat_kind="private", method="sendMessage"),
        "private_edit": by(chat_kind="private", method="editMessageText"),
    }


async def played(rt: Any, table_ids: list[int], until: float) -> tuple[int, int, int, int]:
    """(cards played, plays, moves made by the seats, tables finished) until ``until`` (epoch seconds): a
    play is one turn's cards (a single, a pair, a throw...), a move any seat's action (a play, a pass, a
    bid, the kitty...)."""
    cards = plays = moves = finished = 0
    for table_id in table_ids:
        row = await match_repo.current_match(rt.db, table_id)
        if row is None:
            continue
        finished += (
            row.status == "finished" and row.finished_at is not None and _epoch(row.finished_at) <= until
        )
        for record in await match_repo.action_log(rt.db, row.id):
            if _epoch(record.created_at) > until:
                continue
            words = record.action.split()
            if not words or not words[0].isdigit():
                continue  # the system's steps (dealing, the clock) are not moves
            moves += 1
            if len(words) > 2 and words[1] == "play":
                plays += 1
                cards += len(words[2 : words.index("as")] if "as" in words else words[2:])
    return cards, plays, moves, finished


async def run(
    tables: int,
    preset: str,
    think: float,
    deals: int,
    duration: float,
    database: str | None,
    profile: str | None = None,
) -> dict[str, Any]:
    """Set-up (people start the bot, tables start, each seat's page connects: the hand messages of the
    first deal are sent then, the door to the page), then a window of ``duration`` seconds in Mini App
    mode (every seat on the page) in which everything reported is counted."""
    stats: dict[str, Any] = {"ack": [], "frame": [], "refused": 0, "frames": 0, "client_s": 0.0}
    clock = {"deadline": float("inf")}
    with tempfile.TemporaryDirectory() as folder:
        async with BotApiSimulator(rate_scale=1.0) as sim:
            groups = []
            for i in range(tables):
                users = [100_000 + i * 4 + s for s in range(4)]
                for uid in users:
                    sim.add_user(uid, f"p{uid}", language_code="zh-hans")
                group = -1_005_000_000_000 - i
                sim.add_group(group, f"table {i}", users, [users[0]])
                groups.append((group, users))
            url = database or f"sqlite+aiosqlite:///{folder}/bench.db"
            async with RealBot(
                sim,
                database_url=url,
                WEBAPP_PORT=0,
                WEBAPP_DEV=True,
                AI_DELAY=0.5,
                DEAL_BATCH=25,
                DEAL_BATCH_DELAY=0.5,
                BOT_LANGUAGE="zh-CN",
            ) as real:
                rt = real.app.bot_data["runtime"]
                server = real.app.bot_data["webapp"]
                for _group, users in groups:
                    for uid in users:
                        SimUserHandle(sim, uid).start()
                await sim.wait_quiet(quiet=1.0, timeout=600)
                say(f"{tables * 4} people started the bot")
                table_ids = []
                for i, (group, users) in enumerate(groups):
                    await user_repo.upsert_chat(rt.db, group, "supergroup", f"table {i}")
                    table = await table_repo.create_table(
                        rt.db,
                        group,
                        preset,
                        {"deals": deals, "bid_window_seconds": 5}
                        if preset.startswith("shengji")
                        else {"deals": deals},
                        users[0],
                    )
                    for seat, uid in enumerate(users):
                        await table_repo.seat_user(rt.db, table.id, seat, uid)
                    table_ids.append(table.id)
                setup0, t_setup = message_calls(sim), time.monotonic()
                async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
                    pages, clients = [], []
                    for table_id, (_group, users) in zip(table_ids, groups, strict=True):
                        await rt.lobby.start_table(table_id, None)
                        row = await match_repo.current_match(rt.db, table_id)
                        if row is None:
                            raise RuntimeError(f"table {table_id} did not start")
                        for uid in users:
                            page = PageBot(server, rt, row.id, uid, think, stats, clock)
                            pages.append(page)
                            clients.append(asyncio.create_task(page.run(session)))
                    await asyncio.gather(*(p.ready for p in pages))
                    # the set-up's calls (the greeting, hand messages sent before a page opened) leave first
                    settle = time.monotonic() + 120
                    while getattr(rt.outbox, "_queued", 0) and time.monotonic() < settle:
                        await asyncio.sleep(0.2)
                    await asyncio.sleep(1.0)
                    # the window: every seat on the page
                    window0, wall0 = message_calls(sim), time.time()
                    cpu0, t0 = time.process_time(), time.monotonic()
                    queued0 = getattr(
                        rt.outbox, "_queued", None
                    )  # set-up calls still queued (they land in the window)
                    cards0, plays0, moves0, _ = await played(rt, table_ids, wall0)
                    for key in ("ack", "frame"):
                        stats[key].clear()
                    stats["refused"] = stats["frames"] = 0
                    stats["client_s"] = 0.0
                    say(f"set-up {time.monotonic() - t_setup:.0f} s; window of {duration:.0f} s begins")
                    pushes0 = server.hub.pushes
                    clock["deadline"] = t0 + duration
                    gc_timer = GcTimer().start()  # the window's collections
                    profiler = None
                    if profile:
                        profiler = cProfile.Profile()
                        profiler.enable()
                    # the window closes just before the pages do (a page closing turns its seat back to the chat)
                    await asyncio.sleep(max(0.0, clock["deadline"] - 0.2 - time.monotonic()))
                    elapsed = time.monotonic() - t0
                    cpu = time.process_time() - cpu0
                    gc_timer.stop()
                    window1, wall1 = message_calls(sim), time.time()
                    cards1, plays1, moves1, finished = await played(rt, table_ids, wall1)
                    if profiler is not None and profile:
                        profiler.disable()
                        profiler.dump_stats(profile)
                    done, stuck = await asyncio.wait(clients, timeout=15)
                    for task in stuck:
                        task.cancel()
                    say(f"clients done: {len(done)}, cancelled: {len(stuck)}")
                kinds: dict[str, int] = {}  # what the private calls of the window were (their first line)
                for _group, users in groups:
                    for uid in users:
                        for message in sim.bot_messages(uid):
                            for version in message.versions:
                                if wall0 <= version.at <= wall1:
                                    key = f"{version.method}: {(version.text or '').splitlines()[0][:40]}"
                                    kinds[key] = kinds.get(key, 0) + 1
                cards, plays, moves = cards1 - cards0, plays1 - plays0, moves1 - moves0
                calls = {k: window1[k] - window0[k] for k in window1}
                setup = {k: window0[k] - setup0[k] for k in window0}
                private = calls["private_send"] + calls["private_edit"]
                return {
                    "tables": tables,
                    "preset": preset,
                    "deals": deals,
                    "think_s": think,
                    "window_s": round(elapsed, 1),
                    "finished_tables": finished,
                    "setup_message_calls": setup,
                    "outbox_queued_at_window_start": queued0,
                    "cards_played": cards,
                    "plays": plays,
                    "moves": moves,
                    "message_calls": calls,
                    "group_calls_per_card": round(calls["group"] / cards, 3) if cards else None,
                    "private_calls_per_card": round(private / cards, 3) if cards else None,
                    "all_calls_per_card": round(calls["all"] / cards, 3) if cards else None,
                    "group_calls_per_play": round(calls["group"] / plays, 3) if plays else None,
                    "group_calls_per_move": round(calls["group"] / moves, 3) if moves else None,
                    "all_calls_per_move": round(calls["all"] / moves, 3) if moves else None,
                    "moves_per_second": round(moves / elapsed, 1) if elapsed else None,
                    "turn_ack_p50_ms": round(percentile(stats["ack"], 50) * 1000, 1),
                    "turn_ack_p99_ms": round(percentile(stats["ack"], 99) * 1000, 1),
                    "turn_frame_p50_ms": round(percentile(stats["frame"], 50) * 1000, 1),
                    "turn_frame_p99_ms": round(percentile(stats["frame"], 99) * 1000, 1),
                    "page_moves": len(stats["ack"]),
                    "refused": stats["refused"],
                    "frames": stats["frames"],
                    "pushes": server.hub.pushes - pushes0,
                    "rate_limited_429": sim.stats.rate_limited,
                    "cpu_s": round(cpu, 1),
                    "cpu_share_of_one_core": round(cpu / elapsed, 2) if elapsed else None,
                    "client_code_s": round(stats["client_s"], 1),
                    "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                    "gc": gc_timer.report(),
                    "private_calls_by_kind": dict(sorted(kinds.items(), key=lambda kv: -kv[1])[:8]),
                }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="table page load benchmark")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--preset", default="guandan-team")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a page client thinks (x0.5..1.5)")
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--duration", type=float, default=600.0)
    parser.add_argument(
        "--database", default=None, help="DATABASE_URL (default: SQLite in a temporary folder)"
    )
    parser.add_argument(
        "--profile", default=None, help="write cProfile statistics of the window to this file"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 <pid> prints where it is
    say("running")
    result = asyncio.run(
        run(args.tables, args.preset, args.think, args.deals, args.duration, args.database, args.profile)
    )
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
