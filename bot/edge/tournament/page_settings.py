"""/page_settings: the organiser sets the table page's hints and who may watch a tournament's tables
(``page_hints``, ``page_watch``; the TOML's ``[tournament]`` keys) in chat.  Open pages follow within
``bot.webapp.hub.POLICY_SECONDS``; a watcher already on a table's page stays until the page closes."""

from __future__ import annotations

from bot.edge.tournament.call import ORG, Call, command
from bot.presentation.i18n import t
from engine.tournament.settings import PAGE_WATCH
from storage import tournaments as ts
from storage.tournaments.page_settings import set_page_setting

USAGE = "/page_settings [#id] hints on|off · /page_settings [#id] watch " + "|".join(PAGE_WATCH)
SWITCH = {"on": True, "off": False}


def shown(lang: str, hints: bool, watch: str) -> str:
    return t(
        lang,
        "pageset.now",
        hints=t(lang, "pageset.hints_" + ("on" if hints else "off")),
        watch=t(lang, "pageset.watch_" + watch),
    )


@command(ORG)
async def cmd_page_settings(c: Call) -> None:
    """/page_settings [#id] [hints on|off | watch anyone|participants|referees]: shows or sets them."""
    words = [w.lower() for w in c.args]
    value: bool | str
    if not words:
        settings = ts.settings_of(c.row)
        c.reply(shown(c.lang, settings.page_hints, settings.page_watch))
        return
    if len(words) == 2 and words[0] == "hints" and words[1] in SWITCH:
        key, value = "page_hints", SWITCH[words[1]]
    elif len(words) == 2 and words[0] == "watch" and words[1] in PAGE_WATCH:
        key, value = "page_watch", words[1]
    else:
        c.reply(t(c.lang, "pageset.usage", usage=USAGE))
        return
    settings = await set_page_setting(c.tb.ctx.db, c.row.id, c.user.id, key, value)
    c.reply(t(c.lang, "pageset.done") + "\n" + shown(c.lang, settings.page_hints, settings.page_watch))
