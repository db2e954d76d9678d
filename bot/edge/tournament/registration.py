"""The entries: registering (the Register link, partner invitations, union groups, an organiser or a
leader registering a pair), withdrawing and removing, replacing a player, forming teams, the list."""

from __future__ import annotations

import logging

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.constants import ChatType
from telegram.ext import ApplicationHandlerStop

from bot.edge.handlers import save_user
from bot.edge.tournament.call import ORG, Call, Ctx, command, lang_of, tb_of
from bot.presentation.callbacks import TournamentButton as TB
from bot.presentation.callbacks import TournamentOp as Op
from bot.presentation.tournament.texts import error_text, tt
from bot.tournaments.wiring import TournamentBot
from engine.errors import RuleError
from storage import tournaments as ts
from storage.tournament_models import TournamentEntry

log = logging.getLogger(__name__)


# --- registration -----------------------------------------------------------------------------------


async def on_start_payload(update: Update, context: Ctx) -> None:
    """``/start reg_<id>`` (Register button) and ``/start inv_<token>`` (a partner invitation)."""
    tb = tb_of(context)
    user, chat = update.effective_user, update.effective_chat
    if user is None or chat is None or chat.type != ChatType.PRIVATE or not context.args:
        return
    payload = context.args[0]
    if not payload.startswith(("reg_", "inv_")):
        return
    await save_user(tb.ctx.db, user, started=True)
    lang = await lang_of(tb, update)
    try:
        if payload.startswith("reg_"):
            await start_registration(tb, user.id, lang, int(payload[4:]))
        else:
            await show_invite(tb, user.id, lang, payload[4:])
    except (RuleError, ValueError) as err:
        tb.ctx.send(
            user.id, error_text(lang, err) if isinstance(err, RuleError) else tt(lang, "err.invite_unknown")
        )
    except Exception:
        log.exception("registration failed")
        tb.ctx.send(user.id, tt(lang, "internal"))
    raise ApplicationHandlerStop


async def start_registration(tb: TournamentBot, user_id: int, lang: str, tid: int) -> None:
    row = await ts.get_tournament(tb.ctx.db, tid)
    ts.check_registration_open(row, tb.ctx.now())
    groups = [g["name"] for g in row.union_groups or []]
    if not groups:
        await make_invite(tb, user_id, lang, tid, "")
        return
    buttons = [
        [InlineKeyboardButton(g, callback_data=TB(Op.UNION_GROUP, tid, index=i).encode())]
        for i, g in enumerate(groups)
    ]
    tb.ctx.send(user_id, tt(lang, "reg.choose_group", name=row.name), InlineKeyboardMarkup(buttons))


async def make_invite(tb: TournamentBot, user_id: int, lang: str, tid: int, group: str) -> None:
    inv = await ts.create_invite(tb.ctx.db, tid, user_id, group, tb.ctx.now())
    row = await ts.get_tournament(tb.ctx.db, tid)
    tb.ctx.send(
        user_id, tt(lang, "reg.invite", hours=row.invite_hours, link=tb.ctx.bot_link(f"inv_{inv.token}"))
    )


async def show_invite(tb: TournamentBot, user_id: int, lang: str, token: str) -> None:
    inv = await ts.get_invite(tb.ctx.db, token)
    row = await ts.get_tournament(tb.ctx.db, inv.tournament_id)
    names = await ts.user_names(tb.ctx.db, [inv.inviter_id])
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    tt(lang, "reg.accept"), callback_data=TB(Op.ACCEPT_INVITE, token=token).encode()
                )
            ]
        ]
    )
    tb.ctx.send(
        user_id,
        tt(
            lang,
            "reg.invite_from",
            inviter=names[inv.inviter_id],
            name=row.name,
            group=inv.union_group or "-",
        ),
        markup,
    )


async def accept(tb: TournamentBot, user_id: int, lang: str, token: str) -> str:
    entry = await ts.accept_invite(tb.ctx.db, token, user_id, tb.ctx.now())
    inviter = int(entry.players_json[0])
    names = await ts.user_names(tb.ctx.db, [user_id])
    tb.ctx.send(
        inviter, tt(await tb.ctx.ulang(inviter), "reg.partner_joined", partner=names[user_id], id=entry.id)
    )
    text = tt(lang, "reg.paired", pair=entry.name, group=entry.union_group or "-", id=entry.id)
    tb.ctx.send(user_id, text)
    await tell_organisers_new_entry(tb, entry)
    return text


async def tell_organisers_new_entry(tb: TournamentBot, entry: TournamentEntry) -> None:
    """Registrations as they come in: each organiser gets one line (the full picture: /dashboard)."""
    tb.ctx.dashboard_changed(entry.tournament_id)
    count = len([e for e in await ts.entries(tb.ctx.db, entry.tournament_id) if e.kind == entry.kind])
    for r in await ts.role_members(tb.ctx.db, entry.tournament_id, "organiser"):
        tb.ctx.send(
            r.user_id,
            tt(
                await tb.ctx.ulang(r.user_id),
                "reg.new_entry",
                entry=entry.name,
                group=entry.union_group or "-",
                count=count,
            ),
        )


@command()
async def cmd_withdraw(c: Call) -> None:
    """/withdraw: a player withdraws their pair (of a team: that pair alone; the team's leader is told)."""
    entry = await ts.entry_of_user(c.tb.ctx.db, c.row.id, c.user.id)
    if entry is None:
        raise RuleError("unknown_entry", "", id="-")
    if ts.swiss_running(c.row):  # between Swiss rounds: not paired again, its results stand
        await swiss_withdrawal(c, entry.id)
        return
    done = await ts.withdraw(c.tb.ctx.db, c.row.id, entry.id, c.user.id, c.tb.ctx.now())
    c.reply(tt(c.lang, "reg.withdrawn", entry=entry.name))
    await tell_withdrawal(c.tb, done, c.user.id)


async def tell_withdrawal(tb: TournamentBot, done: ts.Withdrawn, actor: int) -> None:
    """The other players of the entry and, for a pair of a team, the team's leader are told."""
    tb.ctx.dashboard_changed(done.entry.tournament_id)
    for uid in {int(p) for p in done.entry.players_json} - {actor}:
        tb.ctx.send(uid, tt(await tb.ctx.ulang(uid), "reg.withdrawn_you", entry=done.entry.name))
    if done.team is not None:
        per = int(
            (await ts.get_tournament(tb.ctx.db, done.team.tournament_id)).settings_json.get(
                "pairs_per_team", 1
            )
        )
        for uid in done.leaders:
            tb.ctx.send(
                uid,
                tt(
                    await tb.ctx.ulang(uid),
                    "reg.team_pair_left",
                    team=done.team.name,
                    pair=done.entry.name,
                    have=len(done.team.players_json) // 2,
                    need=per,
                    team_id=done.team.id,
                ),
            )


async def swiss_withdrawal(c: Call, entry_id: int) -> None:
    """A withdrawal from a running Swiss (``ts.swiss_withdraw``): not paired again; everyone of the entry
    is told."""
    gone = await ts.swiss_withdraw(c.tb.ctx.db, c.row.id, entry_id, c.user.id)
    c.tb.ctx.dashboard_changed(c.row.id)
    c.reply(tt(c.lang, "swiss.withdrawn", entry=gone.name))
    for uid in {int(p) for p in gone.players_json} - {c.user.id}:
        c.tb.ctx.send(uid, tt(await c.tb.ctx.ulang(uid), "swiss.withdrawn", entry=gone.name))


async def swiss_late_entry(c: Call, players: list[int]) -> None:
    """/register in a running Swiss (organiser): a late pair on 0 points, paired from the next round."""
    late = await ts.swiss_late_entry(
        c.tb.ctx.db, c.row.id, c.user.id, players, " ".join(c.args[2:]), c.tb.ctx.now()
    )
    e = late.entry
    c.tb.ctx.dashboard_changed(c.row.id)
    c.reply(
        tt(
            c.lang,
            "swiss.late_entry",
            pair=e.name,
            group=e.union_group or "-",
            id=e.id,
            round=late.first_round,
        )
    )
    for uid in players:
        c.tb.ctx.send(
            uid,
            tt(
                await c.tb.ctx.ulang(uid),
                "swiss.late_entry_you",
                name=c.row.name,
                pair=e.name,
                round=late.first_round,
            ),
        )


@command()
async def cmd_register(c: Call) -> None:
    """Organiser, or the union group's leader: /register @a @b [union group]; in a running Swiss the
    organiser's /register is a late entry."""
    if not (await ts.roles_of(c.tb.ctx.db, c.row.id, c.user.id)) & {"organiser", "leader"}:
        raise RuleError("not_allowed", "")
    if len(c.args) < 2:
        c.reply(tt(c.lang, "usage", usage="/register @a @b [单位]"))
        return
    ids = []
    for who in c.args[:2]:
        u = await ts.find_user(c.tb.ctx.db, who)
        if u is None:
            c.reply(tt(c.lang, "unknown_user", who=who))
            return
        ids.append(u.id)
    if ts.swiss_running(c.row):
        await swiss_late_entry(c, ids)
        return
    entry = await ts.register_pair(
        c.tb.ctx.db, c.row.id, c.user.id, ids, " ".join(c.args[2:]), c.tb.ctx.now()
    )
    c.tb.ctx.dashboard_changed(c.row.id)
    c.reply(tt(c.lang, "reg.paired", pair=entry.name, group=entry.union_group or "-", id=entry.id))


@command(ORG)
async def cmd_remove(c: Call) -> None:
    if not c.args or not c.args[0].isdigit():
        c.reply(tt(c.lang, "usage", usage="/remove <entry no>"))
        return
    if ts.swiss_running(c.row):  # between Swiss rounds
        await swiss_withdrawal(c, int(c.args[0]))
        return
    done = await ts.withdraw(c.tb.ctx.db, c.row.id, int(c.args[0]), c.user.id)
    c.reply(tt(c.lang, "reg.withdrawn", entry=done.entry.name))
    await tell_withdrawal(c.tb, done, c.user.id)


@command()
async def cmd_replace(c: Call) -> None:
    """/replace <entry no> @old @new: ``new`` is asked and takes the place once they accept."""
    if len(c.args) != 3 or not c.args[0].isdigit():
        c.reply(tt(c.lang, "usage", usage="/replace <entry no> @old @new"))
        return
    old, new = await ts.find_user(c.tb.ctx.db, c.args[1]), await ts.find_user(c.tb.ctx.db, c.args[2])
    if old is None or new is None:
        c.reply(tt(c.lang, "unknown_user", who=c.args[1] if old is None else c.args[2]))
        return
    offer = await ts.offer_replacement(
        c.tb.ctx.db, c.row.id, int(c.args[0]), old.id, new.id, c.user.id, c.tb.ctx.now()
    )
    names = await ts.user_names(c.tb.ctx.db, [old.id, new.id, c.user.id])
    entries = {e.id: e for e in await ts.entries(c.tb.ctx.db, c.row.id)}
    entry = entries[int(c.args[0])]
    nl = await c.tb.ctx.ulang(new.id)
    markup = InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    tt(nl, "reg.accept"), callback_data=TB(Op.ACCEPT_REPLACEMENT, token=offer.token).encode()
                )
            ]
        ]
    )
    c.tb.ctx.send(
        new.id,
        tt(
            nl,
            "reg.replace_ask",
            who=names[c.user.id],
            old=names[old.id],
            entry=entry.name,
            name=c.row.name,
            hours=c.row.invite_hours,
        ),
        markup,
    )
    c.reply(tt(c.lang, "reg.replace_sent", new=names[new.id], old=names[old.id]))


async def accept_replacement(tb: TournamentBot, user_id: int, lang: str, token: str) -> str:
    entry, old = await ts.accept_replacement(tb.ctx.db, token, user_id, tb.ctx.now())
    tb.ctx.dashboard_changed(entry.tournament_id)
    names = await ts.user_names(tb.ctx.db, [old, user_id])
    tb.ctx.send(old, tt(await tb.ctx.ulang(old), "reg.replaced_you", new=names[user_id], entry=entry.name))
    for uid in {int(p) for p in entry.players_json} - {user_id}:
        tb.ctx.send(uid, tt(await tb.ctx.ulang(uid), "reg.replaced", entry=entry.name))
    text = tt(lang, "reg.replaced", entry=entry.name)
    tb.ctx.send(user_id, text)
    return text


@command()
async def cmd_team(c: Call) -> None:
    """Union group leader: /team (list pairs) or /team <name> <pair no> <pair no> ..."""
    per = int(c.row.settings_json.get("pairs_per_team", 1))
    if len(c.args) < 2:
        leads = {
            r.union_group
            for r in await ts.role_members(c.tb.ctx.db, c.row.id, "leader")
            if r.user_id == c.user.id
        }
        organiser = "organiser" in await ts.roles_of(c.tb.ctx.db, c.row.id, c.user.id)
        if not leads and not organiser:
            raise RuleError("not_allowed", "")
        pairs = [
            e
            for e in await ts.entries(c.tb.ctx.db, c.row.id, "pair")
            if e.team_id is None and (organiser or e.union_group in leads)
        ]
        lines = "\n".join(f"{e.id}. {e.name}（{e.union_group}）" for e in pairs) or "-"
        c.reply(tt(c.lang, "reg.team_list", n=per, pairs=lines))
        return
    nums = [a for a in c.args if a.isdigit()]
    name = " ".join(a for a in c.args if not a.isdigit())
    team = await ts.form_team(c.tb.ctx.db, c.row.id, c.user.id, [int(n) for n in nums], name, c.tb.ctx.now())
    c.tb.ctx.dashboard_changed(c.row.id)
    c.reply(tt(c.lang, "reg.team_formed", team=team.name, id=team.id))
    people = await ts.user_names(c.tb.ctx.db, [int(p) for p in team.players_json])
    roster = "、".join(people[int(p)] for p in team.players_json)
    for uid in people:  # every member is told they are in the team
        c.tb.ctx.send(
            uid,
            tt(
                await c.tb.ctx.ulang(uid),
                "reg.team_you",
                name=c.row.name,
                team=team.name,
                group=team.union_group or "-",
                players=roster,
            ),
        )


@command()
async def cmd_entries(c: Call) -> None:
    """/entries: pairs and teams counted apart (a team's pairs are listed under it)."""
    entries = await ts.entries(c.tb.ctx.db, c.row.id)
    pairs = [e for e in entries if e.kind == "pair"]
    teams = [e for e in entries if e.kind == "team"]
    lines = []
    for t in teams:
        lines.append(f"{t.id}. {t.name}（{t.union_group or '-'}）[{tt(c.lang, 'unit.team')}]")
        lines += [f"   {p.id}. {p.name}" for p in pairs if p.team_id == t.id]
    lines += [f"{p.id}. {p.name}（{p.union_group or '-'}）" for p in pairs if p.team_id is None]
    counts = tt(c.lang, "reg.count_pairs", n=len(pairs))
    if c.row.settings_json.get("entrant") == "team":
        counts = tt(c.lang, "reg.count_teams", n=len(teams)) + ("，" if c.lang != "en" else ", ") + counts
    c.reply(tt(c.lang, "reg.entries", counts=counts, lines="\n".join(lines) or "-"))
