"""Check a deal: ``python -m bot.verify_deal proof.json`` or
``python -m bot.verify_deal --preset shengji-17-deals --seed N --salt HEX --commitment HEX [--first-drawer K]
[--board-turn T]``.

Recomputes the four starting hands and the Shengji kitty from the revealed deal seed, checks the
commitment shown before the deal (the full 64 hex digits, or the first 16 the table message
showed), and, given a proof file with ``hands``/``kitty``, that those are what the seed deals.
Prints every check and the cards; exits 0 when everything holds (and after ``--help``), 1 when a
check fails, 2 on bad usage.  The procedure, to redo by hand in any language: docs/fairness.md.
"""

from __future__ import annotations

import argparse
import json
import sys

from bot.tables.deal_proof import Proof, check_proof

SEATS = ("S", "E", "N", "W")


def _parse(argv: list[str]) -> Proof | int:
    """The deal to check, or the exit code when there is none (0 after ``--help``, 2 on bad usage)."""
    ap = argparse.ArgumentParser(prog="python -m bot.verify_deal", description=__doc__.split("\n\n")[0])
    ap.add_argument("file", nargs="?", help="a deal proof JSON file (from the bot or the demo)")
    ap.add_argument("--preset", help="preset id (shengji-… or guandan-…) or game name")
    ap.add_argument("--game", choices=("shengji", "guandan"))
    ap.add_argument("--seed", help="the revealed deal seed")
    ap.add_argument("--salt", default="", help="the revealed salt (hex)")
    ap.add_argument("--commitment", default="", help="the commitment shown before the deal (hex)")
    ap.add_argument(
        "--first-drawer", type=int, default=0, help="Shengji: seat that drew first (0=S,1=E,2=N,3=W)"
    )
    ap.add_argument(
        "--board-turn",
        type=int,
        choices=range(4),
        default=None,
        help="duplicate boards: the table's turn (0..3), from its proof file or review",
    )
    try:
        ns = ap.parse_args(argv)
    except SystemExit as stop:  # --help (0) or a usage error (2), already printed
        return 0 if stop.code in (0, None) else 2
    if ns.file:
        try:
            with open(ns.file, encoding="utf-8") as f:
                data = json.load(f)
        except (OSError, ValueError) as exc:
            print(f"cannot read {ns.file}: {exc}")
            return 2
        if not isinstance(data, dict):
            print(f"{ns.file}: not a deal proof object")
            return 2
        return data
    if ns.seed is None:
        ap.print_usage()
        return 2
    return {
        "game": ns.game or (ns.preset if ns.preset in ("shengji", "guandan") else None),
        "preset": ns.preset,
        "deal_seed": ns.seed,
        "salt": ns.salt,
        "commitment": ns.commitment,
        "first_drawer": ns.first_drawer,
        **({"board_turn": ns.board_turn} if ns.board_turn is not None else {}),
    }


def main(argv: list[str]) -> int:
    data = _parse(argv)
    if isinstance(data, int):
        return data
    result = check_proof(data)
    head = f"deal {data.get('deal', '?')} · {data.get('preset') or data.get('game')}"
    print(head)
    for line in result.lines:
        print(line)
    for seat, hand in enumerate(result.hands):
        print(f"{SEATS[seat]} ({len(hand)}): {' '.join(sorted(hand, key=_order))}")
    if result.kitty:
        print(f"kitty: {' '.join(result.kitty)}")
    print("VERIFIED" if result.ok else "NOT VERIFIED")
    return 0 if result.ok else 1


def _order(text: str) -> tuple[int, str]:
    return ("♠♥♣♦".find(text[:1]) if text[:1] in "♠♥♣♦" else 4, text)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
