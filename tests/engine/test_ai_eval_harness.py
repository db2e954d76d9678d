"""The paired-deal evaluation (tests/perf/ai_eval.py): a pair swaps the sides on the same cards, the
summary counts what the pairs say, and a run resumes from its file without playing a pair twice."""

from __future__ import annotations

import json
from pathlib import Path

from tests.perf import ai_eval


def test_a_pair_plays_the_same_cards_with_the_sides_swapped() -> None:
    same = ai_eval.play_pair(("shengji", "normal", "normal", 7, "c0ffee"))
    assert same["nets"][0] == -same["nets"][1] and same["net"] == 0  # equal players: the cards cancel out
    assert same["declare_times"]  # the Shengji dealing asked the timed side whether to declare, and was timed
    row = ai_eval.play_pair(("guandan", "normal", "random", 7, "c0ffee"))
    assert row["net"] == sum(row["nets"]) and row["net"] > 0 and row["times"]
    assert row["declare_times"] == []  # Guandan has no declarations


def test_summary_and_resume(tmp_path: Path) -> None:
    out = tmp_path / "pairs.jsonl"
    rows = ai_eval.run("guandan", "normal", "random", 3, 1, str(out), seed=100)
    assert len(rows) == 3 and len(out.read_text().splitlines()) == 3
    again = ai_eval.run("guandan", "normal", "random", 4, 1, str(out), seed=100)
    assert [r["seed"] for r in again] == [100, 101, 102, 103]  # only the fourth pair was played
    s = ai_eval.summarise(again)
    assert s["pairs"] == 4 and s["won"] + s["tied"] + s["lost"] == 4
    assert s["mean"] == sum(r["net"] for r in again) / 4 and s["low"] <= s["mean"] <= s["high"]
    assert "4 pairs" in ai_eval.report("guandan", "normal", "random", again, 1.0)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert all(r["a"] == "normal" for r in lines)
    assert {r["commit"] for r in lines} == {ai_eval.code_commit()} != {"unknown"}  # the players' code
