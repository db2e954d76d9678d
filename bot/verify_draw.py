"""Recompute a published draw: ``python -m bot.verify_draw published.json [announced.json]``.

Prints each check (list hash, commitment, draw seed, order, bracket or groups) and
exits 0 when the draw is verified, 1 otherwise.  All logic is in engine/tournament/draw.py;
docs/draw.md describes the procedure.
"""

from __future__ import annotations

import json
import sys

from engine.tournament.draw import verify


def main(argv: list[str]) -> int:
    if not argv or len(argv) > 2:
        print("usage: python -m bot.verify_draw published.json [announced.json]")
        return 2
    with open(argv[0], encoding="utf-8") as f:
        published = json.load(f)
    announced = None
    if len(argv) == 2:
        with open(argv[1], encoding="utf-8") as f:
            announced = json.load(f)
    report = verify(published, announced)
    print("\n".join(report.lines()))
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
