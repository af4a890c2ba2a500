"""render/'s shape: each game's pictures in its own package, and nothing else in render/ naming a game. Read from the
source, like tests/bot/test_shape.py for the bot."""

from __future__ import annotations

import ast
from pathlib import Path

from engine import game_names
from render.registry import GAMES

RENDER = Path(__file__).resolve().parent.parent.parent / "render"
# Allowed to name games: the one list of them, and the script that plays a game of each for docs/images.
LISTS_GAMES = {Path("registry.py"), Path("samples.py")}


def test_every_game_has_its_pictures_in_its_own_package() -> None:
    assert sorted(GAMES) == sorted(game_names())
    for name, pictures in GAMES.items():
        assert pictures.name == name
        assert type(pictures).__module__ == f"render.{name}.pictures"


def names_of_games(tree: ast.Module, games: set[str]) -> list[tuple[int, str]]:
    """Where code names a game: a string that is a game's name, a module of a game's package imported, or an
    identifier that holds a game's name (``carcassonne_board``). Docstrings and comments may speak of games."""
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in games:
            found.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.Import):
            words = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            words = [node.module or "", *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = [node.name]
        elif isinstance(node, ast.arg):
            words = [node.arg]
        for word in words:
            if any(game in word.lower() for game in games):
                found.append((getattr(node, "lineno", 0), word))
    return sorted(found)


def test_no_module_outside_a_games_package_names_a_game() -> None:
    games = set(game_names())
    named = []
    for path in sorted(RENDER.rglob("*.py")):
        relative = path.relative_to(RENDER)
        if relative.parts[0] in games or relative in LISTS_GAMES:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        named += [f"render/{relative}:{line}: {word}" for line, word in names_of_games(tree, games)]
    assert not named, "a game named outside its package (ask render.registry.GAMES instead):\n" + "\n".join(named)


def test_the_check_sees_a_branch_an_import_and_a_name() -> None:
    source = (
        "from render.catan.board import board_image\n"
        "def draw(view):\n"
        "    if view['game'] == 'catan':\n"
        "        return board_image(view)\n"
        "def carcassonne_preview(view): ...\n"
        '"""A docstring may say Catan or carcassonne."""\n'
    )
    found = names_of_games(ast.parse(source), {"carcassonne", "catan"})
    assert [line for line, _ in found] == [1, 3, 5]
