"""Tournament outputs (pure renderers over engine/tournament data): the bracket image (PNG),
CSV / xlsx exports and short texts (zh / en).  See docs/outputs.md.

    from bot.presentation.tournament import bracket_png, export_all, standings_text, ensure_cjk_font

The bot calls :func:`ensure_cjk_font` at start-up: a missing CJK font is a clear error
(FontMissing, saying what to install) instead of tofu boxes in the bracket image.
"""

from bot.presentation.tournament.bracket_image import bracket_png, readable_from_round, render_bracket
from bot.presentation.tournament.export import (
    ExportFile,
    entries_table,
    export_all,
    export_csv,
    export_xlsx,
    matches_table,
    ranking_table,
)
from bot.presentation.tournament.fonts import FontMissing, cjk_font_path, ensure_cjk_font, load_font
from bot.presentation.tournament.labels import match_title, prize_name, round_title
from bot.presentation.tournament.model import DEFAULT_TZ, MatchView, match_views
from bot.presentation.tournament.text import (
    TELEGRAM_LIMIT,
    result_line,
    results_text,
    schedule_text,
    split_message,
    standings_text,
)

__all__ = [
    "DEFAULT_TZ",
    "TELEGRAM_LIMIT",
    "ExportFile",
    "FontMissing",
    "MatchView",
    "bracket_png",
    "cjk_font_path",
    "ensure_cjk_font",
    "entries_table",
    "export_all",
    "export_csv",
    "export_xlsx",
    "load_font",
    "match_title",
    "match_views",
    "matches_table",
    "prize_name",
    "ranking_table",
    "readable_from_round",
    "render_bracket",
    "result_line",
    "results_text",
    "round_title",
    "schedule_text",
    "split_message",
    "standings_text",
]
