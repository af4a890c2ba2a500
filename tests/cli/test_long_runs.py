"""Long runs of the engine's command lines end, say when a game was cut short, show progress to a person watching a
terminal (and only then), and stop cleanly when interrupted or when their reader goes away."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

from engine.catan.options import MAX_POINTS_TO_WIN

ROOT = Path(__file__).resolve().parents[2]
SELFPLAY_KEYS = ["game", "games", "seconds", "games_per_second", "actions", "actions_per_second", "mean_turns"]
# ``selfplay catan --seed 245`` plays a 4-player game in which, at the highest points_to_win allowed, the pieces,
# free intersections and cards left stop adding up to the points after about 5,000 random actions.
STALLING_SEED = "245"


def engine(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def with_action_limit(limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m engine ARGS`` with ``engine.limits.MAX_ACTIONS`` lowered, so that every game reaches it."""
    code = f"import engine.limits; engine.limits.MAX_ACTIONS = {limit}; import engine.__main__"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120, cwd=ROOT)


def test_a_catan_game_nobody_can_win_any_more_is_cut_short_and_said_so() -> None:
    # Before: this game went on for ever, its actions kept in memory (18 GB in ten minutes at 14 points).
    done = engine(
        "selfplay", "catan", "--games", "1", "--seed", STALLING_SEED, "--option", f"points_to_win={MAX_POINTS_TO_WIN}",
        timeout=60,
    )  # fmt: skip
    assert done.returncode == 1
    assert list(json.loads(done.stdout)) == SELFPLAY_KEYS  # the documented output, unchanged
    assert done.stderr.splitlines() == [
        "1 of 1 games were cut short without a winner (1 that nobody could win any more)"
    ]


def test_selfplay_says_how_many_games_reached_the_action_limit() -> None:
    done = with_action_limit(40, "selfplay", "carcassonne", "--games", "3", "--seed", "1")
    assert done.returncode == 1
    assert json.loads(done.stdout)["actions"] == 3 * 40
    assert done.stderr.splitlines() == ["3 of 3 games were cut short without a winner (3 still going after 40 actions)"]


def test_arena_counts_the_games_cut_short_instead_of_reporting_no_wins_without_a_word() -> None:
    done = with_action_limit(40, "arena", "carcassonne", "--players", "random,random", "--games", "2")
    assert done.returncode == 1
    summary = json.loads(done.stdout)
    assert summary["wins"] == [0, 0] and summary["unfinished"] == 2
    assert done.stderr.splitlines() == ["2 of 2 games were cut short without a winner (2 still going after 40 actions)"]


def test_a_run_whose_games_all_finish_says_nothing_more() -> None:
    done = engine("arena", "catan", "--players", "standard,random,random", "--games", "1", "--seed", "3")
    assert done.returncode == 0 and done.stderr == ""
    assert json.loads(done.stdout)["unfinished"] == 0


def test_a_game_cut_short_is_exported_and_replays_as_unfinished(tmp_path: Path) -> None:
    done = with_action_limit(30, "selfplay", "catan", "--games", "1", "--seed", "2", "--export", str(tmp_path))
    assert done.returncode == 1
    [replay] = tmp_path.iterdir()
    result = json.loads(engine("replay", str(replay)).stdout)
    assert result["finished"] is False and result["winners"] == []


def test_points_to_win_past_what_computers_reach_is_refused_with_the_range() -> None:
    done = engine("selfplay", "catan", "--games", "1", "--option", f"points_to_win={MAX_POINTS_TO_WIN + 1}")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"option points_to_win must be a whole number from 1 to {MAX_POINTS_TO_WIN}"]


def test_selfplay_makes_no_export_folder_for_options_it_refuses(tmp_path: Path) -> None:
    done = engine("selfplay", "catan", "--option", "points_to_win=0", "--export", str(tmp_path / "replays"))
    assert done.returncode == 2 and list(tmp_path.iterdir()) == []


# -- progress, interruption and a reader that goes away ----------------------------------------------------------


class OnATerminal:
    """``python -m engine ARGS`` with stderr on a terminal (a pseudo-terminal read here), stdout on a pipe."""

    def __init__(self, *args: str) -> None:
        self.main, other = pty.openpty()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "engine", *args], stdout=subprocess.PIPE, stderr=other, cwd=ROOT
        )
        os.close(other)
        self.seen = b""

    def read(self, until: bytes | None = None) -> bytes:
        """What the terminal showed, up to ``until`` (None: until the process closes it)."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (until is None or until not in self.seen):
            ready, _, _ = select.select([self.main], [], [], 1)
            if not ready:
                continue
            try:
                chunk = os.read(self.main, 4096)
            except OSError:  # the process has closed its end
                break
            if not chunk:
                break
            self.seen += chunk
        return self.seen

    def finish(self) -> bytes:
        self.read()
        out, _ = self.process.communicate(timeout=60)
        os.close(self.main)
        return out


def test_progress_shows_on_a_terminal_and_is_cleared_at_the_end() -> None:
    run = OnATerminal("selfplay", "catan", "--games", "150", "--seed", "1")
    out = run.finish()
    assert run.process.returncode == 0
    assert b"\rselfplay catan: game " in run.seen and b" of 150" in run.seen
    assert run.seen.endswith(b"\r")  # the line is blanked out: what stays on the terminal is the JSON
    assert list(json.loads(out)) == SELFPLAY_KEYS


def test_no_progress_when_stderr_is_not_a_terminal() -> None:
    done = engine("selfplay", "catan", "--games", "150", "--seed", "1")
    assert done.returncode == 0 and done.stderr == ""


def test_ctrl_c_stops_a_long_run_in_one_line() -> None:
    run = OnATerminal("selfplay", "catan", "--games", "100000")
    run.read(until=b"selfplay catan: game")
    run.process.send_signal(signal.SIGINT)
    out = run.finish()
    assert run.process.returncode == 130 and out == b""
    assert run.seen.endswith(b"\r\ninterrupted\r\n") and b"Traceback" not in run.seen


def test_a_reader_that_stops_reading_gets_no_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "engine", "selfplay", "carcassonne", "--games", "2"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # like `| head -0`: nobody reads what it prints
    error = process.stderr.read()
    process.wait(timeout=60)
    assert process.returncode == 1 and error == b""
