"""Deprecated: the bot uses ``storage.service`` directly.

Only a re-export for the few callers not moved yet (bot/demo.py, bot/autodrive.py); remove it when
they import ``storage.service``.
"""

from __future__ import annotations

from storage.service import StaleVersion, get_match_row, open_table_in_chat
from storage.service import current_match as match_of_table
from storage.service import load_match_row as load_match

__all__ = ["StaleVersion", "get_match_row", "load_match", "match_of_table", "open_table_in_chat"]
