"""User text shown back (an echo in a refusal, a name, an option typed): one line, at most ``ECHO_MAX``
characters, so a wall of text typed comes back as a short echo.  Pure text: the edge and the logic both
use it (``bot/edge/bad_input.py`` clips a rule error's params with it)."""

from __future__ import annotations

ECHO_MAX = 30


def clip(text: object, limit: int = ECHO_MAX) -> str:
    """User text shown back: one line, at most ``limit`` characters (an ellipsis when cut)."""
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"
