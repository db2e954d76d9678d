"""Substitutes (rules.md D25): a referee seats one before or during a match; the replaced player's
presses and typed plays are refused while that match is in play."""

from __future__ import annotations

import logging

from bot.presentation.keyboards import seat_name
from bot.presentation.tournament.texts import tt
from bot.tournaments.context import TournamentContext
from bot.tournaments.tables import TournamentTables
from engine.errors import RuleError
from storage import match_repo, message_repo, selection_repo, table_repo
from storage import tournaments as ts

log = logging.getLogger(__name__)


class Substitutes:
    def __init__(self, ctx: TournamentContext, tables: TournamentTables) -> None:
        self.ctx = ctx
        self.tables = tables
        # user -> the game matches in play where a substitute took their seat (their presses are refused)
        self.replaced: dict[int, set[int]] = {}

    async def seat_substitute(self, tid: int, key: str, old: int, new: int, actor: int, reason: str) -> None:
        """A referee seats a substitute (rules.md D25).  Before the table begins: the match's players and
        the open table's seat change, the substitute then checks in.  While it plays: the seat's player
        changes for the rest of the match (``take_over_seat``); clocks run on.  The tournament group,
        the table group and both people are told; the audit log has it."""
        async with self.ctx.lock(tid):
            live = await self.tables.live_match_of(tid, key, old)
            if live is not None:
                async with self.ctx.play.match_lock(
                    live
                ):  # no move of the match between the seat change and the index
                    sub = await ts.substitute(self.ctx.db, tid, key, old, new, actor, reason)
                    if sub.in_play and sub.seat is not None and sub.game_table is not None:
                        await self.take_over_seat(live, sub.game_table, sub.seat, old, new, sub)
            else:
                sub = await ts.substitute(self.ctx.db, tid, key, old, new, actor, reason)
                if sub.in_play and sub.seat is not None and sub.game_table is not None:  # began meanwhile
                    started = await match_repo.current_match(self.ctx.db, sub.game_table)
                    if started is not None:
                        async with self.ctx.play.match_lock(started.id):
                            await self.take_over_seat(started.id, sub.game_table, sub.seat, old, new, sub)
            m, k = sub.match, sub.table
            if sub.game_table is not None and not sub.in_play and sub.seat is not None:
                await self.ctx.play.render_lobby(sub.game_table)
            row = await ts.get_tournament(self.ctx.db, tid)
            names = await ts.user_names(self.ctx.db, [old, new])
            params = {"key": key, "table": k, "new": names[new], "old": names[old], "reason": reason or "-"}
            text_key = "ref.substitute_live" if sub.in_play else "ref.substitute"
            glang = self.ctx.glang()
            seat = seat_name(glang, sub.seat) if sub.seat is not None else "-"
            text = tt(glang, text_key, seat=seat, **params)
            self.ctx.send(row.group_chat_id, text)
            if m.table_chats:
                self.ctx.send(int(m.table_chats[(k - 1) % len(m.table_chats)]), text)
            for uid in (old, new):
                ul = await self.ctx.ulang(uid)
                self.ctx.send(
                    uid,
                    tt(ul, text_key, seat=seat_name(ul, sub.seat) if sub.seat is not None else "-", **params),
                )
            if m.status in ("open", "playing") and not sub.in_play:
                await self.tables.start_ready_tables(tid, key)
            self.ctx.dashboard_changed(tid)

    async def take_over_seat(
        self, match_id: int, table_id: int, seat: int, old: int, new: int, sub: ts.Substituted
    ) -> None:
        """The seat's player changed in a match in play (the caller holds the match's lock): the seat
        index, the old player's hand message (closed, its keyboard gone), the seat's tapped selection,
        then every message of the match again: the new player gets a hand message with the current
        hand and keyboard, the table message shows the new name.  Presses and typed plays of the old
        player are refused from now on (``replaced``)."""
        play = self.ctx.play
        play.index_seats(match_id, table_id, await table_repo.get_seats(self.ctx.db, table_id))
        ref = await message_repo.get_hand_message(self.ctx.db, match_id, seat)
        if ref is not None:
            await message_repo.delete_message_ref(self.ctx.db, ref.id)
            if play.ready:
                names = await ts.user_names(self.ctx.db, [new])
                ol = await self.ctx.ulang(old)
                play.edit(
                    ref.chat_id,
                    ref.message_id,
                    tt(ol, "sub.hand_closed", key=sub.match.match_key, table=sub.table, new=names[new]),
                    None,
                )
        await selection_repo.clear_selection(self.ctx.db, match_id, seat)
        self.replaced.setdefault(old, set()).add(match_id)
        self.replaced.get(new, set()).discard(match_id)
        # its in-memory message refs go (the seat's hand message is the new player's), every message again
        await play.show_match_again(match_id)

    async def refuse_replaced(self, user_id: int, match_id: int | None) -> bool:
        """Whether a hand button (of ``match_id``) or a typed play (None) comes from a player a substitute
        replaced in a match still in play, and is refused (the edge answers ``sub.refused``)."""
        mine = self.replaced.get(user_id)
        if not mine:
            return False
        live = set()
        for mid in list(mine):
            row = await match_repo.get_match_row(self.ctx.db, mid)
            if row is not None and row.status in ("playing", "paused"):
                live.add(mid)
            else:
                mine.discard(mid)  # over: forgotten
        if not mine:
            self.replaced.pop(user_id, None)
        if match_id is not None:
            return match_id in live
        # refused unless seated in another live match
        return bool(live) and await self.ctx.play.user_match(user_id) is None

    async def load_replaced(self) -> None:
        """At start-up: who a substitute replaced in the matches still in play (from the audit log)."""
        self.replaced.clear()
        for row in await ts.all_tournaments(self.ctx.db):
            if row.status != "running":
                continue
            subs = [
                a
                for a in await ts.audit_log(self.ctx.db, row.id, 10_000)
                if a.action == "substitute" and a.detail_json.get("in_play")
            ]
            for a in subs:
                d = a.detail_json
                try:
                    m = await ts.get_match(self.ctx.db, row.id, str(d["match"]))
                except RuleError:
                    continue
                k = int(d["table"])
                if k - 1 >= len(m.game_tables) or m.game_tables[k - 1] is None:
                    continue
                match_row = await match_repo.current_match(self.ctx.db, int(m.game_tables[k - 1]))
                if match_row is None or match_row.status not in ("playing", "paused"):
                    continue
                if await table_repo.seat_of_user(self.ctx.db, match_row.table_id, int(d["old"])) is None:
                    self.replaced.setdefault(int(d["old"]), set()).add(match_row.id)
