"""Locating the CJK font that the bracket image is drawn with.

Order of search (the first that exists wins):

1. ``BOT_CJK_FONT=/path/to/font`` (an .otf / .ttf / .ttc with Simplified Chinese glyphs);
   when it is set but the file is missing, that is an error (no silent fallback);
2. the font shipped by the PyPI package ``noto-cjk-sans-otc`` (Noto Sans CJK, a project
   dependency, so ``make install`` brings it on a machine that has only Python);
3. a few well-known system locations of Noto Sans CJK / Source Han Sans / WenQuanYi.

:func:`cjk_font_path` raises :class:`FontMissing` (saying what to install) when none is
found, and :func:`check_cjk_font` proves that the font really draws Chinese (a font
without the glyphs would draw tofu boxes).  The bot calls :func:`ensure_cjk_font` at
start-up so a missing font is a clear start-up error.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

ENV_VAR = "BOT_CJK_FONT"
PACKAGE = "noto-cjk-sans-otc"
INSTALL_HINT = (
    f"install the Python package {PACKAGE} (`.venv/bin/pip install {PACKAGE}`, a project dependency) "
    f"or set {ENV_VAR}=/path/to/a/font.otf with Simplified Chinese glyphs "
    "(e.g. Noto Sans CJK SC)"
)

SYSTEM_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJKsc-Regular.otf",
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/System/Library/Fonts/PingFang.ttc",
    "C:/Windows/Fonts/msyh.ttc",
)

PROBE = "张三李四"  # Chinese text that must draw real glyphs
NOTDEF_PROBE = "\U0010fffd"  # a private-use code point no CJK font maps: drawn as the .notdef box


class FontMissing(RuntimeError):
    """No usable CJK font: the message says what to install."""


def _package_font() -> Path | None:
    try:
        import noto_cjk_sans_otc  # a lazy optional dependency: the font package, when installed
    except ImportError:
        return None
    path = Path(str(noto_cjk_sans_otc.FONT_PATH))
    return path if path.is_file() else None


def cjk_font_path() -> Path:
    """The CJK font file to use (see the module docstring); FontMissing if there is none."""
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        path = Path(override).expanduser()
        if not path.is_file():
            raise FontMissing(f"{ENV_VAR}={override} is not a font file; {INSTALL_HINT}")
        return path
    found = _package_font()
    if found is not None:
        return found
    for candidate in SYSTEM_FONTS:
        if Path(candidate).is_file():
            return Path(candidate)
    raise FontMissing(f"No CJK font found for the bracket image: {INSTALL_HINT}")


@lru_cache(maxsize=16)
def _face_index(path: str) -> int:
    """The Simplified Chinese face of a collection (.ttc: 'Noto Sans CJK SC'), else 0."""
    if not path.lower().endswith((".ttc", ".otc")):
        return 0
    first_proportional = None
    for index in range(32):
        try:
            family, _ = ImageFont.truetype(path, 12, index=index).getname()
        except OSError:
            break
        family = family or ""
        if "Mono" in family:
            continue
        if first_proportional is None:
            first_proportional = index
        if family.endswith(" SC") or "SC " in family or "Hans" in family:
            return index
    return first_proportional or 0


@lru_cache(maxsize=64)
def _load(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size, index=_face_index(path))


def load_font(size: int, path: Path | None = None) -> ImageFont.FreeTypeFont:
    """The CJK font at ``size`` pixels (cached)."""
    return _load(str(path or cjk_font_path()), size)


def draws_glyphs(font: ImageFont.FreeTypeFont, text: str = PROBE) -> bool:
    """True when every character of ``text`` draws something other than the font's .notdef box."""
    notdef = font.getmask(NOTDEF_PROBE)
    box = (notdef.size, bytes(notdef))
    for ch in text:
        if ch.isspace():
            continue
        mask = font.getmask(ch)
        if mask.size == (0, 0) or (mask.size, bytes(mask)) == box:
            return False
    return True


def check_cjk_font(path: Path) -> None:
    """FontMissing unless the font at ``path`` loads and draws Chinese glyphs."""
    try:
        font = load_font(32, path)
    except OSError as exc:
        raise FontMissing(f"The CJK font {path} cannot be loaded ({exc}); {INSTALL_HINT}") from exc
    if not draws_glyphs(font):
        raise FontMissing(f"The font {path} has no Chinese glyphs (they would show as boxes); {INSTALL_HINT}")


def ensure_cjk_font() -> Path:
    """Start-up check: the font path, after proving it draws Chinese.  Raises FontMissing."""
    path = cjk_font_path()
    check_cjk_font(path)
    return path
