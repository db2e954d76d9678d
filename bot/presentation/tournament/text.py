"""Short plain-text renderings (zh / en) for ``/standings``, ``/schedule``, ``/results`` and the prize list.

Plain text (no parse mode), one line per entry or match so they read on a phone; long
outputs go through :func:`split_message` (Telegram's limit is 4096 characters).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from bot.presentation.tournament.labels import (
    TIE_BREAK_SHORT,
    check_lang,
    entry_names,
    level_text,
    side_scores,
    w,
)
from bot.presentation.tournament.model import (
    DEFAULT_TZ,
    MatchView,
    local_time,
    match_views,
    slots_by_match,
    tables_text,
)
from engine.tournament.groups import StandingRow
from engine.tournament.ratings import PROVISIONAL_GAMES, EntryRating
from engine.tournament.schedule import Slot
from engine.tournament.tournament import Tournament

TELEGRAM_LIMIT = 4096

T: dict[str, dict[str, str]] = {
    "zh": {
        "standings": "📊 {name} · 小组积分榜",
        "order": "排名依次看：积分（胜2平1负0）› 胜桌数 › 级差 › 相互战绩 › 抽签",
        "row": "{rank}. {entry}{mark} {points}分 · {w}胜{d}平{l}负 · 胜桌{tables} · 级差{levels:+d}",
        "h2h": " · 相互战绩{h2h}分",
        "lot": " · 抽签号{lot}",
        "qualified": " ✅",
        "lot_seed": "抽签种子：{seed}",
        "no_groups": "本赛事为单败淘汰，没有小组积分榜，对阵见 /bracket。",
        "still_in": "仍在比赛（{count}）：{names}",
        "schedule": "📅 {name} · 赛程（{zone}）",
        "no_schedule": "暂无待进行的比赛。",
        "unscheduled": "时间待定",
        "table": "牌桌 {tables}",
        "results": "📋 {name} · 赛果",
        "no_results": "暂无赛果。",
        "won": "{w} 胜 {l}",
        "forfeit": "（{l}弃权）",
        "dq": "（{l}取消资格）",
        "double_forfeit": "{a} 与 {b} 双方弃权",
        "drew": "{a} 平 {b}",
        "by": "（{how}）",
        "beijing": "北京时间",
        "zone": "{tz}时间",
        "sep": "、",
        "swiss_standings": "📊 {name} · 积分编排排名（第{after}轮后，共{rounds}轮）",
        "swiss_order": "排名依次看：积分（胜2平1负0，轮空{bye}分）› 对手分（Buchholz）› 级差 › 相互战绩 › 抽签",
        "swiss_row": "{rank}. {entry} {points}分 · {w}胜{d}平{l}负 · 对手分{buchholz} · 级差{levels:+d}",
        "rating": " · 等级分{r}",
        "rating_note": "等级分：选手等级分的平均；? = 定级中（有选手不足 {n} 局）",
        "swiss_bye": " · 轮空{n}次",
        "withdrawn": " · 已退赛",
        "swiss_top": "前 {top} 名进入淘汰赛",
    },
    "en": {
        "standings": "📊 {name} · group standings",
        "order": "Order: match points (win 2, draw 1, loss 0) › tables won › level difference › "
        "head-to-head › lot",
        "row": "{rank}. {entry}{mark} {points} pts · {w}-{d}-{l} · tables {tables} · levels {levels:+d}",
        "h2h": " · h2h {h2h} pts",
        "lot": " · lot {lot}",
        "qualified": " ✅",
        "lot_seed": "Lot seed: {seed}",
        "no_groups": "This is a single-elimination event: no group standings; see /bracket.",
        "still_in": "Still in ({count}): {names}",
        "schedule": "📅 {name} · schedule ({zone})",
        "no_schedule": "No matches to come.",
        "unscheduled": "Time to be announced",
        "table": "table {tables}",
        "results": "📋 {name} · results",
        "no_results": "No results yet.",
        "won": "{w} beat {l}",
        "forfeit": " ({l} forfeited)",
        "dq": " ({l} disqualified)",
        "double_forfeit": "{a} and {b}: double forfeit",
        "drew": "{a} drew with {b}",
        "by": " ({how})",
        "beijing": "Beijing time",
        "zone": "times in {tz}",
        "sep": ", ",
        "swiss_standings": "📊 {name} · Swiss standings (after round {after} of {rounds})",
        "swiss_order": "Order: points (win 2, draw 1, loss 0, bye {bye}) › Buchholz (opponents' points) › "
        "level difference › head-to-head › lot",
        "swiss_row": "{rank}. {entry} {points} pts · {w}-{d}-{l} · Buchholz {buchholz} · levels {levels:+d}",
        "rating": " · rating {r}",
        "rating_note": "Rating: the mean of the players' ratings; ? = provisional (a player with under {n} games)",
        "swiss_bye": " · bye ×{n}",
        "withdrawn": " · withdrawn",
        "swiss_top": "The top {top} go on to a knockout",
    },
}
WEEKDAYS = {"zh": "一二三四五六日", "en": ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")}
MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
DECIDED_SHORT = {
    "level_difference": ("级差决胜", "on level difference"),
    "table_1": ("第1桌决胜", "on table 1"),
    "referee": ("裁判判定", "referee's decision"),
    "duplicate": ("复式比较决胜", "on the duplicate comparison"),
}


def _t(lang: str, key: str, **params: object) -> str:
    return T[check_lang(lang)][key].format(**params)


def rating_texts(ratings: Mapping[str, EntryRating]) -> dict[str, str]:
    """Entry id -> its rating as the outputs show it (``1562``, ``1500?`` while provisional), from
    ``storage.tournaments.entry_ratings``."""
    return {k: r.text() for k, r in ratings.items()}


def rating_suffix(lang: str, ratings: Mapping[str, str] | None, entry_id: str | None) -> str:
    """`` · 等级分1562`` / `` · rating 1500?`` for an entry with a rating in ``ratings``, else empty."""
    if not ratings or entry_id is None or entry_id not in ratings:
        return ""
    return _t(lang, "rating", r=ratings[entry_id])


def rating_note(lang: str) -> str:
    """What the ratings next to the entries are and what ``?`` means (as ``/me`` says it)."""
    return _t(lang, "rating_note", n=PROVISIONAL_GAMES)


def split_message(text: str, limit: int = TELEGRAM_LIMIT) -> list[str]:
    """Pieces of at most ``limit`` characters, cut at blank lines, else at line ends, else hard."""
    if len(text) <= limit:
        return [text]
    out: list[str] = []
    current = ""
    for block in text.split("\n\n"):
        piece = block if not current else current + "\n\n" + block
        if len(piece) <= limit:
            current = piece
            continue
        if current:
            out.append(current)
            current = ""
        for line in block.split("\n"):
            piece = line if not current else current + "\n" + line
            if len(piece) <= limit:
                current = piece
                continue
            if current:
                out.append(current)
            while len(line) > limit:
                out.append(line[:limit])
                line = line[limit:]
            current = line
    if current:
        out.append(current)
    return out


def entry_label(t: Tournament, entry_id: str | None, lang: str, with_group: bool = True) -> str:
    """``张伟/王磊（机关工会）`` (the union group left out when the name already says it)."""
    if entry_id is None:
        return w(lang, "tbd")
    e = entry_names(t).get(entry_id)
    if e is None:
        return entry_id
    if not with_group or not e.union_group or e.union_group in e.name:
        return e.name
    return f"{e.name}（{e.union_group}）" if check_lang(lang) == "zh" else f"{e.name} ({e.union_group})"


def zone_label(tz: str, lang: str) -> str:
    if tz in ("Asia/Shanghai", "Asia/Chongqing", "Asia/Harbin", "PRC"):
        return _t(lang, "beijing")
    return _t(lang, "zone", tz=tz)


def day_label(when: datetime, lang: str) -> str:
    """``4月16日 周四`` / ``Thu 16 Apr``."""
    if check_lang(lang) == "zh":
        return f"{when.month}月{when.day}日 周{WEEKDAYS['zh'][when.weekday()]}"
    return f"{WEEKDAYS['en'][when.weekday()]} {when.day} {MONTHS_EN[when.month - 1]}"


# --- standings -------------------------------------------------------------------------


def _standing_line(
    t: Tournament, row: StandingRow, advance: int, lang: str, ratings: Mapping[str, str] | None = None
) -> str:
    line = _t(
        lang,
        "row",
        rank=row.rank,
        entry=entry_label(t, row.entry_id, lang, with_group=False),
        mark=_t(lang, "qualified") if row.rank <= advance and row.played else "",
        points=row.points,
        w=row.won,
        d=row.drawn,
        l=row.lost,
        tables=row.tables_won,
        levels=row.level_diff,
    )
    line += rating_suffix(lang, ratings, row.entry_id)
    if row.tiebreak in ("head_to_head", "lot") and row.head_to_head is not None and row.played:
        line += _t(lang, "h2h", h2h=row.head_to_head)
    if row.tiebreak == "lot" and row.lot is not None and row.played:
        line += _t(lang, "lot", lot=row.lot)
    return line


def swiss_standings_text(t: Tournament, lang: str = "zh", ratings: Mapping[str, str] | None = None) -> str:
    """The Swiss standings with the stated tie-breaks (the top K marked ✅ when a knockout follows);
    ``ratings``: entry id -> its rating as shown (``1562`` or ``1500?``), added to each line."""
    lang = check_lang(lang)
    assert t.swiss is not None
    table = t.swiss_standings()
    top = t.settings.swiss_top
    lines = [
        _t(lang, "swiss_standings", name=t.name, after=table.after_round, rounds=t.swiss.last_round),
        _t(lang, "swiss_order", bye=t.swiss.bye_points),
    ]
    if top:
        lines.append(_t(lang, "swiss_top", top=top))
    if ratings:
        lines.append(rating_note(lang))
    lines.append("")
    used_lot = False
    for row in table.rows:
        line = _t(
            lang,
            "swiss_row",
            rank=row.rank,
            entry=entry_label(t, row.entry_id, lang, with_group=False),
            points=row.points,
            w=row.won,
            d=row.drawn,
            l=row.lost,
            buchholz=row.buchholz,
            levels=row.level_diff,
        )
        if top and row.rank <= top and not row.withdrawn and table.after_round:
            line += _t(lang, "qualified")
        if row.byes:
            line += _t(lang, "swiss_bye", n=row.byes)
        line += rating_suffix(lang, ratings, row.entry_id)
        if row.tiebreak in ("head_to_head", "lot") and row.head_to_head is not None:
            line += _t(lang, "h2h", h2h=row.head_to_head)
        if row.tiebreak == "lot" and row.lot is not None:
            line += _t(lang, "lot", lot=row.lot)
            used_lot = True
        if row.withdrawn:
            line += _t(lang, "withdrawn")
        lines.append(line)
    if used_lot:
        lines += ["", _t(lang, "lot_seed", seed=t.lot_seed.hex())]
    return "\n".join(lines)


def standings_text(
    t: Tournament, lang: str = "zh", group: str | None = None, ratings: Mapping[str, str] | None = None
) -> str:
    """Group tables with the stated tiebreaks (qualifying places marked ✅ once played), or the Swiss
    standings; a single-elimination event answers with the entries still in.  ``ratings``: entry id ->
    its rating as shown, added to each line of the group tables and of the Swiss standings."""
    lang = check_lang(lang)
    if t.swiss is not None and t.draw is not None:
        return swiss_standings_text(t, lang, ratings)
    if t.groups is None or t.draw is None:
        if t.bracket is None:
            return _t(lang, "no_groups")
        out_ids = set(t.bracket.eliminations())
        alive = [e.id for e in t.entries if e.id not in out_ids and e.id in set(t.bracket.entries())]
        return (
            _t(lang, "no_groups")
            + "\n"
            + _t(
                lang,
                "still_in",
                count=len(alive),
                names=_t(lang, "sep").join(entry_label(t, e, lang, with_group=False) for e in alive),
            )
        )
    lines = [_t(lang, "standings", name=t.name), _t(lang, "order")]
    if ratings:
        lines.append(rating_note(lang))
    used_lot = False
    for st in t.groups.all_standings(t.lot_seed):
        if group is not None and st.group != group:
            continue
        lines.append("")
        lines.append(w(lang, "group", g=st.group))
        for row in st.rows:
            lines.append(_standing_line(t, row, t.groups.advance, lang, ratings))
            used_lot |= row.tiebreak == "lot" and row.played > 0
    if used_lot:
        lines += ["", _t(lang, "lot_seed", seed=t.lot_seed.hex())]
    return "\n".join(lines)


# --- schedule --------------------------------------------------------------------------


def _pairing(t: Tournament, mv: MatchView, lang: str) -> str:
    a = entry_label(t, mv.a, lang, with_group=False) if mv.a else mv.a_text
    b = entry_label(t, mv.b, lang, with_group=False) if mv.b else mv.b_text
    return f"{a} {w(lang, 'vs')} {b}"


def schedule_text(
    t: Tournament,
    slots: Sequence[Slot] | Mapping[str, Slot] | None = None,
    lang: str = "zh",
    tz: str = DEFAULT_TZ,
    table_names: Mapping[str, str] | None = None,
    include_played: bool = False,
) -> str:
    """Matches to come, by day, with start times in ``tz`` and their tables; matches that can
    be played but have no slot yet are listed under 时间待定."""
    lang = check_lang(lang)
    by_slot = slots_by_match(slots)
    views = [mv for mv in match_views(t, lang) if mv.status not in ("void", "walkover")]
    if not include_played:
        views = [mv for mv in views if mv.result is None]
    timed = sorted((mv for mv in views if mv.id in by_slot), key=lambda mv: (by_slot[mv.id].start, mv.id))
    untimed = [mv for mv in views if mv.id not in by_slot and mv.status == "ready"]
    lines = [_t(lang, "schedule", name=t.name, zone=zone_label(tz, lang))]
    if not timed and not untimed:
        return lines[0] + "\n" + _t(lang, "no_schedule")
    day = ""
    for mv in timed:
        slot = by_slot[mv.id]
        when = local_time(slot.start, tz)
        if day_label(when, lang) != day:
            day = day_label(when, lang)
            lines += ["", day]
        where = tables_text(slot, table_names)
        head = f"{when:%H:%M} {mv.title}" + (f" · {_t(lang, 'table', tables=where)}" if where else "")
        lines.append(head)
        lines.append("  " + _pairing(t, mv, lang))
    if untimed:
        lines += ["", _t(lang, "unscheduled")]
        for mv in untimed:
            lines.append(f"{mv.title} · {_pairing(t, mv, lang)}")
    return "\n".join(lines)


# --- results ---------------------------------------------------------------------------


def result_line(t: Tournament, mv: MatchView, lang: str) -> str:
    """One decided match, winner first: ``张伟/王磊 胜 李涛/赵桂 A:9`` / ``机关工会1队 胜 医学院2队 2:1``."""
    res = mv.result
    if res is None:
        return ""
    a = entry_label(t, mv.a, lang, with_group=False)
    b = entry_label(t, mv.b, lang, with_group=False)
    if res.outcome == "double_forfeit":
        return _t(lang, "double_forfeit", a=a, b=b)
    team = t.settings.entrant == "team"
    sa, sb = side_scores(res, lang, team)
    if res.winner is None:
        score = f" {sa}:{sb}" if team and sa.isdigit() else ""
        return _t(lang, "drew", a=a, b=b) + score
    win_first = res.winner == "a"
    winner, loser = (a, b) if win_first else (b, a)
    line = _t(lang, "won", w=winner, l=loser)
    ws, ls = (sa, sb) if win_first else (sb, sa)
    if res.outcome in ("forfeit", "disqualified") and not (ws.isdigit() and ls.isdigit()):
        return line + _t(lang, "forfeit" if res.outcome == "forfeit" else "dq", l=loser)
    if ws and ls and ws != "✓":
        line += f" {ws}:{ls}"
    if res.decided_by in DECIDED_SHORT:
        line += _t(lang, "by", how=DECIDED_SHORT[res.decided_by][0 if lang == "zh" else 1])
    elif ws == ls and res.extra.get("tie_break") in TIE_BREAK_SHORT:
        line += _t(lang, "by", how=TIE_BREAK_SHORT[res.extra["tie_break"]][0 if lang == "zh" else 1])
    if team and res.outcome == "forfeit":
        line += _t(lang, "forfeit", l=loser)
    return line


def results_text(t: Tournament, lang: str = "zh", stage: str | None = None) -> str:
    """Decided matches by round (byes left out); ``stage``: only ``group`` / ``main`` / ``placement``."""
    lang = check_lang(lang)
    lines = [_t(lang, "results", name=t.name)]
    heading = ""
    count = 0
    for mv in match_views(t, lang):
        if mv.result is None or (stage is not None and mv.stage != stage):
            continue
        title = mv.heading
        if mv.stage == "group":
            title = f"{w(lang, 'group_stage')} {w(lang, 'round', n=mv.round)}"
        if title != heading:
            heading = title
            lines += ["", title]
        prefix = f"{w(lang, 'group', g=mv.group)} " if mv.stage == "group" else ""
        lines.append(f"· {prefix}{result_line(t, mv, lang)}")
        count += 1
    if not count:
        lines.append(_t(lang, "no_results"))
    return "\n".join(lines)


__all__ = [
    "TELEGRAM_LIMIT",
    "day_label",
    "entry_label",
    "level_text",
    "rating_note",
    "rating_suffix",
    "rating_texts",
    "result_line",
    "results_text",
    "schedule_text",
    "split_message",
    "standings_text",
    "zone_label",
]
