"""``python -m bot.devtools.metrics_dashboard``: the Grafana dashboard's panels drawn from scraped /metrics.

No Grafana server is installable from the registries this project uses (PyPI, Debian, npm), so this draws
``docs/grafana/bot-dashboard.json``'s panels itself (Pillow): each panel's PromQL targets are evaluated over
a folder of scrapes (one ``<unix time>.prom`` file each, e.g. ``curl -s host:port/metrics > dir/$(date
+%s).prom`` every few seconds during ``make loadtest``).  Only the forms the dashboard uses are understood:
``NAME``, ``sum by (labels) (NAME)``, ``rate(NAME[w])``, ``sum by (labels) (rate(NAME[w]))`` and
``histogram_quantile(q, sum by (le) (rate(NAME_bucket[w])))``.

    python -m bot.devtools.metrics_dashboard SCRAPES_DIR OUT.png [--dashboard docs/grafana/bot-dashboard.json]
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw, ImageFont
from prometheus_client.parser import text_string_to_metric_families

Sample = dict[tuple[str, tuple[tuple[str, str], ...]], float]
Series = dict[str, list[tuple[float, float]]]  # legend -> [(time, value)]

COLOURS = ["#7eb26d", "#eab839", "#6ed0e0", "#ef843c", "#e24d42", "#1f78c1", "#ba43a9", "#705da0", "#508642"]
DASHBOARD = Path(__file__).resolve().parents[2] / "docs" / "grafana" / "bot-dashboard.json"

_QUANTILE = re.compile(r"^histogram_quantile\(([\d.]+),\s*sum by \(le\) \(rate\((\w+)\[(\d+)m\]\)\)\)$")
_SUM_RATE = re.compile(r"^sum by \(([\w, ]+)\) \(rate\((\w+)\[(\d+)m\]\)\)$")
_RATE = re.compile(r"^rate\((\w+)\[(\d+)m\]\)$")
_SUM = re.compile(r"^sum by \(([\w, ]+)\) \((\w+)\)$")
_NAME = re.compile(r"^(\w+)$")


def load_scrapes(folder: Path) -> list[tuple[float, Sample]]:
    out = []
    for path in sorted(folder.glob("*.prom"), key=lambda p: float(p.stem)):
        text = path.read_text(encoding="utf-8")
        if "# TYPE" not in text:
            continue  # the bot was not up yet
        sample: Sample = {}
        for family in text_string_to_metric_families(text):
            for s in family.samples:
                sample[(s.name, tuple(sorted(s.labels.items())))] = s.value
        out.append((float(path.stem), sample))
    return out


def _project(labels: tuple[tuple[str, str], ...], by: list[str]) -> tuple[tuple[str, str], ...]:
    keep = dict(labels)
    return tuple((k, keep.get(k, "")) for k in by)


def _grouped(sample: Sample, name: str, by: list[str] | None) -> dict[tuple[tuple[str, str], ...], float]:
    out: dict[tuple[tuple[str, str], ...], float] = defaultdict(float)
    for (n, labels), v in sample.items():
        if n == name:
            out[_project(labels, by) if by is not None else labels] += v
    return out


def _rates(
    scrapes: list[tuple[float, Sample]], name: str, by: list[str] | None, window: float
) -> list[tuple[float, dict[tuple[tuple[str, str], ...], float]]]:
    out = []
    for i, (t, sample) in enumerate(scrapes):
        j = next(k for k in range(i + 1) if scrapes[k][0] >= t - window)
        if j == i:
            continue
        t0, first = scrapes[j]
        now, then = _grouped(sample, name, by), _grouped(first, name, by)
        out.append((t, {k: max(0.0, v - then.get(k, 0.0)) / (t - t0) for k, v in now.items()}))
    return out


def _quantile(q: float, buckets: dict[float, float]) -> float:
    """Prometheus's histogram_quantile over cumulative buckets (linear inside the bucket)."""
    bounds = sorted(buckets)
    if not bounds or buckets[bounds[-1]] <= 0:
        return math.nan
    rank = q * buckets[bounds[-1]]
    lower, below = 0.0, 0.0
    for b in bounds:
        if buckets[b] >= rank:
            if math.isinf(b):
                return lower
            return lower + (b - lower) * (rank - below) / max(buckets[b] - below, 1e-12)
        lower, below = b, buckets[b]
    return lower


def _legend(labels: tuple[tuple[str, str], ...], fallback: str) -> str:
    return ", ".join(f"{k}={v}" for k, v in labels) if labels else fallback


def evaluate(expr: str, scrapes: list[tuple[float, Sample]]) -> Series:
    series: Series = defaultdict(list)
    if m := _QUANTILE.match(expr):
        q, name, window = float(m.group(1)), m.group(2), float(m.group(3)) * 60
        for t, groups in _rates(scrapes, name, ["le"], window):
            buckets = {float(dict(k)["le"]): v for k, v in groups.items()}
            value = _quantile(q, buckets)
            if not math.isnan(value):
                series[f"p{q * 100:g}"].append((t, value))
        return series
    if m := _SUM_RATE.match(expr):
        by = [x.strip() for x in m.group(1).split(",")]
        for t, groups in _rates(scrapes, m.group(2), by, float(m.group(3)) * 60):
            for k, v in groups.items():
                series[_legend(k, m.group(2))].append((t, v))
        return series
    if m := _RATE.match(expr):
        for t, groups in _rates(scrapes, m.group(1), [], float(m.group(2)) * 60):
            series[m.group(1)].append((t, sum(groups.values())))
        return series
    if m := _SUM.match(expr):
        by = [x.strip() for x in m.group(1).split(",")]
        for t, sample in scrapes:
            for k, v in _grouped(sample, m.group(2), by).items():
                series[_legend(k, m.group(2))].append((t, v))
        return series
    if m := _NAME.match(expr):
        for t, sample in scrapes:
            series[expr].append((t, sum(_grouped(sample, expr, []).values())))
        return series
    raise ValueError(f"not a form this renderer understands: {expr}")


def _font(size: int) -> Any:
    try:
        return ImageFont.load_default(size=size)
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default()


def draw_panel(title: str, series: Series, size: tuple[int, int], t0: float, t1: float) -> Image.Image:
    w, h = size
    img = Image.new("RGB", size, "#181b1f")
    d = ImageDraw.Draw(img)
    d.rectangle([0, 0, w - 1, h - 1], outline="#2c3235")
    d.text((12, 8), title, fill="#d8d9da", font=_font(15))
    left, top, right, bottom = 58, 34, w - 12, h - 62
    values = [v for points in series.values() for _, v in points]
    top_value = max(values) if values else 1.0
    top_value = top_value * 1.1 if top_value > 0 else 1.0
    small = _font(11)
    for i in range(5):
        y = bottom - (bottom - top) * i / 4
        d.line([left, y, right, y], fill="#2c3235")
        d.text((6, y - 6), f"{top_value * i / 4:.3g}", fill="#8e8e8e", font=small)
    span = max(t1 - t0, 1.0)
    for minute in range(int(span // 60) + 1):
        x = left + (right - left) * minute * 60 / span
        d.text((x - 8, bottom + 4), f"{minute}m", fill="#8e8e8e", font=small)
    legend_x, legend_y = float(left), bottom + 22
    for n, (label, points) in enumerate(sorted(series.items())):
        colour = COLOURS[n % len(COLOURS)]
        xy = [
            (left + (right - left) * (t - t0) / span, bottom - (bottom - top) * v / top_value)
            for t, v in points
        ]
        if len(xy) > 1:
            d.line(xy, fill=colour, width=2)
        elif xy:
            d.ellipse([xy[0][0] - 2, xy[0][1] - 2, xy[0][0] + 2, xy[0][1] + 2], fill=colour)
        text = label[:48]
        length = d.textlength(text, font=small) + 26
        if legend_x + length > right:
            legend_x, legend_y = float(left), legend_y + 14
        d.line([legend_x, legend_y + 6, legend_x + 12, legend_y + 6], fill=colour, width=3)
        d.text((legend_x + 16, legend_y), text, fill="#d8d9da", font=small)
        legend_x += length
    if not values:
        d.text((left + 10, (top + bottom) // 2), "no data", fill="#8e8e8e", font=_font(14))
    return img


def render(dashboard: dict[str, Any], scrapes: list[tuple[float, Sample]], out: Path, note: str = "") -> None:
    if not scrapes:
        raise SystemExit("no scrapes with metrics in them")
    t0, t1 = scrapes[0][0], scrapes[-1][0]
    cell = (640, 330)
    panels = dashboard["panels"]
    rows = max(p["gridPos"]["y"] // 8 for p in panels) + 1
    img = Image.new("RGB", (cell[0] * 2, 44 + cell[1] * rows), "#111217")
    d = ImageDraw.Draw(img)
    d.text((12, 12), f"{dashboard['title']}  ·  {note}", fill="#d8d9da", font=_font(18))
    for p in panels:
        series: Series = {}
        for target in p["targets"]:
            series.update(evaluate(target["expr"], scrapes))
        panel = draw_panel(p["title"], series, cell, t0, t1)
        x, y = (p["gridPos"]["x"] // 12) * cell[0], 44 + (p["gridPos"]["y"] // 8) * cell[1]
        img.paste(panel, (x, y))
    img.save(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m bot.devtools.metrics_dashboard", description=__doc__.split("\n\n")[0]
    )
    ap.add_argument("scrapes", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--dashboard", type=Path, default=DASHBOARD)
    ap.add_argument("--note", default="drawn from scraped /metrics (no Grafana server)")
    try:
        args = ap.parse_args(sys.argv[1:] if argv is None else argv)
    except SystemExit as stop:
        return 0 if stop.code in (0, None) else 2
    render(
        json.loads(args.dashboard.read_text(encoding="utf-8")),
        load_scrapes(args.scrapes),
        args.out,
        args.note,
    )
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
