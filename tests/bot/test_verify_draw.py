"""``python -m bot.verify_draw``: a file that is JSON but not a draw object gets one line and exit code 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.verify_draw import main


@pytest.mark.parametrize("content", ["[1, 2, 3]", '"a draw"', "42"])
def test_a_json_file_that_is_not_an_object_is_one_line(
    tmp_path: Path, content: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "draw.json"
    path.write_text(content, encoding="utf-8")
    assert main([str(path)]) == 2
    out = capsys.readouterr().out
    assert out.startswith("cannot read the draw:") and "not a JSON object" in out
    assert len(out.strip().splitlines()) == 1 and "Traceback" not in out


def test_an_announcement_that_is_not_an_object_is_refused_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    published = tmp_path / "draw.json"
    published.write_text("{}", encoding="utf-8")
    announced = tmp_path / "announced.json"
    announced.write_text("[]", encoding="utf-8")
    assert main([str(published), str(announced)]) == 2
    assert "announced.json is not a JSON object" in capsys.readouterr().out
