"""The named seasons' and the casual ratings' words (zh and en): ``st(lang, key, **params)``, the
season refusals (``season_error``), the season list and a player's casual matches for ``/me``.

The season table itself is ``bot.tournaments.views.season_text`` (the same table as ``/season 3 5 7``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from bot.presentation.tournament.texts import error_text, tt
from engine.errors import RuleError
from engine.tournament.ratings import HistoryPoint, is_computer

S: dict[str, tuple[str, str]] = {
    "usage": (
        "/season：本群（私聊中：你的）当前赛季积分榜\n"
        "/season 赛季名 或 /season S编号：指定赛季\n"
        "/season 编号 编号 ……：所列比赛的积分榜\n"
        "末尾加 export 发送 CSV 与 Excel 文件。/seasons 列出赛季。",
        "/season: the current season's table (of this group; privately: yours)\n"
        "/season <season name> or /season S<no>: that season\n"
        "/season <id> <id> ...: the table over those tournaments\n"
        "add export at the end for CSV and Excel files. /seasons lists the seasons.",
    ),
    "organiser_usage": (
        "组织者：/season_new 游戏 赛季名（游戏：双升 或 掼蛋）· /season_add S编号 比赛编号 …… · "
        "/season_remove S编号 比赛编号 ……",
        "Organisers: /season_new <game> <season name> (game: shengji or guandan) · "
        "/season_add S<no> <tournament id> ... · /season_remove S<no> <tournament id> ...",
    ),
    "new_usage": (
        "用法：/season_new 游戏 赛季名，例如 /season_new 掼蛋 2027春季赛（游戏：双升 或 掼蛋）",
        "Usage: /season_new <game> <season name>, e.g. /season_new guandan Spring 2027 (game: shengji or guandan)",
    ),
    "add_usage": (
        "用法：/season_add S编号 比赛编号 ……，例如 /season_add S1 3 5",
        "Usage: /season_add S<no> <tournament id> ..., e.g. /season_add S1 3 5",
    ),
    "remove_usage": (
        "用法：/season_remove S编号 比赛编号 ……，例如 /season_remove S1 5",
        "Usage: /season_remove S<no> <tournament id> ..., e.g. /season_remove S1 5",
    ),
    "not_organiser": (
        "只有比赛的组织者可以创建赛季。",
        "Only a tournament organiser may create a season.",
    ),
    "created": (
        "已创建赛季 S{id}「{name}」（{game}）。添加比赛：/season_add S{id} 比赛编号 ……",
        "Season S{id} “{name}” ({game}) created. Add tournaments: /season_add S{id} <tournament id> ...",
    ),
    "changed": (
        "赛季 S{id}「{name}」现有比赛：{tournaments}",
        "Season S{id} “{name}” now holds: {tournaments}",
    ),
    "no_tournaments": ("（还没有比赛）", "(no tournament yet)"),
    "none_here": ("这里还没有赛季。", "There is no season here yet."),
    "no_such_name": ("没有名为「{name}」的赛季。", "There is no season called “{name}”."),
    "empty": (
        "赛季 S{id}「{name}」还没有已抽签的比赛。",
        "Season S{id} “{name}” has no tournament with a draw yet.",
    ),
    "named": ("📅 赛季 S{id}「{name}」（{game}）", "📅 Season S{id} “{name}” ({game})"),
    "list_title": ("📅 赛季：", "📅 Seasons:"),
    "list_row": ("S{id}「{name}」{game} · {tournaments}", "S{id} “{name}” {game} · {tournaments}"),
    "err.season_not_found": ("没有赛季 {season}。", "There is no season {season}."),
    "err.season_not_yours": (
        "只有赛季的创建者可以修改它。",
        "Only the season's creator may change it.",
    ),
    "err.season_bad_game": ("游戏只能是 双升 或 掼蛋。", "The game is shengji or guandan."),
    "err.season_bad_name": ("赛季名需为 1 到 {n} 个字。", "A season's name is 1 to {n} characters."),
    "err.season_name_taken": (
        "你已有名为「{name}」的赛季（S{id}）；没有改动。",
        "You have a season called “{name}” already (S{id}); nothing changed.",
    ),
    "err.season_wrong_game": (
        "比赛 {id} 打的是{game}，与赛季的游戏不同；没有改动。",
        "Tournament {id} plays {game}, not the season's game; nothing changed.",
    ),
    "err.season_not_organiser": (
        "你不是比赛 {id} 的组织者；没有改动。",
        "You do not organise tournament {id}; nothing changed.",
    ),
    "err.season_already_in": (
        "比赛 {id} 已在该赛季中；没有改动。",
        "Tournament {id} is in the season already; nothing changed.",
    ),
    "err.season_not_in": (
        "比赛 {id} 不在该赛季中；没有改动。",
        "Tournament {id} is not in the season; nothing changed.",
    ),
    "err.season_no_tournament": (
        "没有比赛 {id}；没有改动。",
        "There is no tournament {id}; nothing changed.",
    ),
    "casual.title": (
        "休闲对局（计入等级分；最近 {shown} 局，共 {total} 局）：",
        "Casual matches (rated; the last {shown} of {total}):",
    ),
    "casual.line": (
        "{date} {game} {outcome} · 搭档 {partner} · 等级分 {rating}",
        "{date} {game} {outcome} · partner {partner} · rating {rating}",
    ),
    "casual.won": ("胜", "won"),
    "casual.lost": ("负", "lost"),
    "casual.computer": ("电脑", "computer"),
}

CASUAL_SHOWN = 10


def st(lang: str, key: str, /, **params: Any) -> str:
    """The message ``key`` in ``lang`` (zh | en) with ``params`` filled in."""
    pair = S.get(key)
    if pair is None:
        return key
    text = pair[1] if lang == "en" else pair[0]
    try:
        return text.format(**params) if params else text
    except (KeyError, IndexError, ValueError):
        return text


def game_name(lang: str, game: str) -> str:
    return tt(lang, f"game.{game}")


def season_error(lang: str, err: RuleError) -> str:
    """A season refusal in ``lang`` (a game name in it translated); other codes as the tournament side says."""
    key = "err." + err.code
    if key not in S:
        return error_text(lang, err)
    params = dict(err.params)
    if "game" in params:
        params["game"] = game_name(lang, str(params["game"]))
    return st(lang, key, **params)


def tournaments_line(lang: str, tournaments: Sequence[tuple[int, str, bool]]) -> str:
    sep = "、" if lang != "en" else ", "
    return sep.join(f"#{t} {name}" for t, name, _ in tournaments) or st(lang, "no_tournaments")


def seasons_text(lang: str, seasons: Sequence[Any]) -> str:
    """``/seasons``: one line per season (``storage.season_repo.SeasonView``), newest first."""
    if not seasons:
        return st(lang, "none_here") + "\n\n" + st(lang, "usage")
    lines = [st(lang, "list_title")]
    for v in seasons:
        lines.append(
            st(
                lang,
                "list_row",
                id=v.id,
                name=v.name,
                game=game_name(lang, v.game),
                tournaments=tournaments_line(lang, v.tournaments),
            )
        )
    return "\n".join(lines)


def casual_text(
    lang: str,
    user: str,
    games: Sequence[Any],
    history: Mapping[str, HistoryPoint],
    names: Mapping[str, str],
) -> str:
    """``/me``'s casual matches (``storage.ratings_casual.CasualGame``, oldest first): the newest ten, each
    with the date (UTC), the game, won or lost, the partner and the rating after it."""
    shown = list(games)[-CASUAL_SHOWN:][::-1]
    lines = [st(lang, "casual.title", shown=len(shown), total=len(games))]
    for g in shown:
        won = user in g.game.winners
        side = g.game.winners if won else g.game.losers
        partner = next((p for p in side if p != user), "")
        point = history.get(g.game.ref)
        at: datetime = g.at
        lines.append(
            st(
                lang,
                "casual.line",
                date=at.strftime("%m-%d"),
                game=game_name(lang, g.game.game),
                outcome=st(lang, "casual.won" if won else "casual.lost"),
                partner=st(lang, "casual.computer") if is_computer(partner) else names.get(partner, partner),
                rating=point.rating.text() if point is not None else "-",
            )
        )
    return "\n".join(lines)
