"""Bot API request parameters, read the way Telegram reads them (query string, JSON, forms)."""

from __future__ import annotations

import json
from typing import Any

from bot.devtools.simulator.errors import ApiError


class Params:
    """Request parameters from a query string, JSON body, urlencoded or multipart form.

    Values from forms are strings (python-telegram-bot JSON-encodes non-string values).
    """

    def __init__(
        self, values: dict[str, Any], files: dict[str, tuple[bytes, str | None, str | None]]
    ) -> None:
        self.values = values
        self.files = files

    def has(self, name: str) -> bool:
        return self.values.get(name) not in (None, "") or name in self.files

    def raw(self, name: str) -> Any:
        return self.values.get(name)

    def text(self, name: str, default: str | None = None) -> str | None:
        value = self.values.get(name)
        if value is None:
            return default
        return value if isinstance(value, str) else json.dumps(value)

    def integer(self, name: str, default: int | None = None) -> int | None:
        value = self.values.get(name)
        if value in (None, ""):
            return default
        try:
            return int(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def number(self, name: str, default: float = 0.0) -> float:
        value = self.values.get(name)
        if value in (None, ""):
            return default
        try:
            return float(value)
        except (TypeError, ValueError):
            raise ApiError(400, f"Bad Request: invalid {name} specified") from None

    def flag(self, name: str, default: bool = False) -> bool:
        value = self.values.get(name)
        if value is None:
            return default
        if isinstance(value, bool):
            return value
        return str(value).lower() in ("true", "1", "yes")

    def obj(self, name: str, what: str | None = None) -> Any:
        value = self.values.get(name)
        if value is None or value == "":
            return None
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                raise ApiError(400, f"Bad Request: can't parse {what or name} JSON object") from None
        return value
