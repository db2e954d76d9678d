"""``make demo`` at small size: what a newcomer reading its output would notice (issues 4 and 5).

Part 1 (``bot.devtools.demo.run_demo``): a one-deal Shengji match and a Guandan deal between four simulated
people; part 2 (``bot.devtools.tournament_demo.run_tournament_demo``): a 4-pair knock-out instead of 8.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.devtools.demo import main, run_demo
from bot.devtools.tournament_demo import run_tournament_demo
from bot.verify_deal import main as main_verify


def _section(text: str, start: str, end: str | None = None) -> str:
    body = text[text.index(start) :]
    return body[: body.index(end)] if end and end in body else body


async def test_play_demo_prints_group_and_condensed_private_chat_with_no_429(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 4 'Simulator and demo': the group's transcript, one player's private chat, figures, zero 429s;
    issue 12: a review file and a verified proof per deal in the output folder."""
    figures = await run_demo("zh", seed=2026, shengji_deals=1, guandan_deals=1, out_dir=str(tmp_path))
    out = capsys.readouterr().out
    assert out.startswith("== 第一部分")
    group = _section(out, "══ 工会双升掼蛋赛", "══ 张伟 与机器人的私聊")
    assert group.count("🏆") == 2  # a result message for the Shengji match and for the Guandan deal
    assert "第 1 副结束" in group and "底牌" in group  # deal summaries with the kitty
    private = _section(out, "══ 张伟 与机器人的私聊", "── 张伟 的手牌消息")
    # the typed plays are condensed: a few runs of "张伟 打字 N 次: ..." rather than one line a play
    runs = [line for line in private.splitlines() if "张伟 打字 " in line]
    assert runs and sum(int(line.split("打字 ")[1].split(" 次")[0]) for line in runs) >= 25
    assert not any(line.startswith("张伟:") and "/start" not in line for line in private.splitlines())
    assert len(private.splitlines()) < 60
    snapshot = _section(out, "── 张伟 的手牌消息", "== 数字")
    assert "你的牌" in snapshot and "[出牌" in snapshot  # a mid-deal hand with its keyboard
    assert "每张牌" in _section(out, "== 数字")
    for game in ("shengji", "guandan"):
        f = figures[game]
        assert isinstance(f, dict)
        assert f["rate_limited_429"] == 0, game
        assert f["cards"] > 0 and f["calls"] > 0 and f["p99_ms"] >= f["p50_ms"] > 0
        assert f["verified"] == "1/1" and len(f["proofs"]) == 1
        page = Path(f["review"]).read_text(encoding="utf-8")
        assert page.startswith("<!DOCTYPE html>") and "起手牌" in page and "python -m bot.verify_deal" in page
        assert main_verify([f["proofs"][0]]) == 0
    assert "核验通过 1/1" in out


async def test_tournament_demo_small_field_verifies_draw_prints_prizes_saves_bracket(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Issue 5 'Demo and tests': announcements, the draw with its verification, the late pair's forfeit,
    the final prize list and the bracket image under the output folder."""
    result = await run_tournament_demo("en", out_dir=str(tmp_path), pairs=4)
    out = capsys.readouterr().out
    assert out.startswith("== Part 2")
    assert "  | 📣 Registration for Staff Shengji cup is open!" in out  # group announcements are printed
    assert "\n  draw verified" in out and "FAIL" not in out
    assert "forfeit" in out  # the late pair
    # issue 10: a pair 5 minutes late, inside the limit, checks in and plays (its match has a played result)
    assert "the late pair checks in 5 minutes after the start" in out
    late_key = out.split("the late pair checks in")[0].rsplit("\n", 1)[-1].strip().rstrip(":")
    assert any(late_key in line and "beat" in line and "forfeit" not in line for line in out.splitlines())
    prizes = _section(out, "== Ranking and prizes")
    assert "1. " in prizes and "Champion" in prizes
    assert result["finished"] and result["verified"] and result["rate_limited_429"] == 0
    png = tmp_path / "tournament-bracket.png"
    assert Path(result["bracket"]) == png
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_demo_replay_option_still_prints_a_deal_in_english(capsys: pytest.CaptureFixture[str]) -> None:
    """``python -m bot.devtools.demo --replay guandan --lang en`` (README) prints a computer-played deal, no bot."""
    assert main(["--replay", "guandan", "--lang", "en", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.strip() and "Part 1" not in out
