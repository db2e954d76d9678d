"""The architecture's figures (issue 18; docs/architecture.md quotes them): ``python -m tests.architecture.figures``.

Read from the source text alone (``ast``; nothing is imported), so it runs on any checkout:

* import cycles among our modules, counting imports inside functions and under ``TYPE_CHECKING``
  (each strongly connected group of modules is one cycle);
* project imports inside functions in ``bot/``, a lazy optional dependency aside: an import inside a function
  whose line, or the line above it, has a comment starting ``# lazy`` (saying why) is listed, not counted;
* top-level modules directly in ``bot/``;
* the word ``Any`` (imports aside) and ``type: ignore`` in ``bot/``'s production code (dev tools aside);
* ``game ==`` / ``game !=`` branches outside the engine and the per-game presenters;
* the largest module of ``bot/`` and of ``storage/`` (lines);
* modules importing ``telegram`` outside the edge and delivery packages.

``--json`` prints the same figures as JSON (the test reads them that way).
"""

from __future__ import annotations

import argparse
import ast
import io
import json
import re
import sys
import tokenize
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("bot", "engine", "storage", "scheduler")
# never imported by production code; before the rooms commit they lay among the others
DEVTOOLS = (
    "bot/devtools/",
    "bot/demo.py",
    "bot/autodrive.py",
    "bot/replay_shengji.py",
    "bot/replay_guandan.py",
    "bot/simulator/",
    "bot/loadtest/",
    "bot/webapp/bench.py",
    "bot/webapp/local.py",
    "bot/tournament/demo.py",
)
TELEGRAM_ROOMS = ("bot/edge/", "bot/delivery/")  # the packages allowed to import telegram
PRESENTERS = ("bot/presentation/games/",)  # per-game presenters may name their game
GAME_BRANCH = re.compile(
    r"""\bgame\s*[!=]=\s*["'](shengji|guandan)["']|["'](shengji|guandan)["']\s*[!=]=\s*\w*game\b"""
)


@dataclass(frozen=True)
class Figures:
    import_cycles: list[list[str]]
    function_imports_in_bot: int
    top_level_modules_in_bot: int
    any_in_bot: int
    type_ignores_in_bot: int
    game_branches: int
    largest_module: tuple[str, int]
    telegram_outside_edge: list[str]
    lazy_imports_in_bot: list[str]  # "path:line" of each commented lazy import (not counted above)


@dataclass(frozen=True)
class _Import:
    target: str
    in_function: bool
    line: int = 0


def _modules(root: Path) -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


LAZY = re.compile(r"#\s*lazy\b")


def _lazy(lines: list[str], line: int) -> bool:
    """A commented lazy import: ``# lazy`` on its line or on the line above."""
    return any(LAZY.search(lines[i - 1]) for i in (line, line - 1) if 1 <= i <= len(lines))


def _rel(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def _imports(path: Path, name: str, known: dict[str, Path]) -> Iterator[_Import]:
    """Every import of a project module in ``path`` (module ``name``), at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]

    def visit(node: ast.AST, in_function: bool) -> Iterator[_Import]:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
            if isinstance(child, ast.Import):
                for alias in child.names:
                    if alias.name in known:
                        yield _Import(alias.name, in_function, child.lineno)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")
                    anchor = anchor[: len(anchor) - (child.level - 1)]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in child.names:
                    full = f"{base}.{alias.name}"
                    if full in known:
                        yield _Import(full, in_function, child.lineno)
                    elif base in known:
                        yield _Import(base, in_function, child.lineno)
            yield from visit(child, nested)

    yield from visit(tree, False)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan, iterative), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in graph.get(node, ()):
                    groups.append(sorted(group))
    return sorted(groups)


def _any_and_ignores(path: Path) -> tuple[int, int]:
    """Uses of the name ``Any`` outside import statements, and ``type: ignore`` comments."""
    text = path.read_text(encoding="utf-8")
    anys = ignores = 0
    in_import = False
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if (
            tok.type == tokenize.NAME
            and tok.string in ("import", "from")
            and tok.start[1] == _indent(tok.line)
        ):
            in_import = True
        elif tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            in_import = False
        elif tok.type == tokenize.NAME and tok.string == "Any" and not in_import:
            anys += 1
        elif tok.type == tokenize.COMMENT and "type: ignore" in tok.string:
            ignores += 1
    return anys, ignores


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _imports_telegram(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(
            a.name == "telegram" or a.name.startswith("telegram.") for a in node.names
        ):
            return True
        if (
            isinstance(node, ast.ImportFrom)
            and not node.level
            and node.module
            and (node.module == "telegram" or node.module.startswith("telegram."))
        ):
            return True
    return False


def measure(root: Path = ROOT) -> Figures:
    known = _modules(root)
    graph: dict[str, set[str]] = {name: set() for name in known}
    function_imports = 0
    anys = ignores = branches = 0
    largest = ("", 0)
    telegram: list[str] = []
    lazy: list[str] = []
    for name, path in known.items():
        rel = _rel(path, root)
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for imp in _imports(path, name, known):
            if imp.target != name:
                graph[name].add(imp.target)
            if imp.in_function and rel.startswith("bot/"):
                if _lazy(lines, imp.line):
                    lazy.append(f"{rel}:{imp.line}")
                else:
                    function_imports += 1
        if rel.startswith(("bot/", "storage/")):
            lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
            if lines > largest[1]:
                largest = (rel, lines)
        production_bot = rel.startswith("bot/") and not rel.startswith(DEVTOOLS)
        if production_bot:
            a, i = _any_and_ignores(path)
            anys += a
            ignores += i
        if not rel.startswith(("engine/", *PRESENTERS)):
            branches += sum(1 for line in text.splitlines() if GAME_BRANCH.search(line))
        if rel.startswith("bot/") and not rel.startswith(TELEGRAM_ROOMS) and _imports_telegram(path):
            telegram.append(rel)
    top_level = sum(1 for p in (root / "bot").glob("*.py"))
    return Figures(
        _cycles(graph),
        function_imports,
        top_level,
        anys,
        ignores,
        branches,
        largest,
        telegram,
        sorted(set(lazy)),
    )


GOALS = {
    "import cycles (imports inside functions and under TYPE_CHECKING counted)": "0",
    "project imports inside functions in bot/ (commented lazy ones aside)": "<= 5",
    "top-level modules directly in bot/": "<= 4",
    "Any (imports aside) / type: ignore in bot/ production code": "<= 60 / <= 5",
    "game == branches outside engine/ and the per-game presenters": "0",
    "largest module in bot/ and storage/ (lines)": "<= 600",
    "modules importing telegram outside bot/edge and bot/delivery": "0",
}


def table(f: Figures) -> str:
    values = [
        str(len(f.import_cycles)),
        str(f.function_imports_in_bot),
        str(f.top_level_modules_in_bot),
        f"{f.any_in_bot} / {f.type_ignores_in_bot}",
        str(f.game_branches),
        f"{f.largest_module[1]} ({f.largest_module[0]})",
        str(len(f.telegram_outside_edge)),
    ]
    rows = [("measure", "now", "goal")] + [(m, v, g) for (m, g), v in zip(GOALS.items(), values, strict=True)]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    out = ["| " + " | ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)) + " |" for r in rows]
    out.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for group in f.import_cycles:
        out.append("cycle: " + " ⇄ ".join(group))
    for rel in f.telegram_outside_edge:
        out.append("imports telegram: " + rel)
    for where in f.lazy_imports_in_bot:
        out.append("lazy import (not counted): " + where)
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to measure (default: this one)")
    args = parser.parse_args(argv)
    figures = measure(args.root)
    print(json.dumps(asdict(figures), indent=2) if args.json else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
