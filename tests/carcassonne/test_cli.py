"""The command-line contract of docs/replays.md for Carcassonne."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

EXAMPLE = {
    "format": "boardhost-replay",
    "version": 1,
    "game": "carcassonne",
    "players": ["Alice", "Bob"],
    "seed": 7,
    "options": {"river": False, "deck": ["U", "V", "E"]},
    "actions": [
        {"player": 0, "type": "place", "tile": "U", "x": 1, "y": 0, "rotation": 0},
        {"player": 0, "type": "follower", "on": "road:E"},
        {"player": 1, "type": "place", "tile": "V", "x": 2, "y": 0, "rotation": 90},
        {"player": 1, "type": "pass"},
    ],
}


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True, cwd=cwd)


def write(tmp_path: Path, data: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_the_format_documents_example_replays(tmp_path: Path) -> None:
    """The example of the replay format: Alice's thief on the U road, Bob's V closes nothing yet."""
    out = run("replay", write(tmp_path, EXAMPLE))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == {"game", "finished", "winners", "scores", "breakdown", "turn", "current_player", "actions"}
    assert result["game"] == "carcassonne"
    assert result["actions"] == 4
    assert result["turn"] == 3 and result["current_player"] == 0 and not result["finished"]
    assert result["winners"] == []
    assert set(result["breakdown"][0]) == {"road", "city", "cloister", "farm", "ransom"}


def test_a_finished_replay_reports_final_scores(tmp_path: Path) -> None:
    data = json.loads(json.dumps(EXAMPLE))
    data["actions"] += [
        {"player": 0, "type": "place", "tile": "E", "x": 0, "y": -1, "rotation": 180},
        {"player": 0, "type": "pass"},
    ]
    result = json.loads(run("replay", write(tmp_path, data)).stdout)
    assert result["finished"] and result["current_player"] is None
    assert result["turn"] == 3
    # The D's city and the E close into a 2-tile city (nobody on it); Alice's road D-U-V is 3 tiles, incomplete.
    assert result["scores"] == [3, 0]
    assert result["breakdown"][0]["road"] == 3
    assert result["winners"] == [0]


def test_an_illegal_action_exits_2_naming_index_type_and_reason(tmp_path: Path) -> None:
    data = json.loads(json.dumps(EXAMPLE))
    data["actions"].append({"player": 0, "type": "place", "tile": "E", "x": 1, "y": 0, "rotation": 0})
    out = run("replay", write(tmp_path, data))
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.strip() == "action 4 (place): (1, 0) already holds a tile"


def test_a_follower_on_an_occupied_feature_is_named(tmp_path: Path) -> None:
    data = json.loads(json.dumps(EXAMPLE))
    data["actions"][3] = {"player": 1, "type": "follower", "on": "road:W"}
    out = run("replay", write(tmp_path, data))
    assert out.returncode == 2
    assert out.stderr.strip() == "action 3 (follower): the road on W already has a follower"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "not a replay"),
        (json.dumps({**EXAMPLE, "format": "other"}), "not a replay"),
        (json.dumps({**EXAMPLE, "game": "chess"}), "unknown game"),
        (json.dumps({**EXAMPLE, "options": {"rivers": True}}), "unknown option 'rivers'"),
        (
            json.dumps({**EXAMPLE, "actions": [{"player": 0, "type": "fly"}]}),
            "action 0 (fly): unknown Carcassonne action type",
        ),
    ],
)
def test_bad_files_exit_2_with_one_line(tmp_path: Path, content: str, reason: str) -> None:
    out = run("replay", write(tmp_path, content))
    assert out.returncode == 2
    assert out.stdout == ""
    assert reason in out.stderr and out.stderr.count("\n") == 1


def test_selfplay_prints_its_figures_and_exports_replays_that_reproduce_scores(tmp_path: Path) -> None:
    out = run(
        "selfplay", "carcassonne", "--games", "3", "--seed", "4", "--players", "3",
        "--option", "tower=true", "--option", "farm_scoring=first_edition", "--export", str(tmp_path / "x"),
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    figures = json.loads(out.stdout)
    assert set(figures) == {
        "game", "games", "seconds", "games_per_second", "actions", "actions_per_second", "mean_turns",
    }  # fmt: skip
    assert figures["game"] == "carcassonne" and figures["games"] == 3
    files = sorted((tmp_path / "x").glob("*.json"))
    assert len(files) == 3
    for path in files:
        replay = json.loads(path.read_text())
        assert replay["options"]["tower"] is True and replay["options"]["farm_scoring"] == "first_edition"
        assert replay["players"] == ["P1", "P2", "P3"]
        result = json.loads(run("replay", str(path)).stdout)
        assert result["finished"] and result["actions"] == len(replay["actions"])
    again = run(
        "selfplay", "carcassonne", "--games", "3", "--seed", "4", "--players", "3",
        "--option", "tower=true", "--option", "farm_scoring=first_edition", "--export", str(tmp_path / "y"),
    )  # fmt: skip
    assert again.returncode == 0
    for a, b in zip(files, sorted((tmp_path / "y").glob("*.json")), strict=True):
        assert a.read_text() == b.read_text(), "the same seed gives the same games"


def test_selfplay_rejects_a_bad_option() -> None:
    out = run("selfplay", "carcassonne", "--games", "1", "--option", "tower=maybe")
    assert out.returncode == 2
    assert "tower" in out.stderr
