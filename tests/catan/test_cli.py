"""The command-line contract of docs/replays.md for Catan."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.catan.helpers import beginner_layout_json

SETUP = [
    {"player": 0, "type": "settlement", "at": 9},
    {"player": 0, "type": "road", "at": "5-9"},
    {"player": 1, "type": "settlement", "at": 42},
    {"player": 1, "type": "road", "at": "42-47"},
    {"player": 2, "type": "settlement", "at": 15},
    {"player": 2, "type": "road", "at": "10-15"},
    {"player": 2, "type": "settlement", "at": "J-NE"},
    {"player": 2, "type": "road", "at": "J-E"},
    {"player": 1, "type": "settlement", "at": 29},
    {"player": 1, "type": "road", "at": "29-34"},
    {"player": 0, "type": "settlement", "at": 40},
    {"player": 0, "type": "road", "at": "40-44"},
]


def replay(actions: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    return {
        "format": "boardhost-replay",
        "version": 1,
        "game": "catan",
        "players": ["Ann", "Bob", "Cid"],
        "seed": 3,
        "options": {"board": beginner_layout_json(), "first_player": 0, **options},
        "actions": actions,
    }


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "engine", *args], capture_output=True, text=True)


def write(tmp_path: Path, data: Any, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def test_a_replay_prints_the_catan_result(tmp_path: Path) -> None:
    actions = [*SETUP, {"player": 0, "type": "roll", "dice": [2, 2]}, {"player": 0, "type": "end_turn"}]
    out = run("replay", write(tmp_path, replay(actions)))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) == {
        "game",
        "finished",
        "winners",
        "scores",
        "breakdown",
        "turn",
        "current_player",
        "actions",
        "longest_road",
        "largest_army",
    }
    assert result["game"] == "catan" and result["actions"] == 14 and not result["finished"]
    assert result["turn"] == 2 and result["current_player"] == 1 and result["winners"] == []
    assert result["scores"] == [2, 2, 2] and result["longest_road"] is None and result["largest_army"] is None
    assert set(result["breakdown"][0]) == {"settlement", "city", "longest_road", "largest_army", "victory_point"}


def test_set_up_reports_turn_zero(tmp_path: Path) -> None:
    result = json.loads(run("replay", write(tmp_path, replay(SETUP[:3]))).stdout)
    assert result["turn"] == 0 and result["current_player"] == 1


def test_an_illegal_action_exits_2_naming_it(tmp_path: Path) -> None:
    actions = [*SETUP[:2], {"player": 1, "type": "settlement", "at": 5}]
    out = run("replay", write(tmp_path, replay(actions)))
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.startswith("action 2 (settlement): intersection 5 is next to a building")
    assert out.stderr.count("\n") == 1
    out = run("replay", write(tmp_path, replay([*SETUP, {"player": 0, "type": "fly"}])))
    assert out.returncode == 2 and out.stderr.startswith("action 12 (fly): unknown Catan action type")


def test_bad_files_and_options_exit_2(tmp_path: Path) -> None:
    out = run("replay", write(tmp_path, "{not json"))
    assert out.returncode == 2 and out.stderr.startswith("not valid JSON")
    out = run("replay", write(tmp_path, replay([], speed=3)))
    assert out.returncode == 2 and "unknown Catan option 'speed'" in out.stderr


def test_selfplay_exports_replays_that_reproduce_the_scores(tmp_path: Path) -> None:
    out = run("selfplay", "catan", "--games", "3", "--seed", "4", "--players", "3", "--export", str(tmp_path))
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert set(summary) == {
        "game",
        "games",
        "seconds",
        "games_per_second",
        "actions",
        "actions_per_second",
        "mean_turns",
    }
    files = sorted(tmp_path.glob("catan-*.json"))
    assert len(files) == 3
    for path in files:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert isinstance(data["options"]["board"], dict) and "first_player" in data["options"]
        result = json.loads(run("replay", str(path)).stdout)
        assert result["finished"] and len(result["winners"]) == 1
        assert result["scores"][result["winners"][0]] >= 10
    again = run("selfplay", "catan", "--games", "3", "--seed", "4", "--players", "3")
    assert json.loads(again.stdout)["actions"] == summary["actions"]


def test_selfplay_takes_options(tmp_path: Path) -> None:
    out = run(
        "selfplay",
        "catan",
        "--games",
        "2",
        "--seed",
        "1",
        "--option",
        "board=beginner",
        "--option",
        "setup=beginner",
        "--option",
        'dev_deck=["monopoly"]',
        "--option",
        "strict_phases=true",
        "--export",
        str(tmp_path),
    )
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "catan-0001.json").read_text(encoding="utf-8"))
    assert data["options"]["dev_deck"] == ["monopoly"] and data["options"]["setup"] == "beginner"
    assert data["options"]["strict_phases"] is True
    assert run("replay", str(tmp_path / "catan-0001.json")).returncode == 0
