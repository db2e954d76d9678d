"""``python -m bot.devtools.simulator --port 8081``: run the Bot API simulator standalone.

Point the bot at it with ``TELEGRAM_API_BASE_URL=http://127.0.0.1:8081/bot`` and drive users through
the ``/_sim/...`` control endpoints (docs/simulator.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import signal
import sys

from bot.devtools.simulator.server import BotApiSimulator


def _parse_user(spec: str) -> tuple[int, str]:
    uid, _, name = spec.partition(":")
    return int(uid), name or f"User{uid}"


async def _run(args: argparse.Namespace) -> None:
    sim = BotApiSimulator(
        token=args.token,
        bot_username=args.bot_username,
        rate_scale=args.rate_scale,
        host=args.host,
        port=args.port,
        enforce_rate_limits=not args.no_rate_limits,
    )
    for spec in args.user:
        uid, name = _parse_user(spec)
        sim.add_user(uid, name, started=args.started)
    if args.group is not None:
        members = [u for u in sim.users]
        sim.add_group(args.group, args.group_title, members, members[:1])
    await sim.start()
    print(f"Bot API simulator on {sim.url}  (base_url for the bot: {sim.base_url})", flush=True)
    print(f"token: {args.token or 'any well-formed token'}; rate_scale={args.rate_scale}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    print(json.dumps(sim.stats.snapshot(), ensure_ascii=False, indent=2))
    await sim.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.devtools.simulator", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081, help="0 picks a free port")
    parser.add_argument(
        "--token", default=None, help="accept only this token (default: any well-formed token)"
    )
    parser.add_argument("--bot-username", default="ShengjiSimBot")
    parser.add_argument(
        "--rate-scale", type=float, default=1.0, help="divide every rate-limit window by this"
    )
    parser.add_argument("--no-rate-limits", action="store_true", help="never answer 429")
    parser.add_argument(
        "--user", action="append", default=[], metavar="ID[:NAME]", help="create a user (repeatable)"
    )
    parser.add_argument("--started", action="store_true", help="the --user users have started the bot")
    parser.add_argument(
        "--group",
        type=int,
        default=None,
        metavar="CHAT_ID",
        help="create a group (negative id) with every --user as member, the first as admin",
    )
    parser.add_argument("--group-title", default="Test group")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_run(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
