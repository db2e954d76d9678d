"""The play side as the tournament side sees it (``bot.tournaments.ports.PlaySide``), read from the
application's runtime (``bot_data["runtime"]``, built when the application starts)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Any, cast

from bot.boot.runtime import Runtime
from bot.delivery.calls import Markup as OutboxMarkup
from bot.edge.refusals import refusal_text
from bot.tournaments.ports import DealGate, Markup, MatchOverHook
from scheduler.deadlines import DeadlineScheduler
from storage.db import Database
from storage.models import TableSeat


class RuntimePlaySide:
    def __init__(self, application: Any) -> None:  # the PTB Application (its type is generic in six ways)
        self.application = application

    @property
    def rt(self) -> Runtime:
        rt: Runtime = self.application.bot_data["runtime"]
        return rt

    @property
    def db(self) -> Database:
        db: Database = self.rt.db
        return db

    @property
    def deadlines(self) -> DeadlineScheduler:
        scheduler: DeadlineScheduler = self.rt.scheduler
        return scheduler

    @property
    def bot_username(self) -> str:
        return self.rt.bot_username or getattr(self.application.bot, "username", None) or "bot"

    @property
    def admin_ids(self) -> Collection[int]:
        return self.rt.settings.BOT_ADMIN_IDS

    @property
    def public_base(self) -> str | None:
        url: str | None = self.rt.settings.WEBAPP_URL
        return url

    def group_lang(self) -> str:
        return self.rt.group_lang()

    async def user_lang(self, user_id: int | None, tg_code: str | None = None) -> str:
        return await self.rt.user_lang(user_id, tg_code)

    @property
    def ready(self) -> bool:
        return self.rt.outbox is not None

    def send(self, chat_id: int, text: str, markup: Markup | None = None) -> asyncio.Future[int | None]:
        return self.rt.messages.send(chat_id, text, markup)

    def edit(self, chat_id: int, message_id: int, text: str, markup: Markup | None) -> None:
        outbox = self.rt.outbox
        if outbox is not None:
            outbox.edit(chat_id, message_id, text, cast(OutboxMarkup, markup))  # the edge's keyboards

    async def send_document(self, chat_id: int, data: bytes, filename: str, caption: str) -> int | None:
        outbox = self.rt.outbox
        return None if outbox is None else await outbox.send_document(chat_id, data, filename, caption)

    async def send_photo(self, chat_id: int, data: bytes, caption: str) -> int | None:
        outbox = self.rt.outbox
        return None if outbox is None else await outbox.send_photo(chat_id, data, caption)

    def match_lock(self, match_id: int) -> asyncio.Lock:
        return self.rt.lock(match_id)

    async def render_lobby(self, table_id: int) -> None:
        await self.rt.lobby.render_lobby(table_id)

    async def start_table(self, table_id: int, seed: int | None = None) -> str | None:
        refused = await self.rt.lobby.start_table(table_id, None, seed=seed)
        return None if refused is None else refusal_text(self.rt.group_lang(), refused)  # for the log

    def kick(self, match_id: int) -> None:
        self.rt.driver.kick(match_id, 0)

    async def user_match(self, user_id: int) -> tuple[int, int] | None:
        return await self.rt.driver.user_match(user_id)

    def index_seats(self, match_id: int, table_id: int, seats: list[TableSeat]) -> None:
        self.rt.seats.add(match_id, table_id, seats)

    async def show_match_again(self, match_id: int) -> None:
        live = self.rt.live
        live.forget_match(match_id)
        await live.render_match(match_id, everything=True)

    def on_match_over(self, hook: MatchOverHook) -> None:
        if hook not in self.rt.match_over_hooks:
            self.rt.match_over_hooks.append(hook)

    def deal_gate(self, gate: DealGate, poll_seconds: float) -> None:
        self.rt.driver.deal_gate = gate
        self.rt.driver.gate_poll = poll_seconds
