"""Storage's errors with stable codes (the bot translates them; docs/storage.md)."""

from __future__ import annotations

from engine.errors import RuleError


class StaleVersion(RuleError):
    """The match moved on since the button was drawn (or another process applied first)."""

    def __init__(self, match_id: int, expected: int | None, current: int) -> None:
        super().__init__(
            "stale_version",
            "This button is out of date (match {match_id} is at move {current})",
            match_id=match_id,
            current=current,
        )
        self.match_id = match_id
        self.expected = expected
        self.current = current


def not_found(what: str, ident: object) -> RuleError:
    return RuleError(f"{what}_not_found", "No such " + what.replace("_", " ") + " ({id})", id=ident)


class ReplayError(RuntimeError):
    """A stored log no longer replays (the engine changed under it): a bug, not a user error."""
