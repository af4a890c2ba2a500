"""``python -m render FILE --out x.png [--at N]``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .helpers import carcassonne_replay, decode
from .test_carcassonne import ACTIONS, DECK


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "render", *args], capture_output=True, text=True, timeout=120)


def test_writes_the_board_png(tmp_path: Path) -> None:
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps(carcassonne_replay(ACTIONS, DECK)), encoding="utf-8")
    out = tmp_path / "board.png"
    done = run(str(replay), "--out", str(out), "--at", "2")
    assert done.returncode == 0, done.stderr
    first = out.read_bytes()
    assert first.startswith(b"\x89PNG")
    assert decode(first).size[0] > 300
    done = run(str(replay), "--out", str(out))
    assert done.returncode == 0 and out.read_bytes() != first


def test_bad_file_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    done = run(str(bad), "--out", str(tmp_path / "x.png"))
    assert done.returncode == 2
    assert done.stdout == "" and len(done.stderr.strip().splitlines()) == 1
    missing = run(str(tmp_path / "nope.json"), "--out", str(tmp_path / "x.png"))
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.png").exists()


def test_illegal_action_exits_2_naming_it(tmp_path: Path) -> None:
    data = carcassonne_replay([{"player": 0, "type": "place", "tile": "U", "x": 5, "y": 5, "rotation": 0}], DECK)
    replay = tmp_path / "game.json"
    replay.write_text(json.dumps(data), encoding="utf-8")
    done = run(str(replay), "--out", str(tmp_path / "x.png"))
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("action 0 (place)")
