"""The import graph of engine/, render/ and bot/, read from the source: no cycles, and no hidden imports.

A module-level import is an edge of the graph (imports under ``if TYPE_CHECKING:`` are for the type checker only and
are left out). An import inside a function (or class) is how cycles usually hide, so every such import must say
why it is deliberate with a ``# lazy: <reason>`` comment on its line (a heavy or optional module loaded only when
needed, a worker process's own set-up); anything else fails.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "render", "bot")
LAZY = "# lazy:"


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # the imported module (one of ours)
    line: int
    nested: bool  # inside a function or class
    text: str  # the source line


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            found[module_name(path, root)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _walk(body: list[ast.stmt], nested: bool) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node, nested
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                yield from _walk(node.body, nested)
            yield from _walk(node.orelse, nested)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield from _walk(node.body, True)
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                children = getattr(node, field, None)
                if isinstance(children, list):
                    stmts = [c for c in children if isinstance(c, ast.stmt)]
                    stmts += [s for h in children if isinstance(h, ast.ExceptHandler) for s in h.body]
                    yield from _walk(stmts, nested)


def imports_of(name: str, path: Path, known: set[str]) -> list[Import]:
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = []
    for node, nested in _walk(ast.parse(source).body, False):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in known else base)
        text = " ".join(lines[node.lineno - 1 : node.end_lineno or node.lineno])
        for target in dict.fromkeys(targets):
            if target in known and target != name:
                found.append(Import(name, target, node.lineno, nested, text))
    return found


def graph(root: Path) -> tuple[dict[str, set[str]], list[Import]]:
    """Module-level edges between our modules, and every function-level import."""
    mods = modules(root)
    known = set(mods)
    edges: dict[str, set[str]] = {name: set() for name in mods}
    nested = []
    for name, path in mods.items():
        for imp in imports_of(name, path, known):
            if imp.nested:
                nested.append(imp)
            else:
                edges[name].add(imp.target)
    return edges, nested


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan), each as a sorted list."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(edges.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_import_graph_has_no_cycles() -> None:
    edges, _ = graph(ROOT)
    assert len(edges) > 50, "the source was not found"
    found = cycles(edges)
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_every_function_level_import_says_why() -> None:
    _, nested = graph(ROOT)
    hidden = [f"{i.module}:{i.line}: {i.text.strip()}" for i in nested if LAZY not in i.text]
    assert not hidden, "imports inside functions without a '# lazy: reason' comment:\n" + "\n".join(hidden)


def test_the_checker_sees_a_cycle_and_a_hidden_import(tmp_path: Path) -> None:
    """The checks above can fail: a two-module cycle, one through a package, and an unexplained nested import."""
    for package in PACKAGES:
        (tmp_path / package).mkdir()
        (tmp_path / package / "__init__.py").write_text("")
    (tmp_path / "bot" / "a.py").write_text("from bot.b import x\n")
    (tmp_path / "bot" / "b.py").write_text("from typing import TYPE_CHECKING\nimport bot.c\nx = 1\n")
    (tmp_path / "bot" / "c.py").write_text("from bot import a\n")
    (tmp_path / "bot" / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from bot.e import y\n"
        "def f():\n    from bot.e import y\n    import render  # lazy: a reason\n"
    )
    (tmp_path / "bot" / "e.py").write_text("from bot.d import f\ny = 2\n")
    edges, nested = graph(tmp_path)
    assert cycles(edges) == [["bot.a", "bot.b", "bot.c"]]  # d <-> e only through TYPE_CHECKING and a function
    told = [(i.module, i.target, LAZY in i.text) for i in nested]
    assert told == [("bot.d", "bot.e", False), ("bot.d", "render", True)]


def every_edge(root: Path) -> dict[str, set[str]]:
    """Every import between our modules: module-level, inside functions (lazy) and for the type checker only."""
    mods = modules(root)
    known = set(mods)
    edges: dict[str, set[str]] = {name: set() for name in mods}
    for name, path in mods.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
            edges[name] |= {target for target in targets if target in known and target != name}
    return edges


def test_no_cycles_even_counting_lazy_and_type_only_imports() -> None:
    """A cycle hidden in a function or behind ``TYPE_CHECKING`` is still two modules that cannot be read apart."""
    found = cycles(every_edge(ROOT))
    assert not found, "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_only_the_entry_point_knows_the_concrete_app() -> None:
    """Everything in bot/ types against ``bot.core.host.Host``; only ``python -m bot`` builds the discord.py client."""
    importers = sorted(name for name, targets in every_edge(ROOT).items() if "bot.app" in targets)
    assert importers == ["bot.__main__"], importers


def test_the_bot_does_not_know_it_is_local() -> None:
    """``python -m bot try`` runs the same bot against the loopback Discord as against Discord: nothing in the bot
    imports ``bot.local`` (the loopback, the table page) but the entry point that starts it."""
    local = [name for name in modules(ROOT) if name == "bot.local" or name.startswith("bot.local.")]
    assert local, "bot/local was not found"
    importers = sorted(
        name for name, targets in every_edge(ROOT).items() if set(targets) & set(local) and name not in local
    )
    assert importers == ["bot.__main__"], importers


def game_packages(root: Path) -> list[Path]:
    return sorted(p.parent for p in (root / "bot").glob("*/adapter.py"))


def test_no_two_modules_of_the_bot_share_a_name() -> None:
    """A name says what a module holds: two modules of one name in bot/ (or a bot module named like one of render's)
    are two jobs under one word. The games' packages are the exception by design: the same modules, the same jobs,
    one per game."""
    games = game_packages(ROOT)
    shared = set.intersection(*({p.stem for p in game.glob("*.py")} for game in games))
    names: dict[str, list[str]] = {}
    for path in sorted((ROOT / "bot").rglob("*.py")):
        if path.stem in ("__init__", "__main__") or (path.parent in games and path.stem in shared):
            continue
        names.setdefault(path.stem, []).append(str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "render").rglob("*.py")):
        if path.stem in names and path.stem not in ("__init__", "__main__"):
            names[path.stem].append(str(path.relative_to(ROOT)))
    twice = {name: where for name, where in names.items() if len(where) > 1}
    assert not twice, f"modules sharing a name: {twice}"
    assert len(games) == 2 and {"adapter", "handlers", "turn"} <= shared, "the games' packages were not found"
