"""docs/grafana/bot-dashboard.json: every panel asks for metrics the bot serves, in forms the renderer of
bot/devtools/metrics_dashboard.py draws (the screenshot in docs/ is made with it)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from PIL import Image

from bot.boot.metrics import Metrics
from bot.devtools.metrics_dashboard import DASHBOARD, evaluate, load_scrapes, render


def test_every_panel_names_a_metric_the_bot_serves(tmp_path: Path) -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    metrics = Metrics()
    metrics.update(type("U", (), {"message": object()})())
    metrics.turn(0.1)
    served = set()
    for family in metrics.registry.collect():
        served |= {family.name + suffix for suffix in ("", "_total", "_bucket", "_count", "_sum")}
    names = {
        n for p in dashboard["panels"] for t in p["targets"] for n in re.findall(r"\b(bot_\w+)", t["expr"])
    }
    scrape_time = {
        "bot_outbox_queued",
        "bot_live_matches",
        "bot_open_pages",
        "bot_ai_pool_depth",
    }  # per runtime
    assert names - scrape_time and all(n in served for n in names - scrape_time)


def test_the_panels_are_drawn_from_scrapes(tmp_path: Path) -> None:
    metrics = Metrics()
    for second in (0, 30, 60):
        for _ in range(5 if second == 0 else 30):
            metrics.update(type("U", (), {"callback_query": object()})())
            metrics.turn(0.07)
        (tmp_path / f"{1000 + second}.prom").write_bytes(metrics.scrape())
    scrapes = load_scrapes(tmp_path)
    rates = evaluate("sum by (kind) (rate(bot_updates_total[1m]))", scrapes)
    assert [round(v, 2) for _, v in rates["kind=callback_query"]] == [1.0, 1.0]  # 30 more in 30 s, then again
    p99 = evaluate(
        "histogram_quantile(0.99, sum by (le) (rate(bot_turn_latency_seconds_bucket[1m])))", scrapes
    )
    assert len(p99["p99"]) == 2 and all(0.05 < v <= 0.1 for _, v in p99["p99"])  # in the 0.05-0.1 s bucket
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    render(dashboard, scrapes, tmp_path / "dash.png")
    assert Image.open(tmp_path / "dash.png").size[0] == 1280
