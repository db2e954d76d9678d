"""The CJK font: found, proven to draw Chinese (no tofu boxes), overridable, a clear error when missing."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import ImageFont

from bot.presentation.tournament import fonts
from bot.presentation.tournament.fonts import (
    FontMissing,
    check_cjk_font,
    cjk_font_path,
    draws_glyphs,
    ensure_cjk_font,
    load_font,
)


@pytest.fixture
def latin_font(tmp_path: Path) -> Path:
    """A real font file without Chinese glyphs (Pillow's built-in Latin font, written out)."""
    path = tmp_path / "latin.ttf"
    path.write_bytes(ImageFont.load_default(20).font_bytes)  # type: ignore[union-attr]
    return path


def test_the_installed_font_draws_chinese_names_not_notdef_boxes() -> None:
    """The bot's font draws 张三 with real glyphs: each character's mask differs from the .notdef box."""
    path = ensure_cjk_font()
    font = load_font(24, path)
    assert draws_glyphs(font, "张三李四王五赵六机关工会第1轮半决赛决赛三四名决赛冠军")
    notdef = font.getmask(fonts.NOTDEF_PROBE)
    for ch in "张三":
        assert bytes(font.getmask(ch)) != bytes(notdef)


def test_the_collection_face_used_is_simplified_chinese() -> None:
    font = load_font(24)
    family = font.getname()[0] or ""
    assert "CJK" in family or "Han" in family or "Hei" in family
    if "Noto Sans CJK" in family:
        assert family.endswith("SC")


def test_a_latin_only_font_is_detected_as_drawing_boxes(latin_font: Path) -> None:
    font = load_font(24, latin_font)
    assert draws_glyphs(font, "Final 2026")
    assert not draws_glyphs(font, "张三")
    with pytest.raises(FontMissing, match="no Chinese glyphs"):
        check_cjk_font(latin_font)


def test_env_override_wins_and_a_wrong_override_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, latin_font: Path
) -> None:
    real = cjk_font_path()
    monkeypatch.setenv("BOT_CJK_FONT", str(real))
    assert cjk_font_path() == real
    monkeypatch.setenv("BOT_CJK_FONT", str(latin_font))
    assert cjk_font_path() == latin_font
    with pytest.raises(FontMissing):  # the start-up check refuses a font that would draw tofu
        ensure_cjk_font()
    monkeypatch.setenv("BOT_CJK_FONT", str(tmp_path / "nope.otf"))
    with pytest.raises(FontMissing, match="BOT_CJK_FONT"):
        cjk_font_path()


def test_no_font_anywhere_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOT_CJK_FONT", raising=False)
    monkeypatch.setattr(fonts, "_package_font", lambda: None)
    monkeypatch.setattr(fonts, "SYSTEM_FONTS", ())
    with pytest.raises(FontMissing) as err:
        ensure_cjk_font()
    assert "noto-cjk-sans-otc" in str(err.value) and "BOT_CJK_FONT" in str(err.value)


def test_the_font_comes_from_the_python_package_not_the_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh machine has only Python: the project's own dependency must provide the font."""
    monkeypatch.delenv("BOT_CJK_FONT", raising=False)
    monkeypatch.setattr(fonts, "SYSTEM_FONTS", ())
    path = cjk_font_path()
    assert "site-packages" in str(path) or "dist-packages" in str(path)
    check_cjk_font(path)
