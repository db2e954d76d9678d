"""The live dashboards: a followed dashboard message is edited as the tournament changes, at most once
per ``seconds``, and every minute while tables play."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.tournaments.context import TournamentContext
from bot.tournaments.dashboard_text import ENDED, dashboard_text
from bot.tournaments.ports import Markup, TournamentKeyboards
from storage import tournaments as ts
from storage.tournament_models import Tournament

log = logging.getLogger(__name__)

DASHBOARD_SECONDS = 10.0  # a live dashboard message is edited at most once per this many seconds
DASHBOARD_TICK_SECONDS = (
    60.0  # while tables play, their levels and time left are brought up to date this often
)


class LiveDashboards:
    def __init__(self, ctx: TournamentContext, keyboards: TournamentKeyboards) -> None:
        self.ctx = ctx
        self.keyboards = keyboards
        # at most one pass of edits per tournament every ``dashboard_seconds``
        self.dashboard_seconds = DASHBOARD_SECONDS
        self.dashboard_tick_seconds = DASHBOARD_TICK_SECONDS
        self._dash_ticking: set[int] = set()  # tournaments with a minute's refresh waiting
        self._dash_due: set[int] = set()  # tournaments with a pass waiting
        self._dash_tasks: set[asyncio.Task[None]] = set()
        self._dash_last: dict[int, float] = {}  # tournament -> event-loop time of its last pass

    async def view(self, row: Tournament, lang: str, live: bool = False) -> tuple[str, Markup]:
        """The dashboard of ``row`` in ``lang`` and its buttons (``live``: the message follows changes)."""
        live = live and row.status not in ENDED
        text = await dashboard_text(self.ctx, row, lang, live, self.dashboard_seconds)
        return text, self.keyboards.dashboard(lang, row.id, live)

    async def stop(self) -> None:
        for task in list(self._dash_tasks):
            task.cancel()
        for task in list(self._dash_tasks):
            with contextlib.suppress(BaseException):
                await task

    def changed(self, tid: int) -> None:
        """Something a dashboard shows changed: its followed messages are edited once, at once if the last
        pass is ``dashboard_seconds`` old, else when it is (changes meanwhile ride along)."""
        if tid in self._dash_due:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._dash_due.add(tid)
        last = self._dash_last.get(tid)
        wait = 0.0 if last is None else max(0.0, last + self.dashboard_seconds - loop.time())
        task = loop.create_task(self._dashboard_pass(tid, wait))  # apart from ``_tasks``: nothing waits on it
        self._dash_tasks.add(task)
        task.add_done_callback(self._dash_tasks.discard)

    async def _dashboard_pass(self, tid: int, wait: float) -> None:
        try:
            if wait > 0:
                await asyncio.sleep(wait)
        finally:
            self._dash_due.discard(tid)
        self._dash_last[tid] = asyncio.get_running_loop().time()
        try:
            await self.render_dashboards(tid)
        except Exception:
            log.exception("dashboards of tournament %s not updated", tid)

    async def render_dashboards(self, tid: int) -> None:
        """Edit every followed dashboard of ``tid`` (through the outbox; an unchanged one costs nothing).
        A tournament that has ended gets its last edit (no Stop button) and is followed no more."""
        follows = await ts.dashboards(self.ctx.db, tid)
        if not follows or not self.ctx.play.ready:
            return
        row = await ts.get_tournament(self.ctx.db, tid)
        live = row.status not in ENDED
        made: dict[str, tuple[str, Markup]] = {}
        for f in follows:
            if f.lang not in made:
                made[f.lang] = await self.view(row, f.lang, live=live)
            self.ctx.play.edit(f.chat_id, f.message_id, *made[f.lang])
        if not live:
            await ts.unfollow_dashboard(self.ctx.db, tid)
            self._dash_last.pop(tid, None)
        elif any(m.status == "playing" for m in await ts.matches(self.ctx.db, tid)):
            self._tick_dashboard(tid)

    def _tick_dashboard(self, tid: int) -> None:
        """Tables are playing: in a minute the dashboards show their levels and time left again."""
        if tid in self._dash_ticking:
            return
        self._dash_ticking.add(tid)

        async def later() -> None:
            try:
                await asyncio.sleep(self.dashboard_tick_seconds)
            finally:
                self._dash_ticking.discard(tid)
            self.changed(tid)

        task = asyncio.get_running_loop().create_task(later())
        self._dash_tasks.add(task)
        task.add_done_callback(self._dash_tasks.discard)

    async def follow_dashboard(
        self, tid: int, user_id: int, lang: str, sent: asyncio.Future[int | None] | None
    ) -> None:
        """Keep the dashboard message being sent (``sent``: the outbox's future of its id) live."""
        message_id = await sent if sent is not None else None
        if message_id is not None:
            await ts.follow_dashboard(
                self.ctx.db, tid, user_id, user_id, int(message_id), lang, self.ctx.now()
            )
