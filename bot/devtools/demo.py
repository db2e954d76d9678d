"""``make demo``: the offline demo (no token needed), in two parts.

Part 1 (play): starts the Bot API simulator, the real bot on SQLite in a temporary folder, and four simulated
people.  They start the bot, join a table in the group through the join buttons, press Start,
and play their seats by typing in their private chats (the engine's computer player chooses
what they type).  A short Shengji match (``deals=3``) and one Guandan deal follow; the demo
prints what the group saw and what one player's private chat saw, then the Telegram calls per
card played and the p50/p99 time from update received to action committed.

Part 2 (tournament, ``bot.devtools.tournament_demo``): a small single-elimination tournament of 8 pairs
from 3 union groups, with the draw and its verification, a late pair forfeiting, the prize list
and the bracket image saved under ``demo-output/``.  ``--only play|tournament`` runs one part.

``--replay shengji|guandan`` prints a computer-played deal in the terminal instead
(``python -m bot.devtools.demo --replay shengji --seed 7``).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
import time
from typing import Any

from bot.devtools.autodrive import drive
from bot.devtools.replay_guandan import print_replay as guandan_replay
from bot.devtools.replay_shengji import print_replay as shengji_replay
from bot.devtools.simulator import BotApiSimulator, SimUserHandle, format_chat
from bot.devtools.simulator.runner import RealBot
from bot.devtools.simulator.transcript import LABELS, chat_title
from bot.devtools.tournament_demo import run_tournament_demo
from bot.presentation.common import seat_name
from bot.presentation.i18n import t
from bot.tables.review_requests import save_match_files
from storage import match_repo, table_repo

PEOPLE = [(2001, "张伟"), (2002, "王芳"), (2003, "李娜"), (2004, "刘洋")]
GROUP = -1002000000001


def _lang(arg: str | None) -> str:
    if arg:
        return arg
    return "en" if os.environ.get("LANG", "").lower().startswith("en") else "zh"


async def run_demo(
    lang: str,
    seed: int,
    rate_scale: float = 20.0,
    shengji_deals: int = 3,
    guandan_deals: int = 1,
    quiet: bool = False,
    out_dir: str = "demo-output",
) -> dict[str, dict[str, Any]]:

    out: dict[str, dict[str, Any]] = {}
    say = (lambda *a: None) if quiet else print
    zh = lang != "en"
    say(
        "== "
        + (
            f"第一部分：群里开桌，四个模拟用户在私聊里打牌（双升 {shengji_deals} 副，掼蛋 {guandan_deals} 副）"
            if zh
            else f"Part 1: a table in a group, four simulated people playing from their private chats "
            f"(Shengji {shengji_deals} deal{'s' if shengji_deals != 1 else ''}, "
            f"Guandan {guandan_deals} deal{'s' if guandan_deals != 1 else ''})"
        )
    )
    say(
        "   "
        + (
            "张伟、王芳、李娜、刘洋 通过按钮入座；每一步由电脑选择，再由他们在私聊里打字出牌。"
            if zh
            else "张伟, 王芳, 李娜 and 刘洋 take their seats with the buttons; the computer player chooses each "
            "move and they type it in their private chats."
        )
    )
    say(
        "   "
        + (
            "下面先是群里看到的（每条消息的最终样子），再是 张伟 的私聊。"
            if zh
            else "Below: what the group saw (each message as it ended), then 张伟's private chat."
        )
    )
    say()
    with tempfile.TemporaryDirectory() as tmp:
        async with BotApiSimulator(rate_scale=rate_scale) as sim:
            code = "en" if lang == "en" else "zh-hans"
            for uid, name in PEOPLE:
                sim.add_user(uid, name, language_code=code)
            sim.add_group(
                GROUP,
                "工会双升掼蛋赛" if lang == "zh" else "Union card club",
                [u for u, _ in PEOPLE],
                [PEOPLE[0][0]],
            )
            async with RealBot(
                sim,
                database_url=f"sqlite+aiosqlite:///{tmp}/demo.db",
                BOT_LANGUAGE="en" if lang == "en" else "zh-CN",
                AI_DELAY=0.0,
                BOT_ADMIN_IDS=[PEOPLE[0][0]],  # seed= (the demo's fixed deals) is for bot admins
                DEAL_BATCH_DELAY=0.05,
                DEAL_BATCH=20,
            ) as real:
                handles = [SimUserHandle(sim, uid) for uid, _ in PEOPLE]
                for h in handles:
                    before = sim.last_bot_message(h.user_id)
                    h.start()
                    await sim.wait_for_message(h.user_id, after=before, timeout=20)
                for game, command, _deals in (
                    (
                        "shengji",
                        f"/newtable shengji-17-deals deals={shengji_deals} bid_window_seconds=1 seed={seed}",
                        shengji_deals,
                    ),
                    ("guandan", f"/newtable guandan-team deals={guandan_deals} seed={seed}", guandan_deals),
                ):
                    calls0 = sim.stats.calls_excluding_polling()
                    methods0 = dict(sim.stats.calls)
                    rl0 = sim.stats.rate_limited
                    rt = real.app.bot_data["runtime"]
                    cards0, lat0 = rt.driver.metrics.cards_played, len(rt.driver.metrics.latencies)
                    last = sim.last_bot_message(GROUP)
                    handles[0].say(GROUP, command)
                    await sim.wait_for_message(
                        GROUP,
                        lambda m: (
                            t(lang, "btn.start") != "btn.start"
                            and t(lang, "btn.start") in str(m.reply_markup)
                        ),
                        after=last,
                        timeout=20,
                    )
                    for seat, h in enumerate(handles):
                        label = t(
                            lang,
                            "btn.join",
                            seat=seat_name(lang, seat),
                        )
                        await h.tap(GROUP, label)
                    await handles[0].tap(GROUP, t(lang, "btn.start"))
                    table = await table_repo.open_table_in_chat(rt.db, GROUP)
                    assert table is not None
                    row = None
                    for _ in range(200):
                        row = await match_repo.current_match(rt.db, table.id)
                        if row is not None:
                            break
                        await asyncio.sleep(0.05)
                    assert row is not None
                    started = time.perf_counter()
                    await drive(
                        sim,
                        lambda: real.app.bot_data.get("runtime") if real.app else None,
                        row.id,
                        {i: h.user_id for i, h in enumerate(handles)},
                        seed=seed,
                        timeout=600,
                        lang=lang,
                    )
                    # the result message may wait on the group's rate limit: wait for it
                    await sim.wait_for_message(
                        GROUP, lambda m: "🏆" in (m.text or ""), after=last, timeout=120
                    )
                    await sim.wait_quiet(quiet=0.5, timeout=60)
                    calls = sim.stats.calls_excluding_polling() - calls0
                    by_method = {
                        k: v - methods0.get(k, 0)
                        for k, v in sim.stats.calls.items()
                        if k != "getUpdates" and v - methods0.get(k, 0)
                    }
                    cards = rt.driver.metrics.cards_played - cards0
                    lats = sorted(rt.driver.metrics.latencies[lat0:])
                    p50 = lats[len(lats) // 2] * 1000 if lats else 0.0
                    p99 = lats[min(len(lats) - 1, int(len(lats) * 0.99))] * 1000 if lats else 0.0
                    out[game] = {
                        "calls": calls,
                        "cards": cards,
                        "calls_per_card": round(calls / max(cards, 1), 3),
                        "p50_ms": round(p50, 1),
                        "p99_ms": round(p99, 1),
                        "actions": len(lats),
                        "seconds": round(time.perf_counter() - started, 1),
                        "rate_limited_429": sim.stats.rate_limited - rl0,
                        "rate_scale": rate_scale,
                        "by_method": by_method,
                    }
                    # the deal review file and one proof per deal, checked as python -m bot.verify_deal does
                    paths, verified, deals = await save_match_files(rt.db, row.id, out_dir, lang, game)
                    out[game].update(
                        review=paths[0] if paths else None, proofs=paths[1:], verified=f"{verified}/{deals}"
                    )
                say(format_chat(sim, GROUP, mode="final", lang=lang, show_time=False))
                say()
                say(private_chat(sim, PEOPLE[0][0], lang))
                say()
                snapshot = hand_snapshot(sim, PEOPLE[0][0], lang)
                if snapshot:
                    say(snapshot)
                    say()
                say(figures_text(out, lang))
                for f in out.values():
                    say(
                        (
                            "牌局回顾 {review} · 每副牌的证明 {n} 个, 核验通过 {ok} (python -m bot.verify_deal {first})"
                            if zh
                            else "Deal review {review} · {n} deal proofs, verified {ok} (python -m bot.verify_deal {first})"
                        ).format(
                            review=f["review"],
                            n=len(f["proofs"]),
                            ok=f["verified"],
                            first=(f["proofs"] or ["…"])[0],
                        )
                    )
    return out


MAX_ITEMS = 10


def _items_line(name: str, items: list[str], lang: str) -> list[str]:
    """A run of what one person typed or tapped, on one or two lines: the first few, then a count."""
    zh = lang != "en"
    shown = items if len(items) <= MAX_ITEMS + 2 else items[:MAX_ITEMS]
    rest = len(items) - len(shown)
    taps = sum(1 for i in items if i.startswith("["))
    verb_zh = "点按" if taps == len(items) else "打字/点按" if taps else "打字"
    verb_en = "tapped" if taps == len(items) else "typed/tapped" if taps else "typed"
    head = (
        f"{name} {verb_zh} {len(items)} 次: "
        if zh
        else f"{name} {verb_en} {len(items)} time{'s' if len(items) != 1 else ''}: "
    )
    body = " · ".join(shown)
    if rest:
        body += f" … 另外 {rest} 次" if zh else f" … {rest} more"
    return [head + body]


def private_chat(sim: Any, user_id: int, lang: str, indent: str = "    ") -> str:
    """A player's private chat, condensed: the bot's messages in their final state (hand messages
    with their edit count), and each run of the player's own typed plays and button taps on one line."""
    labels = LABELS["en" if lang == "en" else "zh"]
    chat = sim.chat(user_id)
    user = sim.users.get(user_id)
    name = user.display_name if user else str(user_id)
    items: list[tuple[int, str, Any]] = [(m.seq, "message", m) for m in chat.messages.values()]
    items += [(e.seq, "press", e) for e in sim.events if e.chat_id == user_id and e.kind == "press"]
    out = [f"══ {chat_title(sim, user_id, lang)} ══"]
    run: list[str] = []

    def flush() -> None:
        if run:
            out.extend(indent + line for line in _items_line(name, run, lang))
            run.clear()

    for _seq, kind, item in sorted(items, key=lambda x: x[0]):
        if kind == "press":
            run.append(f"[{item.text}]")
            continue
        if not item.from_bot:
            text = (item.text or "").strip()
            if text.startswith("/"):
                flush()
                out.append(f"{name}: {text}")
            else:
                run.append(text)
            continue
        flush()
        notes = [labels["edited"].format(n=item.edit_count)] if item.edit_count else []
        if item.deleted:
            notes.append(labels["deleted"])
        out.append(f"{labels['bot']}{' (' + ', '.join(notes) + ')' if notes else ''}:")
        content = item.text if item.text is not None else (item.caption or "")
        out.extend(indent + line for line in content.splitlines())
    flush()
    return "\n".join(out)


def figures_text(out: dict[str, Any], lang: str) -> str:
    """The figures of part 1 (docs/performance.md), one paragraph per game."""
    zh = lang != "en"
    lines = ["== " + ("数字（写在 docs/performance.md）" if zh else "Figures (see docs/performance.md)")]
    for game, f in out.items():
        title = {"shengji": "双升" if zh else "Shengji", "guandan": "掼蛋" if zh else "Guandan"}.get(
            game, game
        )
        methods = ", ".join(f"{k} {v}" for k, v in sorted(f["by_method"].items(), key=lambda kv: -kv[1]))
        if zh:
            lines.append(
                f"  {title}: 出牌 {f['cards']} 张, Telegram 调用 {f['calls']} 次 ({methods}), "
                f"每张牌 {f['calls_per_card']} 次; 收到更新 → 动作落库 p50 {f['p50_ms']} ms / "
                f"p99 {f['p99_ms']} ms ({f['actions']} 个动作); 429 回复 {f['rate_limited_429']} 次; "
                f"用时 {f['seconds']} s"
            )
        else:
            lines.append(
                f"  {title}: {f['cards']} cards played, {f['calls']} Telegram calls ({methods}), "
                f"{f['calls_per_card']} per card; update received → action committed p50 {f['p50_ms']} ms / "
                f"p99 {f['p99_ms']} ms ({f['actions']} actions); 429 answers {f['rate_limited_429']}; "
                f"{f['seconds']} s"
            )
    return "\n".join(lines)


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
        title = (
            "── 张伟 的手牌消息 (第 1 副中途的一个版本) ──"
            if lang == "zh"
            else "── 张伟's hand message (one version, mid-deal 1) ──"
        )
        return (
            f"{title}\n" + "\n".join("    " + line for line in (v.text or "").split("\n")) + "\n" + keyboard
        )
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.devtools.demo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--replay",
        choices=["shengji", "guandan", "both"],
        default=None,
        help="print a computer-played deal in the terminal (no bot, no simulator)",
    )
    parser.add_argument("--seed", type=int, default=2026, help="the deals' seed (same seed, same deals)")
    parser.add_argument(
        "--lang", choices=["zh", "en"], default=None, help="language (default: zh, or en if LANG=en*)"
    )
    parser.add_argument("--deals", type=int, default=3, help="Shengji deals in the demo match")
    parser.add_argument(
        "--only",
        choices=["play", "tournament"],
        default=None,
        help="run only one part (default: both, play first)",
    )
    parser.add_argument(
        "--out",
        default="demo-output",
        help="folder for the deal reviews and proofs (part 1) and the bracket image (part 2)",
    )
    args = parser.parse_args(argv)
    if args.replay is not None:
        if args.replay in ("shengji", "both"):
            shengji_replay(args.seed, args.lang)
        if args.replay in ("guandan", "both"):
            guandan_replay(args.seed, args.lang)
        return 0
    logging.basicConfig(level=logging.WARNING)
    lang = _lang(args.lang)
    ok = True
    if args.only in (None, "play"):
        figures = asyncio.run(run_demo(lang, args.seed, shengji_deals=args.deals, out_dir=args.out))
        ok = all(f.get("rate_limited_429") == 0 for f in figures.values())
    if args.only in (None, "tournament"):
        if args.only is None:
            print()
        result = asyncio.run(run_tournament_demo(lang, out_dir=args.out))
        ok = ok and bool(result.get("finished")) and bool(result.get("verified"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
