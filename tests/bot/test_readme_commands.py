"""The README's table of slash commands is the bot's own command tree, written out: a command or option added,
renamed or redescribed in the code and not in the README fails here. To rewrite the table after such a change:
``BOARDHOST_WRITE_README=1 pytest tests/bot/test_readme_commands.py``."""

from __future__ import annotations

import os
from pathlib import Path

from discord import app_commands

from tests.bot.conftest import World

README = Path(__file__).resolve().parents[2] / "README.md"
START = "<!-- commands: written by tests/bot/test_readme_commands.py -->"
END = "<!-- end of commands -->"
KINDS = {"boolean": "true/false", "integer": "whole number", "string": "text", "number": "number"}


def option_text(p: app_commands.Parameter) -> str:
    if p.choices:
        kind = " / ".join(f"`{c.name}`" for c in p.choices)
    else:
        kind = KINDS.get(p.type.name, p.type.name)
        if p.min_value is not None and p.max_value is not None:
            kind += f" {p.min_value}-{p.max_value}"
    extra = ", required" if p.required else ""
    extra += ", autocompleted" if p.autocomplete else ""
    return f"`{p.name}` ({kind}{extra}): {p.description}"


def commands_table(tree: app_commands.CommandTree) -> str:  # type: ignore[type-arg]
    rows = ["| command | what it does | options |", "|---|---|---|"]

    def walk(commands: list[app_commands.Command | app_commands.Group], prefix: str) -> None:  # type: ignore[type-arg]
        for command in commands:
            if isinstance(command, app_commands.Group):
                walk(command.commands, f"{prefix}{command.name} ")
                continue
            options = "<br>".join(option_text(p) for p in command.parameters) or "-"
            rows.append(f"| `/{prefix}{command.name}` | {command.description} | {options} |")

    walk(tree.get_commands(), "")
    return "\n".join(rows)


async def test_the_readme_lists_every_slash_command_with_its_options_as_the_code_defines_them(world: World) -> None:
    table = commands_table(world.bot.tree)
    readme = README.read_text(encoding="utf-8")
    assert START in readme and END in readme, "README.md lost the markers around the command table"
    before, rest = readme.split(START, 1)
    written, after = rest.split(END, 1)
    if os.environ.get("BOARDHOST_WRITE_README") == "1":
        README.write_text(f"{before}{START}\n{table}\n{END}{after}", encoding="utf-8")
        return
    assert written.strip() == table, f"README.md's command table is out of date; it should read:\n{table}"
