"""Load benchmark of the table page (docs/performance.md, "Mini App"): N tables, every seat played by a
simulated page client (a WebSocket that thinks, then plays what the move clock would: ``auto_action``),
against the real bot in this process and the Bot API simulator at Telegram's real rates (scale 1).

    python -m bot.webapp.bench --tables 20 --preset guandan-team --think 1.0

Prints: tables, cards played, Telegram message calls (sends, edits) per card during play, turn latency
(request sent -> acknowledged, and -> the page's next frame) p50/p99, stale refusals, 429 answers,
frames pushed, CPU seconds. The clients run in the bot's process too, so the latency includes their
share of the CPU (a pessimistic figure). Not a test: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import json
import logging
import random
import resource
import signal
import tempfile
import time
from typing import Any

import aiohttp

from storage import service


def say(text: str) -> None:
    import sys

    print(text, file=sys.stderr, flush=True)


def percentile(xs: list[float], p: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))]


class PageBot:
    """One seat's page: hello, then on each frame where it is its turn: think, act."""

    def __init__(self, server: Any, rt: Any, match_id: int, user_id: int, think: float, stats: dict[str, Any]) -> None:
        self.server, self.rt, self.match_id, self.user_id = server, rt, match_id, user_id
        self.think, self.stats = think, stats
        self.rng = random.Random(user_id)
        self.seat: int | None = None
        self.waiting: dict[str, Any] = {}

    async def run(self, session: aiohttp.ClientSession, deadline: float) -> None:
        init = self.server.dev_init_data(self.user_id, f"u{self.user_id}", "zh-hans")
        ws = await session.ws_connect(f"{self.server.base_url}/ws", max_msg_size=0)
        try:
            await self.play(ws, init, deadline)
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(), 5)

    async def play(self, ws: Any, init: str, deadline: float) -> None:
        await ws.send_str(json.dumps({"type": "hello", "init": init, "match": self.match_id}))
        pending: dict[str, Any] = {}
        waiting = self.waiting = {}  # requests whose next frame has not come yet
        acted_at: int | None = None
        think_task: asyncio.Task[None] | None = None
        while time.monotonic() < deadline:
            try:
                msg = await ws.receive(timeout=max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                break
            if msg.type != aiohttp.WSMsgType.TEXT:
                break
            frame = json.loads(msg.data)
            self.stats["frames"] += 1
            now = time.perf_counter()
            if frame["type"] == "hello":
                self.seat = frame["seat"]
                continue
            if frame["type"] == "ack":
                sent = pending.pop(frame["id"], None)
                if sent is not None:
                    self.stats["ack"].append(now - sent[0])
                    if not frame["ok"]:
                        self.stats["refused"] += 1
                        acted_at = None
                continue
            if frame["type"] != "state":
                continue
            for rid, (t0, version) in list(waiting.items()):
                if frame["version"] > version:
                    del waiting[rid]
                    self.stats["frame"].append(now - t0)
            if frame["status"] != "playing":
                break
            me = frame.get("me") or {}
            bids = (me.get("actions") or {}).get("bids")
            if bids and frame["table"].get("declaration") is None and acted_at != frame["version"]:
                acted_at = frame["version"]  # declare at once: a deal nobody declares is dealt again
                rid = f"b{self.user_id}x{frame['version']}"
                pending[rid] = waiting[rid] = (time.perf_counter(), frame["version"])
                await ws.send_str(json.dumps({"type": "act", "id": rid, "version": frame["version"],
                                              "op": bids[0]["verb"], "cards": bids[0]["cards"].split(), "arg": None}))
                continue
            if (me.get("actions") or {}).get("turns") and acted_at != frame["version"] and (
                    think_task is None or think_task.done()):
                acted_at = frame["version"]
                think_task = asyncio.create_task(self.act_later(ws, frame["version"], pending))

    async def act_later(self, ws: Any, version: int, pending: dict[str, Any]) -> None:
        await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        cached = self.rt.db.match_cache.get(self.match_id)
        if cached is None or cached[0] != version:
            return
        m = cached[1]
        seat = self.seat
        try:  # Shengji: the computer player's choice (it declares); Guandan: the move clock's (cheap: the
            # page clients share the bot's CPU, and Guandan's computer player enumerates every combination)
            action = m.ai_action(seat, self.rng) if m.game == "shengji" else m.auto_action(seat)
        except Exception:
            return
        if not action:
            return
        words = action.split()
        verb, rest = words[1], words[2:]
        reading = rest[rest.index("as") + 1] if "as" in rest else None
        cards = rest[:rest.index("as")] if "as" in rest else rest
        op = {"bid": "bid", "overturn": "overturn", "pass_bid": "pass_bid", "pass_overturn": "pass_bid", "pass": "pass",
              "bury": "bury", "play": "play", "tribute": "tribute", "return": "tribute", "ask_counts": "ask_counts",
              "choose": "choose"}.get(verb)
        if op is None:
            return
        arg = reading if op == "play" else (cards[0] if op == "choose" else None)
        rid = f"b{self.user_id}x{version}"
        pending[rid] = self.waiting[rid] = (time.perf_counter(), version)
        await ws.send_str(json.dumps({"type": "act", "id": rid, "version": version, "op": op,
                                      "cards": [] if op == "choose" else cards, "arg": arg}))


async def run(tables: int, preset: str, think: float, deals: int, duration: float, database: str | None) -> dict[str, Any]:
    from bot.simulator import BotApiSimulator, SimUserHandle
    from bot.simulator.runner import RealBot

    stats: dict[str, Any] = {"ack": [], "frame": [], "refused": 0, "frames": 0}
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
            async with RealBot(sim, database_url=url, WEBAPP_PORT=0, WEBAPP_DEV=True, AI_DELAY=0.5,
                               DEAL_BATCH=25, DEAL_BATCH_DELAY=0.5, BOT_LANGUAGE="zh-CN") as real:
                rt = real.app.bot_data["runtime"]
                server = real.app.bot_data["webapp"]
                for _group, users in groups:
                    for uid in users:
                        SimUserHandle(sim, uid).start()
                await sim.wait_quiet(quiet=1.0, timeout=600)
                say(f"{tables * 4} people started the bot")
                matches = []
                for i, (group, users) in enumerate(groups):
                    await service.upsert_chat(rt.db, group, "supergroup", f"table {i}")
                    table = await service.create_table(rt.db, group, preset,
                                                       {"deals": deals, "bid_window_seconds": 5}
                                                       if preset.startswith("shengji") else {"deals": deals},
                                                       users[0])
                    for seat, uid in enumerate(users):
                        await service.seat_user(rt.db, table.id, seat, uid)
                    matches.append((table.id, users))
                calls0, cpu0 = sim.stats.message_calls, time.process_time()
                group0 = sim.stats.message_calls_by(chat_kind="supergroup") + sim.stats.message_calls_by(chat_kind="group")
                t0 = time.monotonic()
                deadline = t0 + duration
                async with aiohttp.ClientSession() as session:
                    clients = []
                    for table_id, users in matches:
                        await rt.start_table(table_id, None)
                        row = await service.current_match(rt.db, table_id)
                        if row is None:
                            raise RuntimeError(f"table {table_id} did not start")
                        for uid in users:
                            page = PageBot(server, rt, row.id, uid, think, stats)
                            clients.append(asyncio.create_task(page.run(session, deadline)))
                    done, stuck = await asyncio.wait(clients, timeout=duration + 15)
                    for task in stuck:
                        task.cancel()
                    say(f"clients done: {len(done)}, cancelled: {len(stuck)}")
                elapsed = time.monotonic() - t0
                finished = cards = 0
                for table_id, _ in matches:
                    row = await service.current_match(rt.db, table_id)
                    if row is None:
                        continue
                    finished += row.status == "finished"
                    for record in await service.action_log(rt.db, row.id):
                        words = record.action.split()
                        if len(words) > 2 and words[1] == "play":
                            cards += len(words[2:words.index("as")] if "as" in words else words[2:])
                calls = sim.stats.message_calls - calls0
                group = (sim.stats.message_calls_by(chat_kind="supergroup")
                         + sim.stats.message_calls_by(chat_kind="group") - group0)
                return {
                    "tables": tables, "preset": preset, "deals": deals, "finished": finished,
                    "seconds": round(elapsed, 1), "cards_played": cards, "message_calls": calls,
                    "message_calls_per_card": round(calls / cards, 3) if cards else None,
                    "group_message_calls": group, "private_message_calls": calls - group,
                    "cards_per_table_minute": round(cards / tables / (elapsed / 60), 1) if elapsed else None,
                    "turn_ack_p50_ms": round(percentile(stats["ack"], 50) * 1000, 1),
                    "turn_ack_p99_ms": round(percentile(stats["ack"], 99) * 1000, 1),
                    "turn_frame_p50_ms": round(percentile(stats["frame"], 50) * 1000, 1),
                    "turn_frame_p99_ms": round(percentile(stats["frame"], 99) * 1000, 1),
                    "page_moves": len(stats["ack"]), "refused": stats["refused"], "frames": stats["frames"],
                    "rate_limited_429": sim.stats.rate_limited,
                    "cpu_seconds": round(time.process_time() - cpu0, 1),
                    "max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
                }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="table page load benchmark")
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--preset", default="guandan-team")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a page client thinks (x0.5..1.5)")
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--duration", type=float, default=600.0)
    parser.add_argument("--database", default=None, help="DATABASE_URL (default: SQLite in a temporary folder)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.ERROR)
    faulthandler.register(signal.SIGUSR1)  # kill -USR1 <pid> prints where it is
    say("running")
    result = asyncio.run(run(args.tables, args.preset, args.think, args.deals, args.duration, args.database))
    print(json.dumps(result, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
