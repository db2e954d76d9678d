"""Results from the tables: each finished game match recorded for its table, the match result once
every table is in (a Swiss of pairs with duplicate deals: once both matches of a comparison are over,
both results together), announced to the group and each player, the next round scheduled."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from bot.presentation.tournament.texts import tt
from bot.tournaments import views
from bot.tournaments.context import TournamentContext
from bot.tournaments.duplicate import Duplicate, is_duplicate, is_pairs_duplicate
from bot.tournaments.scheduling import Scheduling
from bot.tournaments.tables import TournamentTables
from engine.errors import RuleError
from engine.tournament import TableResult, team_result
from engine.tournament import Tournament as Engine
from engine.tournament.duplicate import pair_comparison_result
from engine.tournament.results import PairingResult
from scheduler.deadlines import DeadlineData
from storage import match_repo, table_repo
from storage import tournaments as ts
from storage.tournament_models import Tournament, TournamentMatch
from storage.tournaments import duplicate as duplicate_store

log = logging.getLogger(__name__)

# the deadline kind of a referee's result's follow-up (``Results.follow_up``): due at once, a stored row so
# that a stop or a crash before it is done runs it again (the scheduler gives a cancelled handler's row back
# and takes back one whose process died)
FOLLOW_UP = "t_after"


def tie_break_of(result: Mapping[str, Any]) -> str | None:
    """How a game decided a match whose levels are equal: the engine's ``tie_break`` (Shengji:
    ``dealer_side`` / ``cut``), else Guandan's rule 2.7 (the side of the last 上游); None when the
    levels differ or the match was not decided on levels."""
    levels = list(result.get("levels") or [None, None])
    if levels[0] is None or levels[0] != levels[1]:
        return None
    if result.get("tie_break"):
        return str(result["tie_break"])
    if result.get("last_upstream") is not None:
        return "last_upstream"
    return None


def table_match_result(result: Mapping[str, Any], table: int) -> PairingResult:
    """The tournament result of one table from the engine's match result (tie-break kept in ``extra``)."""
    levels = list(result.get("levels") or [None, None])
    winner = "a" if int(result.get("winner", 0)) == 0 else "b"
    tr = TableResult(table, winner, levels[0], levels[1], None)
    tie = tie_break_of(result)
    return PairingResult(winner, "played", (tr,), "tables", extra={"tie_break": tie} if tie else {})


class Results:
    def __init__(self, ctx: TournamentContext, scheduling: Scheduling, tables: TournamentTables) -> None:
        self.ctx = ctx
        self.scheduling = scheduling
        self.tables = tables  # starts a comparison's held table when its partner match is decided
        self.duplicate = Duplicate(ctx)

    async def catch_up(self) -> None:
        """Tables of tournament matches that finished while the bot was down are reported now."""
        for row in await ts.all_tournaments(self.ctx.db):
            if row.status != "running":
                continue
            for m in await ts.matches(self.ctx.db, row.id):
                if m.status not in ("open", "playing"):
                    continue
                for table_id in m.game_tables:
                    if table_id is None:
                        continue
                    match_row = await match_repo.current_match(self.ctx.db, int(table_id))
                    if match_row is not None and match_row.result_json and match_row.status == "finished":
                        await self.on_match_over(match_row.id, dict(match_row.result_json))

    async def on_match_over(self, match_id: int, result: dict[str, Any]) -> None:
        """A table finished: record its result; the match result once every table of it is in."""
        match_row = await match_repo.get_match_row(self.ctx.db, match_id)
        if match_row is None:
            return
        table = await table_repo.get_table(self.ctx.db, match_row.table_id)
        ref = (table.tournament_ref or "") if table else ""
        if not ref.startswith("t") or ref.count(":") != 2:
            return
        head, key, k = ref.split(":")
        tid = int(head[1:])
        async with self.ctx.lock(tid):
            try:
                m = await ts.get_match(self.ctx.db, tid, key)
            except RuleError:
                return
            if m.status in ("finished", "void") or m.result_json is not None:
                return
            res1 = table_match_result(result, int(k))
            tr = res1.tables[0]
            results = {**m.table_results, str(k): tr.to_dict()}
            m = await ts.set_match_fields(self.ctx.db, m.id, table_results=results)
            self.ctx.dashboard_changed(tid)
            count = len(await ts.match_players(self.ctx.db, m))
            done = [TableResult.from_dict(v) for kk, v in results.items() if kk.isdigit()]
            if len(done) < count:
                return
            row = await ts.get_tournament(self.ctx.db, tid)
            if count == 1 and is_pairs_duplicate(row):
                pm = await self.duplicate.partner_match(row, m)
                if pm is not None:
                    await self.compare_pairs(row, m, pm, res1)
                    return
            res = res1 if count == 1 else team_result(done)
            if count > 1 and is_duplicate(row):
                res = await self.duplicate.result(row, m, done)
                await self.duplicate.reveal(row, m)
            try:
                rec = await ts.record_result(self.ctx.db, tid, key, res, None)
            except RuleError as err:  # a level team match in the knockout: the referee decides
                log.info("result of %s in tournament %s not recorded: %s", key, tid, err)
                row = await ts.get_tournament(self.ctx.db, tid)
                await self.ctx.tell_match(row, m, tt(self.ctx.glang(), "result.referee_decides", key=key))
                self.ctx.dashboard_changed(tid)
                return
            await self.after_result(tid, rec)

    async def table_over(self, m: TournamentMatch) -> PairingResult | str | None:
        """A pairs match's own table: its result once it has finished, ``"aborted"`` when it was stopped
        without one, None while it is still to play (or in play)."""
        table_id = m.game_tables[0] if m.game_tables else None
        if table_id is None:
            return None
        table = await table_repo.get_table(self.ctx.db, int(table_id))
        if table is None or table.status == "aborted":
            return "aborted"
        done = m.table_results.get("1")
        if done is None or done.get("absent") is not None:
            return None
        row = await match_repo.current_match(self.ctx.db, int(table_id))
        if row is None or row.status != "finished" or not row.result_json:
            return None
        return table_match_result(dict(row.result_json), 1)

    async def compare_pairs(
        self, row: Tournament, m: TournamentMatch, pm: TournamentMatch, own: PairingResult
    ) -> None:
        """``m``'s table is over (its result ``own``); ``pm`` is the comparison's other match.  Both over: both
        results from the compared boards, recorded together; ``pm`` decided without its table (forfeit,
        referee, disqualification): ``m`` keeps its own result; ``pm`` still to play: ``m`` waits."""
        tid = row.id
        if pm.result_json is not None:
            dup = dict(pm.result_json.get("extra") or {}).get("duplicate") or {}
            if dup.get("partner") == m.match_key:  # both decided together before a restart: ``m`` too
                own = pair_comparison_result(own, await self.duplicate.pair_boards(row, m, pm), pm.match_key)
            rec = await ts.record_result(self.ctx.db, tid, m.match_key, own, None)
            await self.duplicate.reveal(row, m)
            await self.duplicate.reveal(row, pm)
            await self.after_result(tid, rec, settle=False)
            return
        other = await self.table_over(pm)
        if other is None:  # the partner table still plays the same boards: decided when it is over
            self.ctx.dashboard_changed(tid)
            return
        if isinstance(other, str):  # the partner table was stopped without a result: no comparison
            recs = [await ts.record_result(self.ctx.db, tid, m.match_key, own, None)]
        else:
            boards = await self.duplicate.pair_boards(row, m, pm)
            recs = await duplicate_store.record_comparison(
                self.ctx.db, tid, Duplicate.pair_results(m, own, pm, other, boards)
            )
        await self.duplicate.reveal(row, m)
        await self.duplicate.reveal(row, pm)
        for rec in recs:
            await self.after_result(tid, rec, settle=False)

    async def settle_partner(self, row: Tournament, m: TournamentMatch) -> None:
        """``m`` has a result not made by its comparison (a forfeit, a referee's, a disqualification): its
        partner match, if it waits with its table over, is recorded on its own table's result; if its
        table is held open for ``m``, it is started."""
        tid = row.id
        if m.result_json is None or not is_pairs_duplicate(row):
            return
        pm = await self.duplicate.partner_match(row, m)
        if pm is None or pm.result_json is not None:
            return
        other = await self.table_over(pm)
        if isinstance(other, PairingResult):
            rec = await ts.record_result(self.ctx.db, tid, pm.match_key, other, None)
            await self.duplicate.reveal(row, pm)
            await self.duplicate.reveal(row, m)
            await self.after_result(tid, rec, settle=False)
        elif other is None:
            await self.tables.start_held_partner(row, m)

    async def follow_up(self, tid: int, rec: ts.Recorded, reason: str) -> None:
        """After a referee's result is committed (and answered): what it sets going -- the announcement to
        the group (``result.corrected`` with ``reason``) and to the players, the next round scheduled when
        it was a round's last result, the final ranking -- as a ``FOLLOW_UP`` deadline row, fired at once in
        a tracked background task (``ctx.tasks``).  The referee's answer never waits for it; a stop or a
        crash before it is done leaves the row, which runs again (``resume_follow_ups``, the scheduler)."""
        payload = {
            "tid": tid,
            "key": rec.match.match_key,
            "new": [m.match_key for m in rec.new_matches],
            "finished": rec.finished,
            "reason": reason,
        }
        did = await self.ctx.deadlines.schedule(
            self.ctx.db, FOLLOW_UP, f"tr:{tid}:{rec.match.match_key}", self.ctx.now(), payload
        )
        self.ctx.spawn(self._fire(did))

    async def _fire(self, deadline_id: int) -> None:
        await self.ctx.deadlines.fire(deadline_id)  # claimed once: a scheduler job firing it too does nothing

    async def resume_follow_ups(self) -> None:
        """At start-up: the follow-ups a stop or a crash left pending run now, whatever the clock."""
        for d in await self.ctx.deadlines.pending(self.ctx.db, FOLLOW_UP):
            self.ctx.spawn(self._fire(d.id))

    async def on_follow_up(self, d: DeadlineData) -> None:
        """The ``FOLLOW_UP`` deadline: ``after_result`` for the stored result (run again after a restart, it
        tells the result again rather than never; a round already scheduled is not scheduled twice)."""
        tid, key = int(d.payload["tid"]), str(d.payload["key"])
        async with self.ctx.lock(tid):
            try:
                m = await ts.get_match(self.ctx.db, tid, key)
            except RuleError:  # the tournament or the match is gone meanwhile
                log.info("follow-up of %s in tournament %s: the match is gone", key, tid)
                return
            if m.result_json is None:  # voided meanwhile (a later correction): nothing to tell
                return
            new = {str(k) for k in d.payload.get("new") or ()}
            rows = [x for x in await ts.matches(self.ctx.db, tid) if x.match_key in new] if new else []
            rec = ts.Recorded(m, rows, bool(d.payload.get("finished")))
            eng = await ts.engine_state(self.ctx.db, tid)
            names = await self.ctx.names(tid)
            glang = self.ctx.glang()
            line = views.result_line(
                glang, key, m.result_json, names.get(m.side_a or "", "?"), names.get(m.side_b or "", "?"), eng
            )
            reason = str(d.payload.get("reason") or "")
            text = tt(glang, "result.corrected", key=key, reason=reason, line=line)
            await self.after_result(tid, rec, text=text, eng=eng)

    async def after_result(
        self,
        tid: int,
        rec: ts.Recorded,
        announce: bool = True,
        text: str | None = None,
        eng: Engine | None = None,
        settle: bool = True,
    ) -> None:
        """``eng``: the engine state as it is after ``rec`` (the caller's, when it has loaded it already);
        ``settle``: a Swiss pairs comparison's other match follows (``settle_partner``)."""
        self.ctx.dashboard_changed(tid)
        row = await ts.get_tournament(self.ctx.db, tid)
        if eng is None:
            eng = ts.load_engine(row)  # once: a long Swiss's state takes milliseconds to load
        lang = self.ctx.glang()
        if announce and rec.match.result_json is not None:
            names = await self.ctx.names(tid)
            line = views.result_line(
                lang,
                rec.match.match_key,
                rec.match.result_json,
                names.get(rec.match.side_a or "", "?"),
                names.get(rec.match.side_b or "", "?"),
                eng,
            )
            self.ctx.send(row.group_chat_id, text or tt(lang, "result.announce", line=line))
            await self.tell_players_result(row, rec, eng)
        if rec.finished:  # the final ranking, each entry with its rating after this tournament
            ratings = views.rating_texts(await ts.entry_ratings(self.ctx.db, row))
            self.ctx.send(
                row.group_chat_id or row.created_by,
                tt(lang, "finished", name=row.name, ranking=views.ranking_text(lang, eng, ratings)),
            )
            return
        if eng.swiss is not None and eng.swiss.stalled and not rec.new_matches:  # the organiser decides
            self.ctx.send(
                row.created_by,
                tt(await self.ctx.ulang(row.created_by), "swiss.stalled", round=eng.swiss.current_round),
            )
        await self.scheduling.schedule_ready(row)
        if settle:
            await self.settle_partner(row, rec.match)

    async def tell_players_result(self, row: Tournament, rec: ts.Recorded, eng: Engine | None = None) -> None:
        """Each player of the match, privately: the result; what comes next follows when it is scheduled
        (``sched.yours``), or that their tournament is over.  A referee's substitute is told their match
        is over (their place goes back to the entry's player); the player they stood in for is told too."""
        m = rec.match
        if m.result_json is None:
            return
        entries = await ts.entries(self.ctx.db, row.id, include_withdrawn=True)
        names = views.names_of(entries)
        members = {str(e.id): {int(p) for p in e.players_json} for e in entries}
        if eng is None:
            eng = ts.load_engine(await ts.get_tournament(self.ctx.db, row.id))
        alive = set(eng.ready_matches()) | {x.match_key for x in rec.new_matches}
        sides_next = {e for key in alive for e in eng.sides(key) if e}
        if (
            eng.bracket is not None
        ):  # already placed in a match to come (a semi-final loser's third-place match)
            br = eng.bracket
            sides_next |= {e for x in br.matches if x.result is None for e in br.entries_of(x.id) if e}
        for side, entry in (("a", m.side_a), ("b", m.side_b)):
            if not entry:
                continue
            seated = {
                p for pa, pb in await ts.match_players(self.ctx.db, m) for p in (pa if side == "a" else pb)
            }
            for uid in sorted(seated | members.get(entry, set())):
                ul = await self.ctx.ulang(uid)
                line = views.result_line(
                    ul,
                    m.match_key,
                    m.result_json,
                    names.get(m.side_a or "", "?"),
                    names.get(m.side_b or "", "?"),
                    eng,
                )
                if uid not in members.get(entry, {uid}):
                    after = "result.substitute_done"
                elif rec.finished:
                    after = "result.tournament_over"
                elif (
                    entry not in sides_next
                    and eng.bracket is not None
                    and (
                        entry in eng.bracket.eliminations()
                        or (eng.swiss is not None and entry not in eng.bracket.entries())
                    )
                ):
                    after = "result.out"  # knocked out, or not among the Swiss's top K
                else:
                    after = "result.next_soon"
                self.ctx.send(uid, tt(ul, "result.yours", line=line) + "\n" + tt(ul, after))
