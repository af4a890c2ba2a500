"""The README's commands are the ones that work: the Quick start is two lines, one running the bot (which without a
token says what to do next in one line, ``python -m bot try`` first) and one running the tests, which ``.ci/run``
runs exactly; the table of slash commands is the bot's own command tree, written out (a command or option added,
renamed or redescribed in the code and not in the README fails here; to rewrite the table after such a change:
``BOARDHOST_WRITE_README=1 pytest tests/bot/test_readme_commands.py``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from discord import app_commands

from tests.bot.conftest import World

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CI = ROOT / ".ci" / "run"
MAKE_THE_ENVIRONMENT = "python3 -m venv .venv && . .venv/bin/activate && pip install -e "
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


def section(title: str) -> str:
    """The README's text under the ``## title`` heading, up to the next heading of that level."""
    readme = README.read_text(encoding="utf-8")
    assert f"\n## {title}\n" in readme, f"README.md has no section {title!r}"
    return readme.split(f"\n## {title}\n", 1)[1].split("\n## ", 1)[0]


def quick_start() -> list[str]:
    block = re.search(r"```sh\n(.*?)```", section("Quick start"), re.S)
    assert block is not None, "the Quick start has no sh block"
    return [line for line in block[1].splitlines() if line.strip()]


def test_the_quick_start_is_two_commands_that_make_the_environment_then_run_the_bot_or_the_tests() -> None:
    run, test = quick_start()  # exactly two lines

    assert run.startswith(MAKE_THE_ENVIRONMENT) and run.endswith(" && python -m bot")
    assert test.startswith(MAKE_THE_ENVIRONMENT) and test.endswith(" && pytest") and "'.[test]'" in test


def test_ci_runs_the_readmes_test_command_exactly() -> None:
    _, test = quick_start()
    commands = [line.strip() for line in CI.read_text(encoding="utf-8").splitlines()]

    assert test in commands, f".ci/run does not run the README's test line:\n{test}"


def test_without_a_token_the_bot_says_what_to_do_next_in_one_line(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "BOARDHOST_CONFIG", "BOARDHOST_DATABASE")}

    ran = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )

    assert ran.returncode != 0 and ran.stdout == ""
    lines = ran.stderr.strip().splitlines()
    assert len(lines) == 1, ran.stderr
    line = lines[0]
    assert "DISCORD_TOKEN" in line and "https://discord.com/developers/applications" in line
    assert "python -m bot try" in line  # playing it on this computer needs no token
    named = re.search(r'README\.md, "([^"]+)"', line)
    assert named is not None, f"the line names no README section: {line}"
    assert section(named[1]).lstrip().startswith("Everything a host does")
    assert list(tmp_path.iterdir()) == [], "nothing is created before the bot can run"


def test_the_readme_shows_the_bot_first_then_a_server_in_five_steps_and_the_design_notes_last() -> None:
    readme = README.read_text(encoding="utf-8")
    headings = re.findall(r"^## (.+)$", readme, re.M)

    first = re.search(r"!\[[^\]]*\]\(([^)]+)\)", readme)
    assert first is not None and first[1].startswith("docs/screenshots/"), "the page of python -m bot try first"
    assert readme.index("](docs/screenshots/") < readme.index("## Quick start"), "a picture of it first"
    assert headings[:3] == ["Quick start", "Your Discord server in five steps", "Operating it"]
    assert headings[-1] == "Design notes"
    steps = re.findall(r"^(\d)\. \*\*", section("Your Discord server in five steps"), re.M)
    assert steps == ["1", "2", "3", "4", "5"]
    for topic in ("### Docker", "### Backup and restore", "### Upgrading", "### Memory and CPU", "### Version"):
        assert topic in section("Operating it")
