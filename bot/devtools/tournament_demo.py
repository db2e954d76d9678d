"""The tournament part of ``make demo``: ``python -m bot.devtools.tournament_demo [--lang zh|en] [--seed N]``.

A small single-elimination tournament run end to end against the Bot API simulator with the real
bot: 8 pairs of simulated people from 3 union groups register (one pair through the Register
button and a partner invitation, the others registered by the organiser), the deadline closes
registration, the verifiable draw is made and checked, every round is checked in and played by the
engine's computer player typing for the people (1 deal per match to keep it short), one pair
arrives 5 minutes late, inside the lateness limit, checks in and plays, another never comes and
forfeits at the limit, and the final prize list is printed.  The bracket image (or its text)
is saved under ``demo-output/``.

Clocks are accelerated: the deadline scheduler runs on a manual clock that jumps to the next
timer between rounds and advances 5 s every 0.1 s while the tables play.  The declaration window
is therefore 20 s of that clock (0.4 s real), and a table may redeal up to 20 times before it
pauses: with a 1 s window nobody could declare in time, and three redeals paused the table.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import sys
import tempfile
import types
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.devtools.autodrive import drive
from bot.devtools.simulator import BotApiSimulator
from bot.devtools.simulator.runner import RealBot
from bot.edge.app import build_application
from bot.edge.tournament import register_tournament_handlers
from bot.tournaments import views
from engine.tournament import verify
from scheduler.clock import ManualClock
from storage import match_repo, table_repo
from storage import tournaments as ts

ORGANISER = 3000
GROUP = -1003000000001
TABLES = [-1003000000011, -1003000000012, -1003000000013, -1003000000014]
UNION = [("机关", "Admin"), ("理学院", "Science"), ("医学院", "Medicine")]
NAMES = [
    "赵一",
    "钱二",
    "孙三",
    "李四",
    "周五",
    "吴六",
    "郑七",
    "王八",
    "冯九",
    "陈十",
    "褚明",
    "卫东",
    "蒋华",
    "沈阳",
    "韩梅",
    "杨柳",
]


async def run_tournament_demo(
    lang: str = "zh", seed: int = 7, out_dir: str = "demo-output", quiet: bool = False, pairs: int = 8
) -> dict[str, Any]:
    """Run the tournament; ``pairs`` (4..8) entries, the first registering through the button."""
    if not 4 <= pairs <= 8:
        raise ValueError("pairs must be between 4 and 8")

    say = (lambda *a: None) if quiet else print
    result: dict[str, Any] = {}
    clock = ManualClock(datetime.now(UTC).replace(second=0, microsecond=0))
    players = [4001 + i for i in range(2 * pairs)]
    with tempfile.TemporaryDirectory() as tmp:
        async with BotApiSimulator(rate_scale=20.0) as sim:
            code = "en" if lang == "en" else "zh-hans"
            sim.add_user(
                ORGANISER, "组织者" if lang == "zh" else "Organiser", username="organiser", language_code=code
            )
            for uid, name in zip(players, NAMES, strict=False):
                sim.add_user(uid, name, username=f"u{uid}", language_code=code)
            sim.add_group(GROUP, "教工双升赛" if lang == "zh" else "Staff Shengji cup", players, [ORGANISER])
            for n, gid in enumerate(TABLES, start=1):
                sim.add_group(gid, f"比赛桌{n}" if lang == "zh" else f"Table {n}", players, [ORGANISER])
            real = RealBot(
                sim,
                database_url=f"sqlite+aiosqlite:///{tmp}/demo.db",
                BOT_LANGUAGE="en" if lang == "en" else "zh-CN",
                BOT_ADMIN_IDS=[ORGANISER],
                AI_DELAY=0.0,
                DEAL_BATCH_DELAY=0.02,
                DEAL_BATCH=25,
            )

            async def start(self: Any) -> Any:
                app = build_application(self.settings())
                register_tournament_handlers(app)
                app.bot_data["tournament_clock"] = clock
                await app.initialize()
                await app.start()
                assert app.updater is not None  # the builder's default: long polling
                await app.updater.start_polling(poll_interval=0.0, timeout=1)
                self.app = app
                self.starts += 1
                return app

            real.start = types.MethodType(start, real)  # type: ignore[method-assign]
            await real.start()
            try:
                result = await _run(sim, real, clock, players, lang, seed, out_dir, say, drive)
            finally:
                await real.stop()
    return result


async def _run(
    sim: Any,
    real: Any,
    clock: ManualClock,
    players: list[int],
    lang: str,
    seed: int,
    out_dir: str,
    say: Any,
    drive: Any,
) -> dict[str, Any]:
    rt = real.app.bot_data["runtime"]
    printed: set[int] = set()

    def show_group() -> None:
        for m in sim.bot_messages(GROUP):
            if m.message_id not in printed:
                printed.add(m.message_id)
                text = m.text or m.caption or ""
                if m.document is not None:
                    text = f"[{m.document['filename']}] {text}"
                say("  | " + text.replace("\n", "\n  | "))

    async def settle() -> None:
        await rt.outbox.flush()
        await sim.wait_quiet(quiet=0.15, timeout=30)

    async def dm(uid: int, text: str, expect: str | None = None) -> Any:
        """Send ``text`` privately; the bot's answer (the first message containing ``expect``: a note the
        bot sends the organiser meanwhile, such as a new entry, is not the answer)."""
        before = sim.last_bot_message(uid)
        sim.user_sends_text(uid, uid, text)
        if expect is None:
            return await sim.wait_for_message(uid, after=before, timeout=20)
        return await sim.wait_for_message(uid, expect, after=before, timeout=20)

    async def run_due(advance: timedelta | None = None, quiet: bool = True) -> None:
        if advance is not None:
            clock.advance(advance)
        await rt.scheduler.run_due()
        if quiet:
            await settle()
        else:
            await rt.outbox.flush()

    for uid in [ORGANISER, *players]:
        before = sim.last_bot_message(uid)
        sim.user_starts_bot(uid)
        await sim.wait_for_message(uid, after=before, timeout=20)
    zh = lang != "en"
    groups = [u[0] if zh else u[1] for u in UNION]

    def local(delta: timedelta) -> str:
        return ts.local_text(clock.now() + delta, "Asia/Shanghai")

    n = len(players) // 2
    say(
        "== "
        + (
            f"第二部分：单败淘汰赛（{n} 对，3 个单位；一对迟到 5 分钟签到照常比赛，一对未到判负）"
            if zh
            else f"Part 2: a single-elimination tournament ({n} pairs from 3 union groups; one pair 5 minutes late "
            f"checks in and plays, one never comes and forfeits)"
        )
    )
    say(
        "   "
        + (
            "组织者在私聊里发规程文件建赛；第一对点按钮报名并邀请搭档，其余由组织者 /register 登记；"
            "时钟加速：报名截止、抽签、签到、开赛按时自动进行，每场 1 副，由电脑代打。"
            if zh
            else "The organiser creates it by sending a spec file in a private chat; the first pair registers "
            "with the button and a partner invitation, the others through /register; clocks are "
            "accelerated: registration closes, the draw, check-in and the matches run on their own, "
            "1 deal a match, played by the computer."
        )
    )
    say(
        "   "
        + (
            "以 | 开头的行是比赛通知群里看到的消息。"
            if zh
            else "Lines starting with | are what the tournament's announcement group saw."
        )
    )
    spec = (
        f'name = "{"教工双升杯" if zh else "Staff Shengji cup"}"\npreset = "shengji-17-deals"\n'
        f'registration_deadline = "{local(timedelta(hours=1))}"\ndraw_at = "{local(timedelta(hours=2))}"\n'
        f'first_round = "{local(timedelta(days=1))}"\nround_gap_minutes = 40\n'
        "[rules]\ndeals = 1\nbid_window_seconds = 20\nmax_redeals_before_pause = 20\n[tournament]\nseparate_union_groups = true\n"
        'reminder_minutes = [15]\nprize_table = "by_round_eliminated"\n'
        'round_prizes = ["third", "second", "first"]\nchampion_prize = "champion"\n'
        + "".join(f'[[union_groups]]\nname = "{g}"\nquota = 3\n' for g in groups)
    )
    reply = await dm(ORGANISER, spec)
    say((reply.text or "").split("\n")[0])
    for chat in [GROUP, *TABLES]:
        before = sim.last_bot_message(chat)
        sim.user_sends_text(ORGANISER, chat, "/tournament_group 1" if chat == GROUP else "/table_register 1")
        await sim.wait_for_message(chat, after=before, timeout=20)
    await settle()
    show_group()
    # the first pair registers through the button and a one-time partner invitation
    ann = next(m for m in sim.bot_messages(GROUP) if any("url" in b for b in m.buttons()))
    link = next(str(b["url"]) for b in ann.buttons() if "url" in b)
    before = sim.last_bot_message(players[0])
    sim.follow_link(players[0], link)
    choose = await sim.wait_for_message(players[0], after=before, timeout=20)
    await sim.press_and_wait(players[0], players[0], choose.message_id, text=groups[0])
    invite = await sim.wait_for_message(players[0], "https://t.me/", after=choose, timeout=20)
    url = next(w for w in (invite.text or "").split() if w.startswith("https://t.me/"))
    before = sim.last_bot_message(players[1])
    sim.follow_link(players[1], url)
    offer = await sim.wait_for_message(players[1], after=before, timeout=20)
    await sim.press_and_wait(players[1], players[1], offer.message_id, text="接受邀请" if zh else "Accept")
    done = await sim.wait_for_message(players[1], "报名成功" if zh else "Registered", after=offer, timeout=20)
    say("  " + (done.text or ""))
    plan = [(i * 3) // n for i in range(1, n)]  # 8 pairs: 机关 3, 理学院 3, 医学院 2
    for i, g in enumerate(plan, start=1):
        r = await dm(
            ORGANISER,
            f"/register {players[2 * i]} {players[2 * i + 1]} {groups[g]}",
            "报名成功" if zh else "Registered",
        )
        say("  " + (r.text or ""))
    await run_due(timedelta(hours=1, minutes=1))
    show_group()
    await run_due(timedelta(hours=1))
    show_group()
    row = await ts.get_tournament(rt.db, 1)
    published = ts.published_draw(row)
    report = verify(published, row.announcement_json)
    say(
        "== "
        + ("抽签复核（python -m bot.verify_draw）" if zh else "Draw verification (python -m bot.verify_draw)")
    )
    for line in report.lines():
        say("  " + line)
    # play: check in whoever is due (one pair never comes to its first match), drive every table that
    # starts, advance the clock 5 s per tick while tables play, jump to the next timer when idle
    first = [m for m in await ts.matches(rt.db, 1) if m.start_at is not None]
    late_entry = first[-1].side_b if first else None  # never comes: forfeits at the limit
    # comes 5 minutes late, inside the limit: checks in, and its table starts then
    late_in = (first[0].match_key, first[0].side_a) if len(first) > 1 else None
    late_told = False
    checked: set[tuple[str, int]] = set()
    driven: dict[int, asyncio.Task[Any]] = {}
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + 600
    while loop.time() < stop_at:
        state = await ts.engine_state(rt.db, 1)
        if state.finished:
            break
        rows = await ts.matches(rt.db, 1)
        for m in rows:
            if m.status not in ("scheduled", "open") or m.start_at is None:
                continue
            if clock.now() < m.start_at - timedelta(minutes=30):
                continue
            for a, b in await ts.match_players(rt.db, m):
                for uid, entry in [(u, m.side_a) for u in a] + [(u, m.side_b) for u in b]:
                    if (m.match_key, uid) in checked or (
                        entry == late_entry and m.match_key == first[-1].match_key
                    ):
                        continue
                    if late_in == (m.match_key, entry) and clock.now() < m.start_at + timedelta(minutes=5):
                        continue
                    if late_in == (m.match_key, entry) and not late_told:
                        late_told = True
                        say(
                            "  "
                            + (
                                f"{m.match_key}：迟到的一对在开赛 5 分钟后签到（时限 "
                                f"{row.settings_json['late_forfeit_minutes']} 分钟内），该桌随即开始。"
                                if zh
                                else f"{m.match_key}: the late pair checks in 5 minutes after the start (inside the "
                                f"{row.settings_json['late_forfeit_minutes']}-minute limit); their table starts."
                            )
                        )
                    checked.add((m.match_key, uid))
                    try:
                        await rt.app.bot_data["tournaments"].tables.check_in(1, m.match_key, uid)
                    except Exception as exc:  # shown, never fatal for the demo
                        say(f"  check-in {uid}: {exc}")
        for m in rows:
            for k, table_id in enumerate(m.game_tables):
                if table_id is None or int(table_id) in driven:
                    continue
                match_row = await match_repo.current_match(rt.db, int(table_id))
                if match_row is None or match_row.status != "playing":
                    continue
                seats = {
                    s.seat: int(s.user_id)
                    for s in await table_repo.get_seats(rt.db, int(table_id))
                    if s.user_id
                }
                driven[int(table_id)] = asyncio.create_task(
                    drive(
                        sim,
                        lambda: real.app.bot_data.get("runtime") if real.app else None,
                        match_row.id,
                        seats,
                        seed=seed + k + len(driven),
                        timeout=300,
                        lang=lang,
                    )
                )
        busy = any(not t.done() for t in driven.values()) or any(
            m.status in ("open", "playing") for m in rows
        )
        if busy:
            await run_due(timedelta(seconds=5), quiet=False)
            await asyncio.sleep(0.1)
        else:
            pending = await rt.scheduler.pending(rt.db)
            if not pending:
                await asyncio.sleep(0.1)
                continue
            clock.set(max(clock.now(), pending[0].due_at))
            await run_due()
        show_group()
    for task in driven.values():
        if not task.done():
            task.cancel()
    await settle()
    show_group()
    state = await ts.engine_state(rt.db, 1)
    say("== " + ("名次与奖项" if zh else "Ranking and prizes"))
    say(views.ranking_text("en" if not zh else "zh", state))
    path = Path(out_dir)
    path.mkdir(parents=True, exist_ok=True)
    saved = None
    try:
        # lazy: the image needs Pillow and a CJK font; without them the text bracket is saved instead
        from bot.presentation.tournament.bracket_image import bracket_png

        saved = path / "tournament-bracket.png"
        saved.write_bytes(bracket_png(state, "en" if not zh else "zh").getvalue())
    except Exception as exc:  # no renderer or no font: save the text bracket instead
        logging.getLogger(__name__).info("bracket image not rendered: %s", exc)
        saved = path / "tournament-bracket.txt"
        names = views.names_of(await ts.entries(rt.db, 1, include_withdrawn=True))
        saved.write_text(views.bracket_text("en" if not zh else "zh", state, names), encoding="utf-8")
    say(("对阵图已保存：" if zh else "Bracket saved: ") + str(saved))
    return {
        "finished": state.finished,
        "verified": report.ok,
        "ranking": [r.to_dict() for r in state.ranking()],
        "bracket": str(saved),
        "rate_limited_429": sim.stats.rate_limited,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--lang", choices=("zh", "en"), default=None, help="language (default: zh, or en if LANG=en*)"
    )
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default="demo-output", help="folder for the bracket image")
    parser.add_argument("--pairs", type=int, default=8, help="number of pairs (4..8)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    lang = args.lang or ("en" if os.environ.get("LANG", "").lower().startswith("en") else "zh")
    out = asyncio.run(run_tournament_demo(lang, args.seed, args.out, pairs=args.pairs))
    return 0 if out.get("finished") and out.get("verified") else 1


if __name__ == "__main__":
    sys.exit(main())
