"""Opening the table page from Telegram: a ``web_app`` button on the private hand message, and a link
for spectators on the group's table message (``t.me/<bot>/<short name>?startapp=m<match>``: Telegram
allows ``web_app`` buttons only in private chats).  Nothing is added unless ``WEBAPP_URL`` (a public
HTTPS base) is configured; chat play is unchanged either way."""

from __future__ import annotations

from typing import Protocol

from bot.presentation.i18n import t
from bot.presentation.markup import MAX_BUTTONS, Button, Keyboard
from bot.webapp.server import HasBotData, running_server


class WithApp(Protocol):
    """The running bot as the page's links read it: its Application (none before start-up)."""

    @property
    def app(self) -> HasBotData | None: ...


def page_open(runtime: WithApp, match_id: int, user_id: int) -> bool:
    """Whether the seat's player has the table page open (on this process): the chat's hand message is
    then not edited at every card (Mini App mode); it is brought up to date when the page closes."""
    server = running_server(runtime.app)
    return server is not None and server.hub.watching(match_id, user_id)


def page_url(settings: object, match_id: int) -> str | None:
    base = (getattr(settings, "WEBAPP_URL", None) or "").rstrip("/")
    if not base.startswith("https://"):
        return None  # Telegram opens Mini Apps only from https addresses
    return f"{base}/?m={match_id}"


def with_hand_button(markup: Keyboard | None, settings: object, match_id: int, lang: str) -> Keyboard | None:
    """The hand message's keyboard with an "Open the table" ``web_app`` button on top (when configured)."""
    url = page_url(settings, match_id)
    if url is None or (markup is not None and markup.count() >= MAX_BUTTONS):
        return markup
    button = Button(t(lang, "web.open_table"), web_app=url)
    return markup.with_row_on_top([button]) if markup is not None else Keyboard(((button,),))


def with_table_button(
    markup: Keyboard | None, settings: object, bot_username: str | None, match_id: int, lang: str
) -> Keyboard | None:
    """The group table message's keyboard with a "Watch" link to the Mini App (when configured)."""
    short = getattr(settings, "WEBAPP_SHORT_NAME", None)
    if not bot_username or not short or page_url(settings, match_id) is None:
        return markup
    button = Button(
        t(lang, "web.watch_table"), url=f"https://t.me/{bot_username}/{short}?startapp=m{match_id}"
    )
    return markup.with_button_at_end(button) if markup is not None else Keyboard(((button,),))
