"""Telegram handlers of tournament administration: the command table and the registration of the handlers.

Registered in handler group -1 (before the play side's handlers): a handler that deals with an
update raises ``ApplicationHandlerStop``; anything else falls through to the play side.  The
commands live by audience: organiser.py, player.py, referee.py, outputs.py; the buttons in buttons.py;
call.py is what every command runs under.
"""

from __future__ import annotations

from typing import Any

from telegram.ext import CallbackQueryHandler, CommandHandler, MessageHandler, filters

from bot.edge.tournament.buttons import on_button, on_replaced_press
from bot.edge.tournament.call import Handler
from bot.edge.tournament.organiser import (
    cmd_cancel,
    cmd_cancel_tournament,
    cmd_close,
    cmd_dashboard,
    cmd_delete_tournament,
    cmd_draw,
    cmd_edit,
    cmd_end_swiss,
    cmd_move_table,
    cmd_public_page,
    cmd_reschedule,
    cmd_role,
    cmd_swap,
    cmd_table_register,
    cmd_tournament,
    cmd_tournament_group,
    on_document,
    on_private_text,
)
from bot.edge.tournament.outputs import (
    cmd_bracket,
    cmd_export,
    cmd_help,
    cmd_me,
    cmd_results,
    cmd_schedule,
    cmd_standings,
)
from bot.edge.tournament.page_settings import cmd_page_settings
from bot.edge.tournament.referee import (
    cmd_audit,
    cmd_extend,
    cmd_forfeit,
    cmd_pause,
    cmd_result,
    cmd_resume,
    cmd_reverse,
    cmd_start_match,
    cmd_substitute,
    cmd_undo_forfeit,
    cmd_violation,
)
from bot.edge.tournament.registration import (
    cmd_entries,
    cmd_register,
    cmd_remove,
    cmd_replace,
    cmd_team,
    cmd_withdraw,
    on_start_payload,
)
from bot.edge.tournament.season_commands import COMMANDS as SEASON_COMMANDS

GROUP = -1


COMMANDS: dict[str, Handler] = {
    "tournament": cmd_tournament,
    "cancel": cmd_cancel,
    "tournament_group": cmd_tournament_group,
    "table_register": cmd_table_register,
    "withdraw": cmd_withdraw,
    "register": cmd_register,
    "remove": cmd_remove,
    "replace": cmd_replace,
    "team": cmd_team,
    "entries": cmd_entries,
    "role": cmd_role,
    "audit": cmd_audit,
    "draw": cmd_draw,
    "close_registration": cmd_close,
    "result": cmd_result,
    "forfeit": cmd_forfeit,
    "undo_forfeit": cmd_undo_forfeit,
    "violation": cmd_violation,
    "reverse": cmd_reverse,
    "pause": cmd_pause,
    "resume": cmd_resume,
    "start_match": cmd_start_match,
    "substitute": cmd_substitute,
    "extend": cmd_extend,
    "edit": cmd_edit,
    "reschedule": cmd_reschedule,
    "swap": cmd_swap,
    "move_table": cmd_move_table,
    "cancel_tournament": cmd_cancel_tournament,
    "delete_tournament": cmd_delete_tournament,
    "dashboard": cmd_dashboard,
    "bracket": cmd_bracket,
    "standings": cmd_standings,
    "schedule": cmd_schedule,
    "results": cmd_results,
    "export": cmd_export,
    "tournament_help": cmd_help,
    "end_swiss": cmd_end_swiss,
    "public_page": cmd_public_page,
    "page_settings": cmd_page_settings,
    "me": cmd_me,
    **SEASON_COMMANDS,  # /season, /seasons, /season_new, /season_add, /season_remove (season_commands.py)
}


def register(app: Any) -> None:  # the PTB Application (generic in six types it fills in itself)
    app.add_handler(CommandHandler("start", on_start_payload, filters=filters.ChatType.PRIVATE), group=GROUP)
    for name, fn in COMMANDS.items():
        app.add_handler(CommandHandler(name, fn), group=GROUP)
    app.add_handler(CallbackQueryHandler(on_button, pattern=r"^T:"), group=GROUP)
    app.add_handler(CallbackQueryHandler(on_replaced_press), group=GROUP)
    app.add_handler(
        MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, on_private_text),
        group=GROUP,
    )
    app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.Document.ALL, on_document), group=GROUP)
