"""What every part of the tournament side shares: the play side's ports, the database, the deadline
scheduler's clock, one lock per tournament, the background tasks, and the few helpers every part uses
(the entries' names, the table groups' titles, telling a match's people)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine, Mapping
from datetime import datetime

from bot.tournaments import views
from bot.tournaments.ports import Markup, PlaySide
from scheduler.deadlines import DeadlineScheduler
from storage import tournaments as ts
from storage.db import Database
from storage.tournament_models import Tournament, TournamentMatch


class TournamentContext:
    def __init__(self, play: Callable[[], PlaySide]) -> None:
        """``play`` gives the play side (built and started with the application, after this)."""
        self._play = play
        self._locks: dict[int, asyncio.Lock] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        # something a live dashboard shows changed (set by wiring.py to LiveDashboards.changed)
        self.dashboard_changed: Callable[[int], None] = lambda tid: None

    @property
    def play(self) -> PlaySide:
        return self._play()

    @property
    def db(self) -> Database:
        return self.play.db

    @property
    def deadlines(self) -> DeadlineScheduler:
        return self.play.deadlines

    def now(self) -> datetime:
        return self.deadlines.now()

    def lock(self, tid: int) -> asyncio.Lock:
        lk = self._locks.get(tid)
        if lk is None:
            lk = self._locks[tid] = asyncio.Lock()
        return lk

    def glang(self) -> str:
        return self.play.group_lang()

    async def ulang(self, user_id: int | None, tg_code: str | None = None) -> str:
        return await self.play.user_lang(user_id, tg_code)

    def send(
        self, chat_id: int | None, text: str, markup: Markup | None = None
    ) -> asyncio.Future[int | None] | None:
        if chat_id is None:
            return None
        return self.play.send(chat_id, text, markup)

    async def send_document(
        self, chat_id: int, data: bytes, filename: str, caption: str = "", photo: bool = False
    ) -> int | None:
        """Send a file (or, ``photo``, a picture) through the outbox: after the texts queued before it, at
        the chat's pace, RetryAfter waited out, a refused chat reported; returns the message id or None."""
        play = self.play
        if not play.ready:
            return None
        if photo:
            return await play.send_photo(chat_id, data, caption)
        return await play.send_document(chat_id, data, filename, caption)

    def spawn(self, coro: Coroutine[object, object, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def cancel_tasks(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        for task in list(self.tasks):
            with contextlib.suppress(BaseException):
                await task

    def bot_link(self, payload: str) -> str:
        return f"https://t.me/{self.play.bot_username}?start={payload}"

    def public_link(self, tid: int, settings_json: Mapping[str, object]) -> str | None:
        """The tournament's public page (``/t/<id>`` on the bot's web server), or None when the server has
        no public address or the organiser switched the page off."""
        base = self.play.public_base
        if not base or not settings_json.get("public_page", True):
            return None
        return f"{base.rstrip('/')}/t/{tid}"

    def is_admin(self, user_id: int) -> bool:
        return user_id in self.play.admin_ids

    async def names(self, tid: int) -> dict[str, str]:
        """Every entry's name (withdrawn ones too), by entry id."""
        return views.names_of(await ts.entries(self.db, tid, include_withdrawn=True))

    async def table_groups(self, tid: int) -> dict[int, str]:
        """The tournament's table groups' titles, by chat id."""
        return {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(self.db, tid)}

    async def table_titles(self, tid: int, m: TournamentMatch) -> str:
        tables = await self.table_groups(tid)
        return "、".join(tables.get(int(c), str(c)) for c in m.table_chats)

    async def tell_match(self, row: Tournament, m: TournamentMatch, text: str) -> None:
        """Tell the tournament group, both sides and the referees."""
        self.send(row.group_chat_id, text)
        told: set[int] = set()
        for a, b in await ts.match_players(self.db, m):
            for uid in (*a, *b):
                if uid not in told:
                    told.add(uid)
                    self.send(uid, text)
        for r in await ts.role_members(self.db, row.id):
            if r.role in ("referee", "chief_referee") and r.user_id not in told:
                told.add(r.user_id)
                self.send(r.user_id, text)
