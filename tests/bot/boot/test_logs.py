"""LOG_FORMAT=json (bot/boot/logs.py): one JSON object a line, carrying the ids of what each task handles."""

from __future__ import annotations

import asyncio
import io
import json
import logging

from bot.boot.logs import JsonFormatter, bind, bind_update


def _capture() -> tuple[logging.Logger, io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("tests.logs")
    logger.handlers = [handler]
    logger.propagate = False
    logger.setLevel(logging.INFO)
    return logger, out


async def test_each_update_s_lines_carry_its_own_ids():
    logger, out = _capture()

    async def handle(update_id: int, match_id: int | None) -> None:
        await bind_update(type("U", (), {"update_id": update_id})(), None)
        await asyncio.sleep(0.01)
        bind(match_id=match_id, table_id=None)
        await asyncio.sleep(0.01)  # the other update runs meanwhile
        logger.info("applied %s", update_id)

    await asyncio.gather(asyncio.create_task(handle(1001, 7)), asyncio.create_task(handle(1002, None)))
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    by_update = {line["update_id"]: line for line in lines}
    assert by_update[1001]["match_id"] == 7 and by_update[1001]["message"] == "applied 1001"
    assert "match_id" not in by_update[1002] and "table_id" not in by_update[1002]
    assert {"time", "level", "logger"} <= set(by_update[1001]) and by_update[1001]["level"] == "INFO"


def test_an_exception_is_one_line_with_its_traceback_inside():
    logger, out = _capture()
    try:
        raise ValueError("不对")
    except ValueError:
        logger.exception("failed")
    (line,) = out.getvalue().splitlines()  # one line: a log collector keeps it together
    parsed = json.loads(line)
    assert parsed["message"] == "failed" and "ValueError: 不对" in parsed["exception"]
