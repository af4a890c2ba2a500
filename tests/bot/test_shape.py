"""The bot's shape: one package per game with the same modules, nothing else naming a game, storage only through
the host's services, thin cogs, no class beyond a size. Read from the source, like the import-graph test."""

from __future__ import annotations

import ast
from pathlib import Path

from bot.lineup import GAMES
from engine import game_names
from tools.shape_figures import sizes

BOT = Path(__file__).resolve().parent.parent.parent / "bot"
MODULES = ("ids", "turn", "flows", "handlers", "narration", "alt", "commands", "command_flows", "adapter")


def sources(root: Path = BOT) -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))}


def test_every_game_has_a_package_with_the_same_modules_and_an_adapter() -> None:
    assert sorted(adapter.name for adapter in GAMES) == sorted(game_names())
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


def test_only_the_hosts_services_touch_storage() -> None:
    touched = []
    for path, tree in sources().items():
        relative = path.relative_to(BOT)
        if relative.parts[0] in ("host", "storage") or relative.name == "app.py":
            continue
        touched += [f"bot/{relative}:{n.lineno}" for n in ast.walk(tree) if _reaches_storage(n)]
    assert not touched, "storage reached around the host's services:\n" + "\n".join(touched)


# A cog's method declares and delegates: a command calls its flow, a loop hands its rows to one; three statements
# (a docstring not counted) are room for that and no more.
COG_METHOD_STATEMENTS = 3


def thickness(tree: ast.Module) -> list[str]:
    """What in a cog module is not a thin cog: other classes, functions, error handling, long methods."""
    found = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(f"{node.lineno}: function {node.name} belongs outside the cogs")
        elif isinstance(node, ast.ClassDef):
            if {ast.unparse(b) for b in node.bases} - {"commands.Cog", "Sweep"} or not node.bases:
                found.append(f"{node.lineno}: {node.name} is not a cog")
            for method in node.body:
                if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                body = method.body[1:] if ast.get_docstring(method) is not None else method.body
                if len(body) > COG_METHOD_STATEMENTS:
                    found.append(f"{method.lineno}: {node.name}.{method.name} holds logic ({len(body)} statements)")
    for node in (n for top in tree.body if isinstance(top, ast.ClassDef) for n in ast.walk(top)):
        if isinstance(node, ast.Try | ast.TryStar):  # refusals and failures: the funnel's, not a cog's
            caught = [ast.unparse(h.type) for h in node.handlers if h.type is not None] or ["everything"]
            found.append(f"{node.lineno}: catches {', '.join(caught)}")
        elif isinstance(node, ast.If | ast.For | ast.AsyncFor | ast.While | ast.With | ast.AsyncWith):
            found.append(f"{node.lineno}: {type(node).__name__.lower()} statement: logic belongs in a flow module")
    return found


def cog_modules() -> dict[Path, ast.Module]:
    """The game-neutral cogs (``bot/cogs``) and every game's cog (``bot/<game>/commands.py``)."""
    found = sources(BOT / "cogs")
    found.update(
        {path: tree for path, tree in sources().items() if path.name == "commands.py" and path.parent.parent == BOT}
    )
    return found


def test_the_cogs_are_thin() -> None:
    """A cog module holds cogs whose methods declare commands, listeners and loops and call the code that does the
    work; the games' cogs too."""
    modules = cog_modules()
    assert len(modules) >= 7, sorted(modules)
    found = [f"bot/{path.relative_to(BOT)}:{line}" for path, tree in modules.items() for line in thickness(tree)]
    assert not found, "the cogs are not thin:\n" + "\n".join(found)


def test_the_thinness_check_sees_a_cog_that_refuses_by_itself() -> None:
    """The old ``/game abandon``: it caught ``HostError`` and worded the refusal itself."""
    source = """
class GameCog(commands.Cog):
    async def abandon(self, interaction):
        try:
            await self.bot.play.abandon(1, 2, interaction.user.id)
        except HostError as err:
            await refuse(interaction, err.key)
"""
    assert thickness(ast.parse(source)) == ["4: catches HostError"]


def test_discord_failures_are_caught_only_in_the_safely_module() -> None:
    """Sends, edits, DMs and whole turn posts that Discord may refuse go through ``bot/core/safely.py``."""
    caught = []
    for path, tree in sources().items():
        if path == BOT / "core" / "safely.py":
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                guarded = [node.type]
            elif isinstance(node, ast.Call) and ast.unparse(node.func).endswith("suppress"):
                guarded = node.args
            else:
                continue
            if any("HTTPException" in ast.unparse(kind) for kind in guarded):
                caught.append(f"bot/{path.relative_to(BOT)}:{node.lineno}")
    assert not caught, "Discord failures caught outside bot/core/safely.py:\n" + "\n".join(caught)


def test_no_type_ignore_in_the_bot_without_a_reason() -> None:
    """``# type: ignore[...]`` only with a comment saying why (after it, or on the line above): an untyped library's
    private name, say."""
    bare = []
    for path in sorted(BOT.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines, 1):
            code, marker, rest = line.partition("# type: ignore")
            if not marker or code.strip().startswith(("#", '"', "`")) or "``" in code:  # prose about it
                continue
            if "#" not in rest and not (number > 1 and lines[number - 2].strip().startswith("#")):
                bare.append(f"bot/{path.relative_to(BOT)}:{number}")
    assert not bare, "type: ignore without a reason:\n" + "\n".join(bare)


def test_handlers_reach_the_bot_through_the_typed_accessor() -> None:
    """``interaction.client`` is a plain ``discord.Client`` to the type checker: only ``bot.core.host.host_of``
    reads it (checked with ``isinstance``), so no handler casts it or ignores its type."""
    reads = [
        f"bot/{path.relative_to(BOT)}:{node.lineno}"
        for path, tree in sources().items()
        if path != BOT / "core" / "host.py"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "client" and ast.unparse(node.value).endswith("interaction")
    ]
    assert not reads, "interaction.client read around bot.core.host.host_of:\n" + "\n".join(reads)


BUILDERS = {"button", "select", "button_for", "paged_select"}


def ops_built(package: Path) -> dict[str, int]:
    """The op names a game's package puts on its buttons and selects: the string constants its calls of a builder
    pass first (``button(row, "roll", ...)``, ``paged_select(layout, row, "spot", "spage", ...)``), with a line."""
    found: dict[str, int] = {}
    for tree in sources(package).values():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
            if name not in BUILDERS:
                continue
            strings = [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            for op in strings[: 2 if name == "paged_select" else 1]:
                found.setdefault(op, node.lineno)
    return found


def test_every_op_a_game_puts_on_a_button_is_in_its_click_table() -> None:
    """A button whose op its table does not know would answer "out of date" to every click."""
    for adapter in GAMES:
        built = ops_built(BOT / adapter.name)
        assert built, f"no buttons found in bot/{adapter.name}"
        unknown = {op: line for op, line in built.items() if op not in adapter.table.ops}  # type: ignore[attr-defined]
        assert not unknown, f"bot/{adapter.name} builds ops its table lacks: {unknown}"


# Module-level mutable state is what one process sets and every test must reset (issue 23): a bot's settings and
# memories are its own (the host's attributes, passed to the code that needs them); a module holds constants (named
# in capitals, never changed), caches of pure functions and context variables (per task, like gettext's language).
CONTAINERS = {"dict", "list", "set", "bytearray", "OrderedDict", "defaultdict", "deque", "Counter", "ChainMap"}
MUTATORS = {"append", "extend", "insert", "pop", "popitem", "popleft", "clear", "update", "setdefault", "add",
            "discard", "remove", "move_to_end", "appendleft", "sort", "reverse"}  # fmt: skip
KEPT = {  # module state that is no bot's setting, each with why
    ("core/host.py", "_HOSTS"): "which client classes are hosts: a fact about classes, the same for every bot",
    ("flows/presence.py", "_recent"): "a moment's cache of each bot's reads, keyed by the bot: no bot sees another's",
}


def _container(value: ast.expr | None) -> bool:
    if isinstance(value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp):
        return True
    if isinstance(value, ast.Call):
        name = value.func.attr if isinstance(value.func, ast.Attribute) else getattr(value.func, "id", "")
        return name in CONTAINERS
    return False


def _root(node: ast.expr) -> str | None:
    """The name an expression like ``_readers[user]`` or ``_ids.clear`` starts from."""
    while isinstance(node, ast.Subscript | ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def module_state(tree: ast.Module) -> list[str]:
    """A module's mutable state: names bound at module level to a container (a literal, a comprehension or a
    container type's call) that are not constants, and module-level names a function changes (an item or attribute
    assigned or deleted, a mutating method called, a ``global`` rebinding)."""
    found = []
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    names.add(target.id)
                    if _container(node.value) and not target.id.isupper() and not target.id.startswith("__"):
                        found.append(f"{node.lineno}: {target.id} holds a mutable container")
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    for function in functions:
        local = {a.arg for a in ast.walk(function.args) if isinstance(a, ast.arg)}
        local |= {n.id for n in ast.walk(function) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
        for node in ast.walk(function):
            changed: list[ast.expr] = []
            if isinstance(node, ast.Global):
                found += [f"{node.lineno}: {name} rebound by {function.name}" for name in node.names]
            elif isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign | ast.Delete):
                targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
                changed = [t for t in targets if isinstance(t, ast.Subscript | ast.Attribute)]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS:
                changed = [node.func.value]
            for target in changed:
                name = _root(target)
                if name in names and name not in local:
                    found.append(f"{node.lineno}: {name} changed by {function.name}")
    return found


def test_no_module_in_the_bot_keeps_state_of_its_own() -> None:
    """Two bots in one process (the tests' second shard process) share no settings: the default language, the
    readers' languages and the command mentions are each bot's ``Languages``, not a module's."""
    found = []
    for path, tree in sources().items():
        relative = path.relative_to(BOT).as_posix()
        found += [f"bot/{relative}:{line}" for line in module_state(tree) if (relative, line.split(" ")[1]) not in KEPT]
    assert not found, "module-level mutable state (make it the host's and pass it in):\n" + "\n".join(found)


def test_the_state_check_sees_the_old_process_wide_languages() -> None:
    """``bot.text.i18n`` before issue 23: the default language and the readers' languages were the module's."""
    source = """
_default = ["en"]
_readers: collections.OrderedDict[int, str] = collections.OrderedDict()
MENTIONS: list[Mentioner] = []


def set_default_language(lang):
    _default[0] = resolve(lang)


def remember_locale(user_id, lang):
    _readers[user_id] = lang
    _readers.move_to_end(user_id)


def install_command_mentions(mentioner):
    MENTIONS[:] = [mentioner]


def game_language(stored):
    readers = {}
    readers[1] = stored  # a local: no state
    return stored or _default[0]
"""
    assert module_state(ast.parse(source)) == [
        "2: _default holds a mutable container",
        "3: _readers holds a mutable container",
        "8: _default changed by set_default_language",
        "12: _readers changed by remember_locale",
        "13: _readers changed by remember_locale",
        "17: MENTIONS changed by install_command_mentions",
    ]


# Lines of the largest class the bot may hold (``python -m tools.shape_figures`` measures the same way). The game
# host's ``GameService`` had grown to 776 lines (lobby, play, stand-ins, people's settings, records in one class)
# before it was split into the services of ``bot/host``, and the loopback Discord's ``FakeDiscord`` to 1366 (a whole
# fake server in one class) before it was split into its store and the parts serving it (the gateway, the REST
# routes per resource, the people's clients: ``bot/local/loopback``). After both splits the largest class of the bot
# is the outbox's ``Outbox`` at 321 lines, the loopback's largest its ``Store`` at 317, the largest service ``Play``
# at 188.
CLASS_LINES = 350


def test_no_class_of_the_bot_grows_beyond_its_limit() -> None:
    found = sizes(BOT, ast.ClassDef)
    assert any(name == "bot/host/play.py:Play" for _, name in found), "the bot's classes were not found"
    grown = [f"{name}: {lines} lines (limit {CLASS_LINES})" for lines, name in found if lines > CLASS_LINES]
    assert not grown, "classes too large (split them into classes named for what they hold):\n" + "\n".join(grown)
