"""Translations: gettext ``.po`` catalogues for zh-CN (default) and en.

The catalogues live in ``bot/presentation/i18n/locale/<lang>/LC_MESSAGES/bot.po``; message ids are stable
keys (``err.not_your_turn``, ``table.turn``) and message strings use ``{name}`` fields.
They are read with Babel at start-up (no compiled ``.mo`` to keep in sync).

Rule errors: ``rule_error(lang, err)`` translates ``RuleError.code`` through ``err.<code>``
with the error's params; card params are shown in the user's language (大王/小王 in Chinese).
"""

from __future__ import annotations

import logging
import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

from engine.errors import RuleError

log = logging.getLogger(__name__)

LANGS = ("zh", "en")
DEFAULT = "zh"
_HERE = Path(__file__).parent / "locale"
_FOLDERS = {"zh": "zh_CN", "en": "en"}


@cache
def catalogue(lang: str) -> dict[str, str]:
    path = _HERE / _FOLDERS[lang] / "LC_MESSAGES" / "bot.po"
    with path.open("rb") as fh:
        cat = read_po(fh, locale=None)
    out: dict[str, str] = {}
    for msg in cat:
        if msg.id and isinstance(msg.id, str) and msg.string:
            out[msg.id] = str(msg.string)
    return out


def normalize(code: str | None, default: str = DEFAULT) -> str:
    """``zh``/``en`` from a Telegram language_code or a setting (``zh-CN``, ``en-GB``, ...)."""
    if code:
        c = code.lower()
        if c.startswith("en"):
            return "en"
        if c.startswith("zh"):
            return "zh"
    d = (default or DEFAULT).lower()
    return "en" if d.startswith("en") else "zh"


class _SafeDict(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def t(lang: str, key: str, **params: object) -> str:
    """The message ``key`` in ``lang`` (falls back to Chinese, then to the key)."""
    text = catalogue(lang).get(key) or catalogue(DEFAULT).get(key) or key
    if params:
        try:
            return text.format_map(_SafeDict(params))
        except (ValueError, IndexError):
            return text
    return text


def has(lang: str, key: str) -> bool:
    return key in catalogue(lang)


_CARD_PARAM = re.compile(r"\b(BJ|SJ)\b")


def cards(lang: str, text: str) -> str:
    """Canonical card text shown in ``lang``: jokers are 大王/小王 in Chinese."""
    if lang != "zh" or not text:
        return text
    return _CARD_PARAM.sub(lambda m: "大王" if m.group(1) == "BJ" else "小王", text)


def rule_error(lang: str, err: RuleError) -> str:
    """A RuleError in ``lang``, with the engine's reason and params."""
    key = "err." + err.code
    params = {k: cards(lang, v) if isinstance(v, str) else v for k, v in err.params.items()}
    if has(lang, key):
        return t(lang, key, **params)
    log.warning("no %s translation for rule error %s", lang, err.code)
    if lang == "en":
        return str(err)
    return t(lang, "err.generic", reason=str(err))
