"""Recompute a published draw: ``python -m bot.verify_draw published.json [announced.json]``.

Prints each check (list hash, commitment, draw seed, order, bracket or groups) and
exits 0 when the draw is verified (and after ``--help``), 1 when a check fails, 2 on bad usage (a file
that cannot be read is one line, no traceback).  All logic is in engine/tournament/draw.py;
docs/draw.md describes the procedure.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.tournament.draw import verify


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m bot.verify_draw", description=__doc__.split("\n\n")[0])
    ap.add_argument("published", help="the published draw (JSON, from the bot's draw announcement)")
    ap.add_argument(
        "announced",
        nargs="?",
        help="the announcement made before the draw (JSON), to check the commitment against",
    )
    try:
        ns = ap.parse_args(argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return 0 if stop.code in (0, None) else 2
    try:
        published = _read(ns.published)
        announced = _read(ns.announced) if ns.announced else None
    except (OSError, ValueError) as exc:
        print(f"cannot read the draw: {exc}")
        return 2
    report = verify(published, announced)
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


def _read(path: str) -> dict[str, object]:
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except ValueError as exc:
            raise ValueError(f"{path} is not JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise ValueError(f"{path} is not a JSON object (a published draw is one)")
    return data


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
