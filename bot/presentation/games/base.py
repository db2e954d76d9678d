"""What the per-game presenters share beyond bot/presentation/common.py."""

from __future__ import annotations

import json


def stage_key(*parts: object) -> str:
    """A stage as one comparable text (what a message shows changes when its key does)."""
    return json.dumps(parts, sort_keys=True, default=str, ensure_ascii=False)
