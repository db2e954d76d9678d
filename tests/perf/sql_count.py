"""Benchmark helper: SQL statements per move and per card tap (issue 8's CPU per card).

Plays one whole deal with four simulated people (``tests.perf.message_budget.one_deal``: seats in
``--buttons`` tap their cards and press Play, the others type) and counts every statement the bot sends
to the database (SQLAlchemy's ``before_cursor_execute``), by what caused it: a card tap (or Clear), a move
pressed on the hand keyboard, a typed move, or anything else (the table's own steps, dealing, the
outbox's bookkeeping).  A statement is charged to the button or message whose handler ran it, tasks it
started included (they inherit its context).  Prints the counts, the statements per tap and per move, and
(``--top``) the most frequent statements of each kind.

    .venv/bin/python -m tests.perf.sql_count --games shengji --seed 5 --think 0.3 --rate-scale 5
    .venv/bin/python -m tests.perf.sql_count --shared   # several processes: nothing kept in memory
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import json
import re
from collections import Counter
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

import bot.edge.handlers as handlers
from tests.perf import message_budget

CAUSE: contextvars.ContextVar[str] = contextvars.ContextVar("sql_cause", default="other")
STATEMENTS: dict[str, Counter[str]] = {}
EVENTS: Counter[str] = Counter()


def _shape(sql: str) -> str:
    """A statement without its literal values (the same statement counted as one kind)."""
    sql = re.sub(r"\s+", " ", sql.strip())
    sql = re.sub(r"\(SELECT [^()]*\)", "(subquery)", sql)
    sql = re.sub(r"IN \(__\[POSTCOMPILE_\w+\]\)|IN \([^)]*\)", "IN (…)", sql)
    if sql.startswith("SELECT"):
        table = re.search(r" FROM (\w+)", sql)
        where = re.search(r" WHERE (.*?)( ORDER BY| LIMIT|$)", sql)
        return f"SELECT {table.group(1) if table else '?'} WHERE {where.group(1) if where else ''}"[:140]
    return sql[:140]


def _count(conn: Any, cursor: Any, statement: str, parameters: Any, context: Any, executemany: bool) -> None:
    STATEMENTS.setdefault(CAUSE.get(), Counter())[_shape(statement)] += 1


def _caused(kind: str | None, original: Any) -> Any:
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        token = CAUSE.set(kind or "other")
        try:
            return await original(*args, **kwargs)
        finally:
            CAUSE.reset(token)

    return wrapped


def install() -> None:
    event.listen(Engine, "before_cursor_execute", _count)
    tap, press, typed = handlers._tap, handlers.hand_button, handlers.on_private_text

    async def on_tap(*args: Any, **kwargs: Any) -> Any:
        EVENTS["tap"] += 1
        return await _caused("tap", tap)(*args, **kwargs)

    async def on_press(update: Any, context: Any, button: Any, *args: Any, **kwargs: Any) -> Any:
        if button.op in (handlers.callbacks.HandOp.TAP, handlers.callbacks.HandOp.CLEAR):
            return await press(update, context, button, *args, **kwargs)
        EVENTS["move pressed"] += 1
        return await _caused("move pressed", press)(update, context, button, *args, **kwargs)

    async def on_typed(*args: Any, **kwargs: Any) -> Any:
        EVENTS["move typed"] += 1
        return await _caused("move typed", typed)(*args, **kwargs)

    handlers._tap = on_tap
    handlers.hand_button = on_press
    handlers.on_private_text = on_typed  # registered when the bot starts (after this)


async def main(args: argparse.Namespace) -> None:
    install()
    if args.shared:  # as if several processes shared the database: nothing kept in memory between reads
        from storage.db import Database

        Database.sole_writer = property(lambda self: False, lambda self, value: None)  # type: ignore[assignment]
    buttons = frozenset(int(x) for x in args.buttons.split(",") if x.strip())
    for game in args.games.split(","):
        STATEMENTS.clear()
        EVENTS.clear()
        result = await message_budget.one_deal(
            game, think=args.think, buttons=buttons, seed=args.seed, rate_scale=args.rate_scale
        )
        per = {
            kind: {
                "events": EVENTS[kind],
                "statements": sum(STATEMENTS.get(kind, Counter()).values()),
                "per_event": round(sum(STATEMENTS.get(kind, Counter()).values()) / max(EVENTS[kind], 1), 2),
            }
            for kind in ("tap", "move pressed", "move typed")
        }
        per["other"] = {"statements": sum(STATEMENTS.get("other", Counter()).values())}
        print(
            json.dumps(
                {"game": game, "seed": args.seed, "cards": result["cards"], "statements": per},
                ensure_ascii=False,
            ),
            flush=True,
        )
        if args.top:
            for kind, counter in sorted(STATEMENTS.items()):
                print(f"--- {kind}")
                for shape, n in counter.most_common(args.top):
                    print(f"{n:6d}  {shape}")


if __name__ == "__main__":
    parser = message_budget.deal_arguments(__doc__, think=0.3, rate_scale=5.0)
    parser.add_argument("--shared", action="store_true", help="count as a process sharing the database would")
    parser.add_argument(
        "--top", type=int, default=0, help="print the N most frequent statements of each kind"
    )
    asyncio.run(main(parser.parse_args()))
