"""A player's rating history as a PNG line chart (``/me``): one line per game, one point per rated
table, the provisional part dashed; phone-sized (1000 x 560), Chinese labels in the CJK font."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from pathlib import Path

from PIL import Image, ImageDraw

from bot.presentation.tournament.fonts import load_font
from engine.tournament.ratings import PROVISIONAL_GAMES, HistoryPoint

WIDTH, HEIGHT = 1000, 560
LEFT, RIGHT, TOP, BOTTOM = 90, 40, 110, 70
COLOURS = {"shengji": (192, 57, 43), "guandan": (31, 97, 141)}
GAME_NAMES = {"shengji": ("双升", "Shengji"), "guandan": ("掼蛋", "Guandan")}
INK, GREY, GRID = (33, 37, 41), (134, 142, 150), (222, 226, 230)


def rating_png(
    title: str, history: Mapping[str, Sequence[HistoryPoint]], lang: str = "zh", font_path: Path | None = None
) -> bytes:
    """The chart of ``history`` (game -> the player's points in play order)."""
    zh = lang != "en"
    big, mid, small = load_font(30, font_path), load_font(20, font_path), load_font(16, font_path)
    img = Image.new("RGB", (WIDTH, HEIGHT), "white")
    d = ImageDraw.Draw(img)
    d.text((LEFT, 24), title, fill=INK, font=big)
    series = {g: [p.rating.shown for p in pts] for g, pts in history.items() if pts}
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    if not series:
        d.text(
            (LEFT, TOP + plot_h // 2), "还没有计分的比赛" if zh else "No rated games yet", fill=GREY, font=mid
        )
        return _png(img)
    values = [v for vs in series.values() for v in vs] + [1500]
    lo, hi = min(values), max(values)
    pad = max(20, (hi - lo) // 10)
    lo, hi = (lo - pad) // 50 * 50, (hi + pad + 49) // 50 * 50
    longest = max(len(vs) for vs in series.values())

    def xy(i: int, v: int) -> tuple[float, float]:
        x = LEFT + (plot_w * i / max(1, longest - 1) if longest > 1 else plot_w / 2)
        return x, TOP + plot_h * (hi - v) / max(1, hi - lo)

    step = max(50, (hi - lo) // 6 // 50 * 50)
    for v in range(lo, hi + 1, step):
        y = xy(0, v)[1]
        d.line((LEFT, y, WIDTH - RIGHT, y), fill=GRID, width=1)
        d.text((LEFT - 12, y), str(v), fill=GREY, font=small, anchor="rm")
    d.text(
        (LEFT + plot_w / 2, HEIGHT - 30),
        "计分局数" if zh else "rated games",
        fill=GREY,
        font=small,
        anchor="mm",
    )
    legend_x: float = WIDTH - RIGHT
    for game, vs in series.items():
        colour = COLOURS.get(game, INK)
        points = [xy(i, v) for i, v in enumerate(vs)]
        for i in range(1, len(points)):
            if i < PROVISIONAL_GAMES:  # provisional: dashed
                (x0, y0), (x1, y1) = points[i - 1], points[i]
                d.line((x0, y0, (x0 + x1) / 2, (y0 + y1) / 2), fill=colour, width=3)
            else:
                d.line((*points[i - 1], *points[i]), fill=colour, width=4)
        for x, y in points[-1:]:
            d.ellipse((x - 6, y - 6, x + 6, y + 6), fill=colour)
        name = GAME_NAMES.get(game, (game, game))[0 if zh else 1]
        suffix = "?" if len(vs) < PROVISIONAL_GAMES else ""
        label = f"{name} {vs[-1]}{suffix}"
        w = d.textlength(label, font=mid)
        legend_x -= w
        d.text((legend_x, 40), label, fill=colour, font=mid)
        legend_x -= 28
    if any(len(vs) < PROVISIONAL_GAMES for vs in series.values()):
        d.text(
            (LEFT, 74),
            (
                "虚线 / ? = 定级中（少于 {n} 局）" if zh else "dashed / ? = provisional (under {n} games)"
            ).format(n=PROVISIONAL_GAMES),
            fill=GREY,
            font=small,
            anchor="lm",
        )
    return _png(img)


def _png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=True)
    return out.getvalue()
