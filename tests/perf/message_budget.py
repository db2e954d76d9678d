"""Benchmark: Telegram message calls per card played, four people at one table (issue 8's budget).

Runs the real bot against the Bot API simulator at Telegram's real rates (rate scale 1 unless
asked), four simulated people who look at their turn for ``--think`` seconds, then press the
hand keyboard (seats in ``--buttons``) or type; one whole deal of each game.  Prints, per game,
the message calls (sendMessage, editMessageText, deleteMessage, sendPhoto, sendDocument; never
answerCallbackQuery) per card played, by method.

    .venv/bin/python -m tests.perf.message_budget --think 1.5 --buttons 0,2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from typing import Any

from bot.devtools.autodrive import drive
from bot.devtools.simulator import BotApiSimulator, SimUserHandle
from bot.devtools.simulator.runner import RealBot
from bot.presentation.keyboards import seat_name
from storage import match_repo, table_repo

GROUP = -1001000000009
PEOPLE = [(2001, "张伟"), (2002, "王芳"), (2003, "李娜"), (2004, "刘洋")]
MESSAGE_METHODS = ("sendMessage", "editMessageText", "deleteMessage", "sendPhoto", "sendDocument")
GAMES = {
    "shengji": "/newtable shengji-17-deals deals=1 bid_window_seconds=2 seed={seed}",
    "guandan": "/newtable guandan-team deals=1 seed={seed}",
}


async def one_deal(
    game: str, *, think: float, buttons: frozenset[int], seed: int, rate_scale: float, dump: str = ""
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        async with BotApiSimulator(rate_scale=rate_scale) as sim:
            for uid, name in PEOPLE:
                sim.add_user(uid, name, language_code="zh-hans")
            sim.add_group(GROUP, "工会双升掼蛋赛", [u for u, _ in PEOPLE], [PEOPLE[0][0]])
            async with RealBot(
                sim,
                database_url=f"sqlite+aiosqlite:///{tmp}/budget.db",
                BOT_LANGUAGE="zh-CN",
                AI_DELAY=0.0,
                BOT_ADMIN_IDS=[PEOPLE[0][0]],
            ) as real:  # seed= is an admin's option
                handles = [SimUserHandle(sim, uid) for uid, _ in PEOPLE]
                for h in handles:
                    before = sim.last_bot_message(h.user_id)
                    h.start()
                    await sim.wait_for_message(h.user_id, after=before, timeout=30)
                await sim.wait_quiet(quiet=0.5, timeout=30)
                rt = real.app.bot_data["runtime"]
                last = sim.last_bot_message(GROUP)
                handles[0].say(GROUP, GAMES[game].format(seed=seed))
                await sim.wait_for_message(
                    GROUP, lambda m: "开始" in str(m.reply_markup), after=last, timeout=30
                )
                for seat, h in enumerate(handles):
                    await h.tap(GROUP, f"入座 {seat_name('zh', seat)}")
                calls0 = dict(sim.stats.calls)
                cards0 = rt.driver.metrics.cards_played
                started = time.perf_counter()
                started_wall = time.time()
                await handles[0].tap(GROUP, "▶️ 开始")
                table = await table_repo.open_table_in_chat(rt.db, GROUP)
                row = None
                for _ in range(400):
                    row = await match_repo.current_match(rt.db, table.id)
                    if row is not None:
                        break
                    await asyncio.sleep(0.05)
                assert row is not None
                await drive(
                    sim,
                    lambda: real.app.bot_data.get("runtime") if real.app else None,
                    row.id,
                    {i: h.user_id for i, h in enumerate(handles)},
                    seed=seed,
                    timeout=1800,
                    think=think,
                    buttons=buttons,
                )
                await sim.wait_for_message(GROUP, lambda m: "结束" in (m.text or ""), after=last, timeout=120)
                await sim.wait_quiet(quiet=1.0, timeout=120)
                by_method = {
                    k: v - calls0.get(k, 0)
                    for k, v in sim.stats.calls.items()
                    if k != "getUpdates" and v - calls0.get(k, 0)
                }
                cards = rt.driver.metrics.cards_played - cards0
                actions = [r.action for r in await match_repo.action_log(rt.db, row.id)]
                plays = sum(1 for a in actions if " play " in a or a.endswith(" pass"))
                group = [
                    m for m in sim.bot_messages(GROUP) if m.message_id > (last.message_id if last else 0)
                ]
                group_calls = sum(len(m.versions) for m in group)
                message_calls = sum(by_method.get(k, 0) for k in MESSAGE_METHODS)
                if dump:
                    with open(f"{dump}-{game}.txt", "w") as f:
                        for chat in [GROUP, *(u for u, _ in PEOPLE)]:
                            for msg in sim.bot_messages(chat):
                                if chat == GROUP and msg.message_id <= (last.message_id if last else 0):
                                    continue
                                for i, v in enumerate(msg.versions):
                                    f.write(
                                        f"=== chat={chat} msg={msg.message_id} v={i} at={v.at - started_wall:.2f} "
                                        f"{v.method}\n{v.text}\n"
                                    )
                return {
                    "game": game,
                    "cards": cards,
                    "message_calls": message_calls,
                    "message_calls_per_card": round(message_calls / max(cards, 1), 3),
                    "plays_and_passes": plays,
                    "group_calls": group_calls,
                    "private_calls": message_calls - group_calls,
                    "per_card_by_method": {
                        k: round(v / max(cards, 1), 3) for k, v in sorted(by_method.items())
                    },
                    "rate_limited_429": sim.stats.rate_limited,
                    "minutes": round((time.perf_counter() - started) / 60, 1),
                    "think_s": think,
                    "buttons": sorted(buttons),
                    "seed": seed,
                    "rate_scale": rate_scale,
                }


async def main(args: argparse.Namespace) -> None:
    buttons = frozenset(int(x) for x in args.buttons.split(",") if x.strip())
    for game in args.games.split(","):
        result = await one_deal(
            game,
            think=args.think,
            buttons=buttons,
            seed=args.seed,
            rate_scale=args.rate_scale,
            dump=args.dump,
        )
        print(json.dumps(result, ensure_ascii=False), flush=True)


def deal_arguments(doc: str | None, *, think: float, rate_scale: float) -> argparse.ArgumentParser:
    """The command line of a benchmark that plays ``one_deal`` per game (this one's and ``sql_count``'s)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", default="shengji,guandan")
    parser.add_argument("--think", type=float, default=think)
    parser.add_argument(
        "--buttons", default="0,2", help="seats that press the hand keyboard (the others type)"
    )
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rate-scale", type=float, default=rate_scale)
    return parser


if __name__ == "__main__":
    parser = deal_arguments(__doc__, think=1.5, rate_scale=1.0)
    parser.add_argument("--dump", default="", help="write every version of every message to DUMP-<game>.txt")
    asyncio.run(main(parser.parse_args()))
