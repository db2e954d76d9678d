"""The season commands (groups and private): ``/season`` (the current season, a named one, or the old
``/season 3 5 7``; ``export`` for CSV and Excel files), ``/seasons``, and the organisers'
``/season_new``, ``/season_add``, ``/season_remove`` (storage/season_repo.py says who may do what).

Bad input gets one translated answer (the usage, or why not) and changes nothing.
"""

from __future__ import annotations

import re

from telegram import Update
from telegram.constants import ChatType

from bot.edge.tournament.call import Ctx, guarded, reply
from bot.presentation.echo import clip
from bot.presentation.season_texts import game_name, season_error, seasons_text, st, tournaments_line
from bot.presentation.tournament.export import season_files
from bot.tournaments import views
from bot.tournaments.wiring import TournamentBot
from engine.errors import RuleError
from engine.tournament.season import season_table
from storage import season_repo
from storage import tournaments as ts
from storage.season_repo import SeasonView

GAME_WORDS = {
    "shengji": "shengji",
    "双升": "shengji",
    "升级": "shengji",
    "guandan": "guandan",
    "掼蛋": "guandan",
}
SEASON_REF = re.compile(r"[sS](\d{1,9})")


def _private(update: Update) -> bool:
    chat = update.effective_chat
    return chat is not None and chat.type == ChatType.PRIVATE


async def _group_tournament(tb: TournamentBot, update: Update) -> int | None:
    chat = update.effective_chat
    if chat is None or _private(update):
        return None
    row = await ts.tournament_of_group(tb.ctx.db, chat.id)
    return row.id if row is not None and row.status != "deleted" else None


async def _chosen_season(tb: TournamentBot, update: Update, words: list[str]) -> SeasonView | str:
    """The season ``/season [words]`` means, or the answer saying there is none."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    db = tb.ctx.db
    group = None if _private(update) else chat.id
    if not words:
        found = await season_repo.current_season(db, user.id, group, await _group_tournament(tb, update))
        return found if found is not None else "none_here"
    ref = SEASON_REF.fullmatch(words[0]) if len(words) == 1 else None
    if ref is not None:
        return await season_repo.get_season(db, int(ref.group(1)))
    named = await season_repo.season_by_name(db, " ".join(words), group)
    return named if named is not None else "no_such_name"


@guarded
async def cmd_season(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/season [season name | S<no> | <id> <id> ...] [export]: a season's table, per player and union group."""
    chat = update.effective_chat
    assert chat is not None
    db = tb.ctx.db
    export = bool(args) and args[-1].lower() == "export"
    words = args[:-1] if export else args
    ids = [w.lstrip("#") for w in words]
    header = ""
    try:
        if ids and all(i.isdigit() for i in ids):  # the tournaments named in the command
            chosen = [int(x) for x in dict.fromkeys(ids)]
            for tid in chosen:
                row = await ts.get_tournament(db, tid)  # RuleError tournament_not_found
                if row.state_json is None or row.status == "deleted":
                    raise RuleError("no_draw_yet", "The draw has not been held")
            stem = "season-" + "-".join(str(t) for t in chosen)
        else:
            season = await _chosen_season(tb, update, words)
            if isinstance(season, str):
                reply(update, tb, st(lang, season, name=clip(" ".join(words))) + "\n\n" + st(lang, "usage"))
                return
            chosen = [t for t, _, _ in season.tournaments]
            header = st(lang, "named", id=season.id, name=season.name, game=game_name(lang, season.game))
            stem = f"season-S{season.id}"
            if not any(drawn for _, _, drawn in season.tournaments):
                reply(update, tb, st(lang, "empty", id=season.id, name=season.name))
                return
    except RuleError as err:
        reply(update, tb, season_error(lang, err))
        return
    data = await season_repo.season_input(db, chosen)
    players, groups = season_table(list(data.tables))
    names = await ts.user_names(db, [int(r.key) for r in players if r.key.isdigit()])
    text = views.season_text(lang, [f"#{row.id} {row.name}" for row in data.rows], players, groups, names)
    reply(update, tb, f"{header}\n{text}" if header else text)
    if export:
        for f in season_files(players, groups, lang, {str(k): v for k, v in names.items()}, stem):
            await tb.ctx.send_document(chat.id, f.data, f.filename)


@guarded
async def cmd_seasons(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/seasons: the seasons of this group (privately: the user's), newest first."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    found = await season_repo.seasons_for(
        tb.ctx.db, user.id, None if _private(update) else chat.id, await _group_tournament(tb, update)
    )
    reply(update, tb, seasons_text(lang, found))


@guarded
async def cmd_season_new(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/season_new <game> <name>: a new season of this group (privately: of no group), by an organiser."""
    chat, user = update.effective_chat, update.effective_user
    assert chat is not None and user is not None
    db = tb.ctx.db
    if not (tb.ctx.is_admin(user.id) or await season_repo.organises_any(db, user.id)):
        reply(update, tb, st(lang, "not_organiser"))
        return
    game = GAME_WORDS.get(args[0].lower()) if args else None
    if game is None or len(args) < 2:
        reply(update, tb, st(lang, "new_usage"))
        return
    try:
        made = await season_repo.create_season(
            db, " ".join(args[1:]), game, user.id, None if _private(update) else chat.id
        )
    except RuleError as err:
        reply(update, tb, season_error(lang, err))
        return
    reply(update, tb, st(lang, "created", id=made.id, name=made.name, game=game_name(lang, made.game)))


def _season_and_ids(args: list[str]) -> tuple[int, list[int]] | None:
    if len(args) < 2:
        return None
    ref = SEASON_REF.fullmatch(args[0]) or re.fullmatch(r"(\d{1,9})", args[0])
    ids = [a.lstrip("#") for a in args[1:]]
    if ref is None or not all(i.isdigit() and len(i) <= 9 for i in ids):
        return None
    return int(ref.group(1)), [int(i) for i in dict.fromkeys(ids)]


async def _change(update: Update, tb: TournamentBot, lang: str, args: list[str], add: bool) -> None:
    user = update.effective_user
    assert user is not None
    parsed = _season_and_ids(args)
    if parsed is None:
        reply(update, tb, st(lang, "add_usage" if add else "remove_usage"))
        return
    season_id, ids = parsed
    change = season_repo.add_tournaments if add else season_repo.remove_tournaments
    try:
        view = await change(tb.ctx.db, season_id, user.id, ids)
    except RuleError as err:
        reply(update, tb, season_error(lang, err))
        return
    reply(
        update,
        tb,
        st(lang, "changed", id=view.id, name=view.name, tournaments=tournaments_line(lang, view.tournaments)),
    )


@guarded
async def cmd_season_add(update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]) -> None:
    """/season_add S<no> <id> ...: the season's creator adds tournaments they organise (all or none)."""
    await _change(update, tb, lang, args, add=True)


@guarded
async def cmd_season_remove(
    update: Update, context: Ctx, tb: TournamentBot, lang: str, args: list[str]
) -> None:
    """/season_remove S<no> <id> ...: the season's creator takes tournaments out (all or none)."""
    await _change(update, tb, lang, args, add=False)


COMMANDS = {
    "season": cmd_season,
    "seasons": cmd_seasons,
    "season_new": cmd_season_new,
    "season_add": cmd_season_add,
    "season_remove": cmd_season_remove,
}
