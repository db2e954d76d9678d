"""The bot's log lines: text (the default) or one JSON object a line (``LOG_FORMAT=json``, docs/deploy.md).

Each JSON line has ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, and the ids of what was
being handled when there are some: ``update_id`` (set for each update before any handler runs), ``match_id``
and ``table_id`` (set by the handlers once a press or command names them); ``exception`` holds the
traceback of a logged exception (in the log only, never in a chat).  The ids live in a context variable,
so each update's task carries its own and a line logged by any module while handling it carries them.
"""

from __future__ import annotations

import json
import logging
from contextvars import ContextVar
from datetime import UTC, datetime

from bot.boot.metrics import NULL

TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
IDS = ("update_id", "match_id", "table_id")

_NO_METRICS = NULL
_ids: ContextVar[dict[str, int] | None] = ContextVar("log_ids", default=None)


def bind(**ids: int | None) -> None:
    """Name what the current task is handling (``update_id=``, ``match_id=``, ``table_id=``)."""
    current = dict(_ids.get() or {})
    current.update({k: int(v) for k, v in ids.items() if k in IDS and v is not None})
    _ids.set(current)


def bound() -> dict[str, int]:
    return dict(_ids.get() or {})


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(bound())
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def configure(fmt: str = "text", level: int = logging.INFO) -> None:
    """The root logger's one handler (stderr) in ``fmt`` ("text" or "json")."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


async def bind_update(update: object, context: object) -> None:
    """A handler (group before every other) that names the update being handled."""
    bind(update_id=getattr(update, "update_id", None))
    rt = getattr(context, "bot_data", {}).get("runtime")
    getattr(rt, "metrics", _NO_METRICS).update(update)  # updates by kind (bot/boot/metrics.py)
