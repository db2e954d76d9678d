"""``make webapp``: a local card table to play in a desktop browser, without Telegram or a token.

Starts the Bot API simulator, the real bot (SQLite in a temporary folder) with the table page in
DEV mode (``initData`` signed with a secret generated at start-up: never valid against the real
Telegram), opens a table of the chosen preset with three computer players, seats you at 南/S and
prints the link of your seat (and of a spectator).  Ctrl-C stops it.

    python -m bot.devtools.webapp_local --preset guandan-team --lang en --port 8080
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import secrets
import tempfile
from typing import Any

from bot.devtools.simulator import BotApiSimulator, SimUserHandle
from bot.devtools.simulator.runner import RealBot
from bot.presentation.i18n import t
from bot.presentation.keyboards import seat_name
from storage import match_repo, table_repo

LOCAL_USER = (1001, "你", "zh-hans")
LOCAL_USER_EN = (1001, "You", "en")
GROUP = -1009000000001


async def open_local_table(
    sim: Any,
    real: Any,
    command: str,
    user_id: int,
    *,
    lang: str = "zh",
    group_id: int = GROUP,
    timeout: float = 30.0,
) -> int:
    """The user (who started the bot) opens ``command`` in the group, sits at seat 0 and starts it;
    the match id."""
    handle = SimUserHandle(sim, user_id)
    last = sim.last_bot_message(group_id)
    handle.say(group_id, command)
    start_label = t(lang, "btn.start")
    await sim.wait_for_message(
        group_id, lambda m: start_label in str(m.reply_markup), after=last, timeout=timeout
    )
    rt = real.app.bot_data["runtime"]
    table = await table_repo.open_table_in_chat(rt.db, group_id)
    if table is None:
        raise RuntimeError(f"no table opened by {command!r}")
    seats = await table_repo.get_seats(rt.db, table.id)
    if seats[0].user_id != user_id:
        await handle.tap(group_id, t(lang, "btn.join", seat=seat_name(lang, 0)))
    await handle.tap(group_id, start_label)
    for _ in range(400):
        row = await match_repo.current_match(rt.db, table.id)
        if row is not None:
            return int(row.id)
        await asyncio.sleep(0.05)
    raise RuntimeError("the table did not start")


@contextlib.asynccontextmanager
async def local_bot(
    folder: str, *, port: int = 0, lang: str = "zh", rate_scale: float = 20.0, **settings: Any
) -> Any:
    """Simulator + the real bot with the page in DEV mode; yields (sim, real bot, page server, user id)."""
    uid, name, code = LOCAL_USER_EN if lang == "en" else LOCAL_USER
    async with BotApiSimulator(rate_scale=rate_scale) as sim:
        sim.add_user(uid, name, language_code=code)
        sim.add_group(GROUP, "Local table" if lang == "en" else "本地牌桌", [uid], [uid])
        values: dict[str, Any] = {
            "BOT_LANGUAGE": "en" if lang == "en" else "zh-CN",
            "WEBAPP_PORT": port,
            "BOT_ADMIN_IDS": [uid],  # the one local person runs the local bot
            "WEBAPP_DEV": True,
            "WEBAPP_DEV_SECRET": secrets.token_urlsafe(32),
            "AI_DELAY": 0.8,
            "DEAL_BATCH": 10,
            "DEAL_BATCH_DELAY": 0.15,
        }
        values.update(settings)
        async with RealBot(sim, database_url=f"sqlite+aiosqlite:///{folder}/local.db", **values) as real:
            handle = SimUserHandle(sim, uid)
            before = sim.last_bot_message(uid)
            handle.start()
            await sim.wait_for_message(uid, after=before, timeout=20)
            yield sim, real, real.app.bot_data["webapp"], uid


async def main_async(preset: str, options: list[str], lang: str, port: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        async with local_bot(folder, port=port, lang=lang) as (sim, real, server, uid):
            command = " ".join(["/newtable", preset, *options, "bots=3"])
            match_id = await open_local_table(sim, real, command, uid, lang=lang)
            name = sim.users[uid].first_name
            print(
                "DEV mode: a local table, no Telegram. Open in a browser:"
                if lang == "en"
                else "开发模式: 本地牌桌, 不连 Telegram。在浏览器里打开:"
            )
            print("  " + server.dev_link(match_id, uid, name, "en" if lang == "en" else "zh-hans"))
            print(
                ("  spectator: " if lang == "en" else "  观战: ")
                + server.dev_link(match_id, 999_999_999, "spectator", "en" if lang == "en" else "zh-hans")
            )
            print("Ctrl-C stops." if lang == "en" else "Ctrl-C 结束。")
            while True:
                await asyncio.sleep(3600)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--preset", default="shengji-17-deals")
    parser.add_argument("--lang", choices=("zh", "en"), default="zh")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("options", nargs="*", help="option=value overrides, e.g. deals=1")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main_async(args.preset, args.options, args.lang, args.port))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
