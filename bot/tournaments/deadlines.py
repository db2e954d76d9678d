"""What each match timer does when due: the reminder, check-in opening, the start (tables opened), the
lateness rule (tables forfeited).  A handler whose match was moved or decided meanwhile does nothing."""

from __future__ import annotations

import logging

from bot.presentation.tournament.texts import tt
from bot.tournaments import views
from bot.tournaments.context import TournamentContext
from bot.tournaments.ports import TournamentKeyboards
from bot.tournaments.results import Results
from bot.tournaments.tables import TournamentTables
from bot.tournaments.timers import MatchTimers
from scheduler.deadlines import DeadlineData
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentMatch

log = logging.getLogger(__name__)


class MatchDeadlines:
    def __init__(
        self,
        ctx: TournamentContext,
        keyboards: TournamentKeyboards,
        timers: MatchTimers,
        tables: TournamentTables,
        results: Results,
    ) -> None:
        self.timers = timers
        self.ctx = ctx
        self.keyboards = keyboards
        self.tables = tables
        self.results = results

    async def on_remind(self, d: DeadlineData) -> None:
        got = await self.timers.current(d, ("scheduled",))
        if got is None:
            return
        row, m = got
        names = await self.ctx.names(row.id)
        titles = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(self.ctx.db, row.id)}
        minutes = int(d.payload.get("minutes", 0))
        for k, (a, b) in enumerate(await ts.match_players(self.ctx.db, m), start=1):
            chat = int(m.table_chats[(k - 1) % len(m.table_chats)]) if m.table_chats else 0
            where = titles.get(chat, str(chat))  # this pair's own table
            for uid in (*a, *b):
                lang = await self.ctx.ulang(uid)
                left = (
                    tt(lang, "left.hours", n=minutes // 60)
                    if minutes >= 120 and minutes % 60 == 0
                    else tt(lang, "left.minutes", n=minutes)
                )
                self.ctx.send(
                    uid,
                    tt(
                        lang,
                        "remind",
                        key=m.match_key,
                        a=names.get(m.side_a or "", "?"),
                        b=names.get(m.side_b or "", "?"),
                        time=ts.local_text(m.start_at, row.time_zone),
                        tables=where,
                        left=left,
                        checkin=row.settings_json.get("checkin_opens_minutes", 30),
                    ),
                )

    async def on_checkin_open(self, d: DeadlineData) -> None:
        got = await self.timers.current(d, ("scheduled",))
        if got is None:
            return
        row, m = got
        names = await self.ctx.names(row.id)
        params = {
            "key": m.match_key,
            "a": names.get(m.side_a or "", "?"),
            "b": names.get(m.side_b or "", "?"),
            "time": ts.local_text(m.start_at, row.time_zone),
            "late": row.settings_json.get("late_forfeit_minutes", 15),
        }
        lang = self.ctx.glang()
        self.ctx.send(
            row.group_chat_id,
            tt(lang, "checkin.open", **params),
            self.keyboards.checkin(lang, row.id, m.match_key),
        )
        for a, b in await ts.match_players(self.ctx.db, m):
            for uid in (*a, *b):
                ul = await self.ctx.ulang(uid)
                self.ctx.send(
                    uid, tt(ul, "checkin.open", **params), self.keyboards.checkin(ul, row.id, m.match_key)
                )

    async def on_start(self, d: DeadlineData) -> None:
        got = await self.timers.current(d, ("scheduled",))
        if got is None:
            return
        row, m = got
        async with self.ctx.lock(row.id):
            await self.tables.open_tables(row, m)

    async def on_late(self, d: DeadlineData) -> None:
        """A lateness deadline: every table due is decided (one transaction with the match result when
        that completes it); each forfeited table is announced with the entry and the players missing."""
        got = await self.timers.current(d, ("scheduled", "open", "playing"))
        if got is None:
            return
        row, m = got
        async with self.ctx.lock(row.id):
            lat = await ts.decide_lateness(self.ctx.db, row.id, m.match_key, self.ctx.now())
            if not lat.new_tables:
                return
            self.ctx.dashboard_changed(row.id)
            m = await ts.get_match(self.ctx.db, row.id, m.match_key)
            for t in lat.new_forfeits:
                if t.table - 1 < len(m.game_tables) and m.game_tables[t.table - 1] is not None:
                    await self.tables.abort_table(int(m.game_tables[t.table - 1]))
            if lat.new_forfeits:
                await self.ctx.tell_match(row, m, await self.lateness_text(row, m, lat))
            if lat.recorded is not None:
                await self.results.after_result(row.id, lat.recorded, announce=False)
            else:
                await self.tables.start_ready_tables(row.id, m.match_key)

    async def lateness_text(self, row: Tournament, m: TournamentMatch, lat: ts.Lateness) -> str:
        """The forfeit notice: per table, the entry late and who of it did not come, and who wins."""
        lang = self.ctx.glang()
        names = await self.ctx.names(row.id)
        a, b = names.get(m.side_a or "", "?"), names.get(m.side_b or "", "?")
        missing = [int(p) for t in lat.new_forfeits for p in (*t.absent_a, *t.absent_b)]
        people = await ts.user_names(self.ctx.db, missing)

        def who(players: tuple[str, ...]) -> str:
            return "、".join(people.get(int(p), p) for p in players)

        count = len(await ts.match_players(self.ctx.db, m))
        lines = []
        for t in lat.new_forfeits:
            late = (
                int((ts.table_deadline(row, m, t.table) - m.start_at).total_seconds() // 60)
                if m.start_at
                else 0
            )
            gone = who((*t.absent_a, *t.absent_b))
            if count == 1:
                if t.absent == "both":
                    lines.append(tt(lang, "late.double", key=m.match_key, players=gone))
                else:
                    absent, winner = (a, b) if t.absent == "a" else (b, a)
                    lines.append(
                        tt(
                            lang,
                            "late.forfeit",
                            key=m.match_key,
                            absent=absent,
                            players=gone,
                            late=late,
                            winner=winner,
                        )
                    )
            elif t.absent == "both":
                lines.append(tt(lang, "late.table_double", key=m.match_key, table=t.table, players=gone))
            else:
                absent, winner = (a, b) if t.absent == "a" else (b, a)
                lines.append(
                    tt(
                        lang,
                        "late.table",
                        key=m.match_key,
                        table=t.table,
                        absent=absent,
                        players=gone,
                        late=late,
                        winner=winner,
                    )
                )
        if count > 1:
            if lat.recorded is not None and lat.recorded.match.result_json is not None:
                eng = await ts.engine_state(self.ctx.db, row.id)
                lines.append(
                    tt(
                        lang,
                        "late.match",
                        line=views.result_line(lang, m.match_key, lat.recorded.match.result_json, a, b, eng),
                    )
                )
            else:
                lines.append(tt(lang, "late.others_play"))
        return "\n".join(lines)
