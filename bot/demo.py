"""``make demo``: the offline demo.

``--replay shengji|guandan`` prints a computer-played deal in the terminal, one trick per
block (``python -m bot.demo --replay shengji --seed 7``).
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.demo", description=__doc__)
    parser.add_argument("--replay", choices=["shengji", "guandan", "both"], default="both",
                        help="print a computer-played deal in the terminal")
    parser.add_argument("--seed", type=int, default=2026, help="the deal's seed (same seed, same deal)")
    parser.add_argument("--lang", choices=["zh", "en"], default=None, help="language (default: zh, or en if LANG=en*)")
    args = parser.parse_args(argv)
    if args.replay in ("shengji", "both"):
        from bot.replay_shengji import print_replay as shengji_replay
        shengji_replay(args.seed, args.lang)
    if args.replay in ("guandan", "both"):
        from bot.replay_guandan import print_replay as guandan_replay
        guandan_replay(args.seed, args.lang)
    return 0


if __name__ == "__main__":
    sys.exit(main())
