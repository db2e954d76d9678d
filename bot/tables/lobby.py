"""Tables before and around play: create (``/newtable``), seat, leave, start, stop; the lobby message.

Built by the composition root (bot/boot/runtime.py) from narrow ports (bot/tables/ports.py): the running
bot's shared parts, the live messages it shows and the driver it hands a started match to (once a table
is started, the match belongs to ``bot.tables.driver`` and its messages to ``bot.tables.live``).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Callable
from datetime import timedelta

from bot.presentation import render
from bot.presentation.i18n import t
from bot.tables.deal_proof import lobby_lines
from bot.tables.names import TableNames, table_title
from bot.tables.outcomes import Refusal, Why
from bot.tables.ports import MatchSteps, Person, Shared, TableShows
from bot.tables.table_request import TableRequest
from bot.tournaments import locked
from engine.errors import RuleError
from engine.options import options_to_dict
from storage import match_repo, table_repo, user_repo
from storage.models import GameTable


class Lobby:
    def __init__(self, shared: Shared, names: TableNames, shows: TableShows, steps: MatchSteps) -> None:
        self.rt = shared
        self.names = names
        self.shows = shows
        self.steps = steps
        self._creating: dict[int, asyncio.Lock] = {}  # chat -> held while a /newtable of it is answered
        self._askers: Counter[int] = Counter()  # chat -> its /newtable holding or waiting for that lock

    @contextlib.asynccontextmanager
    async def _one_newtable_at_a_time(self, chat_id: int) -> AsyncIterator[None]:
        """Several /newtable of one group are answered one after the other, so the one that creates the
        table has queued its lobby before another looks for a table and is refused naming it: the lobby
        (a message of record) goes first, never behind a refusal (the group's 20 a minute).  Forgotten once
        nobody waits (bounded)."""
        lock = self._creating.setdefault(chat_id, asyncio.Lock())
        self._askers[chat_id] += 1
        try:
            async with lock:
                yield
        finally:
            self._askers[chat_id] -= 1
            if not self._askers[chat_id]:
                del self._askers[chat_id], self._creating[chat_id]

    # --- the lobby message ------------------------------------------------------------------

    async def render_lobby(self, table_id: int) -> None:
        rt = self.rt
        table = await table_repo.get_table(rt.db, table_id)
        if table is None:
            return
        lang = await rt.chat_lang(table.chat_id)
        names, computers, _ = await self.names.table_names(table_id)
        title = table_title(lang, table.preset_id)
        text, markup = render.lobby(lang, table_id, title, names, computers, rt.bot_username)
        text = "\n".join(
            [text, *lobby_lines(lang, table)]
        )  # a practice / fixed seed, a tournament commitment
        if locked.is_locked(table):  # a tournament table: no Join / Start / Leave buttons
            text, markup = locked.lobby(lang, text)
        if table.table_message_id is None:
            self.shows.create(
                ("table", table_id), table.chat_id, text, markup, self.shows.table_created(table_id)
            )
        else:
            assert rt.outbox is not None
            rt.outbox.edit(table.chat_id, table.table_message_id, text, markup)

    # --- commands and buttons ---------------------------------------------------------------

    async def new_table(self, chat_id: int, user_id: int, req: TableRequest) -> Refusal | None:
        """Create the table ``req`` asks for (read from ``/newtable``'s arguments at the edge,
        ``bot.tables.table_request``); None, or why not: one live table per group (``Why.TABLE_EXISTS``; the
        database refuses a second one, also when two processes race: ``Why.RULE``)."""
        async with self._one_newtable_at_a_time(chat_id):
            return await self._new_table(chat_id, user_id, req)

    async def _new_table(self, chat_id: int, user_id: int, req: TableRequest) -> Refusal | None:
        rt = self.rt
        existing = await table_repo.open_table_in_chat(rt.db, chat_id)
        if existing is not None:
            return Refusal(Why.TABLE_EXISTS, table_id=existing.id)
        order = [3, 1, 2, 0]
        preset = req.preset
        try:
            table = await table_repo.insert_table(
                rt.db,
                chat_id,
                preset.id,
                preset.game,
                options_to_dict(preset.rules),
                user_id,
                computer_seats=sorted(order[: req.bots]),
                fixed_seed=req.seed,
                practice=req.practice,
            )
        except RuleError as err:
            return Refusal.rule(err)
        await self.render_lobby(table.id)
        if req.bots == 4:
            await self.start_table(table.id, None)
        return None

    async def join(self, table_id: int, seat: int, user_id: int) -> Refusal | None:
        """Seat the user (None), or why not: the table is not open, a tournament's, the user has not
        started the bot in private (``Why.NEED_START``), the seat is taken (``Why.RULE``)."""
        rt = self.rt
        table = await table_repo.get_table(rt.db, table_id)
        if table is None or table.status != "open":
            return Refusal(Why.TABLE_CLOSED)
        if locked.is_locked(table):  # seats bound to the drawn entries: no join, by button or by link
            return Refusal(Why.TOURNAMENT_TABLE)
        u = await user_repo.get_user(rt.db, user_id)
        if u is None or not u.started_bot:
            return Refusal(Why.NEED_START)
        try:
            await table_repo.seat_user(rt.db, table_id, seat, user_id)
        except RuleError as err:
            return Refusal.rule(err)
        await self.render_lobby(table_id)
        return None

    async def leave(self, table_id: int, user: Person) -> Refusal | None:
        """Free the user's seat (None), or why not: the table is not open, a tournament's, not seated."""
        rt = self.rt
        table = await table_repo.get_table(rt.db, table_id)
        if table is None or table.status != "open":
            return Refusal(Why.CANNOT_LEAVE)
        if locked.is_locked(table):
            return Refusal(Why.TOURNAMENT_TABLE)
        seat = await table_repo.seat_of_user(rt.db, table_id, user.id)
        if seat is None:
            return Refusal(Why.NOT_SEATED)
        try:
            await table_repo.unseat(rt.db, table_id, user_id=user.id)
        except RuleError:
            return Refusal(Why.CANNOT_LEAVE)
        await self.render_lobby(table_id)
        return None

    async def start_table(
        self,
        table_id: int,
        user: Person | None,
        *,
        on_started: Callable[[], None] | None = None,
        seed: int | None = None,
    ) -> Refusal | None:
        """Start an open table (its empty seats go to computer players); None, or why not.

        ``seed``: the match seed (a duplicate comparison's, from the tournament side), else the table's own.
        ``on_started`` is called as soon as the start is committed, before the table message and the hands
        are rendered (the Start button is answered then: its answer never waits for the rendering).  A press
        on a table that has started already (a second press, another person's, another process's) is told so.
        """
        rt = self.rt
        table = await table_repo.get_table(rt.db, table_id)
        if table is None or table.status != "open":
            return self._not_startable(table)
        if user is not None and locked.is_locked(table):  # started by the tournament side, never by a press
            return Refusal(Why.TOURNAMENT_TABLE)
        if (
            user is not None
            and user.id != table.created_by
            and user.id not in [s.user_id for s in await table_repo.get_seats(rt.db, table_id)]
        ):
            return Refusal(Why.NOT_YOUR_TABLE)
        try:  # a tournament seat never goes to a computer player
            started = await match_repo.start_match(
                rt.db, table_id, seed, fill_computers=not locked.is_locked(table)
            )
        except RuleError:  # started (or stopped) meanwhile by another press
            return self._not_startable(await table_repo.get_table(rt.db, table_id))
        if on_started is not None:
            on_started()
        match_id = started.match_id
        self.names.forget(table_id)  # computer seats were filled
        rt.seats.add(match_id, table_id, await table_repo.get_seats(rt.db, table_id))
        opts = table.options_json
        if int(opts.get("time_limit_minutes") or 0) > 0:
            due = rt.scheduler.now() + timedelta(minutes=int(opts["time_limit_minutes"]))
            await rt.scheduler.schedule(
                rt.db, "match_time", f"match:{match_id}:time", due, {"match_id": match_id}
            )
        async with rt.lock(match_id):
            await self.shows.render_match(match_id, everything=True)
        self.steps.kick(match_id, 0)
        return None

    @staticmethod
    def _not_startable(table: GameTable | None) -> Refusal:
        """Why Start does nothing: the table plays already, or it is closed."""
        if table is not None and table.status in ("playing", "paused"):
            return Refusal(Why.STARTED)
        return Refusal(Why.TABLE_CLOSED)

    async def stop_table(self, table_id: int, user: Person, *, group_admin: bool = False) -> Refusal | None:
        """Stop a table: its creator, a bot admin, or an admin of the table's group (``group_admin``); None,
        or why not.  The group is told in its language."""
        rt = self.rt
        table = await table_repo.get_table(rt.db, table_id)
        if table is None:
            return Refusal(Why.TABLE_CLOSED)
        if user.id != table.created_by and user.id not in rt.admin_ids and not group_admin:
            return Refusal(Why.ONLY_CREATOR_OR_ADMIN)
        row = await match_repo.current_match(rt.db, table_id)
        await table_repo.abort_table(rt.db, table_id)  # the table aborted, its unfinished match finished
        if row is not None and row.status != "finished":
            await rt.scheduler.cancel(rt.db, "move_clock", f"match:{row.id}")
            self.steps.cancel_kick(row.id)
        if row is not None:
            self.steps.forget(row.id)
        rt.messages.send(table.chat_id, t(await rt.chat_lang(table.chat_id), "table.stopped", table=table_id))
        return None
