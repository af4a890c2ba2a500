"""The bot's shape: one package per game with the same modules, nothing else naming a game, storage only through
the host service, thin cogs. Read from the source, like the import-graph test."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.app import GAMES
from engine import game_names

BOT = Path(__file__).resolve().parent.parent.parent / "bot"
MODULES = ("ids", "items", "turn", "flows", "handlers", "narration", "commands", "adapter")


def sources(root: Path = BOT) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))}


def test_every_game_has_a_package_with_the_same_modules_and_an_adapter() -> None:
    assert sorted(adapter().name for adapter in GAMES) == sorted(game_names())
    for game in game_names():
        package = BOT / game
        present = {path.stem for path in package.glob("*.py")}
        assert set(MODULES) <= present, f"bot/{game} lacks {set(MODULES) - present}"


def test_no_module_outside_a_games_package_names_that_game() -> None:
    games = set(game_names())
    named = []
    for path, tree in sources().items():
        relative = path.relative_to(BOT)
        if relative.parts[0] in games or relative == Path("text/catalogue.py"):  # the catalogue: texts, not code
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in games:
                named.append(f"bot/{relative}:{node.lineno}: {node.value!r}")
    assert not named, "a game named outside its package:\n" + "\n".join(named)


def _reaches_storage(node: ast.AST) -> bool:
    """``bot.games``, ``self.bot.db``, ``interaction.client.games``...: the bot's storage objects themselves."""
    if not isinstance(node, ast.Attribute) or node.attr not in ("games", "db"):
        return False
    owner = node.value
    return (isinstance(owner, ast.Name) and owner.id in ("bot", "client")) or (
        isinstance(owner, ast.Attribute) and owner.attr in ("bot", "client")
    )


def test_only_the_host_service_touches_storage() -> None:
    touched = []
    for path, tree in sources().items():
        relative = path.relative_to(BOT)
        if relative.parts[0] in ("host", "storage") or relative.name == "app.py":
            continue
        touched += [f"bot/{relative}:{n.lineno}" for n in ast.walk(tree) if _reaches_storage(n)]
    assert not touched, "storage reached around the host service:\n" + "\n".join(touched)


def test_the_cogs_are_thin() -> None:
    """A cog module holds cogs (commands, listeners, loops) and nothing else of size: no items, views or flows."""
    for path, tree in sources(BOT / "cogs").items():
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                bases = {ast.unparse(b) for b in node.bases}
                assert bases == {"commands.Cog"}, f"{path.name}: {node.name} is not a cog"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                assert node.end_lineno is not None and node.end_lineno - node.lineno < 10, (
                    f"{path.name}: {node.name} belongs outside the cogs"
                )
