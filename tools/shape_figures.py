"""The shape of the code in figures: per package, its modules and the largest class and function by lines.

``python -m tools.shape_figures [TREE]`` (default: this checkout) prints them; the README's design notes give them
before and after a restructuring, each read with this script.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGES = ("engine", "render", "bot")


def sizes(root: Path, kind: type[ast.AST] | tuple[type[ast.AST], ...]) -> list[tuple[int, str]]:
    """Every class (or function) under ``root`` as (lines, ``path:name``), its decorators not counted."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, kind):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1  # type: ignore[attr-defined]
                found.append((lines, f"{path.relative_to(root.parent)}:{node.name}"))  # type: ignore[attr-defined]
    return found


def largest(root: Path, kind: type[ast.AST] | tuple[type[ast.AST], ...]) -> tuple[int, str]:
    return max(sizes(root, kind), default=(0, ""))


def main(tree: Path) -> None:
    for package in PACKAGES:
        root = tree / package
        modules = len(list(root.rglob("*.py")))
        cls = largest(root, ast.ClassDef)
        fn = largest(root, (ast.FunctionDef, ast.AsyncFunctionDef))
        print(
            f"{package}: {modules} modules; largest class {cls[0]} lines ({cls[1]}); "
            f"largest function {fn[0]} lines ({fn[1]})"
        )


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
