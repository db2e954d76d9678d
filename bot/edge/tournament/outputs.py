"""What anyone may ask of a tournament: bracket (text and picture), standings, schedule, results,
the exports, the help."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping, Sequence

from telegram import Update
from telegram.constants import ChatType

from bot.edge.tournament.call import REF, Call, Ctx, command, guarded, reply
from bot.presentation.season_texts import casual_text
from bot.presentation.tournament.bracket_image import bracket_png
from bot.presentation.tournament.export import export_all
from bot.presentation.tournament.rating_chart import rating_png
from bot.presentation.tournament.texts import tt
from bot.tournaments import views
from bot.tournaments.wiring import TournamentBot
from engine.tournament import Tournament as Engine
from engine.tournament.ratings import HistoryPoint, Ratings
from engine.tournament.schedule import Slot
from storage import tournaments as ts
from storage.db import Database
from storage.ratings_casual import REF as CASUAL_REF
from storage.ratings_casual import CasualGame, casual_games_of
from storage.tournament_models import TableGroupLink, Tournament, TournamentMatch

log = logging.getLogger(__name__)


# --- outputs ------------------------------------------------------------------------------------------


@command()
async def cmd_bracket(c: Call) -> None:
    if c.row.state_json is None:
        c.reply(tt(c.lang, "out.no_draw"))
        return
    eng = ts.load_engine(c.row)
    c.reply(views.bracket_text(c.lang, eng, await c.tb.ctx.names(c.row.id)))
    png = await asyncio.to_thread(_bracket_png, eng, c.lang)  # drawing takes 0.1-0.6 s: off the event loop
    chat = c.update.effective_chat
    if png is not None and chat is not None:
        await c.tb.ctx.send_document(chat.id, png, "bracket.png", photo=True)


def _bracket_png(eng: Engine, lang: str) -> bytes | None:
    try:
        return bracket_png(eng, lang).getvalue()
    except Exception as exc:  # a missing font is reported by the renderer at start-up; text was sent
        log.warning("bracket image failed: %s", exc)
        return None


@command()
async def cmd_standings(c: Call) -> None:
    if c.row.state_json is None:
        c.reply(tt(c.lang, "out.no_draw"))
        return
    eng = ts.load_engine(c.row)
    ratings = views.rating_texts(await ts.entry_ratings(c.tb.ctx.db, c.row))  # its players' mean
    c.reply(views.standings_text(c.lang, eng, await c.tb.ctx.names(c.row.id), ratings))


@command()
async def cmd_schedule(c: Call) -> None:
    rows = [
        m for m in await ts.matches(c.tb.ctx.db, c.row.id) if m.status in ("scheduled", "open", "playing")
    ]
    tables = {g.chat_id: g.title or str(g.chat_id) for g in await ts.table_groups(c.tb.ctx.db, c.row.id)}
    lines = views.schedule_lines(c.lang, c.row, rows, await c.tb.ctx.names(c.row.id), tables)
    c.reply(tt(c.lang, "sched.round", lines="\n".join(lines)) if lines else tt(c.lang, "sched.none"))


@command()
async def cmd_results(c: Call) -> None:
    eng = ts.load_engine(c.row) if c.row.state_json is not None else None
    c.reply(
        views.results_text(
            c.lang, eng, await ts.matches(c.tb.ctx.db, c.row.id), await c.tb.ctx.names(c.row.id)
        )
    )


@command(REF)
async def cmd_export(c: Call) -> None:
    chat = c.update.effective_chat
    assert chat is not None
    entries = await ts.entries(c.tb.ctx.db, c.row.id, include_withdrawn=True)
    players = sorted({int(p) for e in entries for p in e.players_json})
    users = await ts.user_names(c.tb.ctx.db, players)
    eng = ts.load_engine(c.row) if c.row.state_json else None
    rows = await ts.matches(c.tb.ctx.db, c.row.id)
    groups = await ts.table_groups(c.tb.ctx.db, c.row.id)
    files = (
        await asyncio.to_thread(
            _rendered_exports, c.tb, c.row, eng, rows, users, c.lang, groups
        )  # off the loop
        if eng is not None
        else None
    )
    if files is None:
        files = [(f"tournament-{c.row.id}.csv", views.export_csv(c.row, entries, rows, eng, users))]
    for i, (filename, data) in enumerate(files):
        await c.tb.ctx.send_document(chat.id, data, filename, tt(c.lang, "out.export") if i == 0 else "")
    await c.tb.ctx.send_document(
        chat.id, ts.spec_to_toml(c.row).encode("utf-8"), f"tournament-{c.row.id}.toml"
    )


def _rendered_exports(
    tb: TournamentBot,
    row: Tournament,
    eng: Engine,
    rows: list[TournamentMatch],
    users: dict[int, str],
    lang: str,
    table_groups: list[TableGroupLink],
) -> list[tuple[str, bytes]] | None:
    """CSV files and the .xlsx workbook from bot/presentation/tournament (None: they failed, use the plain CSV)."""
    try:
        slots = [
            Slot(m.match_key, tuple(str(c) for c in m.table_chats), m.start_at) for m in rows if m.start_at
        ]
        groups = {str(g.chat_id): g.title or str(g.chat_id) for g in table_groups}
        files = export_all(
            eng,
            lang,
            slots=slots,
            tz=row.time_zone,
            player_names={
                **{str(k): v for k, v in users.items()},
                **{ts.player_label(v, k): v for k, v in users.items()},
            },
            table_names=groups,
        )
        return [(f.filename, f.data) for f in files]
    except Exception as exc:
        log.warning("rendered export failed, sending the plain CSV: %s", exc)
        return None


@guarded
async def cmd_help(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    reply(update, tb, tt(lang, "help"))


# --- a player's record and the season ----------------------------------------------------------------


@guarded
async def cmd_me(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/me (private): the player's ratings per game, their tournaments with record and place, and the
    rating graph as a picture."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    if chat.type != ChatType.PRIVATE:
        reply(update, tb, tt(lang, "private_only"))
        return
    db = tb.ctx.db
    ratings = await ts.player_ratings(db)
    lines = []
    for row in await ts.tournaments_of_user(db, user.id):
        if row.status in ("setup", "cancelled", "deleted"):
            continue
        entry = await ts.entry_of_user(db, row.id, user.id)
        if entry is None:
            continue
        eng = ts.load_engine(row) if row.state_json is not None else None
        lines.append(views.me_line(lang, row, eng, str(entry.id), entry.name))
    name = user.first_name or user.username or str(user.id)
    mine = ratings.of_player(str(user.id))
    text = views.me_text(lang, name, mine, lines)
    if db.casual_ratings:  # CASUAL_RATINGS: the rated casual matches too (storage/ratings_casual.py)
        casual = await casual_games_of(db, user.id)
        if casual:
            text += "\n\n" + await _casual_block(db, lang, str(user.id), casual, ratings)
    reply(update, tb, text)
    history = {g: ratings.history_of(str(user.id), g) for g in mine}
    if any(history.values()):
        png = await asyncio.to_thread(_rating_png, tt(lang, "me.chart", name=name), history, lang)
        if png is not None:
            await tb.ctx.send_document(chat.id, png, "rating.png", photo=True)


async def _casual_block(
    db: Database, lang: str, me: str, casual: Sequence[CasualGame], ratings: Ratings
) -> str:
    partners = {
        p for g in casual for p in (*g.game.winners, *g.game.losers) if p != me and p.lstrip("-").isdigit()
    }
    names = await ts.user_names(db, [int(p) for p in partners])
    history = {h.ref: h for h in ratings.history if h.player == me and h.ref.startswith(CASUAL_REF)}
    return casual_text(lang, me, casual, history, {str(k): v for k, v in names.items()})


def _rating_png(title: str, history: Mapping[str, Sequence[HistoryPoint]], lang: str) -> bytes | None:
    try:
        return rating_png(title, history, lang)
    except Exception as exc:  # a missing font is reported by the renderer at start-up; the text was sent
        log.warning("rating chart failed: %s", exc)
        return None
