"""Bad input to the engine's, the renderer's and the bench scripts' command lines: one line naming what was wrong and
what is allowed, exit status 2, no traceback, no hang and no file left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .test_command_lines import REPLAY, one_line_failure

ROOT = Path(__file__).resolve().parents[2]


def run(*argv: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m MODULE ...`` or ``python bench/SCRIPT.py ...``."""
    command = [sys.executable, *argv] if argv[0].endswith(".py") else [sys.executable, "-m", *argv]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, cwd=cwd or ROOT)


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (
            ["engine", "selfplay", "catan", "--games", "0"],
            "--games: 0 is out of range; give a whole number of 1 or more",
        ),
        (["engine", "selfplay", "catan", "--games", "-1"], "--games: -1 is out of range"),
        (
            ["engine", "arena", "catan", "--players", "random,random,random", "--games", "x"],
            "'x' is not a whole number",
        ),
        (["engine", "selfplay", "chess"], "invalid choice: 'chess' (choose from 'carcassonne', 'catan')"),
        (["engine"], "the following arguments are required: COMMAND"),
        (["render", "game.json", "--at", "-1", "--out", "x.png"], "--at: -1 is out of range; give a whole number of 0"),
    ],
)
def test_numbers_and_names_out_of_range_are_named_with_what_is_allowed(argv: list[str], says: str) -> None:
    line = one_line_failure(run(*argv))
    assert says in line


@pytest.mark.parametrize(
    ("script", "argv", "says"),
    [
        ("carcassonne_bench.py", ["--games", "-1"], "--games: -1 is out of range; give a whole number of 1 or more"),
        ("carcassonne_bench.py", ["--games", "0"], "--games: 0 is out of range"),
        ("catan_selfplay.py", ["--games", "0", "--no-catanatron"], "--games: 0 is out of range"),
        ("catan_ai_bench.py", ["--games", "0"], "--games: 0 is out of range"),
        ("catan_ai_bench.py", ["--max-actions", "-3"], "--max-actions: -3 is out of range"),
        ("catan_ai_bench.py", ["--players", "standard,random"], "give 3 or 4 computer levels"),
        ("arena_bench.py", ["--cpu-games", "-1"], "--cpu-games: -1 is out of range"),
        ("render_bench.py", ["--repeat", "-1"], "--repeat: -1 is out of range"),
        ("render_bench.py", ["--repeat", "0"], "--repeat: 0 is out of range"),
        ("render_bench.py", ["--encoder-against", "no/such/png.py"], "--encoder-against no/such/png.py: no such file"),
        ("timelapse_bench.py", ["--games", "0"], "--games: 0 is out of range"),
        ("lanes_bench.py", ["--rate", "0"], "--rate: 0 is out of range; give a number above 0"),
        ("lanes_bench.py", ["--processes", "0"], "--processes: 0 is out of range"),
        ("points_to_win.py", ["--values", "10-x"], "give a range such as 10-18 or a list such as 10,12,14"),
        ("points_to_win.py", ["--players", "standard,selfplay,random"], "selfplay plays every seat or none"),
        ("interaction_latency.py", ["--runs", "0"], "--runs: 0 is out of range"),
        ("bot_bench.py", ["--rate", "-1"], "--rate: -1 is out of range; give a number of 0 or more"),
        ("bot_bench.py", ["--timeout", "0"], "--timeout: 0 is out of range; give a number above 0"),
        ("bot_bench.py", ["--players", "9"], "--players 9: carcassonne is played by 2 to 6"),
        ("bot_bench.py", ["--repeat", "-1", "--against", "."], "--repeat: -1 is out of range"),
        ("bot_bench.py", ["--profile", "no/such/folder/x.prof"], "the folder no/such/folder does not exist"),
    ],
)
def test_bench_scripts_refuse_bad_arguments_before_measuring_anything(script: str, argv: list[str], says: str) -> None:
    # Before: tracebacks (ZeroDivisionError, StatisticsError, CalledProcessError) after minutes of work, or a run
    # that measured nothing and printed it.
    line = one_line_failure(run(f"bench/{script}", *argv))
    assert says in line


def test_catan_selfplay_bench_names_a_python_it_cannot_run() -> None:
    done = run("bench/catan_selfplay.py", "--games", "1", "--catanatron-python", "/no/such/python")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert (
        done.stderr.strip().splitlines()[-1]
        == "--catanatron-python /no/such/python: cannot run it: No such file or directory"
    )


@pytest.mark.parametrize("module", ["engine replay", "render"])
def test_a_replay_that_is_a_folder_or_a_pipe_is_refused_without_reading_it(tmp_path: Path, module: str) -> None:
    pipe = tmp_path / "pipe.json"
    os.mkfifo(pipe)  # reading it would wait for ever
    name, *sub = module.split()
    extra = [] if sub else ["--out", str(tmp_path / "x.png")]
    for path, says in (
        (tmp_path, "not a regular file"),
        (pipe, "not a regular file"),
        (tmp_path / "no.json", "no such file"),
    ):
        line = one_line_failure(run(name, *sub, str(path), *extra))
        assert line.startswith(f"cannot read {path}: {says}")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe.json"]


def test_a_replay_of_version_true_is_not_version_1(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps({**REPLAY, "version": True}), encoding="utf-8")
    assert one_line_failure(run("engine", "replay", str(replay))) == "unsupported replay version True (supported: 1)"


@pytest.mark.parametrize(
    ("out", "says"),
    [
        ("missing/board.png", "--out {}: the folder {} does not exist"),
        ("folder.png", "--out {}: that is a folder; give a file name"),
    ],
)
def test_render_refuses_an_image_it_cannot_write_before_replaying(tmp_path: Path, out: str, says: str) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps(REPLAY), encoding="utf-8")
    (tmp_path / "folder.png").mkdir()
    target = tmp_path / out
    line = one_line_failure(run("render", str(replay), "--out", str(target)))
    assert line == says.format(target, target.parent)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder.png", "game.json"]


def test_render_samples_onto_a_file_says_it_wants_a_folder(tmp_path: Path) -> None:
    taken = tmp_path / "images"
    taken.write_text("keep me", encoding="utf-8")
    line = one_line_failure(run("render.samples", str(taken)))
    assert line == f"{taken} is a file, not a folder: give the folder to write the images into (docs/images)"
    assert taken.read_text(encoding="utf-8") == "keep me"
