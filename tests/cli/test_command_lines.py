"""Every command line answers bad input with one clear line on stderr and a non-zero exit, never a traceback, and
its --help describes every argument of every command."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPLAY = {
    "format": "boardhost-replay",
    "version": 1,
    "game": "carcassonne",
    "players": ["Alice", "Bob"],
    "seed": 7,
    "options": {"river": False, "deck": ["U", "V", "E"]},
    "actions": [{"player": 0, "type": "place", "tile": "U", "x": 1, "y": 0, "rotation": 0}],
}


def run(module: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def one_line_failure(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


@pytest.mark.parametrize("module", ["engine replay", "render"])
def test_a_replay_that_is_not_utf8_text_is_refused_in_one_line(tmp_path: Path, module: str) -> None:
    bad = tmp_path / "latin1.json"
    bad.write_bytes(json.dumps(REPLAY).replace("Alice", "Zoë").encode("latin-1"))
    name, *sub = module.split()
    extra = [] if sub else ["--out", str(tmp_path / "x.png")]
    line = one_line_failure(run(name, *sub, str(bad), *extra))
    assert "not UTF-8 text" in line and str(bad) in line


@pytest.mark.parametrize("depth", [5_000, 900])
@pytest.mark.parametrize("module", ["engine replay", "render"])
def test_a_replay_nested_thousands_of_levels_deep_is_refused_in_one_line(
    tmp_path: Path, module: str, depth: int
) -> None:
    deep = tmp_path / "deep.json"
    nested = "[" * depth + "]" * depth
    deep.write_text(json.dumps(REPLAY).replace('"actions": [', f'"actions": [{nested}, '), encoding="utf-8")
    name, *sub = module.split()
    extra = [] if sub else ["--out", str(tmp_path / "x.png")]
    line = one_line_failure(run(name, *sub, str(deep), *extra))
    assert "nested too deeply" in line or "action 0" in line  # too deep to read, or read and refused as an action


def test_selfplay_will_not_export_onto_an_existing_file(tmp_path: Path) -> None:
    taken = tmp_path / "replays"
    taken.write_text("keep me", encoding="utf-8")
    line = one_line_failure(run("engine", "selfplay", "carcassonne", "--games", "1", "--export", str(taken)))
    assert "a file of that name exists" in line and "folder" in line
    assert taken.read_text(encoding="utf-8") == "keep me"


def test_an_unknown_computer_level_is_answered_with_the_levels_there_are() -> None:
    line = one_line_failure(run("engine", "arena", "carcassonne", "--players", "hard,random", "--games", "1"))
    assert "'hard'" in line and "random, standard" in line


def test_a_wrong_number_of_players_is_answered_with_the_count_given_and_the_range_allowed() -> None:
    line = one_line_failure(run("engine", "arena", "catan", "--players", "standard,random", "--games", "1"))
    assert "standard,random names 2" in line and "3 to 4" in line
    line = one_line_failure(run("engine", "selfplay", "carcassonne", "--games", "1", "--players", "9"))
    assert "--players 9" in line and "2 to 6" in line
    line = one_line_failure(run("engine", "selfplay", "carcassonne", "--games", "1", "--players", "0"))
    assert "--players 0" in line and "2 to 6" in line


def test_a_development_deck_of_something_other_than_card_names_is_refused_with_the_card_names(tmp_path: Path) -> None:
    replay = tmp_path / "catan.json"
    data = {**REPLAY, "game": "catan", "players": ["A", "B", "C"], "options": {"dev_deck": [["knight"]]}}
    replay.write_text(json.dumps({**data, "actions": []}), encoding="utf-8")
    line = one_line_failure(run("engine", "replay", str(replay)))
    assert "dev_deck" in line and "knight, victory_point, road_building, year_of_plenty, monopoly" in line


@pytest.mark.parametrize("name", ["board.jpg", "board", "board.png.txt"])
def test_render_refuses_an_out_file_it_would_not_write_as_named(tmp_path: Path, name: str) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps(REPLAY), encoding="utf-8")
    line = one_line_failure(run("render", str(replay), "--out", str(tmp_path / name)))
    assert ".png" in line
    assert list(tmp_path.iterdir()) == [replay]


# --help: every argument of every command has a description.


def _undocumented(parser: argparse.ArgumentParser, prefix: str) -> Iterator[str]:
    if not parser.description:
        yield f"{prefix}: no description"
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        if isinstance(action, argparse._SubParsersAction):
            described = {choice.dest for choice in action._choices_actions if choice.help}
            for name, sub in action.choices.items():
                if name not in described:
                    yield f"{prefix} {name}: no summary in the list of commands"
                yield from _undocumented(sub, f"{prefix} {name}")
        elif not action.help or action.help == argparse.SUPPRESS:
            yield f"{prefix} {'/'.join(action.option_strings) or action.dest}: no help"


def _parser_of(main: Callable[[list[str]], object], monkeypatch: pytest.MonkeyPatch) -> argparse.ArgumentParser:
    """The parser ``main`` builds, caught when it starts parsing (so nothing runs)."""
    caught: list[argparse.ArgumentParser] = []

    class Caught(Exception):
        pass

    def catch(self: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        caught.append(self)
        raise Caught

    monkeypatch.setattr(argparse.ArgumentParser, "parse_known_args", catch)
    with pytest.raises(Caught):
        main([])
    return caught[0]


def _mains() -> dict[str, Callable[[list[str]], object]]:
    from bot.__main__ import main as bot_main
    from bot.text.po import main as po_main
    from engine.cli import main as engine_main
    from render.__main__ import main as render_main
    from render.samples import main as samples_main

    return {
        "python -m engine": engine_main,
        "python -m render": render_main,
        "python -m render.samples": samples_main,
        "python -m bot": bot_main,
        "python -m bot.text.po": po_main,
    }


@pytest.mark.parametrize("command", list(_mains()))
def test_help_describes_every_argument_of_every_command(command: str, monkeypatch: pytest.MonkeyPatch) -> None:
    parser = _parser_of(_mains()[command], monkeypatch)
    assert parser.prog == command
    assert list(_undocumented(parser, command)) == []


@pytest.mark.parametrize("module", ["bot.text.po", "render.samples"])
def test_help_helps_and_does_nothing_else(tmp_path: Path, module: str) -> None:
    catalogues = sorted(Path(__file__).resolve().parents[2].glob("bot/locale/*/LC_MESSAGES/*.po"))
    before = [p.stat().st_mtime_ns for p in catalogues]
    done = run(module, "--help", cwd=tmp_path)
    assert done.returncode == 0 and done.stdout.startswith(f"usage: python -m {module}")
    assert list(tmp_path.iterdir()) == []
    assert [p.stat().st_mtime_ns for p in catalogues] == before


def test_render_samples_needs_a_folder_and_never_writes_into_the_current_one_by_surprise(tmp_path: Path) -> None:
    done = run("render.samples", cwd=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr and "FOLDER" in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_a_misspelt_config_setting_stops_the_bot_in_one_line_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_text('[language]\ndefault = "en"\n\n[reminders]\nafter_minute = [60]\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot", "invite"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "BOARDHOST_CONFIG": str(config), "DISCORD_TOKEN": ""},
        timeout=120,
    )
    line = one_line_failure(done)
    assert "unknown setting [reminders] after_minute" in line and "after_minutes" in line
