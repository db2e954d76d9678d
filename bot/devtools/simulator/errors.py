"""The two kinds of failure of the simulator: a Bot API error answer, and a test asking the impossible."""

from __future__ import annotations

from bot.devtools.simulator.state import JSON


class ApiError(Exception):
    """An error answer of the Bot API: ``{"ok": false, "error_code": code, "description": ...}``."""

    def __init__(self, code: int, description: str, parameters: JSON | None = None) -> None:
        super().__init__(f"{code} {description}")
        self.code = code
        self.description = description
        self.parameters = parameters


class SimulatorError(RuntimeError):
    """A test asked a simulated user to do something a real Telegram client could not do."""
