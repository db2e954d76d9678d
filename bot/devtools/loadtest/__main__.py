"""``python -m bot.devtools.loadtest --tables 16 --think 1.5 --db sqlite --rtt 80`` (``make loadtest TABLES=16 ...``)."""

from __future__ import annotations

import argparse
import sys

from bot.devtools.loadtest.run import Options, main_run
from engine.ai.levels import LEVELS


def main(argv: list[str] | None = None) -> int:
    d = Options()
    parser = argparse.ArgumentParser(prog="python -m bot.devtools.loadtest", description=__doc__)
    parser.add_argument(
        "--tables", type=int, default=d.tables, help="tables (one group and four people each)"
    )
    parser.add_argument("--preset", default=d.preset, help="the preset every table plays")
    parser.add_argument("--deals", type=int, default=d.deals, help="deals per match")
    parser.add_argument("--think", type=float, default=d.think, help="seconds a person thinks before a move")
    parser.add_argument(
        "--db",
        choices=["sqlite", "postgres"],
        default=d.db,
        help="sqlite (a fresh file) or postgres (a fresh database on TEST_DATABASE_URL's server)",
    )
    parser.add_argument("--rtt", type=float, default=d.rtt_ms, help="simulated round trip to the Bot API, ms")
    parser.add_argument("--duration", type=float, default=d.duration, help="measured window, seconds")
    parser.add_argument(
        "--warmup-limit",
        type=float,
        default=d.warmup_limit,
        help="longest wait for every table to play before the window opens, seconds",
    )
    parser.add_argument("--type-share", type=float, default=d.type_share, help="share of moves typed, 0..1")
    parser.add_argument(
        "--computers",
        type=int,
        choices=range(4),
        default=d.computers,
        help="computer players at each table (people take the other seats; 2: two partners against them)",
    )
    parser.add_argument("--ai", choices=LEVELS, default=d.ai, help="the computers' level (table option ai=)")
    parser.add_argument("--seed", type=int, default=None, help="first table's seed (default: fresh each run)")
    args = parser.parse_args(argv)
    if args.tables < 1 or args.duration <= 0 or args.think < 0:
        parser.error("tables >= 1, duration > 0 and think >= 0")
    main_run(
        Options(
            tables=args.tables,
            preset=args.preset,
            deals=args.deals,
            think=args.think,
            db=args.db,
            rtt_ms=args.rtt,
            duration=args.duration,
            warmup_limit=args.warmup_limit,
            type_share=args.type_share,
            seed=args.seed,
            computers=args.computers,
            ai=args.ai,
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
