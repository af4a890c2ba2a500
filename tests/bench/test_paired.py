"""Two arena runs compared game by game: wins over the games both played, the games only one won, the sign test."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bench.paired import compare, games, sign_test, won

ROOT = Path(__file__).resolve().parent.parent.parent


def write(path: Path, lines: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_game_is_won_as_each_arena_logs_it() -> None:
    assert won({"index": 0, "result": "ours"}) and not won({"index": 0, "result": "unfinished"})
    assert won({"index": 0, "won": True}) and not won({"index": 0, "won": False})
    assert won({"index": 0, "expert_seat": 1, "winners": [0, 1]})  # a shared first place
    assert not won({"index": 0, "expert_seat": 1, "winners": [0]})


def test_only_the_games_both_played_count_and_the_split_of_the_others_is_tested(tmp_path: Path) -> None:
    base = write(tmp_path / "base.log", [{"index": i, "seed": 100 + i, "result": r} for i, r in
                                         enumerate(["ours", "ours", "theirs", "theirs", "ours"])])  # fmt: skip
    # Game 4 is missing from the variant (a run cut short); game 5 only it played; game 1 logged twice.
    variant = write(tmp_path / "variant.log", [
        {"index": 0, "seed": 100, "result": "ours"},
        {"index": 1, "seed": 101, "result": "theirs"},
        {"index": 1, "seed": 101, "result": "ours"},
        {"index": 2, "seed": 102, "result": "ours"},
        {"index": 3, "seed": 103, "result": "ours"},
        {"index": 5, "seed": 105, "result": "ours"},
    ])  # fmt: skip
    report = compare(games(base), games(variant))
    assert report["games"] == 4 and (report["first"], report["last"]) == (0, 3)
    assert report["wins"] == [2, 3]  # the first line of a game logged twice is the one kept
    assert report["only_games"] == [[1], [2, 3]]
    assert report["sign_test_p"] == 1.0  # one against two is nothing


def test_the_sign_test_is_the_exact_binomial_two_sided() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(0, 10) == pytest.approx(2 / 1024)
    assert sign_test(18, 23) == pytest.approx(0.5327, abs=1e-4)  # ROAD_LEN 14 against the shipped expert
    assert sign_test(13, 32) == sign_test(32, 13) < 0.01  # PIP 5.5 in our engine: outside chance


def test_logs_whose_seeds_differ_are_not_the_same_games(tmp_path: Path) -> None:
    a = write(tmp_path / "a.log", [{"index": 0, "seed": 1, "won": True}])
    b = write(tmp_path / "b.log", [{"index": 0, "seed": 2, "won": True}])
    with pytest.raises(ValueError, match="other seeds"):
        compare(games(a), games(b))
    run = subprocess.run([sys.executable, "bench/paired.py", str(a), str(b)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 1 and "not the same games" in run.stderr


def test_the_command_prints_the_table_and_a_json_line(tmp_path: Path) -> None:
    a = write(tmp_path / "a.log", [{"index": i, "expert_seat": 0, "winners": [0]} for i in range(3)])
    b = write(tmp_path / "b.log", [{"index": i, "expert_seat": 0, "winners": [1 if i == 2 else 0]} for i in range(3)])
    run = subprocess.run([sys.executable, "bench/paired.py", str(a), str(b)], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["only"] == [1, 0]
    assert "a.log: 3 won, 100.0%" in run.stderr and "b.log: 2 won" in run.stderr
