"""A player's rating history as a PNG line chart (``/me``): one line per game, one point per rated
table, the provisional part dashed; Chinese labels in the CJK font.

Telegram shows a photo about 300-400 CSS px wide on a phone, so the 1000 x 640 image is drawn at about a
third of its size: the texts are 26-44 px here (9-15 px on the phone).  Above the plot: the title (cut
with … when a long name would not fit), the legend (each game's colour and current rating) and the
provisional note; left: the rating axis; below: the game numbers and the axis name.  :func:`text_boxes`
gives every text's box, for a test to check that they stay inside the image and apart.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from bot.presentation.tournament.fonts import load_font
from engine.tournament.ratings import PROVISIONAL_GAMES, HistoryPoint

WIDTH, HEIGHT = 1000, 640
LEFT, RIGHT, TOP, BOTTOM = 120, 40, 215, 110
MARGIN = 32
COLOURS = {"shengji": (192, 57, 43), "guandan": (31, 97, 141)}
GAME_NAMES = {"shengji": ("双升", "Shengji"), "guandan": ("掼蛋", "Guandan")}
INK, GREY, GRID = (33, 37, 41), (110, 117, 125), (222, 226, 230)
SIZES = {"title": 44, "title_small": 34, "legend": 32, "note": 26, "axis": 26}
DASH, GAP = 14, 10


@dataclass(frozen=True)
class Label:
    name: str  # what it is: "title", "legend:shengji", "note", "y:1500", "x:5", "x-name", "empty"
    xy: tuple[float, float]
    text: str
    size: str  # a key of SIZES
    fill: tuple[int, int, int]
    anchor: str = "la"


def _fonts(font_path: Path | None) -> dict[str, ImageFont.FreeTypeFont]:
    return {k: load_font(v, font_path) for k, v in SIZES.items()}


def _fit(d: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, cut with … to fit ``width`` px."""
    if d.textlength(text, font=font) <= width:
        return text
    while text and d.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _series(history: Mapping[str, Sequence[HistoryPoint]]) -> dict[str, list[int]]:
    return {g: [p.rating.shown for p in pts] for g, pts in history.items() if pts}


def _scale(series: Mapping[str, Sequence[int]]) -> tuple[int, int, int]:
    """(low, high, step) of the rating axis: round fifties around the values and 1500."""
    values = [v for vs in series.values() for v in vs] + [1500]
    lo, hi = min(values), max(values)
    pad = max(20, (hi - lo) // 10)
    lo, hi = (lo - pad) // 50 * 50, (hi + pad + 49) // 50 * 50
    return lo, hi, max(50, (hi - lo) // 5 // 50 * 50)


def _x_ticks(longest: int) -> list[int]:
    """Game numbers (1-based) labelled under the plot: at most about eight, on a round step."""
    step = next(s for s in (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 10**9) if longest / s <= 8)
    ticks = [1] + list(range(step, longest + 1, step)) if step > 1 else list(range(1, longest + 1))
    return sorted(set(ticks) | {longest})


def _xy(i: int, v: int, longest: int, lo: int, hi: int) -> tuple[float, float]:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    x = LEFT + (plot_w * i / (longest - 1) if longest > 1 else plot_w / 2)
    return x, TOP + plot_h * (hi - v) / max(1, hi - lo)


def _labels(
    d: ImageDraw.ImageDraw,
    fonts: Mapping[str, ImageFont.FreeTypeFont],
    title: str,
    history: Mapping[str, Sequence[HistoryPoint]],
    zh: bool,
) -> list[Label]:
    size = "title" if d.textlength(title, font=fonts["title"]) <= WIDTH - 2 * MARGIN else "title_small"
    out = [Label("title", (MARGIN, 24), _fit(d, title, fonts[size], WIDTH - 2 * MARGIN), size, INK)]
    series = _series(history)
    if not series:
        out.append(
            Label("empty", (LEFT, TOP + 60), "还没有计分的比赛" if zh else "No rated games yet", "note", GREY)
        )
        return out
    x: float = MARGIN
    for game, vs in series.items():  # the legend: a swatch, then "双升 2219" (with ? while provisional)
        name = GAME_NAMES.get(game, (game, game))[0 if zh else 1]
        label = f"{name} {vs[-1]}{'?' if len(vs) < PROVISIONAL_GAMES else ''}"
        out.append(Label(f"legend:{game}", (x + 40, 92), label, "legend", COLOURS.get(game, INK)))
        x += 40 + d.textlength(label, font=fonts["legend"]) + 40
    if any(len(vs) < PROVISIONAL_GAMES for vs in series.values()):
        note = "虚线 / ? = 定级中（少于 {n} 局）" if zh else "dashed / ? = provisional (under {n} games)"
        out.append(Label("note", (MARGIN, 142), note.format(n=PROVISIONAL_GAMES), "note", GREY))
    lo, hi, step = _scale(series)
    longest = max(len(vs) for vs in series.values())
    for v in range(lo, hi + 1, step):
        out.append(Label(f"y:{v}", (LEFT - 14, _xy(0, v, longest, lo, hi)[1]), str(v), "axis", GREY, "rm"))
    for n in _x_ticks(longest):
        out.append(
            Label(
                f"x:{n}",
                (_xy(n - 1, lo, longest, lo, hi)[0], HEIGHT - BOTTOM + 18),
                str(n),
                "axis",
                GREY,
                "ma",
            )
        )
    axis = "计分局数" if zh else "rated games"
    out.append(Label("x-name", ((LEFT + WIDTH - RIGHT) / 2, HEIGHT - 34), axis, "axis", GREY, "mm"))
    return out


def text_boxes(
    title: str, history: Mapping[str, Sequence[HistoryPoint]], lang: str = "zh", font_path: Path | None = None
) -> dict[str, tuple[float, float, float, float]]:
    """Every text of the chart of ``history``: name -> its box (left, top, right, bottom) in the image."""
    fonts = _fonts(font_path)
    d = ImageDraw.Draw(Image.new("RGB", (WIDTH, HEIGHT), "white"))
    return {
        lab.name: tuple(d.textbbox(lab.xy, lab.text, font=fonts[lab.size], anchor=lab.anchor))  # type: ignore[misc]
        for lab in _labels(d, fonts, title, history, lang != "en")
    }


def _dashed(
    d: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], fill: tuple[int, int, int]
) -> None:
    length = math.dist(a, b)
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    at = 0.0
    while at < length:
        end = min(length, at + DASH)
        d.line((a[0] + ux * at, a[1] + uy * at, a[0] + ux * end, a[1] + uy * end), fill=fill, width=4)
        at = end + GAP


def rating_png(
    title: str, history: Mapping[str, Sequence[HistoryPoint]], lang: str = "zh", font_path: Path | None = None
) -> bytes:
    """The chart of ``history`` (game -> the player's points in play order)."""
    fonts = _fonts(font_path)
    img = Image.new("RGB", (WIDTH, HEIGHT), "white")
    d = ImageDraw.Draw(img)
    labels = _labels(d, fonts, title, history, lang != "en")
    series = _series(history)
    if series:
        lo, hi, step = _scale(series)
        longest = max(len(vs) for vs in series.values())
        for v in range(lo, hi + 1, step):
            y = _xy(0, v, longest, lo, hi)[1]
            d.line((LEFT, y, WIDTH - RIGHT, y), fill=GRID, width=1)
        for lab in labels:
            if lab.name.startswith("legend:"):  # the swatch before the game's name
                x, y = lab.xy
                colour = COLOURS.get(lab.name.split(":", 1)[1], INK)
                d.line((x - 36, y + 20, x - 8, y + 20), fill=colour, width=6)
        for game, vs in series.items():
            colour = COLOURS.get(game, INK)
            points = [_xy(i, v, longest, lo, hi) for i, v in enumerate(vs)]
            for i in range(1, len(points)):
                if i < PROVISIONAL_GAMES:  # the line to the i+1-th game is still provisional: dashed
                    _dashed(d, points[i - 1], points[i], colour)
                else:
                    d.line((*points[i - 1], *points[i]), fill=colour, width=5)
            for j, (x, y) in enumerate(points):
                r = 9 if j == len(points) - 1 else 5
                d.ellipse((x - r, y - r, x + r, y + r), fill=colour)
    for lab in labels:
        d.text(lab.xy, lab.text, fill=lab.fill, font=fonts[lab.size], anchor=lab.anchor)
    return _png(img)


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
