"""The figures script (issue 18) runs on this checkout and counts what it says it counts."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.architecture.figures import ROOT, measure


def _write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for package in ("bot", "engine", "storage", "scheduler"):
        (root / package).mkdir(exist_ok=True)
        (root / package / "__init__.py").touch()
    return root


def test_the_script_prints_the_table_and_json_for_this_checkout() -> None:
    table = subprocess.run(
        [sys.executable, "-m", "tests.architecture.figures"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
        timeout=120,
    ).stdout
    assert "| import cycles" in table and "| largest module in bot/ and storage/" in table
    data = json.loads(
        subprocess.run(
            [sys.executable, "-m", "tests.architecture.figures", "--json"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )
    assert data["top_level_modules_in_bot"] >= 1
    assert data["largest_module"][1] > 0


def test_cycles_count_imports_inside_functions_and_under_type_checking(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "engine/a.py": "def f():\n    from engine import b\n    return b\n",
            "engine/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from engine.a import f\n",
            "engine/c.py": "import engine.a\n",  # imports into the cycle, is not part of it
            "storage/x.py": "from storage import y\n",
            "storage/y.py": "from . import x\n",  # a relative import closes a second cycle
        },
    )
    figures = measure(root)
    assert figures.import_cycles == [["engine.a", "engine.b"], ["storage.x", "storage.y"]]


def test_bot_figures_count_function_imports_any_ignores_branches_and_telegram(tmp_path: Path) -> None:
    root = _write(
        tmp_path,
        {
            "bot/tables/live.py": (
                "from typing import Any\n"
                "import telegram\n"
                "def f(game: str, x: Any) -> Any:\n"
                "    from engine import rules\n"
                "    # lazy: an optional dependency, loaded only when used\n"
                "    from engine import extra\n"  # listed, not counted
                "    from engine import rules as again  # lazy: said on its own line\n"
                "    import json\n"  # not ours: not counted
                "    if game == 'shengji':\n"
                "        return x  # type: ignore[no-any-return]\n"
                "    return 'Any'\n"  # a string, not the name
            ),
            "engine/rules.py": "def g(game: str) -> bool:\n    return game == 'shengji'\n",  # the engine may
            "engine/extra.py": "",
            "bot/edge/handlers.py": "from telegram.ext import Application\n",  # the edge may
            "bot/devtools/demo.py": "from typing import Any\nx: Any = 1  # type: ignore\n",  # dev tools aside
            "bot/entry.py": "",
        },
    )
    figures = measure(root)
    assert figures.function_imports_in_bot == 1
    assert figures.lazy_imports_in_bot == ["bot/tables/live.py:6", "bot/tables/live.py:7"]
    assert (figures.any_in_bot, figures.type_ignores_in_bot) == (2, 1)
    assert figures.game_branches == 1
    assert figures.telegram_outside_edge == ["bot/tables/live.py"]
    assert figures.top_level_modules_in_bot == 2  # __init__ and entry
    assert figures.largest_module == ("bot/tables/live.py", 11)
