"""A match's game tables: opened in the table groups with the players seated, started once the four
have checked in (or a referee forces it), aborted when a result is imposed."""

from __future__ import annotations

import logging

from bot.presentation.tournament.texts import tt
from bot.tournaments.context import TournamentContext
from bot.tournaments.duplicate import Duplicate, table_options
from bot.tournaments.timers import MatchTimers
from engine.errors import RuleError
from engine.registry import load_preset
from storage import match_repo, table_repo
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentMatch

log = logging.getLogger(__name__)


class TournamentTables:
    def __init__(self, ctx: TournamentContext, timers: MatchTimers) -> None:
        self.ctx = ctx
        self.timers = timers
        self.duplicate = Duplicate(ctx)

    async def check_in(self, tid: int, key: str, user_id: int) -> RuleError | None:
        """A player pressed Check in: None when checked in, else why not (the edge answers either)."""
        async with self.ctx.lock(tid):
            try:
                m = await ts.check_in(self.ctx.db, tid, key, user_id, self.ctx.now())
            except RuleError as err:
                return err
            self.ctx.dashboard_changed(tid)
            if m.status in ("open", "playing"):
                await self.start_ready_tables(tid, key)
        return None

    async def open_tables(self, row: Tournament, m: TournamentMatch, force: bool = False) -> None:
        """Create the match's table(s) in the assigned table groups, seat the players (pair k of side a at
        seats 0 and 2, of side b at 1 and 3) and start every table whose four players are present.
        Run again (a deadline after a restart) it reuses the tables it made: one table per ``tournament_ref``."""
        preset = load_preset(row.preset_id)
        options = ts.rule_options(row)
        ids: list[int | None] = []
        existing = list(m.game_tables)
        for k, (pa, pb) in enumerate(await ts.match_players(self.ctx.db, m), start=1):
            old = existing[k - 1] if k - 1 < len(existing) else None
            if str(k) in m.table_results:
                ids.append(old)
                continue
            if old is not None:  # a table still in play (a team match after a partial forfeit was undone)
                current = await table_repo.get_table(self.ctx.db, int(old))
                if current is not None and current.status in ("open", "playing", "paused"):
                    ids.append(old)
                    continue
            ref = f"t{row.id}:{m.match_key}:{k}"
            made = await ts.active_table_of_ref(self.ctx.db, ref)
            if made is not None:  # opened before a restart
                ids.append(made)
                continue
            chat = int(m.table_chats[(k - 1) % len(m.table_chats)])
            table = await table_repo.insert_table(
                self.ctx.db,
                chat,
                row.preset_id,
                preset.game,
                table_options(row, options, await self.duplicate.turn_of(row, m, k)),
                row.created_by,
                tournament_ref=ref,
            )
            for seat, uid in ((0, pa[0]), (1, pb[0]), (2, pa[1]), (3, pb[1])):
                await table_repo.seat_user(self.ctx.db, table.id, seat, uid)
            await self.duplicate.share_seed(row, m, k, table.id, ids)  # before its lobby shows a commitment
            ids.append(table.id)
            await self.ctx.play.render_lobby(table.id)
        await ts.set_match_fields(self.ctx.db, m.id, game_tables=ids, status="open")
        self.ctx.dashboard_changed(row.id)
        names = await self.ctx.names(row.id)
        where = await self.ctx.table_titles(row.id, m)
        lang = self.ctx.glang()
        text = tt(
            lang,
            "start.open",
            key=m.match_key,
            a=names.get(m.side_a or "", "?"),
            b=names.get(m.side_b or "", "?"),
            tables=where,
        )
        self.ctx.send(row.group_chat_id, text)
        waiting = await self.start_ready_tables(row.id, m.match_key, force)
        if waiting:
            await self.tell_missing(row, m, waiting)

    async def start_ready_tables(
        self, tid: int, key: str, force: bool = False, partner: bool = True
    ) -> dict[int, list[int]]:
        """Start each open table whose four players have checked in (``force``: all of them); returns the
        players still missing, per table.  A Swiss of pairs with duplicate deals: once a table starts, the
        comparison's other match's table, held for it, is started too (``partner``)."""
        m = await ts.get_match(self.ctx.db, tid, key)
        present = await ts.checkins(self.ctx.db, tid, key)
        waiting: dict[int, list[int]] = {}
        started = False
        players = await ts.match_players(self.ctx.db, m)
        row = await ts.get_tournament(self.ctx.db, tid)
        ready = {
            k: force or all(u in present for u in (*pa, *pb)) for k, (pa, pb) in enumerate(players, start=1)
        }
        for k, (pa, pb) in enumerate(players, start=1):
            table_id = m.game_tables[k - 1] if k - 1 < len(m.game_tables) else None
            if table_id is None:
                continue
            table = await table_repo.get_table(self.ctx.db, int(table_id))
            if table is None or table.status != "open":
                started = started or (table is not None and table.status in ("playing", "paused", "finished"))
                continue
            missing = [u for u in (*pa, *pb) if u not in present]
            if missing and not force:
                waiting[k] = missing
                continue
            hold, seed = await self.duplicate.start_seed(row, m, k, ready, force)
            if hold:  # duplicate: the two tables of a comparison start together
                continue
            err = await self.ctx.play.start_table(int(table_id), seed)
            if err:
                log.warning("could not start table %s: %s", table_id, err)
            else:
                started = True
        if started and m.status != "playing":
            await ts.set_match_fields(self.ctx.db, m.id, status="playing")
            await ts.mark_started(self.ctx.db, tid, key)
        if started:
            self.ctx.dashboard_changed(tid)
        if started and partner:
            await self.start_held_partner(row, m)
        return waiting

    async def start_held_partner(self, row: Tournament, m: TournamentMatch) -> None:
        """Pairs duplicate: the other match of ``m``'s comparison waits with an open table for ``m`` (which
        has started, or been decided): start it if its players are in."""
        other = await self.duplicate.held_partner(row, m)
        if other is not None:
            await self.start_ready_tables(row.id, other, partner=False)

    async def tell_missing(self, row: Tournament, m: TournamentMatch, waiting: dict[int, list[int]]) -> None:
        """Who has not checked in, table by table, with each table's own deadline: in that table's group,
        in the tournament group and to the organisers."""
        names = await ts.user_names(self.ctx.db, [u for us in waiting.values() for u in us])
        lang = self.ctx.glang()
        lines = []
        for k, users in sorted(waiting.items()):
            until = ts.local_text(ts.table_deadline(row, m, k), row.time_zone)[-5:]
            line = tt(
                lang,
                "start.waiting",
                key=m.match_key,
                table=k,
                names="、".join(names[u] for u in users),
                until=until,
            )
            lines.append(line)
            if m.table_chats:
                self.ctx.send(int(m.table_chats[(k - 1) % len(m.table_chats)]), line)
        text = "\n".join(lines)
        self.ctx.send(row.group_chat_id, text)
        for r in await ts.role_members(self.ctx.db, row.id, "organiser"):
            self.ctx.send(r.user_id, text)

    async def abort_table(self, table_id: int) -> None:
        table = await table_repo.get_table(self.ctx.db, table_id)
        if table is None or table.status in ("finished", "aborted"):
            return
        await table_repo.abort_table(self.ctx.db, table_id)
        match_row = await match_repo.current_match(self.ctx.db, table_id)
        if match_row is not None:
            await self.ctx.deadlines.cancel(self.ctx.db, "move_clock", f"match:{match_row.id}")
            await self.ctx.deadlines.cancel(self.ctx.db, "match_time", f"match:{match_row.id}:time")

    async def halt_match(self, m: TournamentMatch) -> None:
        """A result was imposed (award, correction, disqualification): stop its timers and its tables."""
        await self.timers.cancel_match_timers(m)
        for table_id in m.game_tables:
            if table_id is not None:
                await self.abort_table(int(table_id))

    async def live_engine_matches(self, tid: int, key: str) -> list[int]:
        m = await ts.get_match(self.ctx.db, tid, key)
        out = []
        for table_id in m.game_tables:
            if table_id is None:
                continue
            row = await match_repo.current_match(self.ctx.db, int(table_id))
            if row is not None and row.status in ("playing", "paused"):
                out.append(row.id)
        return out

    async def live_match_of(self, tid: int, key: str, user_id: int) -> int | None:
        """The game match in play at ``user_id``'s table of match ``key`` (None: not begun, or over)."""
        m = await ts.get_match(self.ctx.db, tid, key)
        k = ts.table_of_player(await ts.match_players(self.ctx.db, m), user_id)
        if k is None or k - 1 >= len(m.game_tables) or m.game_tables[k - 1] is None:
            return None
        row = await match_repo.current_match(self.ctx.db, int(m.game_tables[k - 1]))
        return row.id if row is not None and row.status in ("playing", "paused") else None
