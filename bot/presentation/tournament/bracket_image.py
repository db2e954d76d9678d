"""The bracket image (PNG) for ``/bracket``: group tables (groups-then-knockout) and the knockout tree.

Layout, top to bottom:

* a title band: the tournament's name, entry count and format, the champion once known;
* groups-then-knockout: one table per group (rank, entry, W-D-L, match points, tables
  won, level difference, the tiebreak used), qualifiers highlighted;
* the knockout tree: one column per round (第1轮 ... 半决赛, 决赛), each match a box with
  its two entries (name and union group), the score of each side (the level reached in
  a pair match, tables won in a team match, 弃权 / 取消资格), the winner highlighted and
  the line to the next round drawn in green once decided; byes show as 轮空; then a
  champion box; the 3rd-place match sits under the final;
* other placement matches (第5-8名排位赛 ...) in rows under the tree.

Every string is drawn with the CJK font of :mod:`bot.presentation.tournament.fonts`.  The image
is at most ``MAX_WIDTH`` px wide and its sides sum to at most ``MAX_SIDES`` (Telegram's
photo limits): a very large bracket is scaled down to fit.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.presentation.tournament.fonts import load_font
from bot.presentation.tournament.labels import (
    check_lang,
    decided_note,
    entry_names,
    placement_title,
    round_title,
    side_scores,
    tier_of,
    w,
)
from bot.presentation.tournament.model import MatchView, match_views
from engine.tournament.groups import Standings
from engine.tournament.tournament import Tournament

MAX_WIDTH = 2000
MAX_SIDES = 10000
MAX_BYTES = 10 * 1024 * 1024
MAX_RATIO = 20

MARGIN = 30
BOX_W = 280
SCORE_W = 58
ROW_H = 34
BOX_H = 2 * ROW_H
GAP_X = 46
GAP_Y = 18
COL_TITLE_H = 44

INK = (33, 37, 41)
GREY = (134, 142, 150)
LIGHT = (173, 181, 189)
BORDER = (200, 205, 212)
LINE = (176, 182, 191)
WIN_FILL = (225, 243, 224)
WIN_INK = (27, 94, 32)
WIN_LINE = (46, 125, 50)
BAND = (31, 78, 121)
BAND_INK = (255, 255, 255)
TITLE_INK = (31, 78, 121)
GOLD = (255, 244, 204)
GOLD_EDGE = (214, 168, 41)
DONE_FILL = (248, 249, 250)
HEAD_FILL = (233, 238, 244)

FORMAT_WORDS = {
    "single_elimination": ("单败淘汰", "single elimination"),
    "groups_then_knockout": ("小组循环 + 淘汰赛", "groups then knockout"),
    "swiss": ("积分编排", "Swiss rounds"),
}
TIEBREAK_WORDS = {
    "head_to_head": ("相互", "h2h"),
    "lot": ("抽签", "lot"),
}


@dataclass
class _Fonts:
    title: ImageFont.FreeTypeFont
    head: ImageFont.FreeTypeFont
    name: ImageFont.FreeTypeFont
    small: ImageFont.FreeTypeFont
    score: ImageFont.FreeTypeFont


def _fonts(font_path: Path | None) -> _Fonts:
    return _Fonts(
        load_font(34, font_path),
        load_font(24, font_path),
        load_font(21, font_path),
        load_font(16, font_path),
        load_font(21, font_path),
    )


def _width(font: ImageFont.FreeTypeFont, text: str) -> float:
    return font.getlength(text) if text else 0.0


def _fit(font: ImageFont.FreeTypeFont, text: str, max_w: float) -> str:
    """``text`` cut with … to fit ``max_w`` pixels."""
    if _width(font, text) <= max_w:
        return text
    while text and _width(font, text + "…") > max_w:
        text = text[:-1]
    return text + "…"


class _Canvas:
    def __init__(self, width: int, height: int, fonts: _Fonts) -> None:
        self.image = Image.new("RGB", (width, height), "white")
        self.draw = ImageDraw.Draw(self.image)
        self.f = fonts

    def text(
        self,
        xy: tuple[float, float],
        text: str,
        font: ImageFont.FreeTypeFont,
        fill: tuple[int, int, int] = INK,
        bold: bool = False,
        anchor: str = "lm",
    ) -> None:
        self.draw.text(
            xy, text, font=font, fill=fill, anchor=anchor, stroke_width=1 if bold else 0, stroke_fill=fill
        )


# --- knockout geometry -----------------------------------------------------------------


@dataclass
class _Tree:
    rounds: int
    start: int  # the first round drawn (earlier rounds left out of a large bracket)
    col_x: dict[int, int]  # round -> x of its column
    centers: dict[str, float]  # main match id -> centre y (relative to the tree's top)
    height: int
    third_y: float | None
    champion_x: int


def _tree_geometry(t: Tournament, from_round: int = 1) -> _Tree | None:
    br = t.bracket
    if br is None:
        return None
    rounds = br.rounds
    start = max(1, min(from_round, rounds))
    first = br.size >> start
    pitch = BOX_H + GAP_Y
    centers: dict[str, float] = {}
    for i in range(1, first + 1):
        centers[f"R{start}-M{i}"] = COL_TITLE_H + pitch * (i - 0.5)
    for r in range(start + 1, rounds + 1):
        for j in range(1, (br.size >> r) + 1):
            centers[f"R{r}-M{j}"] = (centers[f"R{r - 1}-M{2 * j - 1}"] + centers[f"R{r - 1}-M{2 * j}"]) / 2
    height = COL_TITLE_H + pitch * first
    third_y = None
    if br.third_place_id is not None:
        third_y = centers[br.final_id] + BOX_H + 2 * COL_TITLE_H
        height = max(height, int(third_y + BOX_H / 2 + GAP_Y))
    col_x = {r: MARGIN + (r - start) * (BOX_W + GAP_X) for r in range(start, rounds + 1)}
    champion_x = MARGIN + (rounds - start + 1) * (BOX_W + GAP_X)
    return _Tree(rounds, start, col_x, centers, height, third_y, champion_x)


# --- drawing pieces --------------------------------------------------------------------


def _draw_box(
    cv: _Canvas, t: Tournament, mv: MatchView, x: float, cy: float, lang: str
) -> tuple[float, float]:
    """One match box centred at ``cy``; returns the y of its a and b rows' centres."""
    team = t.settings.entrant == "team"
    names = entry_names(t)
    top = cy - BOX_H / 2
    void = mv.status == "void"
    cv.draw.rectangle((x, top, x + BOX_W, top + BOX_H), fill=DONE_FILL if void else "white", outline=BORDER)
    sa, sb = side_scores(mv.result, lang, team)
    rows = []
    for k, (entry_id, filler, score) in enumerate(((mv.a, mv.a_text, sa), (mv.b, mv.b_text, sb))):
        y0 = top + k * ROW_H
        yc = y0 + ROW_H / 2
        rows.append(yc)
        won = entry_id is not None and mv.winner == entry_id
        lost = entry_id is not None and (
            (mv.winner is not None and not won) or (mv.result is not None and mv.result.double_forfeit)
        )
        if won:
            cv.draw.rectangle((x + 1, y0 + 1, x + BOX_W - 1, y0 + ROW_H - 1), fill=WIN_FILL)
        if entry_id is None:
            cv.text((x + 10, yc), _fit(cv.f.small, filler, BOX_W - 20), cv.f.small, LIGHT)
        else:
            entry = names.get(entry_id)
            name = entry.name if entry else entry_id
            group = entry.union_group if entry and entry.union_group and entry.union_group not in name else ""
            room = BOX_W - 20 - (SCORE_W if score else 0)
            name_fit = _fit(cv.f.name, name, room)
            ink = WIN_INK if won else (GREY if lost else INK)
            cv.text((x + 10, yc), name_fit, cv.f.name, ink, bold=won)
            used = _width(cv.f.name, name_fit) + 8
            if group and used + _width(cv.f.small, group) <= room:  # whole or not at all
                cv.text((x + 10 + used, yc + 1), group, cv.f.small, GREY if not lost else LIGHT)
        if score:
            cv.text(
                (x + BOX_W - 10, yc),
                score,
                cv.f.score if len(score) <= 3 else cv.f.small,
                WIN_INK if won else (GREY if lost else INK),
                bold=won,
                anchor="rm",
            )
    cv.draw.line((x, top + ROW_H, x + BOX_W, top + ROW_H), fill=BORDER)
    cv.draw.rectangle(
        (x, top, x + BOX_W, top + BOX_H),
        outline=WIN_LINE if mv.winner else BORDER,
        width=2 if mv.status == "done" else 1,
    )
    note = decided_note(mv.result, lang, team)
    if note:  # the tie-break that decided a level match, under its box
        cv.text((x + BOX_W - 10, top + BOX_H + 8), note, cv.f.small, GREY, anchor="rm")
    return rows[0], rows[1]


def _draw_tree(
    cv: _Canvas, t: Tournament, tree: _Tree, views: dict[str, MatchView], top: float, lang: str
) -> None:
    br = t.bracket
    assert br is not None
    rows: dict[str, tuple[float, float]] = {}
    for r in range(tree.start, tree.rounds + 1):
        x = tree.col_x[r]
        cv.text(
            (x + BOX_W / 2, top + COL_TITLE_H / 2 - 4),
            round_title(r, tree.rounds, lang),
            cv.f.head,
            TITLE_INK,
            bold=True,
            anchor="mm",
        )
        for j in range(1, (br.size >> r) + 1):
            mid = f"R{r}-M{j}"
            rows[mid] = _draw_box(cv, t, views[mid], x, top + tree.centers[mid], lang)
    # connectors: feeder's right edge -> the next match's row
    for r in range(tree.start + 1, tree.rounds + 1):
        for j in range(1, (br.size >> r) + 1):
            mid = f"R{r}-M{j}"
            x_to = tree.col_x[r]
            x_from = tree.col_x[r - 1] + BOX_W
            x_mid = x_from + GAP_X / 2
            for k, feeder in enumerate((f"R{r - 1}-M{2 * j - 1}", f"R{r - 1}-M{2 * j}")):
                y_from = top + tree.centers[feeder]
                y_to = rows[mid][k]
                won = views[feeder].winner is not None
                colour, width = (WIN_LINE, 3) if won else (LINE, 2)
                cv.draw.line(
                    [(x_from, y_from), (x_mid, y_from), (x_mid, y_to), (x_to, y_to)],
                    fill=colour,
                    width=width,
                    joint="curve",
                )
    # champion
    final = views[br.final_id]
    cx = tree.champion_x
    cy = top + tree.centers[br.final_id]
    x_from = tree.col_x[tree.rounds] + BOX_W
    cv.draw.line(
        [(x_from, cy), (cx, cy)], fill=WIN_LINE if final.winner else LINE, width=3 if final.winner else 2
    )
    champ_w = BOX_W - 40
    cv.text(
        (cx + champ_w / 2, cy - BOX_H / 2 - 16),
        "★ " + w(lang, "champion"),
        cv.f.head,
        TITLE_INK,
        bold=True,
        anchor="mm",
    )
    cv.draw.rounded_rectangle(
        (cx, cy - ROW_H / 2 - 4, cx + champ_w, cy + ROW_H / 2 + 4),
        radius=8,
        fill=GOLD if final.winner else "white",
        outline=GOLD_EDGE,
        width=2,
    )
    if final.winner:
        name = entry_names(t)[final.winner].name
        cv.text(
            (cx + champ_w / 2, cy),
            _fit(cv.f.name, name, champ_w - 16),
            cv.f.name,
            INK,
            bold=True,
            anchor="mm",
        )
    elif final.status in ("done", "void"):
        cv.text((cx + champ_w / 2, cy), w(lang, "no_champion"), cv.f.small, GREY, anchor="mm")
    # 3rd-place match under the final
    third = br.third_place_id
    if third is not None and tree.third_y is not None:
        x = tree.col_x[tree.rounds]
        cv.text(
            (x + BOX_W / 2, top + tree.third_y - BOX_H / 2 - 18),
            placement_title(3, 4, lang),
            cv.f.head,
            TITLE_INK,
            bold=True,
            anchor="mm",
        )
        _draw_box(cv, t, views[third], x, top + tree.third_y, lang)


def _placement_rows(t: Tournament, views: Sequence[MatchView]) -> list[tuple[str, list[MatchView]]]:
    """Placement matches other than the 3rd-place match, one row per tier (5-8, 5-6, 7-8 ...)."""
    out: dict[tuple[int, int], list[MatchView]] = {}
    third = t.bracket.third_place_id if t.bracket is not None else None
    for mv in views:
        if mv.stage != "placement" or mv.id == third:
            continue
        out.setdefault(tier_of(mv.id) or (0, 0), []).append(mv)
    return [
        (f"{lo}-{hi}", ms)
        for (lo, hi), ms in sorted(out.items(), key=lambda kv: (kv[0][1] - kv[0][0], kv[0]))
    ]


def _placement_height(rows: Sequence[tuple[str, list[MatchView]]], width: int) -> int:
    per_line = max(1, (width - 2 * MARGIN + GAP_X) // (BOX_W + GAP_X))
    lines = sum((len(ms) + per_line - 1) // per_line for _, ms in rows)
    return len(rows) * COL_TITLE_H + lines * (BOX_H + GAP_Y) + (GAP_Y if rows else 0)


def _draw_placements(
    cv: _Canvas, t: Tournament, rows: Sequence[tuple[str, list[MatchView]]], top: float, width: int, lang: str
) -> None:
    per_line = max(1, (width - 2 * MARGIN + GAP_X) // (BOX_W + GAP_X))
    y = top
    for key, ms in rows:
        lo, hi = (int(p) for p in key.split("-"))
        cv.text((MARGIN, y + COL_TITLE_H / 2), placement_title(lo, hi, lang), cv.f.head, TITLE_INK, bold=True)
        y += COL_TITLE_H
        for i, mv in enumerate(ms):
            col = i % per_line
            if i and col == 0:
                y += BOX_H + GAP_Y
            _draw_box(cv, t, mv, MARGIN + col * (BOX_W + GAP_X), y + BOX_H / 2, lang)
        y += BOX_H + GAP_Y


# --- group tables ----------------------------------------------------------------------

GROUP_COLS = (
    ("rank", 40),
    ("name", 250),
    ("wdl", 96),
    ("pts", 58),
    ("tables", 64),
    ("levels", 70),
    ("tb", 58),
)
GROUP_HEAD = {
    "zh": {
        "rank": "#",
        "name": "队伍",
        "wdl": "胜-平-负",
        "pts": "积分",
        "tables": "胜桌",
        "levels": "级差",
        "tb": "决胜",
    },
    "en": {
        "rank": "#",
        "name": "Entry",
        "wdl": "W-D-L",
        "pts": "Pts",
        "tables": "Tables",
        "levels": "Lvl ±",
        "tb": "Tie",
    },
}
GROUP_W = sum(c for _, c in GROUP_COLS)
GROUP_ROW = 32


def _group_table_height(st: Standings) -> int:
    return COL_TITLE_H + GROUP_ROW * (len(st.rows) + 1) + GAP_Y


def _draw_group(
    cv: _Canvas, t: Tournament, st: Standings, advance: int, x: float, y: float, lang: str
) -> None:
    names = entry_names(t)
    cv.text((x, y + COL_TITLE_H / 2), w(lang, "group", g=st.group), cv.f.head, TITLE_INK, bold=True)
    y += COL_TITLE_H
    head = GROUP_HEAD[check_lang(lang)]
    cv.draw.rectangle((x, y, x + GROUP_W, y + GROUP_ROW), fill=HEAD_FILL)
    cx = x
    for key, cw in GROUP_COLS:
        cv.text((cx + 8, y + GROUP_ROW / 2), head[key], cv.f.small, GREY)
        cx += cw
    for row in st.rows:
        y += GROUP_ROW
        qualified = row.rank <= advance
        if qualified:
            cv.draw.rectangle((x, y, x + GROUP_W, y + GROUP_ROW), fill=WIN_FILL)
        entry = names.get(row.entry_id)
        values = {
            "rank": str(row.rank),
            "name": entry.name if entry else row.entry_id,
            "wdl": f"{row.won}-{row.drawn}-{row.lost}",
            "pts": str(row.points),
            "tables": str(row.tables_won),
            "levels": f"{row.level_diff:+d}",
            "tb": TIEBREAK_WORDS[row.tiebreak][0 if check_lang(lang) == "zh" else 1]
            if row.tiebreak in TIEBREAK_WORDS and row.played
            else "",
        }
        cx = x
        for key, cw in GROUP_COLS:
            font = cv.f.name if key == "name" else cv.f.small
            ink = WIN_INK if qualified and key in ("name", "pts") else INK
            cv.text(
                (cx + 8, y + GROUP_ROW / 2),
                _fit(font, values[key], cw - 12),
                font,
                ink,
                bold=qualified and key == "name",
            )
            cx += cw
        cv.draw.line((x, y + GROUP_ROW, x + GROUP_W, y + GROUP_ROW), fill=BORDER)
    cv.draw.rectangle((x, y - GROUP_ROW * len(st.rows), x + GROUP_W, y + GROUP_ROW), outline=BORDER)


# --- the whole image -------------------------------------------------------------------


def _header_lines(t: Tournament, lang: str) -> tuple[str, str]:
    zh = check_lang(lang) == "zh"
    fmt = FORMAT_WORDS.get(t.settings.format, (t.settings.format, t.settings.format))[0 if zh else 1]
    count = len(t.entries)
    unit = (
        ("队" if t.settings.entrant == "team" else "对")
        if zh
        else ("teams" if t.settings.entrant == "team" else "pairs")
    )
    sub = f"{count}{unit} · {fmt}" if zh else f"{count} {unit} · {fmt}"
    if t.bracket is not None:
        champ = t.bracket.champion()
        if champ is not None:
            sub += f" · {w(lang, 'champion')}: {entry_names(t)[champ].name}"
    return t.name, sub


def render_bracket(
    t: Tournament, lang: str = "zh", font_path: Path | None = None, from_round: int = 1
) -> Image.Image:
    """The bracket (and group tables) as a Pillow image, already within the size limits.

    ``from_round``: draw the knockout from that round on (for a large bracket on a phone:
    e.g. ``/bracket 3``); :func:`readable_from_round` suggests one."""
    lang = check_lang(lang)
    fonts = _fonts(font_path)
    views = match_views(t, lang)
    by_id = {mv.id: mv for mv in views}
    tree = _tree_geometry(t, from_round)
    placements = _placement_rows(t, views)

    standings: list[Standings] = []
    if t.groups is not None and t.draw is not None:
        standings = t.groups.all_standings(t.lot_seed)

    tree_w = (tree.champion_x + BOX_W - 40 + MARGIN) if tree else 0
    per_row = max(1, min(len(standings), 3)) if standings else 0
    groups_w = MARGIN * 2 + per_row * GROUP_W + max(0, per_row - 1) * GAP_X if standings else 0
    width = max(tree_w, groups_w, 900)
    per_row = max(1, (width - 2 * MARGIN + GAP_X) // (GROUP_W + GAP_X)) if standings else 0

    header_h = 96
    group_rows = [standings[i : i + per_row] for i in range(0, len(standings), per_row)] if standings else []
    groups_h = sum(max(_group_table_height(s) for s in row) for row in group_rows)
    if standings:
        groups_h += COL_TITLE_H * (2 if tree else 1)
    pending_h = 0 if tree else 2 * COL_TITLE_H
    tree_h = tree.height if tree else 0
    place_h = _placement_height(placements, width) if placements else 0
    height = header_h + groups_h + tree_h + pending_h + place_h + MARGIN

    cv = _Canvas(width, height, fonts)
    title, sub = _header_lines(t, lang)
    cv.draw.rectangle((0, 0, width, header_h - 16), fill=BAND)
    cv.text((MARGIN, 30), _fit(fonts.title, title, width - 2 * MARGIN), fonts.title, BAND_INK, bold=True)
    cv.text((MARGIN, 62), _fit(fonts.small, sub, width - 2 * MARGIN), fonts.small, BAND_INK)
    y = float(header_h)

    if standings:
        cv.text((MARGIN, y + COL_TITLE_H / 2), w(lang, "group_stage"), fonts.head, INK, bold=True)
        y += COL_TITLE_H
        assert t.groups is not None
        for row in group_rows:
            for i, st in enumerate(row):
                _draw_group(cv, t, st, t.groups.advance, MARGIN + i * (GROUP_W + GAP_X), y, lang)
            y += max(_group_table_height(s) for s in row)

    if tree is not None:
        if standings:
            cv.text((MARGIN, y + COL_TITLE_H / 2), w(lang, "knockout"), fonts.head, INK, bold=True)
            y += COL_TITLE_H
        _draw_tree(cv, t, tree, by_id, y, lang)
        y += tree.height
    else:
        if t.draw is None:
            text = "抽签后生成对阵" if lang == "zh" else "The bracket is drawn up at the draw"
        elif t.swiss is not None:
            text = (
                ("积分编排进行中，排名见 /standings" if lang == "zh" else "Swiss rounds: see /standings")
                if not t.settings.swiss_top
                else (
                    "前 {k} 名淘汰赛在积分编排结束后生成"
                    if lang == "zh"
                    else "The top {k}'s knockout is drawn up after the Swiss rounds"
                ).format(k=t.settings.swiss_top)
            )
        else:
            text = (
                "淘汰赛对阵在小组赛结束后生成"
                if lang == "zh"
                else "The knockout is drawn up when the group stage ends"
            )
        cv.text((MARGIN, y + COL_TITLE_H), text, fonts.head, GREY)
        y += pending_h

    if placements:
        _draw_placements(cv, t, placements, y, width, lang)

    return _fit_limits(cv.image)


def _fit_limits(image: Image.Image) -> Image.Image:
    """Pad to a side ratio of at most MAX_RATIO, then scale down to MAX_WIDTH wide and MAX_SIDES for
    width + height (Telegram's photo limits)."""
    wd, ht = image.size
    if max(wd, ht) > MAX_RATIO * min(wd, ht):  # Telegram refuses photos more elongated than 1:20
        canvas = Image.new("RGB", (max(wd, -(-ht // MAX_RATIO)), max(ht, -(-wd // MAX_RATIO))), "white")
        canvas.paste(image, (0, 0))
        image = canvas
        wd, ht = image.size
    scale = min(1.0, MAX_WIDTH / wd, (MAX_SIDES - 1) / (wd + ht))
    if scale < 1.0:  # the shorter side rounds up, so the ratio stays within MAX_RATIO
        w_round = math.ceil if wd < ht else math.floor
        h_round = math.floor if wd < ht else math.ceil
        size = (max(1, w_round(wd * scale)), max(1, h_round(ht * scale)))
        size = (min(size[0], MAX_WIDTH), size[1])
        image = image.resize(size, Image.Resampling.LANCZOS)
    return image


def readable_from_round(t: Tournament, max_leaves: int = 16) -> int:
    """The first round to draw so that at most ``max_leaves`` matches stand in the first column
    (a bracket of 32 or fewer is drawn whole; larger ones start at the round of 32)."""
    if t.bracket is None:
        return 1
    r = 1
    while (t.bracket.size >> r) > max_leaves and r < t.bracket.rounds:
        r += 1
    return r


def bracket_png(
    t: Tournament, lang: str = "zh", font_path: Path | None = None, from_round: int = 1
) -> io.BytesIO:
    """The bracket image as PNG bytes (``.name`` = ``bracket.png``, positioned at 0), ready to send."""
    image = render_bracket(t, lang, font_path, from_round)
    buf = io.BytesIO()
    image.save(buf, "PNG")
    if buf.tell() > MAX_BYTES:  # never in practice (flat colours); keep the photo limit anyway
        buf = io.BytesIO()
        image.convert("P", palette=Image.Palette.ADAPTIVE, colors=64).save(buf, "PNG", optimize=True)
    buf.name = "bracket.png"
    buf.seek(0)
    return buf
