"""What a live match shows: the group's table message, each seat's private hand message, the group
announcements of events, and what happens when Telegram refuses or loses one of those messages.

Built from the engine's views through ``bot.render``; sent through the outbox (never awaited
for edits).  Part of the running bot (``bot.runtime.Runtime``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from bot import buttons, render
from bot.i18n import t
from bot.webapp import links
from engine.cards import parse_cards
from storage import service

if TYPE_CHECKING:
    from bot.runtime import Runtime

log = logging.getLogger(__name__)


class Live:
    def __init__(self, rt: Runtime) -> None:
        self.rt = rt

    # --- announcements ----------------------------------------------------------------------

    async def announce(self, match_id: int, events: list[Any], *, source: str, seat: int | None = None) -> None:
        rt = self.rt
        interesting = [e for e in events if e.kind in render.ANNOUNCED]
        if not interesting:
            return
        row = await service.get_match_row(rt.db, match_id)
        if row is None:
            return
        table = await service.get_table(rt.db, row.table_id)
        if table is None:
            return
        lang = await rt.chat_lang(table.chat_id)
        names = await rt.lobby.player_names(row.table_id, lang)
        for ev in interesting:
            try:
                text = render.announcement(lang, row.game, ev, names, table.options_json)
            except Exception:
                log.exception("could not render %s", ev.kind)
                text = None
            if text:
                markup = None
                if ev.kind == "paused":
                    from telegram import InlineKeyboardButton, InlineKeyboardMarkup
                    markup = InlineKeyboardMarkup([[InlineKeyboardButton(
                        t(lang, "btn.resume"), callback_data=buttons.ResumeButton(match_id).encode())]])
                rt.send(table.chat_id, text, markup)
            if ev.kind == "match_over":  # the table was marked finished with the result (storage.service)
                await rt.scheduler.cancel(rt.db, "move_clock", f"match:{match_id}")
                await rt.scheduler.cancel(rt.db, "match_time", f"match:{match_id}:time")
                if rt.match_over_hooks:
                    rt.spawn(self._match_over(match_id, dict(ev.data)))

    async def _match_over(self, match_id: int, data: dict[str, Any]) -> None:
        """Run ``match_over_hooks`` (the tournament side records the result and moves the bracket on)."""
        for hook in list(self.rt.match_over_hooks):
            try:
                await hook(match_id, dict(data))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("match_over hook %r failed for match %s", hook, match_id)

    # --- the table message and the hand messages --------------------------------------------

    async def render_match(self, match_id: int) -> None:
        rt = self.rt
        row, m, table, seats = await rt.driver.match_context(match_id)
        if table is None or rt.outbox is None:
            return
        lang = await rt.chat_lang(table.chat_id)
        names = await rt.lobby.player_names(row.table_id, lang)
        deadline = rt.driver.deadlines.get(match_id)
        text, markup = render.table_message(lang, row.game, m.public_view(), names, deadline, rt.bot_username,
                                            rt.lobby.title(lang, table.preset_id), clocks=table.options_json)
        markup = links.with_table_button(markup, rt.settings, rt.bot_username, match_id, lang)  # the table page
        if table.table_message_id is not None:
            rt.outbox.edit(table.chat_id, table.table_message_id, text, markup)
        else:
            mid = await rt.send(table.chat_id, text, markup)
            if mid is not None:
                await service.set_table_message(rt.db, table.id, table.chat_id, mid,
                                                text_hash=rt.outbox.known_hash(table.chat_id, mid))
        users = await service.get_users(rt.db, [s.user_id for s in seats if s.user_id is not None])
        for s in seats:
            if s.user_id is None:
                continue
            u = users.get(s.user_id)
            if u is not None and u.blocked_bot:
                continue  # the table was told; their hand comes back when they /start again
            await self.render_hand(row, m, s.seat, s.user_id, names, lang)

    async def render_hand(self, row: Any, m: Any, seat: int, user_id: int, names: list[str] | None = None,
                          names_lang: str | None = None) -> None:
        rt = self.rt
        assert rt.outbox is not None
        lang = await rt.user_lang(user_id)
        if names is None or lang != names_lang:
            names = await rt.lobby.player_names(row.table_id, lang)
        view = m.seat_view(seat)
        deal = render.deal_marker(row.game, view)
        if deal == 0:
            return  # nothing dealt yet (Guandan before deal 1): the hand message comes with the deal
        sel = await service.get_selection(rt.db, row.id, seat)
        sel_text, sel_deal = (sel.cards_text, sel.deal_no) if sel is not None else ("", None)
        selection = parse_cards(sel_text) if sel_text and sel_deal == deal else []
        text, markup = render.hand_message(lang, row.game, row.id, m, seat, view, selection, names,
                                           rt.driver.deadlines.get(row.id))
        markup = links.with_hand_button(markup, rt.settings, row.id, lang)  # opens the table page (Mini App)
        ref = await service.get_hand_message(rt.db, row.id, seat)
        if ref is not None and ref.deal_no == deal:
            if links.page_open(rt, row.id, user_id):
                return  # the table page shows this hand; the message catches up when the page closes
            rt.outbox.edit(ref.chat_id, ref.message_id, text, markup)
            return
        mid = await rt.send(user_id, text, markup)
        if mid is not None:
            await service.set_hand_message(rt.db, row.id, seat, user_id, mid, deal_no=deal,
                                           text_hash=rt.outbox.known_hash(user_id, mid))

    async def refresh_user(self, user_id: int) -> None:
        """After /start: show the user's current hand again (a new message if needed)."""
        rt = self.rt
        found = await rt.driver.user_match(user_id)
        if found is None:
            return
        match_id, seat = found
        async with rt.lock(match_id):
            row, m = await service.load_match_row(rt.db, match_id)
            await self.render_hand(row, m, seat, user_id)

    # --- outbox hooks -----------------------------------------------------------------------

    async def sent(self, chat_id: int, message_id: int, digest: str) -> None:
        if self.rt.db is not None:
            await service.set_message_hash_of(self.rt.db, chat_id, message_id, digest)

    async def message_gone(self, chat_id: int, message_id: int) -> None:
        """A live message was deleted: forget it and send a new one (in a task: the outbox is waiting)."""
        if self.rt.db is not None:
            self.rt.spawn(self._replace_message(chat_id, message_id))

    async def _replace_message(self, chat_id: int, message_id: int) -> None:
        rt = self.rt
        if rt.db is None:
            return
        ref = await service.find_message_ref(rt.db, chat_id, message_id)
        if ref is None:
            return
        await service.delete_message_ref(rt.db, ref.id)
        if ref.purpose == "table" and ref.table_id is not None:
            await service.set_table_message_id(rt.db, ref.table_id, None)
            table = await service.get_table(rt.db, ref.table_id)
            if table is None:
                return
            if table.status == "open":
                await rt.lobby.render_lobby(table.id)
            else:
                row = await service.current_match(rt.db, table.id)
                if row is not None and table.status == "playing":
                    async with rt.lock(row.id):
                        await self.render_match(row.id)
        elif ref.purpose == "hand" and ref.match_id is not None and ref.seat is not None:
            row = await service.get_match_row(rt.db, ref.match_id)
            if row is not None and row.status == "playing":
                async with rt.lock(row.id):
                    _, m = await service.load_match_row(rt.db, row.id)
                    await self.render_hand(row, m, ref.seat, chat_id)

    async def send_refused(self, chat_id: int, exc: Exception) -> None:
        """A private chat refused a message (blocked, never started): tell that user's table."""
        rt = self.rt
        if chat_id < 0 or rt.db is None:
            return
        before = await service.get_user(rt.db, chat_id)
        if before is not None and before.blocked_bot:
            return  # reported already; nothing is sent to them until they /start again
        await service.set_blocked(rt.db, chat_id, True)
        rt.seen_users = {k for k in rt.seen_users if k[0] != chat_id}
        for table in await service.active_tables(rt.db):
            for seat in await service.get_seats(rt.db, table.id):
                if seat.user_id == chat_id:
                    user = await service.get_user(rt.db, chat_id)
                    name = user.first_name if user else str(chat_id)
                    lang = await rt.chat_lang(table.chat_id)
                    rt.send(table.chat_id, t(lang, "note.cannot_dm", name=name,
                                             seat=render.seat_name(lang, seat.seat)),
                            render.open_chat_button(lang, rt.bot_username, f"t{table.id}"))
