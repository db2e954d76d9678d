"""The referees' commands: results and corrections, forfeits, conduct, starting a match, substitutes,
more time, pausing and resuming tables."""

from __future__ import annotations

from bot.edge.tournament.call import REF, Call, command
from bot.presentation.tournament.texts import tt
from bot.tournaments import views
from engine.errors import RuleError
from engine.tournament import pair_result, played_table, team_result
from engine.tournament.results import referee_result
from storage import tournaments as ts

# --- referee tools ------------------------------------------------------------------------------------


@command(REF)
async def cmd_audit(c: Call) -> None:
    rows = await ts.audit_log(c.tb.ctx.db, c.row.id, 40)
    users = await ts.user_names(c.tb.ctx.db, [a.actor_id for a in rows if a.actor_id is not None])
    c.reply(views.audit_text(c.lang, rows, c.row.time_zone, users))


def _levels(args: list[str]) -> tuple[int | None, int | None, list[str]]:
    if len(args) >= 2 and args[0].isdigit() and args[1].isdigit():
        return int(args[0]), int(args[1]), args[2:]
    return None, None, args


@command(REF)
async def cmd_result(c: Call) -> None:
    """/result <match> confirm | /result <match> a|b [levels a b] <reason> [force]."""
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "result.usage")))
        return
    key, what = c.args[0].upper(), c.args[1].lower()
    if what == "confirm":
        await ts.confirm_result(c.tb.ctx.db, c.row.id, key, c.user.id)
        c.tb.ctx.send(c.row.group_chat_id, tt(c.tb.ctx.glang(), "result.confirmed", key=key))
        if c.elsewhere:
            c.reply(tt(c.lang, "result.confirmed", key=key))
        return
    if what not in ("a", "b"):
        raise RuleError("bad_side", "", side=what)
    rest = c.args[2:]
    force = bool(rest) and rest[-1].lower() == "force"
    if force:
        rest = rest[:-1]
    la, lb, rest = _levels(rest)
    if la is not None and lb is not None and (la < lb if what == "a" else lb < la):  # a typo: the loser ahead
        raise RuleError("levels_against_winner", "", side=what, la=la, lb=lb)
    reason = " ".join(rest)
    if not reason:
        raise RuleError("reason_required", "")
    async with c.tb.ctx.lock(c.row.id):
        m = await ts.get_match(c.tb.ctx.db, c.row.id, key)
        tables = len(await ts.match_players(c.tb.ctx.db, m))
        if tables == 1:
            result = pair_result(what, la, lb, note=reason)
        else:
            result = team_result([played_table(what, la, lb, k) for k in range(1, tables + 1)], note=reason)
        if m.result_json is None:
            result = referee_result(what, result.tables, reason)
            rec = await ts.record_result(
                c.tb.ctx.db, c.row.id, key, result, c.user.id, "referee_result", reason
            )
        else:
            rec = await ts.correct_result(c.tb.ctx.db, c.row.id, key, result, c.user.id, reason, force)
        if not rec.applied:
            c.reply(tt(c.lang, "result.conflict", matches=", ".join(rec.conflicts)))
            return
        await c.tb.tables.halt_match(rec.match)
        # committed, and its follow-up stored: the referee is answered now; the announcement, the players'
        # messages and (a round's last result) the next round's scheduling follow in the background
        await c.tb.results.follow_up(c.row.id, rec, reason)
    if c.elsewhere:
        c.reply(tt(c.lang, "done"))


@command(REF)
async def cmd_forfeit(c: Call) -> None:
    if len(c.args) < 3 or c.args[1].lower() not in ("a", "b", "both"):
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "forfeit.usage")))
        return
    key, absent, reason = c.args[0].upper(), c.args[1].lower(), " ".join(c.args[2:])
    async with c.tb.ctx.lock(c.row.id):
        m = await ts.get_match(c.tb.ctx.db, c.row.id, key)
        tables = len(await ts.match_players(c.tb.ctx.db, m))
        result = ts.forfeit(absent, tables, reason)
        if m.result_json is None:
            rec = await ts.record_result(
                c.tb.ctx.db, c.row.id, key, result, c.user.id, "award_forfeit", reason
            )
        else:
            rec = await ts.correct_result(c.tb.ctx.db, c.row.id, key, result, c.user.id, reason, True)
        await c.tb.tables.halt_match(m)
        names = await c.tb.ctx.names(c.row.id)
        eng = await ts.engine_state(c.tb.ctx.db, c.row.id)
        line = views.result_line(
            c.tb.ctx.glang(), key, result, names.get(m.side_a or "", "?"), names.get(m.side_b or "", "?"), eng
        )
        text = tt(c.tb.ctx.glang(), "forfeit.awarded", key=key, line=line, reason=reason)
        await c.tb.ctx.tell_match(c.row, m, text)
        await c.tb.results.after_result(c.row.id, rec, announce=False)


@command(REF)
async def cmd_undo_forfeit(c: Call) -> None:
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/undo_forfeit <match> <reason>"))
        return
    await c.tb.referee.undo_forfeit(c.row.id, c.args[0].upper(), c.user.id, " ".join(c.args[1:]))


@command(REF)
async def cmd_violation(c: Call) -> None:
    if len(c.args) < 3 or c.args[1].lower() not in ("a", "b"):
        c.reply(tt(c.lang, "usage", usage=tt(c.lang, "conduct.usage")))
        return
    key, side, note = c.args[0].upper(), c.args[1].lower(), " ".join(c.args[2:])
    async with c.tb.ctx.lock(c.row.id):
        outcome, rec, rid = await ts.add_conduct(
            c.tb.ctx.db, c.row.id, key, side, c.user.id, "violation", note
        )
        m = await ts.get_match(c.tb.ctx.db, c.row.id, key)
        names = await c.tb.ctx.names(c.row.id)
        entry = names.get((m.side_a if side == "a" else m.side_b) or "", "?")
        glang = c.tb.ctx.glang()
        text = tt(
            glang,
            "conduct.recorded",
            key=key,
            entry=entry,
            note=note,
            id=rid,
            count=outcome.active_violations,
        )
        if outcome.newly_disqualified:
            text += "\n" + tt(glang, "conduct.disqualified", entry=entry, count=outcome.active_violations)
            await c.tb.tables.halt_match(m)
        await c.tb.ctx.tell_match(c.row, m, text)
        if rec is not None:
            await c.tb.results.after_result(c.row.id, rec, announce=False)


@command(REF)
async def cmd_reverse(c: Call) -> None:
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/reverse <C1> <reason>"))
        return
    rid, reason = c.args[0].upper(), " ".join(c.args[1:])
    outcome = await ts.reverse_conduct(c.tb.ctx.db, c.row.id, rid, c.user.id, reason)
    names = await c.tb.ctx.names(c.row.id)
    extra = (
        tt(c.tb.ctx.glang(), "conduct.reinstated", entry=names.get(outcome.entry_id, "?"))
        if outcome.reinstated
        else ""
    )
    text = tt(c.tb.ctx.glang(), "conduct.reversed", id=rid, reason=reason, extra=extra)
    c.tb.ctx.send(c.row.group_chat_id, text)
    if c.elsewhere:
        c.reply(text)


@command(REF)
async def cmd_start_match(c: Call) -> None:
    """/start_match <match>: a referee starts the match's tables now (seats stay bound to the entries)."""
    if not c.args:
        c.reply(tt(c.lang, "usage", usage="/start_match <match>"))
        return
    await c.tb.referee.referee_start(c.row.id, c.args[0].upper(), c.user.id)
    c.reply(tt(c.lang, "done"))


@command(REF)
async def cmd_substitute(c: Call) -> None:
    """/substitute <match> @absent @substitute [reason]: a referee-approved substitute takes the seat."""
    if len(c.args) < 3:
        c.reply(tt(c.lang, "usage", usage="/substitute <match> @old @new [理由]"))
        return
    old, new = await ts.find_user(c.tb.ctx.db, c.args[1]), await ts.find_user(c.tb.ctx.db, c.args[2])
    if old is None or new is None:
        c.reply(tt(c.lang, "unknown_user", who=c.args[1] if old is None else c.args[2]))
        return
    await c.tb.substitutes.seat_substitute(
        c.row.id, c.args[0].upper(), old.id, new.id, c.user.id, " ".join(c.args[3:])
    )
    c.reply(tt(c.lang, "done"))


@command(REF)
async def cmd_extend(c: Call) -> None:
    """/extend <match> <minutes> [table]: more time before the lateness rule, for one table or all waiting."""
    if len(c.args) < 2 or not c.args[1].isdigit() or (len(c.args) > 2 and not c.args[2].isdigit()):
        c.reply(tt(c.lang, "usage", usage="/extend <match> <minutes> [table]"))
        return
    table = int(c.args[2]) if len(c.args) > 2 else None
    await c.tb.referee.extend_lateness(c.row.id, c.args[0].upper(), table, int(c.args[1]), c.user.id)
    c.reply(tt(c.lang, "done"))


async def _pause(c: Call, paused: bool) -> None:
    if not c.args:
        c.reply(tt(c.lang, "usage", usage="/pause <match>" if paused else "/resume <match>"))
        return
    key = c.args[0].upper()
    if not await c.tb.referee.pause(c.row.id, key, paused):
        c.reply(tt(c.lang, "no_table", key=key))
        return
    await ts.audit(c.tb.ctx.db, c.row.id, c.user.id, "pause" if paused else "resume", match=key)
    m = await ts.get_match(c.tb.ctx.db, c.row.id, key)
    text = tt(c.tb.ctx.glang(), "pause.done" if paused else "resume.done", key=key)
    for chat in {c.row.group_chat_id, *[int(x) for x in m.table_chats]}:
        c.tb.ctx.send(chat, text)


@command(REF)
async def cmd_pause(c: Call) -> None:
    await _pause(c, True)


@command(REF)
async def cmd_resume(c: Call) -> None:
    await _pause(c, False)
