"""Every placeholder of a translated rule error is filled by every place that raises it.

A user must never read a raw ``{suit}``: for each ``RuleError("code", "...", **params)`` in
engine/ and storage/, the zh and en messages of ``err.code`` may only use params that this very
call passes (several call sites may share a code only if they pass what the message needs).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from bot.presentation.i18n import catalogue

ROOT = Path(__file__).resolve().parents[4]
FIELD = re.compile(r"{(\w+)}")


def raise_sites(folder: str) -> list[tuple[str, str, frozenset[str] | None]]:
    """(where, code, keyword names or None when **kwargs makes them unknowable)."""
    sites = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RuleError"):
                continue
            if (
                not node.args
                or not isinstance(node.args[0], ast.Constant)
                or not isinstance(node.args[0].value, str)
            ):
                continue
            names = [k.arg for k in node.keywords]
            known = None if None in names else frozenset(n for n in names if n)
            sites.append((f"{path.relative_to(ROOT)}:{node.lineno}", node.args[0].value, known))
    return sites


@pytest.mark.parametrize("folder", ["engine", "storage"])
def test_translations_use_only_params_the_raise_site_passes(folder):
    problems = []
    for lang in ("zh", "en"):
        cat = catalogue(lang)
        for where, code, known in raise_sites(folder):
            text = cat.get("err." + code)
            if text is None or known is None:
                continue
            missing = set(FIELD.findall(text)) - known
            if missing:
                problems.append(
                    f"{lang} err.{code} needs {sorted(missing)} but {where} passes {sorted(known)}"
                )
    assert problems == []
