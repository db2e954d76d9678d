"""``make demo``: the offline demo (no token needed).

Starts the Bot API simulator, the real bot on SQLite in a temporary folder, and four simulated
people.  They start the bot, join a table in the group through the join buttons, press Start,
and play their seats by typing in their private chats (the engine's computer player chooses
what they type).  A short Shengji match (``deals=3``) and one Guandan deal follow; the demo
prints what the group saw and what one player's private chat saw, then the Telegram calls per
card played and the p50/p99 time from update received to action committed.

``--replay shengji|guandan`` prints a computer-played deal in the terminal instead
(``python -m bot.demo --replay shengji --seed 7``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
import time

from bot.i18n import t

PEOPLE = [(2001, "张伟"), (2002, "王芳"), (2003, "李娜"), (2004, "刘洋")]
GROUP = -1002000000001


def _lang(arg: str | None) -> str:
    if arg:
        return arg
    return "en" if os.environ.get("LANG", "").lower().startswith("en") else "zh"


async def run_demo(lang: str, seed: int, rate_scale: float = 20.0, shengji_deals: int = 3,
                   guandan_deals: int = 1, quiet: bool = False) -> dict[str, object]:
    from bot import store
    from bot.autodrive import drive
    from bot.simulator import BotApiSimulator, SimUserHandle, format_chat
    from bot.simulator.runner import RealBot

    out: dict[str, object] = {}
    say = (lambda *a: None) if quiet else print
    with tempfile.TemporaryDirectory() as tmp:
        async with BotApiSimulator(rate_scale=rate_scale) as sim:
            code = "en" if lang == "en" else "zh-hans"
            for uid, name in PEOPLE:
                sim.add_user(uid, name, language_code=code)
            sim.add_group(GROUP, "工会双升掼蛋赛" if lang == "zh" else "Union card club", [u for u, _ in PEOPLE],
                          [PEOPLE[0][0]])
            async with RealBot(sim, database_url=f"sqlite+aiosqlite:///{tmp}/demo.db",
                               BOT_LANGUAGE="en" if lang == "en" else "zh-CN", AI_DELAY=0.0,
                               DEAL_BATCH_DELAY=0.05, DEAL_BATCH=20) as real:
                handles = [SimUserHandle(sim, uid) for uid, _ in PEOPLE]
                for h in handles:
                    before = sim.last_bot_message(h.user_id)
                    h.start()
                    await sim.wait_for_message(h.user_id, after=before, timeout=20)
                for game, command, _deals in (
                        ("shengji", f"/newtable shengji-17-deals deals={shengji_deals} bid_window_seconds=1 seed={seed}",
                         shengji_deals),
                        ("guandan", f"/newtable guandan-team deals={guandan_deals} seed={seed}", guandan_deals)):
                    calls0 = sim.stats.calls_excluding_polling()
                    methods0 = dict(sim.stats.calls)
                    rt = real.app.bot_data["runtime"]
                    cards0, lat0 = rt.metrics.cards_played, len(rt.metrics.latencies)
                    last = sim.last_bot_message(GROUP)
                    handles[0].say(GROUP, command)
                    await sim.wait_for_message(GROUP, lambda m: t(lang, "btn.start") != "btn.start" and
                                               t(lang, "btn.start") in str(m.reply_markup), after=last, timeout=20)
                    for seat, h in enumerate(handles):
                        label = t(lang, "btn.join", seat=__import__("bot.views", fromlist=["x"]).seat_name(lang, seat))
                        await h.tap(GROUP, label)
                    await handles[0].tap(GROUP, t(lang, "btn.start"))
                    table = await store.open_table_in_chat(rt.db, GROUP)
                    assert table is not None
                    row = None
                    for _ in range(200):
                        row = await store.match_of_table(rt.db, table.id)
                        if row is not None:
                            break
                        await asyncio.sleep(0.05)
                    assert row is not None
                    started = time.perf_counter()
                    await drive(sim, lambda: real.app.bot_data.get("runtime") if real.app else None, row.id,
                                {i: h.user_id for i, h in enumerate(handles)}, seed=seed, timeout=600)
                    # the result message may wait on the group's rate limit: wait for it
                    await sim.wait_for_message(GROUP, lambda m: "🏆" in (m.text or ""), after=last, timeout=120)
                    await sim.wait_quiet(quiet=0.5, timeout=60)
                    calls = sim.stats.calls_excluding_polling() - calls0
                    by_method = {k: v - methods0.get(k, 0) for k, v in sim.stats.calls.items()
                                 if k != "getUpdates" and v - methods0.get(k, 0)}
                    cards = rt.metrics.cards_played - cards0
                    lats = sorted(rt.metrics.latencies[lat0:])
                    p50 = lats[len(lats) // 2] * 1000 if lats else 0.0
                    p99 = lats[min(len(lats) - 1, int(len(lats) * 0.99))] * 1000 if lats else 0.0
                    out[game] = {"calls": calls, "cards": cards, "calls_per_card": round(calls / max(cards, 1), 3),
                                 "p50_ms": round(p50, 1), "p99_ms": round(p99, 1), "actions": len(lats),
                                 "seconds": round(time.perf_counter() - started, 1),
                                 "rate_limited_429": sim.stats.rate_limited, "by_method": by_method}
                say(format_chat(sim, GROUP, mode="final", lang=lang, show_time=False))
                say()
                say(format_chat(sim, PEOPLE[0][0], mode="final", lang=lang, show_time=False))
                say()
                snapshot = hand_snapshot(sim, PEOPLE[0][0], lang)
                if snapshot:
                    say(snapshot)
                    say()
                for game, figures in out.items():
                    say(f"[{game}] " + ", ".join(f"{k}={v}" for k, v in figures.items()))  # type: ignore[union-attr]
    return out


def hand_snapshot(sim: object, user_id: int, lang: str) -> str | None:
    """One mid-deal version of a player's first hand message, with its keyboard (the chat above
    shows only the final version, when the hand is empty)."""
    your_turn = t(lang, "hand.your_turn")
    header = t(lang, "hand.yours", n="").split("(")[0]
    for msg in sim.bot_messages(user_id):  # type: ignore[attr-defined]
        versions = [v for v in msg.versions if header in (v.text or "")]
        if not versions:
            continue
        turn = [v for v in versions if your_turn in (v.text or "") and v.reply_markup]
        v = turn[len(turn) // 3] if turn else versions[len(versions) // 2]
        rows = (v.reply_markup or {}).get("inline_keyboard", [])
        keyboard = "\n".join("    [" + "] [".join(b.get("text", "") for b in row) + "]" for row in rows)
        title = "── 张伟 的手牌消息 (第 1 副中途的一个版本) ──" if lang == "zh" else \
            "── 张伟's hand message (one version, mid-deal 1) ──"
        return f"{title}\n" + "\n".join("    " + line for line in (v.text or "").split("\n")) + "\n" + keyboard
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.demo", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--replay", choices=["shengji", "guandan", "both"], default=None,
                        help="print a computer-played deal in the terminal (no bot, no simulator)")
    parser.add_argument("--seed", type=int, default=2026, help="the deals' seed (same seed, same deals)")
    parser.add_argument("--lang", choices=["zh", "en"], default=None, help="language (default: zh, or en if LANG=en*)")
    parser.add_argument("--deals", type=int, default=3, help="Shengji deals in the demo match")
    args = parser.parse_args(argv)
    if args.replay is not None:
        if args.replay in ("shengji", "both"):
            from bot.replay_shengji import print_replay as shengji_replay
            shengji_replay(args.seed, args.lang)
        if args.replay in ("guandan", "both"):
            from bot.replay_guandan import print_replay as guandan_replay
            guandan_replay(args.seed, args.lang)
        return 0
    logging.basicConfig(level=logging.WARNING)
    asyncio.run(run_demo(_lang(args.lang), args.seed, shengji_deals=args.deals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
